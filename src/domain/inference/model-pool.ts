import type { DeploymentManifest } from '../kube/deployment.js';
import type { ServiceManifest } from '../kube/service.js';
import type { CreateModelPoolRequestSchema } from '../schemas/inference/requests.js';
import type { z } from 'zod';
import { InputError } from '../errors.js';
import type { ContainerEndpointFacts } from './serving-pod.js';
import {
  COMPONENT_LABEL,
  ENDPOINT_LABEL,
  INSTANCE_TYPE_ANNOTATION,
  MANAGED_BY_LABEL,
  MANAGED_BY_VALUE,
  MODEL_LABEL,
  MODEL_SERVER,
  poolDeploymentName,
  poolEndpointSelector,
  poolLabels,
  POOL_LABEL,
  SERVED_MODEL_ANNOTATION,
  SERVICE_PORT,
  serverName,
} from './names.js';
import { servingCommand } from './serving-command.js';
import { scrapeAnnotations, servingContainer, servingPodSpec } from './serving-pod.js';

/**
 * A model pool `P`: Deployment `pool-P` of warm GPU workers, each loading the pool's model at start.
 * Its pods carry `instantstart.io/pool: P`; a pool endpoint `E` is Service `E` selecting
 * `{instantstart.io/pool: P, instantstart.io/model: E}`, so reassigning a worker is one label patch on
 * that pod. The Deployment's selector is the pool label alone, so relabelling a pod's model label
 * neither orphans it nor makes the ReplicaSet replace it. New workers start unassigned (no model label).
 */

export type CreateModelPoolRequest = z.infer<typeof CreateModelPoolRequestSchema>;

export function poolManifests(
  req: CreateModelPoolRequest,
  facts: ContainerEndpointFacts,
): { deployment: DeploymentManifest } {
  if (req.gpus > facts.gpusPerNode)
    throw InputError.field(
      'gpus',
      `must be at most ${facts.gpusPerNode}: ${facts.instanceType} (instance group ${req.instanceGroup}) has ${facts.gpusPerNode} GPUs per node`,
    );
  if (req.engine === 'custom')
    throw InputError.field(
      'engine',
      "must be vllm or sglang for a pool: its workers are started with the engine's own command",
    );
  const labels = poolLabels(req.name, req.engine);
  const command = servingCommand({ engine: req.engine, model: req.model, port: req.port, gpus: req.gpus, args: [] });
  const container = servingContainer({
    image: facts.image,
    command,
    port: req.port,
    gpus: req.gpus,
    ...(facts.storageClaim ? { storageClaim: facts.storageClaim } : {}),
  });
  return {
    deployment: {
      apiVersion: 'apps/v1',
      kind: 'Deployment',
      metadata: {
        name: poolDeploymentName(req.name),
        namespace: req.namespace,
        labels: { ...labels },
        // What its endpoints serve, on the one object they share (a pool endpoint is a Service alone).
        annotations: { [SERVED_MODEL_ANNOTATION]: req.model, [INSTANCE_TYPE_ANNOTATION]: facts.instanceType },
      },
      spec: {
        replicas: req.workers,
        selector: { matchLabels: { [POOL_LABEL]: req.name } },
        template: {
          metadata: { labels: { ...labels }, annotations: scrapeAnnotations(req.port) },
          spec: servingPodSpec({
            instanceGroup: req.instanceGroup,
            taints: facts.taints,
            container,
            ...(facts.storageClaim ? { storageClaim: facts.storageClaim } : {}),
          }),
        },
      },
    },
  };
}

/** Service `endpoint` over the workers of `pool` labelled for it (port 80 → the workers' `port`). */
export function poolEndpointService(pool: string, endpoint: string, namespace: string, port: number): ServiceManifest {
  return {
    apiVersion: 'v1',
    kind: 'Service',
    metadata: {
      name: serverName(endpoint),
      namespace,
      labels: {
        [MANAGED_BY_LABEL]: MANAGED_BY_VALUE,
        [ENDPOINT_LABEL]: endpoint,
        [POOL_LABEL]: pool,
        [COMPONENT_LABEL]: MODEL_SERVER,
      },
    },
    spec: {
      type: 'ClusterIP',
      selector: poolEndpointSelector(pool, endpoint),
      ports: [{ name: 'http', port: SERVICE_PORT, targetPort: port, protocol: 'TCP' }],
    },
  };
}

/** The patch that reassigns one worker pod to `endpoint` (a merge patch of its model label). */
export const assignWorkerPatch = (endpoint: string): { metadata: { labels: Record<string, string> } } => ({
  metadata: { labels: { [MODEL_LABEL]: endpoint } },
});
