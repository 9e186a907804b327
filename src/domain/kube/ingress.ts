import { health, kubeKind, list, parseBase, rec, str, type KubeHealth, type KubeResource, type Loose } from './kind.js';

/**
 * Ingress (`networking.k8s.io/v1`, Kubernetes API reference v1.35): read, never made by InstantStart —
 * the inference operator makes one per managed endpoint with a load balancer, and the AWS Load
 * Balancer Controller turns one of class `alb` into an ALB. What matters to us is which controller
 * serves it (`spec.ingressClassName`, or the older annotation `kubernetes.io/ingress.class`) and the
 * load balancer it reports (`status.loadBalancer.ingress[].hostname`).
 */

export type KubeIngress = KubeResource & {
  spec: Loose & { ingressClassName?: string };
};

export function parseIngress(raw: unknown): KubeIngress {
  const base = parseBase(raw, { apiVersion: 'networking.k8s.io/v1', kind: 'Ingress' });
  const spec = rec(base.spec);
  return {
    ...base,
    spec: { ...spec, ...(str(spec.ingressClassName) ? { ingressClassName: str(spec.ingressClassName) } : {}) },
  };
}

/** The load balancers' DNS names (or addresses) the controller reported; empty until it has one. */
export const ingressLoadBalancers = (ing: KubeIngress): string[] =>
  list(rec(rec(ing.status).loadBalancer).ingress)
    .map(rec)
    .map((i) => str(i.hostname) ?? str(i.ip))
    .filter((h): h is string => !!h);

/** The class that picks the controller: the field, or the annotation Ingresses used before it (still honoured). */
export const ingressClassOf = (ing: KubeIngress): string | undefined =>
  ing.spec.ingressClassName ?? ing.metadata.annotations['kubernetes.io/ingress.class'];

const ingressHealth = (ing: KubeIngress): KubeHealth =>
  ingressLoadBalancers(ing).length
    ? health('healthy', 'present', `Ingress ${ing.metadata.namespace ?? ''}/${ing.metadata.name} is served.`)
    : health('transitional', 'no-load-balancer', 'No load balancer reported yet.');

export const INGRESS = kubeKind<KubeIngress>(
  {
    apiVersion: 'networking.k8s.io/v1',
    kind: 'Ingress',
    plural: 'ingresses',
    namespaced: true,
    health: ingressHealth,
  },
  parseIngress,
);
