import type { KubeCluster } from '../cluster.js';
import type { KubeObject } from '../types.js';
import { isReady, isTerminal, matchesSelector, rfc3339, save, T, unit, type Any } from './util.js';

/**
 * Services: a ClusterIP from the cluster's service CIDR (`.1` is the `kubernetes` Service, `.10`
 * kube-dns), node ports from 30000–32767 for NodePort and LoadBalancer Services. A LoadBalancer
 * Service's load balancer (its status, finalizer and AWS resources) is its controller's business:
 * load-balancers.ts. The endpoints controller keeps an Endpoints object per selector Service with
 * its pods' IPs (ready ones as addresses, the others as notReadyAddresses).
 */

const LAST_CHANGE = 'endpoints.kubernetes.io/last-change-trigger-time';

export function runServices(cluster: KubeCluster, serviceCidr: string): void {
  const now = cluster.now();
  const services = cluster.objects.list(T.services);
  const usedIps = new Set(services.map((s) => (s.spec as Any)?.clusterIP).filter(Boolean));
  const usedPorts = new Set(
    services.flatMap((s) => (((s.spec as Any)?.ports ?? []) as Any[]).map((p) => p.nodePort)).filter(Boolean),
  );
  for (const svc of services) {
    if (svc.metadata.deletionTimestamp) continue;
    const spec = structuredClone((svc.spec ?? {}) as Any);
    const type = spec.type ?? 'ClusterIP';
    if (type !== 'ExternalName' && !spec.clusterIP) {
      spec.clusterIP = allocateIp(serviceCidr, svc.metadata.uid!, usedIps);
      spec.clusterIPs = [spec.clusterIP];
    }
    if (type === 'NodePort' || (type === 'LoadBalancer' && spec.allocateLoadBalancerNodePorts !== false)) {
      spec.ports = ((spec.ports ?? []) as Any[]).map((p, i) =>
        p.nodePort ? p : { ...p, nodePort: allocatePort(`${svc.metadata.uid}|${i}`, usedPorts) },
      );
    }
    save(cluster, T.services, svc, { ...svc, spec });
    if (spec.selector && Object.keys(spec.selector).length > 0) syncEndpoints(cluster, { ...svc, spec }, now);
  }
  // The endpoints controller removes what it made for Services that are gone.
  const live = new Set(services.map((s) => `${s.metadata.namespace}/${s.metadata.name}`));
  for (const ep of cluster.objects.list(T.endpoints)) {
    if (ep.metadata.annotations?.[LAST_CHANGE] && !live.has(`${ep.metadata.namespace}/${ep.metadata.name}`))
      cluster.objects.remove(T.endpoints, ep.metadata.namespace, ep.metadata.name!);
  }
}

function syncEndpoints(cluster: KubeCluster, svc: KubeObject, now: number): void {
  const spec = svc.spec as Any;
  // The selector is tested in place: only the Service's pods are copied.
  const selected = cluster.objects.select(
    T.pods,
    svc.metadata.namespace,
    (p) =>
      !p.metadata.deletionTimestamp &&
      !isTerminal(p as KubeObject) &&
      !!(p.status as Any)?.podIP &&
      matchesSelector(p.metadata.labels, { matchLabels: spec.selector }),
  ).items;
  const address = (p: KubeObject) => ({
    ip: (p.status as Any).podIP,
    nodeName: (p.spec as Any).nodeName,
    targetRef: { kind: 'Pod', namespace: p.metadata.namespace, name: p.metadata.name, uid: p.metadata.uid },
  });
  const ready = selected.filter(isReady).map(address);
  const notReady = selected.filter((p) => !isReady(p)).map(address);
  const ports = ((spec.ports ?? []) as Any[]).map((p) => ({
    ...(p.name ? { name: p.name } : {}),
    port: targetPort(p, selected[0]),
    protocol: p.protocol ?? 'TCP',
  }));
  const subsets =
    selected.length > 0
      ? [
          {
            ...(ready.length ? { addresses: ready } : {}),
            ...(notReady.length ? { notReadyAddresses: notReady } : {}),
            ports,
          },
        ]
      : [];
  const existing = cluster.objects.get(T.endpoints, svc.metadata.namespace, svc.metadata.name!);
  const labels = { ...(svc.metadata.labels ?? {}) };
  if (!existing) {
    cluster.objects.create(T.endpoints, {
      apiVersion: 'v1',
      kind: 'Endpoints',
      metadata: {
        name: svc.metadata.name,
        namespace: svc.metadata.namespace,
        labels,
        annotations: { [LAST_CHANGE]: rfc3339(now) },
      },
      subsets,
    });
    return;
  }
  if (
    JSON.stringify(existing.subsets ?? []) === JSON.stringify(subsets) &&
    JSON.stringify(existing.metadata.labels ?? {}) === JSON.stringify(labels)
  )
    return;
  save(cluster, T.endpoints, existing, {
    ...existing,
    metadata: {
      ...existing.metadata,
      labels,
      annotations: { ...existing.metadata.annotations, [LAST_CHANGE]: rfc3339(now) },
    },
    subsets,
  });
}

/** A named targetPort resolves to the pod's container port of that name. */
function targetPort(port: Any, pod: KubeObject | undefined): number {
  const target = port.targetPort ?? port.port;
  if (typeof target === 'number' || /^\d+$/.test(String(target))) return Number(target);
  for (const c of ((pod?.spec as Any)?.containers ?? []) as Any[]) {
    const found = ((c.ports ?? []) as Any[]).find((p) => p.name === target);
    if (found) return Number(found.containerPort);
  }
  return Number(port.port);
}

export function parseCidr(cidr: string): { base: number; size: number } {
  const [ip, bits] = cidr.split('/');
  const base = (ip ?? '').split('.').reduce((n, o) => n * 256 + Number(o), 0);
  return { base, size: 2 ** (32 - Number(bits ?? 16)) };
}

export const ipAt = (base: number, offset: number) =>
  [24, 16, 8, 0].map((s) => Math.floor((base + offset) / 2 ** s) % 256).join('.');

function allocateIp(cidr: string, uid: string, used: Set<string>): string {
  const { base, size } = parseCidr(cidr);
  const span = size - 12;
  const start = Math.floor(unit(`${uid}|ip`) * span);
  for (let i = 0; i < span; i++) {
    const ip = ipAt(base, 11 + ((start + i) % span));
    if (!used.has(ip)) {
      used.add(ip);
      return ip;
    }
  }
  return ipAt(base, 11 + start);
}

function allocatePort(key: string, used: Set<number>): number {
  const start = Math.floor(unit(key) * 2768);
  for (let i = 0; i < 2768; i++) {
    const port = 30000 + ((start + i) % 2768);
    if (!used.has(port)) {
      used.add(port);
      return port;
    }
  }
  return 30000 + start;
}
