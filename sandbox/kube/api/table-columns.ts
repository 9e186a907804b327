import type { KubeObject } from '../types.js';
import { humanDuration, since } from './durations.js';
import { labelSelectorString } from './selectors.js';
import { podRow } from './table-pods.js';

/**
 * The columns kube-apiserver's printers produce for the built-in kinds (the server always prints
 * "wide"; kubectl shows priority > 0 columns only with `-o wide`). Cells are what the server sends:
 * durations already humanised ("5m"), counts as numbers, `<none>` where the printers put it.
 */
export interface Column {
  name: string;
  type: string;
  format?: string;
  priority: number;
  description?: string;
  cell(obj: KubeObject, now: number): unknown;
}

type Any = Record<string, any>;
const spec = (o: KubeObject): Any => (o.spec ?? {}) as Any;
const status = (o: KubeObject): Any => (o.status ?? {}) as Any;
export const col = (name: string, cell: Column['cell'], priority = 0, type = 'string', format?: string): Column => ({
  name,
  type,
  priority,
  cell,
  ...(format ? { format } : {}),
});

export const NAME = col('Name', (o) => o.metadata.name, 0, 'string', 'name');
export const AGE = col('Age', (o, now) => since(o.metadata.creationTimestamp, now));

const orNone = (text: string) => text || '<none>';
/** labels.FormatLabels: sorted `k=v` pairs. */
const formatLabels = (map: unknown) =>
  orNone(
    Object.entries((map ?? {}) as Record<string, string>)
      .map(([k, v]) => `${k}=${v}`)
      .sort()
      .join(','),
  );

const containersOf = (o: KubeObject): Any[] => (spec(o).template?.spec?.containers ?? []) as Any[];
const CONTAINERS = col(
  'Containers',
  (o) =>
    containersOf(o)
      .map((c) => c.name)
      .join(','),
  1,
);
const IMAGES = col(
  'Images',
  (o) =>
    containersOf(o)
      .map((c) => c.image)
      .join(','),
  1,
);
const SELECTOR = col('Selector', (o) => orNone(labelSelectorString(spec(o).selector)), 1);
const count = (v: unknown) => Number(v ?? 0);

const ACCESS_MODES: Array<[string, string]> = [
  ['ReadWriteOnce', 'RWO'],
  ['ReadOnlyMany', 'ROX'],
  ['ReadWriteMany', 'RWX'],
  ['ReadWriteOncePod', 'RWOP'],
];
const accessModes = (modes: unknown) =>
  ACCESS_MODES.filter(([m]) => ((modes ?? []) as string[]).includes(m))
    .map(([, s]) => s)
    .join(',');
const storageClassOf = (o: KubeObject) =>
  o.metadata.annotations?.['volume.beta.kubernetes.io/storage-class'] ?? spec(o).storageClassName ?? '';
const unset = (v: unknown) => (v === undefined || v === null ? '<unset>' : String(v));

/** `10/2 (avg)` per metric, as kubectl prints an HPA's external metrics (current from status, `<unknown>` before). */
function hpaTargets(o: KubeObject): string {
  const current = (status(o).currentMetrics ?? []) as Any[];
  const parts = ((spec(o).metrics ?? []) as Any[]).map((m, i) => {
    const target = m.external?.target ?? m.resource?.target ?? {};
    const now = current[i]?.external?.current ?? current[i]?.resource?.current;
    const avg = target.type === 'AverageValue';
    const want = avg ? target.averageValue : (target.value ?? `${target.averageUtilization}%`);
    const have = now ? (avg ? now.averageValue : now.value) : '<unknown>';
    return `${have}/${want}${avg ? ' (avg)' : ''}`;
  });
  return parts.join(', ') || '<none>';
}

function jobStatus(o: KubeObject): string {
  const has = (t: string) => ((status(o).conditions ?? []) as Any[]).some((c) => c.type === t && c.status === 'True');
  if (has('Complete')) return 'Complete';
  if (has('Failed')) return 'Failed';
  if (o.metadata.deletionTimestamp) return 'Terminating';
  if (has('Suspended')) return 'Suspended';
  if (has('FailureTarget')) return 'FailureTarget';
  if (has('SuccessCriteriaMet')) return 'SuccessCriteriaMet';
  return 'Running';
}

function jobCompletions(o: KubeObject): string {
  const done = count(status(o).succeeded);
  if (spec(o).completions !== undefined && spec(o).completions !== null) return `${done}/${spec(o).completions}`;
  return count(spec(o).parallelism) > 1 ? `${done}/1 of ${spec(o).parallelism}` : `${done}/1`;
}

function jobDuration(o: KubeObject, now: number): string {
  const { startTime, completionTime } = status(o);
  if (!startTime) return '';
  return humanDuration((completionTime ? Date.parse(completionTime) : now) - Date.parse(startTime));
}

function serviceExternalIp(o: KubeObject): string {
  const external = (spec(o).externalIPs ?? []) as string[];
  switch (spec(o).type ?? 'ClusterIP') {
    case 'ClusterIP':
    case 'NodePort':
      return orNone(external.join(','));
    case 'LoadBalancer': {
      const ingress = [
        ...new Set(((status(o).loadBalancer?.ingress ?? []) as Any[]).map((i) => i.ip || i.hostname).filter(Boolean)),
      ].sort();
      const all = [...ingress, ...external];
      return all.length ? all.join(',') : '<pending>';
    }
    case 'ExternalName':
      return spec(o).externalName ?? '';
    default:
      return '<unknown>';
  }
}

function endpointsText(o: KubeObject): string {
  const subsets = (o.subsets ?? []) as Any[];
  if (subsets.length === 0) return '<none>';
  const list: string[] = [];
  let total = 0;
  for (const s of subsets) {
    const addresses = (s.addresses ?? []) as Any[];
    const ports = (s.ports ?? []) as Any[];
    for (const p of ports.length ? ports : [undefined]) {
      total += addresses.length;
      for (const a of addresses) if (list.length < 3) list.push(p ? `${a.ip}:${p.port}` : a.ip);
    }
  }
  return total > 3 ? `${list.join(',')} + ${total - 3} more...` : list.join(',');
}

function nodeStatus(o: KubeObject): string {
  const ready = ((status(o).conditions ?? []) as Any[]).filter((c) => c.type === 'Ready').pop();
  const states = [ready ? (ready.status === 'True' ? 'Ready' : 'NotReady') : 'Unknown'];
  if (spec(o).unschedulable) states.push('SchedulingDisabled');
  return states.join(',');
}

function nodeRoles(o: KubeObject): string {
  const roles = new Set<string>();
  for (const [k, v] of Object.entries(o.metadata.labels ?? {})) {
    if (k.startsWith('node-role.kubernetes.io/') && k.length > 'node-role.kubernetes.io/'.length)
      roles.add(k.slice('node-role.kubernetes.io/'.length));
    else if (k === 'kubernetes.io/role' && v) roles.add(v);
  }
  return orNone([...roles].sort().join(','));
}

const nodeAddress = (type: string) => (o: KubeObject) =>
  ((status(o).addresses ?? []) as Any[]).find((a) => a.type === type)?.address ?? '<none>';
const nodeInfo = (field: string) => (o: KubeObject) => status(o).nodeInfo?.[field] || '<unknown>';

function eventTimes(o: KubeObject, now: number): { last: string; first: string; count: number } {
  const first = o.firstTimestamp ? since(o.firstTimestamp, now) : since(o.eventTime, now);
  const series = o.series as Any | undefined;
  const last = series ? since(series.lastObservedTime, now) : o.lastTimestamp ? since(o.lastTimestamp, now) : first;
  return { first, last, count: series ? count(series.count) : count(o.count) || 1 };
}

function subjects(o: KubeObject, kind: string): string {
  return ((o.subjects ?? []) as Any[])
    .filter((s) => s.kind === kind)
    .map((s) => (kind === 'ServiceAccount' ? `${s.namespace ?? ''}/${s.name}` : s.name))
    .join(', ');
}

const BINDING: Column[] = [
  NAME,
  col('Role', (o) => `${(o.roleRef as Any)?.kind ?? ''}/${(o.roleRef as Any)?.name ?? ''}`),
  AGE,
  col('Users', (o) => subjects(o, 'User'), 1),
  col('Groups', (o) => subjects(o, 'Group'), 1),
  col('ServiceAccounts', (o) => subjects(o, 'ServiceAccount'), 1),
];

const isDefaultClass = (o: KubeObject) =>
  o.metadata.annotations?.['storageclass.kubernetes.io/is-default-class'] === 'true' ||
  o.metadata.annotations?.['storageclass.beta.kubernetes.io/is-default-class'] === 'true';

/** Keyed `<group or core>/<resource>`. */
export const BUILTIN_COLUMNS: Record<string, Column[]> = {
  'core/pods': [
    NAME,
    col('Ready', (o, now) => podRow(o, now).ready),
    col('Status', (o, now) => podRow(o, now).status),
    col('Restarts', (o, now) => podRow(o, now).restarts),
    AGE,
    col('IP', (o) => orNone(status(o).podIPs?.[0]?.ip ?? status(o).podIP ?? ''), 1),
    col('Node', (o) => orNone(spec(o).nodeName ?? ''), 1),
    col('Nominated Node', (o) => orNone(status(o).nominatedNodeName ?? ''), 1),
    col('Readiness Gates', (o) => podRow(o, 0).readinessGates, 1),
  ],
  'core/nodes': [
    NAME,
    col('Status', nodeStatus),
    col('Roles', nodeRoles),
    AGE,
    col('Version', (o) => status(o).nodeInfo?.kubeletVersion ?? ''),
    col('Internal-IP', nodeAddress('InternalIP'), 1),
    col('External-IP', nodeAddress('ExternalIP'), 1),
    col('OS-Image', nodeInfo('osImage'), 1),
    col('Kernel-Version', nodeInfo('kernelVersion'), 1),
    col('Container-Runtime', nodeInfo('containerRuntimeVersion'), 1),
  ],
  'core/services': [
    NAME,
    col('Type', (o) => spec(o).type ?? 'ClusterIP'),
    col('Cluster-IP', (o) => orNone(spec(o).clusterIPs?.[0] ?? spec(o).clusterIP ?? '')),
    col('External-IP', serviceExternalIp),
    col('Port(s)', (o) =>
      orNone(
        ((spec(o).ports ?? []) as Any[])
          .map((p) => `${p.port}${p.nodePort ? `:${p.nodePort}` : ''}/${p.protocol ?? 'TCP'}`)
          .join(','),
      ),
    ),
    AGE,
    col('Selector', (o) => formatLabels(spec(o).selector), 1),
  ],
  'core/endpoints': [NAME, col('Endpoints', endpointsText), AGE],
  'core/namespaces': [NAME, col('Status', (o) => status(o).phase ?? ''), AGE],
  'core/configmaps': [
    NAME,
    col(
      'Data',
      (o) => Object.keys((o.data ?? {}) as object).length + Object.keys((o.binaryData ?? {}) as object).length,
    ),
    AGE,
  ],
  'core/secrets': [
    NAME,
    col('Type', (o) => o.type ?? ''),
    col('Data', (o) => Object.keys((o.data ?? {}) as object).length),
    AGE,
  ],
  'core/serviceaccounts': [NAME, col('Secrets', (o) => ((o.secrets ?? []) as unknown[]).length), AGE],
  'core/events': [
    col('Last Seen', (o, now) => eventTimes(o, now).last),
    col('Type', (o) => o.type ?? ''),
    col('Reason', (o) => o.reason ?? ''),
    col('Object', (o) => {
      const ref = (o.involvedObject ?? {}) as Any;
      return ref.name ? `${String(ref.kind ?? '').toLowerCase()}/${ref.name}` : String(ref.kind ?? '').toLowerCase();
    }),
    col('Subobject', (o) => (o.involvedObject as Any)?.fieldPath ?? '', 1),
    col(
      'Source',
      (o) => {
        const component = (o.source as Any)?.component || o.reportingComponent || '';
        const host = (o.source as Any)?.host || o.reportingInstance || '';
        return host ? `${component}, ${host}` : component;
      },
      1,
    ),
    col('Message', (o) => String(o.message ?? '').trim()),
    col('First Seen', (o, now) => eventTimes(o, now).first, 1),
    col('Count', (o, now) => eventTimes(o, now).count, 1),
    col('Name', (o) => o.metadata.name, 1, 'string', 'name'),
  ],
  'core/persistentvolumes': [
    NAME,
    col('Capacity', (o) => spec(o).capacity?.storage ?? '0'),
    col('Access Modes', (o) => accessModes(spec(o).accessModes)),
    col('Reclaim Policy', (o) => spec(o).persistentVolumeReclaimPolicy ?? ''),
    col('Status', (o) => (o.metadata.deletionTimestamp ? 'Terminating' : (status(o).phase ?? ''))),
    col('Claim', (o) => (spec(o).claimRef ? `${spec(o).claimRef.namespace ?? ''}/${spec(o).claimRef.name ?? ''}` : '')),
    col('StorageClass', storageClassOf),
    col('VolumeAttributesClass', (o) => unset(spec(o).volumeAttributesClassName)),
    col('Reason', (o) => status(o).reason ?? ''),
    AGE,
    col('VolumeMode', (o) => unset(spec(o).volumeMode), 1),
  ],
  'core/persistentvolumeclaims': [
    NAME,
    col('Status', (o) => (o.metadata.deletionTimestamp ? 'Terminating' : (status(o).phase ?? ''))),
    col('Volume', (o) => spec(o).volumeName ?? ''),
    col('Capacity', (o) => (spec(o).volumeName ? (status(o).capacity?.storage ?? '0') : '')),
    col('Access Modes', (o) => (spec(o).volumeName ? accessModes(status(o).accessModes) : '')),
    col('StorageClass', storageClassOf),
    col('VolumeAttributesClass', (o) => unset(spec(o).volumeAttributesClassName)),
    AGE,
    col('VolumeMode', (o) => unset(spec(o).volumeMode), 1),
  ],
  'apps/deployments': [
    NAME,
    col('Ready', (o) => `${count(status(o).readyReplicas)}/${count(spec(o).replicas)}`),
    col('Up-to-date', (o) => count(status(o).updatedReplicas)),
    col('Available', (o) => count(status(o).availableReplicas)),
    AGE,
    CONTAINERS,
    IMAGES,
    col('Selector', (o) => labelSelectorString(spec(o).selector), 1),
  ],
  'apps/replicasets': [
    NAME,
    col('Desired', (o) => count(spec(o).replicas), 0, 'integer'),
    col('Current', (o) => count(status(o).replicas), 0, 'integer'),
    col('Ready', (o) => count(status(o).readyReplicas), 0, 'integer'),
    AGE,
    CONTAINERS,
    IMAGES,
    SELECTOR,
  ],
  'apps/statefulsets': [
    NAME,
    col('Ready', (o) => `${count(status(o).readyReplicas)}/${count(spec(o).replicas)}`),
    AGE,
    CONTAINERS,
    IMAGES,
  ],
  'apps/daemonsets': [
    NAME,
    col('Desired', (o) => count(status(o).desiredNumberScheduled), 0, 'integer'),
    col('Current', (o) => count(status(o).currentNumberScheduled), 0, 'integer'),
    col('Ready', (o) => count(status(o).numberReady), 0, 'integer'),
    col('Up-to-date', (o) => count(status(o).updatedNumberScheduled), 0, 'integer'),
    col('Available', (o) => count(status(o).numberAvailable), 0, 'integer'),
    col('Node Selector', (o) => formatLabels(spec(o).template?.spec?.nodeSelector)),
    AGE,
    CONTAINERS,
    IMAGES,
    SELECTOR,
  ],
  'batch/jobs': [
    NAME,
    col('Status', jobStatus),
    col('Completions', jobCompletions),
    col('Duration', jobDuration),
    AGE,
    CONTAINERS,
    IMAGES,
    SELECTOR,
  ],
  // kubectl's printers (k8s.io/kubernetes pkg/printers/internalversion): printIngress, printHorizontalPodAutoscaler.
  'networking.k8s.io/ingresses': [
    NAME,
    col('Class', (o) => spec(o).ingressClassName ?? '<none>'),
    col('Hosts', (o) => ((spec(o).rules ?? []) as Any[]).map((r) => r.host ?? '*').join(',') || '*'),
    col('Address', (o) => ((status(o).loadBalancer?.ingress ?? []) as Any[]).map((i) => i.hostname ?? i.ip).join(',')),
    col('Ports', (o) => (spec(o).tls?.length ? '80, 443' : '80')),
    AGE,
  ],
  'autoscaling/horizontalpodautoscalers': [
    NAME,
    col('Reference', (o) => `${spec(o).scaleTargetRef?.kind}/${spec(o).scaleTargetRef?.name}`),
    col('Targets', hpaTargets),
    col('MinPods', (o) => String(spec(o).minReplicas ?? 1)),
    col('MaxPods', (o) => count(spec(o).maxReplicas), 0, 'integer'),
    col('Replicas', (o) => count(status(o).currentReplicas), 0, 'integer'),
    AGE,
  ],
  'rbac.authorization.k8s.io/rolebindings': BINDING,
  'rbac.authorization.k8s.io/clusterrolebindings': BINDING,
  'storage.k8s.io/storageclasses': [
    col('Name', (o) => `${o.metadata.name}${isDefaultClass(o) ? ' (default)' : ''}`, 0, 'string', 'name'),
    col('Provisioner', (o) => o.provisioner ?? ''),
    col('ReclaimPolicy', (o) => o.reclaimPolicy ?? 'Delete'),
    col('VolumeBindingMode', (o) => o.volumeBindingMode ?? 'Immediate'),
    col('AllowVolumeExpansion', (o) => o.allowVolumeExpansion === true),
    AGE,
  ],
  'storage.k8s.io/csidrivers': [
    NAME,
    col('AttachRequired', (o) => spec(o).attachRequired !== false, 0, 'boolean'),
    col('PodInfoOnMount', (o) => spec(o).podInfoOnMount === true, 0, 'boolean'),
    col('StorageCapacity', (o) => spec(o).storageCapacity === true, 0, 'boolean'),
    col('TokenRequests', (o) =>
      spec(o).tokenRequests ? ((spec(o).tokenRequests ?? []) as Any[]).map((t) => t.audience).join(',') : '<unset>',
    ),
    col('RequiresRepublish', (o) => spec(o).requiresRepublish === true, 0, 'boolean'),
    col('Modes', (o) => orNone(((spec(o).volumeLifecycleModes ?? []) as string[]).join(','))),
    AGE,
  ],
};

/** rest.NewDefaultTableConvertor: kinds without a printer (CRDs, Roles, ClusterRoles). */
export const DEFAULT_COLUMNS: Column[] = [
  NAME,
  col('Created At', (o) => o.metadata.creationTimestamp ?? '', 0, 'date'),
];
