import { FEATURES } from './features/registry.js';
import { TAG_KEPT_STORAGE, TAG_PART } from './naming.js';
import type { DeletePlanItem } from './schemas/clusters.js';
import type { StorageData } from './schemas/storage.js';

/**
 * What a cluster's delete removes and what it keeps (pure: the delete plan, the delete workflow's
 * removals and its verify all decide with these rules, so the dialog, the answer and the result agree).
 *
 * Removed: everything tagged with the cluster, in every service, and the clusters and roles of its
 * fixed names. Kept, each with why:
 * - the data of a storage removed "keeping the data" (a bucket holding a kept prefix is kept whole);
 * - with keepStorage, every bucket and file system holding the cluster's data (not the inference
 *   operator's TLS bucket: certificates, not data);
 * - buckets and file systems the cluster's storages mount that InstantStart never made (never touched).
 */

/** A resource found by tag or by its fixed name. */
export interface FoundResource {
  kind: string;
  id: string;
  status?: string;
  arn?: string;
  tags: Record<string, string>;
}

/** A storage of the cluster: mounted now, or removed keeping its data. */
export interface StorageOfCluster {
  namespace: string;
  name: string;
  data: StorageData;
}

export interface TeardownFacts {
  keepStorage: boolean;
  /** Everything tagged with the cluster, and the clusters and roles found by their fixed names. */
  found: readonly FoundResource[];
  /** Storages removed keeping their data (the server's records). */
  kept: readonly StorageOfCluster[];
  /** Storages the cluster mounts now (empty when its Kubernetes API cannot be read). */
  mounted: readonly StorageOfCluster[];
}

export const S3_BUCKET = 'S3 bucket';
export const FSX_FILE_SYSTEM = 'FSx file system';
/** The `instantstart.io/part` of the inference operator's TLS certificate bucket. */
export const TLS_BUCKET_PART = 'inference-tls';

const isData = (r: { kind: string }) => r.kind === S3_BUCKET || r.kind === FSX_FILE_SYSTEM;
const dataKey = (d: StorageData): { kind: string; name: string } =>
  d.kind === 's3' ? { kind: S3_BUCKET, name: d.bucket } : { kind: FSX_FILE_SYSTEM, name: d.fileSystemId };
const key = (r: { kind: string; name: string }) => `${r.kind}\u0000${r.name}`;

/** Every role name InstantStart may give a role (its tags then decide): `instantstart-…` and the features' required prefixes. */
export function mayBeInstantStartRole(roleName: string): boolean {
  if (roleName.startsWith('instantstart-')) return true;
  for (const f of FEATURES.values())
    for (const id of f.identities ?? [])
      if (id.roleNamePrefix && roleName.startsWith(`${id.roleNamePrefix}-`)) return true;
  return false;
}

/** The storages a kept-storage tag names (`namespace/name`, space-separated). */
export const keptStoragesOfTag = (value: string | undefined): string[] => (value ?? '').split(' ').filter(Boolean);

/** The deletes and keeps, by name; each resource once, kept ones never in deletes. */
export function teardownPlan(facts: TeardownFacts): { deletes: DeletePlanItem[]; keeps: DeletePlanItem[] } {
  const keeps = new Map<string, DeletePlanItem>();
  const keep = (r: { kind: string; name: string }, reason: string) => {
    if (!keeps.has(key(r))) keeps.set(key(r), { kind: r.kind, name: r.name, reason });
  };
  const ours = new Set(facts.found.map((r) => key({ kind: r.kind, name: r.id })));
  for (const s of facts.kept) {
    const r = dataKey(s.data);
    keep(
      r,
      ours.has(key(r))
        ? `kept when storage ${s.namespace}/${s.name} was removed keeping its data`
        : `not made by InstantStart (storage ${s.namespace}/${s.name}, removed keeping its data)`,
    );
  }
  for (const r of facts.found) {
    const marked = keptStoragesOfTag(r.tags[TAG_KEPT_STORAGE]);
    if (marked.length)
      keep({ kind: r.kind, name: r.id }, `kept when storage ${marked.join(', ')} was removed keeping its data`);
  }
  if (facts.keepStorage) {
    for (const r of facts.found)
      if (isData(r) && r.tags[TAG_PART] !== TLS_BUCKET_PART)
        keep({ kind: r.kind, name: r.id }, "keepStorage: the cluster's data is kept");
  }
  for (const s of facts.mounted) {
    const r = dataKey(s.data);
    if (!ours.has(key(r))) keep(r, `not made by InstantStart: storage ${s.namespace}/${s.name} mounts it`);
  }
  const deletes = new Map<string, DeletePlanItem>();
  for (const r of facts.found) {
    const k = key({ kind: r.kind, name: r.id });
    if (!keeps.has(k) && !deletes.has(k)) deletes.set(k, { kind: r.kind, name: r.id });
  }
  return { deletes: [...deletes.values()], keeps: [...keeps.values()] };
}

/** Whether the delete said it keeps this resource. */
export function isKept(keeps: readonly DeletePlanItem[], r: { kind: string; id: string }): boolean {
  return keeps.some((k) => k.kind === r.kind && k.name === r.id);
}
