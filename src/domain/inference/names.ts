import { MANAGED_BY } from '../kube/kind.js';

/**
 * The names and labels of every object an inference endpoint is made of (docs/INFERENCE.md). Every part
 * of the inference capability (builders, capability, sandbox, UI) derives names from here, so a list,
 * a delete or a pool reassignment finds exactly the objects a deploy made, and no two endpoints share one.
 *
 * - container endpoint `E` in `N`: Deployment `E`, Service `E`, router Deployment + Service `E-router`,
 *   router ServiceAccount/Role/RoleBinding `E-router`, ScaledObject `E`;
 * - pool `P`: Deployment `pool-P`, its pods labelled {@link POOL_LABEL}: P and {@link MODEL_LABEL}: <endpoint>;
 *   a pool endpoint `E` is a Service `E` selecting `{POOL_LABEL: P, MODEL_LABEL: E}`;
 * - managed endpoint `E`: an InferenceEndpointConfig or JumpStartModel named `E`.
 */

export { MANAGED_BY };

/** `app.kubernetes.io/managed-by: instantstart`, as a key and a value. */
export const MANAGED_BY_LABEL = 'app.kubernetes.io/managed-by';
export const MANAGED_BY_VALUE = 'instantstart';

export const ENDPOINT_LABEL = 'instantstart.io/endpoint';
export const ENGINE_LABEL = 'instantstart.io/engine';
export const COMPONENT_LABEL = 'app.kubernetes.io/component';
export const POOL_LABEL = 'instantstart.io/pool';
/** On a pool worker pod: the pool endpoint it serves; reassigning the worker is patching this one label. */
export const MODEL_LABEL = 'instantstart.io/model';

export const COMPONENTS = ['model-server', 'router'] as const;
export type EndpointComponent = (typeof COMPONENTS)[number];
export const MODEL_SERVER: EndpointComponent = 'model-server';
export const ROUTER: EndpointComponent = 'router';

/** Service port clients use (the Service maps it to the container port). */
export const SERVICE_PORT = 80;
/** The SGLang router's HTTP and Prometheus ports (hyperpod-apis.md §3.6). */
export const ROUTER_PORT = 30000;
export const ROUTER_METRICS_PORT = 29000;
/** Where a storage claim is mounted in serving containers. */
export const DATA_MOUNT = '/data';
/**
 * On endpoint and pool Deployments: what they serve and on which instance type (read back by the endpoint view; a
 * pool endpoint reads its pool's).
 */
export const SERVED_MODEL_ANNOTATION = 'instantstart.io/served-model';
export const INSTANCE_TYPE_ANNOTATION = 'instantstart.io/instance-type';

/** The env var vLLM / SGLang / huggingface_hub read the Hugging Face token from. */
export const HF_TOKEN_ENV = 'HF_TOKEN';

/** The labels on every object and pod of container endpoint `name` (the model server's are its selector). */
export function endpointLabels(
  name: string,
  engine: 'vllm' | 'sglang' | 'custom',
  component: EndpointComponent,
): Record<string, string> {
  return {
    [MANAGED_BY_LABEL]: MANAGED_BY_VALUE,
    [ENDPOINT_LABEL]: name,
    [ENGINE_LABEL]: engine,
    [COMPONENT_LABEL]: component,
  };
}

/** The selector of endpoint `name`'s model-server pods (what its Service, the router and KEDA's target pick). */
export const endpointSelector = (name: string): Record<string, string> => ({
  [ENDPOINT_LABEL]: name,
  [COMPONENT_LABEL]: MODEL_SERVER,
});

/** Deployment and Service of a container endpoint: the endpoint's own name. */
export const serverName = (endpoint: string): string => endpoint;
/** Router Deployment, Service, ServiceAccount, Role and RoleBinding. */
export const routerName = (endpoint: string): string => `${endpoint}-router`;
/** The KEDA ScaledObject of an endpoint (one per endpoint, never shared). */
export const scaledObjectName = (endpoint: string): string => endpoint;
/** A pool's Deployment of warm workers. */
export const poolDeploymentName = (pool: string): string => `pool-${pool}`;

/** The labels of a pool's objects; its worker pods add {@link MODEL_LABEL}. */
export function poolLabels(pool: string, engine: 'vllm' | 'sglang' | 'custom'): Record<string, string> {
  return {
    [MANAGED_BY_LABEL]: MANAGED_BY_VALUE,
    [POOL_LABEL]: pool,
    [ENGINE_LABEL]: engine,
    [COMPONENT_LABEL]: MODEL_SERVER,
  };
}

/** The selector of a pool endpoint's Service: the workers of `pool` labelled for `endpoint`. */
export const poolEndpointSelector = (pool: string, endpoint: string): Record<string, string> => ({
  [POOL_LABEL]: pool,
  [MODEL_LABEL]: endpoint,
});

/** The in-cluster URL of a Service (port 80 is left out). */
export const inClusterUrl = (service: string, namespace: string, port = SERVICE_PORT): string =>
  `http://${service}.${namespace}.svc.cluster.local${port === 80 ? '' : `:${port}`}`;
