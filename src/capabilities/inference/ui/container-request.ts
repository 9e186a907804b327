import type { ContainerAutoscalingSchema, DeployContainerEndpointRequestSchema } from '@domain/schemas/inference.js';
import type { z } from 'zod';
import { lines, num } from './text-input.js';

type ContainerAutoscalingInput = z.input<typeof ContainerAutoscalingSchema>;
type DeployContainerInput = z.input<typeof DeployContainerEndpointRequestSchema>;

/**
 * The container deploy form's state and the request it stands for (a Deployment and its Service, the SGLang router,
 * a KEDA ScaledObject). Empty optional inputs are left out so the server's defaults apply.
 */
export interface AutoscalingState {
  min: string;
  max: string;
  cooldownSeconds: string;
  metric: 'queue_depth' | 'running_requests';
  threshold: string;
  prometheusUrl: string;
}

export const EMPTY_AUTOSCALING: AutoscalingState = {
  min: '1',
  max: '4',
  cooldownSeconds: '300',
  metric: 'queue_depth',
  threshold: '',
  prometheusUrl: '',
};

export interface ContainerState {
  name: string;
  namespace: string;
  engine: 'vllm' | 'sglang' | 'custom';
  image: string;
  model: string;
  storage: string;
  tokenSecret: string;
  command: string;
  args: string;
  instanceGroup: string;
  gpus: string;
  replicas: string;
  port: string;
  variant: 'external' | 'internal' | 'pool';
  pool: string;
  router: boolean;
  routerPolicy: 'cache_aware' | 'round_robin' | 'random' | 'power_of_two';
  autoscaling: boolean;
  scaling: AutoscalingState;
}

export const EMPTY_CONTAINER: ContainerState = {
  name: '',
  namespace: 'default',
  engine: 'vllm',
  image: '',
  model: '',
  storage: '',
  tokenSecret: '',
  command: '',
  args: '',
  instanceGroup: '',
  gpus: '1',
  replicas: '1',
  port: '',
  variant: 'internal',
  pool: '',
  router: false,
  routerPolicy: 'cache_aware',
  autoscaling: false,
  scaling: EMPTY_AUTOSCALING,
};

/** The KEDA settings the inputs stand for (the deploy form, the detail's autoscaling panel and the preview). */
export function autoscalingOf(a: AutoscalingState): ContainerAutoscalingInput {
  return {
    ...(num(a.min) !== undefined ? { min: num(a.min) } : {}),
    max: num(a.max) ?? Number.NaN,
    ...(num(a.cooldownSeconds) !== undefined ? { cooldownSeconds: num(a.cooldownSeconds) } : {}),
    metric: a.metric,
    threshold: num(a.threshold) ?? Number.NaN,
    prometheusUrl: a.prometheusUrl.trim(),
  };
}

/** Settings read back from an endpoint (the detail's autoscaling panel starts from what is there). */
export function autoscalingStateOf(a: { min: number; max: number } | undefined): AutoscalingState {
  return a ? { ...EMPTY_AUTOSCALING, min: String(a.min), max: String(a.max) } : EMPTY_AUTOSCALING;
}

/** The request the form stands for. */
export function containerRequestOf(s: ContainerState): DeployContainerInput {
  const custom = s.engine === 'custom';
  return {
    name: s.name.trim(),
    namespace: s.namespace.trim() || 'default',
    engine: s.engine,
    ...(s.image.trim() ? { image: s.image.trim() } : {}),
    model: s.model.trim(),
    ...(s.storage ? { storage: s.storage } : {}),
    ...(s.tokenSecret.trim() ? { hfTokenSecret: { name: s.tokenSecret.trim() } } : {}),
    ...(custom ? { command: lines(s.command) } : {}),
    args: lines(s.args),
    instanceGroup: s.instanceGroup,
    gpus: num(s.gpus) ?? Number.NaN,
    ...(num(s.replicas) !== undefined ? { replicas: num(s.replicas) } : {}),
    ...(num(s.port) !== undefined ? { port: num(s.port) } : {}),
    service: { variant: s.variant, ...(s.variant === 'pool' ? { pool: s.pool.trim() } : {}) },
    ...(s.engine === 'sglang' && s.router ? { router: { policy: s.routerPolicy } } : {}),
    ...(s.autoscaling ? { autoscaling: autoscalingOf(s.scaling) } : {}),
  };
}
