import type { DeployManagedEndpointRequestSchema } from '@domain/schemas/inference.js';
import type { z } from 'zod';
import { lines, num } from './text-input.js';

type DeployManagedInput = z.input<typeof DeployManagedEndpointRequestSchema>;

/**
 * The managed deploy form's state and the request it stands for. Only what the person chose is sent: an empty
 * optional input is left out (the server's default applies), a section switched off is not sent at all.
 */
export interface ManagedState {
  name: string;
  namespace: string;
  source: 'storage' | 'huggingface' | 'jumpstart';
  storage: string;
  storagePath: string;
  hfModelId: string;
  hfRevision: string;
  hfTokenSecret: string;
  jsModelId: string;
  jsVersion: string;
  acceptEula: boolean;
  instanceTypes: string[];
  replicas: string;
  image: string;
  args: string;
  port: string;
  gpus: string;
  cpu: string;
  memory: string;
  kvCache: boolean;
  l1: boolean;
  l2: '' | 'redis' | 'tieredstorage';
  redisUrl: string;
  routing: boolean;
  strategy: 'prefixaware' | 'kvaware' | 'session' | 'roundrobin';
  autoscaling: boolean;
  min: string;
  max: string;
  trigger: 'cloudwatch' | 'prometheus';
  cwMetric: string;
  cwNamespace: string;
  promServer: string;
  promQuery: string;
  target: string;
  loadBalancer: boolean;
  healthCheckPath: string;
  lbAlgorithm: 'least_outstanding_requests' | 'round_robin';
  metrics: boolean;
}

export const EMPTY_MANAGED: ManagedState = {
  name: '',
  namespace: 'default',
  source: 'huggingface',
  storage: '',
  storagePath: '',
  hfModelId: '',
  hfRevision: '',
  hfTokenSecret: '',
  jsModelId: '',
  jsVersion: '',
  acceptEula: false,
  instanceTypes: [],
  replicas: '1',
  image: '',
  args: '',
  port: '8080',
  gpus: '1',
  cpu: '',
  memory: '',
  kvCache: false,
  l1: true,
  l2: '',
  redisUrl: '',
  routing: false,
  strategy: 'prefixaware',
  autoscaling: false,
  min: '1',
  max: '5',
  trigger: 'cloudwatch',
  cwMetric: '',
  cwNamespace: 'AWS/SageMaker',
  promServer: '',
  promQuery: '',
  target: '',
  loadBalancer: false,
  healthCheckPath: '/ping',
  lbAlgorithm: 'least_outstanding_requests',
  metrics: true,
};

const opt = <K extends string, V>(key: K, value: V | undefined | '') =>
  (value === undefined || value === '' ? {} : { [key]: value }) as Partial<Record<K, V>>;

function modelOf(s: ManagedState): DeployManagedInput['model'] {
  if (s.source === 'storage') return { source: 'storage', storage: s.storage, ...opt('path', s.storagePath.trim()) };
  if (s.source === 'jumpstart')
    return {
      source: 'jumpstart',
      modelId: s.jsModelId.trim(),
      ...opt('modelVersion', s.jsVersion.trim()),
      acceptEula: s.acceptEula,
    };
  return {
    source: 'huggingface',
    modelId: s.hfModelId.trim(),
    ...opt('revision', s.hfRevision.trim()),
    ...(s.hfTokenSecret.trim() ? { tokenSecret: { name: s.hfTokenSecret.trim() } } : {}),
  };
}

function autoscalingOf(s: ManagedState): DeployManagedInput['autoscaling'] {
  const targetValue = num(s.target) ?? Number.NaN;
  return {
    ...opt('min', num(s.min)),
    ...opt('max', num(s.max)),
    trigger:
      s.trigger === 'cloudwatch'
        ? { type: 'cloudwatch', metricName: s.cwMetric.trim(), namespace: s.cwNamespace.trim(), targetValue }
        : { type: 'prometheus', serverAddress: s.promServer.trim(), query: s.promQuery.trim(), targetValue },
  };
}

/** The request the form stands for. */
export function managedRequestOf(s: ManagedState): DeployManagedInput {
  const jumpstart = s.source === 'jumpstart';
  return {
    name: s.name.trim(),
    namespace: s.namespace.trim() || 'default',
    model: modelOf(s),
    instanceTypes: s.instanceTypes,
    ...opt('replicas', num(s.replicas)),
    ...(jumpstart
      ? {}
      : {
          worker: {
            image: s.image.trim(),
            args: lines(s.args),
            ...opt('port', num(s.port)),
            gpus: num(s.gpus) ?? Number.NaN,
            ...opt('cpu', s.cpu.trim()),
            ...opt('memory', s.memory.trim()),
          },
        }),
    ...(s.kvCache
      ? {
          kvCache: {
            l1: s.l1,
            ...(s.l2 ? { l2: { backend: s.l2, ...(s.l2 === 'redis' ? opt('url', s.redisUrl.trim()) : {}) } } : {}),
          },
        }
      : {}),
    ...(s.routing ? { routing: { strategy: s.strategy } } : {}),
    ...(s.autoscaling ? { autoscaling: autoscalingOf(s) } : {}),
    ...(s.loadBalancer
      ? { loadBalancer: { healthCheckPath: s.healthCheckPath.trim() || '/ping', algorithm: s.lbAlgorithm } }
      : {}),
    metrics: s.metrics,
  };
}
