import type { KubeObject } from '../kube-object.js';
import {
  health,
  kubeKind,
  list,
  parseBase,
  rec,
  str,
  MANAGED_BY,
  type KubeHealth,
  type KubeResource,
  type Loose,
} from './kind.js';

/**
 * Service: a stable address for pods (KubeRay's operator publishes its metrics port with one). Its
 * status is the load balancer's; a ClusterIP Service is usable once it exists.
 */

export type KubeService = KubeResource & {
  spec: Loose & { type: string; clusterIP?: string; ports: Array<{ name?: string; port: number }> };
};

export function parseService(raw: unknown): KubeService {
  const base = parseBase(raw, { apiVersion: 'v1', kind: 'Service' });
  const spec = rec(base.spec);
  return {
    ...base,
    spec: {
      ...spec,
      type: str(spec.type) ?? 'ClusterIP',
      ...(str(spec.clusterIP) ? { clusterIP: str(spec.clusterIP) } : {}),
      ports: list(spec.ports)
        .map(rec)
        .filter((p) => typeof p.port === 'number')
        .map((p) => ({ ...(str(p.name) ? { name: str(p.name) } : {}), port: p.port as number })),
    },
  };
}

export const serviceHealth = (svc: KubeService): KubeHealth =>
  health('healthy', 'present', `Service ${svc.metadata.namespace ?? ''}/${svc.metadata.name} exists.`);

export const SERVICE = kubeKind<KubeService>(
  { apiVersion: 'v1', kind: 'Service', plural: 'services', namespaced: true, health: serviceHealth },
  parseService,
);

/** A ClusterIP Service in front of the pods `selector` picks. */
export function serviceManifest(p: {
  namespace: string;
  name: string;
  labels: Record<string, string>;
  annotations?: Record<string, string>;
  selector: Record<string, string>;
  ports: ReadonlyArray<{ name: string; port: number; targetPort: number | string }>;
}): KubeObject {
  return {
    apiVersion: 'v1',
    kind: 'Service',
    metadata: {
      name: p.name,
      namespace: p.namespace,
      labels: { ...p.labels, ...MANAGED_BY },
      ...(p.annotations ? { annotations: { ...p.annotations } } : {}),
    },
    spec: { type: 'ClusterIP', selector: { ...p.selector }, ports: p.ports.map((x) => ({ ...x })) },
  };
}

/** A Service as we send it (no status). */
export type ServiceManifest = KubeObject & {
  apiVersion: 'v1';
  kind: 'Service';
  metadata: { name: string; namespace: string; labels: Record<string, string>; annotations?: Record<string, string> };
  spec: Loose & {
    type: 'ClusterIP' | 'LoadBalancer';
    selector: Record<string, string>;
    ports: Array<{ name: string; port: number; targetPort: number | string; protocol?: 'TCP' }>;
  };
};

/** The load balancer's address once the controller reported it (`status.loadBalancer.ingress[0]`): hostname, else IP. */
export function loadBalancerAddress(svc: KubeService): string | undefined {
  const ingress = list(rec(rec(svc.status).loadBalancer).ingress).map(rec);
  for (const i of ingress) {
    const address = str(i.hostname) ?? str(i.ip);
    if (address) return address;
  }
  return undefined;
}
