import type { KubePort } from '../cloud/ports.js';
import { loadBalancerHolders, type LoadBalancerHolder } from '../domain/kube-load-balancers.js';
import { KubeKindNotServed } from '../domain/kube/errors.js';
import { INFERENCE_ENDPOINT_CONFIG } from '../domain/kube/inference-endpoint-config.js';
import { INGRESS } from '../domain/kube/ingress.js';
import { JUMPSTART_MODEL } from '../domain/kube/jumpstart-model.js';
import type { KubeKind, KubeResource } from '../domain/kube/kind.js';
import { SERVICE } from '../domain/kube/service.js';

/** Every Service and Ingress of the cluster (all namespaces) that holds an AWS load balancer (src/domain/kube-load-balancers.ts). */
export async function readLoadBalancerHolders(kube: KubePort): Promise<LoadBalancerHolder[]> {
  const [services, ingresses] = await Promise.all([kube.list(SERVICE), kube.list(INGRESS)]);
  return loadBalancerHolders(services, ingresses);
}

/** The kind a holder is read as, to delete it by. */
export const holderKind = (h: LoadBalancerHolder): KubeKind => (h.kind === 'Service' ? SERVICE : INGRESS);

/** The inference operator's endpoint objects (all namespaces), with their kinds; none when its CRDs are not served. */
export async function readInferenceEndpointObjects(
  kube: KubePort,
): Promise<Array<{ kind: KubeKind; object: KubeResource }>> {
  const served = async (kind: KubeKind) => {
    try {
      return (await kube.list(kind)).map((object) => ({ kind, object }));
    } catch (err) {
      if (err instanceof KubeKindNotServed) return [];
      throw err;
    }
  };
  return [...(await served(INFERENCE_ENDPOINT_CONFIG)), ...(await served(JUMPSTART_MODEL))];
}
