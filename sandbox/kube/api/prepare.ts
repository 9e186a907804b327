import { randomInt } from 'node:crypto';
import type { KubeCluster } from '../cluster.js';
import type { KubeObject, ResourceType } from '../types.js';
import { rfc3339 } from './http.js';

/**
 * What kube-apiserver's registries do to a new object before storing it: status is reset for kinds
 * whose status belongs to a subresource (Nodes keep theirs, as kubelets register with it; Pods,
 * Namespaces and volumes start in their first phase), Services get a cluster IP and node ports,
 * Jobs get their selector, and CRDs are accepted and established at once so their resources are
 * served from the next request.
 */
type Any = Record<string, any>;

const kindKey = (t: ResourceType) => `${t.group || 'core'}/${t.resource}`;

const INITIAL_STATUS: Record<string, () => Any> = {
  'core/pods': () => ({ phase: 'Pending' }),
  'core/namespaces': () => ({ phase: 'Active' }),
  'core/persistentvolumes': () => ({ phase: 'Pending' }),
  'core/persistentvolumeclaims': () => ({ phase: 'Pending' }),
  'core/services': () => ({ loadBalancer: {} }),
};

export function prepareForCreate(cluster: KubeCluster, type: ResourceType, obj: KubeObject): void {
  const key = kindKey(type);
  if (type.subresources?.status && key !== 'core/nodes') {
    delete obj.status;
    const initial = INITIAL_STATUS[key]?.();
    if (initial) obj.status = initial;
  }
  if (key === 'core/services') allocateServiceAddresses(cluster, type, obj);
  if (key === 'batch/jobs') generateJobSelector(obj);
  if (isCrd(type)) obj.status = crdStatus(obj, cluster.now());
}

export const isCrd = (t: ResourceType) =>
  t.group === 'apiextensions.k8s.io' && t.resource === 'customresourcedefinitions';

/** A CRD's status as the apiextensions controllers leave it: names accepted, established, stored versions. */
export function crdStatus(crd: KubeObject, now: number, previous?: Any): Any {
  const spec = (crd.spec ?? {}) as { names?: Any; versions?: Array<{ name: string; storage?: boolean }> };
  const at = rfc3339(now);
  const stored = new Set<string>([
    ...((previous?.storedVersions ?? []) as string[]),
    ...(spec.versions ?? []).filter((v) => v.storage).map((v) => v.name),
  ]);
  const names = { ...(spec.names ?? {}) };
  names.singular ??= String(names.kind ?? '').toLowerCase();
  names.listKind ??= `${names.kind ?? ''}List`;
  const kept = ((previous?.conditions ?? []) as Any[]).filter(
    (c) => c.type !== 'NamesAccepted' && c.type !== 'Established',
  );
  const since = (type: string) =>
    ((previous?.conditions ?? []) as Any[]).find((c) => c.type === type && c.status === 'True')?.lastTransitionTime ??
    at;
  return {
    acceptedNames: names,
    storedVersions: [...stored],
    conditions: [
      {
        type: 'NamesAccepted',
        status: 'True',
        lastTransitionTime: since('NamesAccepted'),
        reason: 'NoConflicts',
        message: 'no conflicts found',
      },
      {
        type: 'Established',
        status: 'True',
        lastTransitionTime: since('Established'),
        reason: 'InitialNamesAccepted',
        message: 'the initial names have been accepted',
      },
      ...kept,
    ],
  };
}

/** EKS picks 172.20.0.0/16 for Services when the VPC uses 10.0.0.0/8, as sandbox VPCs do. */
const SERVICE_NET = '172.20';

function allocateServiceAddresses(cluster: KubeCluster, type: ResourceType, svc: KubeObject): void {
  const spec = (svc.spec ?? {}) as Any;
  if (typeof spec !== 'object') return;
  const others = cluster.objects.list(type).map((s) => (s.spec ?? {}) as Any);
  if (spec.type !== 'ExternalName' && !spec.clusterIP) {
    const used = new Set(others.map((s) => s.clusterIP));
    let ip: string;
    do ip = `${SERVICE_NET}.${randomInt(0, 256)}.${randomInt(1, 255)}`;
    while (used.has(ip) || ip === `${SERVICE_NET}.0.1` || ip === `${SERVICE_NET}.0.10`);
    spec.clusterIP = ip;
  }
  if (spec.clusterIP && !spec.clusterIPs) spec.clusterIPs = [spec.clusterIP];
  if (spec.type === 'NodePort' || (spec.type === 'LoadBalancer' && spec.allocateLoadBalancerNodePorts !== false)) {
    const used = new Set(others.flatMap((s) => ((s.ports ?? []) as Any[]).map((p) => p.nodePort)));
    for (const p of (Array.isArray(spec.ports) ? spec.ports : []) as Any[]) {
      if (p.nodePort) continue;
      let port: number;
      do port = randomInt(30000, 32768);
      while (used.has(port));
      used.add(port);
      p.nodePort = port;
    }
  }
}

/**
 * The selector the API generates for a Job without `manualSelector`. kube-apiserver keys it on the
 * Job's uid; the sandbox stores first and learns the uid after, so it keys it on the Job's name
 * (unique in its namespace while the Job exists) and labels the pod template the same way.
 */
function generateJobSelector(job: KubeObject): void {
  const spec = job.spec as Any | undefined;
  if (!spec || typeof spec !== 'object' || spec.manualSelector === true || spec.selector) return;
  const name = job.metadata.name ?? '';
  if (!name) return;
  spec.selector = { matchLabels: { 'batch.kubernetes.io/job-name': name } };
  const tpl = (spec.template ??= {}) as Any;
  const meta = (tpl.metadata ??= {}) as Any;
  meta.labels = { ...(meta.labels ?? {}), 'batch.kubernetes.io/job-name': name, 'job-name': name };
}
