import { InputError } from '../errors.js';
import type { DeploymentManifest } from '../kube/deployment.js';
import type { ScaledObjectManifest } from '../kube/scaled-object.js';
import type { ServiceManifest } from '../kube/service.js';
import type { DeployContainerEndpointRequest } from '../schemas/inference/requests.js';
import { scaledObjectPreview } from './endpoint-autoscaling.js';
import {
  endpointLabels,
  endpointSelector,
  INSTANCE_TYPE_ANNOTATION,
  MODEL_SERVER,
  ROUTER_PORT,
  SERVED_MODEL_ANNOTATION,
  SERVICE_PORT,
  serverName,
} from './names.js';
import { poolEndpointService } from './model-pool.js';
import { servingCommand } from './serving-command.js';
import { scrapeAnnotations, servingContainer, servingPodSpec, type ContainerEndpointFacts } from './serving-pod.js';
import { routerObjects, routerSelector, type RouterObjects } from './sglang-router.js';

/**
 * The objects of a self-managed endpoint `E` (docs/INFERENCE.md): Deployment `E` of model servers,
 * Service `E` (port 80; LoadBalancer through the AWS Load Balancer Controller for `external`,
 * ClusterIP for `internal`), the SGLang router `E-router` when asked (Service `E` then reaches the
 * router, which spreads requests over the servers), and ScaledObject `E` when autoscaling. A `pool`
 * endpoint is only Service `E` over the pool's warm workers labelled for it: no Deployment of its own.
 */

export type { ContainerEndpointFacts };

export type ContainerEndpointObjects = {
  /** Absent for a pool endpoint (the pool's Deployment serves it). */
  deployment?: DeploymentManifest;
  service: ServiceManifest;
  router?: RouterObjects;
  scaledObject?: ScaledObjectManifest;
};

/**
 * AWS Load Balancer Controller Service annotations (kubernetes-sigs/aws-load-balancer-controller
 * docs/guide/service/annotations.md, v2.13): `type: external` hands the Service to the controller
 * (an NLB, not the in-tree classic ELB), `nlb-target-type: ip` targets pods directly, and `scheme:
 * internet-facing` makes it public (the controller's default is internal).
 */
export const EXTERNAL_LB_ANNOTATIONS: Readonly<Record<string, string>> = {
  'service.beta.kubernetes.io/aws-load-balancer-type': 'external',
  'service.beta.kubernetes.io/aws-load-balancer-nlb-target-type': 'ip',
  'service.beta.kubernetes.io/aws-load-balancer-scheme': 'internet-facing',
};

export function containerEndpointManifests(
  req: DeployContainerEndpointRequest,
  facts: ContainerEndpointFacts,
): ContainerEndpointObjects {
  if (req.gpus > facts.gpusPerNode)
    throw InputError.field(
      'gpus',
      `must be at most ${facts.gpusPerNode}: ${facts.instanceType} (instance group ${req.instanceGroup}) has ${facts.gpusPerNode} GPU${facts.gpusPerNode === 1 ? '' : 's'} per node`,
    );
  if (req.service.variant === 'pool') return poolVariant(req);
  const name = serverName(req.name);
  const labels = endpointLabels(req.name, req.engine, MODEL_SERVER);
  const command = servingCommand({
    engine: req.engine,
    model: req.model,
    port: req.port,
    gpus: req.gpus,
    args: req.args,
    ...(req.command ? { command: req.command } : {}),
  });
  const container = servingContainer({
    image: facts.image,
    command,
    port: req.port,
    gpus: req.gpus,
    ...(req.env ? { env: req.env } : {}),
    ...(req.hfTokenSecret ? { hfToken: req.hfTokenSecret } : {}),
    ...(facts.storageClaim ? { storageClaim: facts.storageClaim } : {}),
  });
  const deployment: DeploymentManifest = {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: {
      name,
      namespace: req.namespace,
      labels: { ...labels },
      annotations: { [SERVED_MODEL_ANNOTATION]: req.model, [INSTANCE_TYPE_ANNOTATION]: facts.instanceType },
    },
    spec: {
      replicas: req.replicas,
      selector: { matchLabels: endpointSelector(req.name) },
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
  };
  const router = req.router
    ? routerObjects({
        endpoint: req.name,
        namespace: req.namespace,
        image: facts.image,
        serverPort: req.port,
        policy: req.router.policy,
      })
    : undefined;
  const service = endpointService(
    req,
    labels,
    router ? routerSelector(req.name) : endpointSelector(req.name),
    router ? ROUTER_PORT : req.port,
  );
  return {
    deployment,
    service,
    ...(router ? { router } : {}),
    ...(req.autoscaling
      ? {
          scaledObject: scaledObjectPreview(
            { name: req.name, namespace: req.namespace, engine: req.engine },
            req.autoscaling,
          ),
        }
      : {}),
  };
}

function endpointService(
  req: DeployContainerEndpointRequest,
  labels: Record<string, string>,
  selector: Record<string, string>,
  targetPort: number,
): ServiceManifest {
  const external = req.service.variant === 'external';
  return {
    apiVersion: 'v1',
    kind: 'Service',
    metadata: {
      name: serverName(req.name),
      namespace: req.namespace,
      labels: { ...labels },
      ...(external ? { annotations: { ...EXTERNAL_LB_ANNOTATIONS } } : {}),
    },
    spec: {
      type: external ? 'LoadBalancer' : 'ClusterIP',
      selector,
      ports: [{ name: 'http', port: SERVICE_PORT, targetPort, protocol: 'TCP' }],
    },
  };
}

/** A pool endpoint: its Service only; what a pool cannot do is refused by field. */
function poolVariant(req: DeployContainerEndpointRequest): ContainerEndpointObjects {
  const pool = req.service.pool;
  if (!pool) throw InputError.field('service.pool', 'is required for the pool variant');
  if (req.router) throw InputError.field('router', 'is not for pool endpoints: the pool Service spreads requests');
  if (req.autoscaling)
    throw InputError.field(
      'autoscaling',
      "is not for pool endpoints: a pool's warm workers are reassigned, not scaled",
    );
  return { service: poolEndpointService(pool, req.name, req.namespace, req.port) };
}
