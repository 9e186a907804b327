// CONTRACT (owned by the patch helper; bodies are being written now).
import type { KubeObject, ResourceType } from '../types.js';

/** RFC 6902 JSON Patch. Bad patch → KubeError 422 (or 400 for malformed input); failed `test` op → 422. */
export function applyJsonPatch(_doc: KubeObject, _ops: unknown): KubeObject {
  throw new Error('applyJsonPatch: not written yet');
}

/** RFC 7386 JSON Merge Patch (null deletes). */
export function applyMergePatch(_doc: KubeObject, _patch: unknown): KubeObject {
  throw new Error('applyMergePatch: not written yet');
}

/** Kubernetes strategic merge patch for built-in kinds (patchMergeKey lists, $patch/$retainKeys/$deleteFromPrimitiveList/$setElementOrder directives). */
export function applyStrategicMergePatch(_doc: KubeObject, _patch: unknown, _type: ResourceType): KubeObject {
  throw new Error('applyStrategicMergePatch: not written yet');
}

export interface ApplyOptions {
  manager: string;
  force: boolean;
  type: ResourceType;
  /** RFC 3339 time for managedFields entries. */
  now: string;
}

/**
 * Server-side apply: merges `applied` into `current` (undefined = create) owning the fields it sets for `manager`;
 * fields owned by other managers with different values → KubeError 409 Conflict with causes
 * ({ reason: 'FieldManagerConflict', message: 'conflict with "kubectl-client-side-apply" using apps/v1', field: '.spec.replicas' })
 * unless `force`. Fields the manager previously owned and no longer applies are removed (when no one else owns them).
 * Returns the merged object with metadata.managedFields updated.
 */
export function serverSideApply(_current: KubeObject | undefined, _applied: KubeObject, _options: ApplyOptions): KubeObject {
  throw new Error('serverSideApply: not written yet');
}

/** Records an Update-operation managedFields entry for `manager` over the fields that changed from `previous` to `next` (create: previous undefined). */
export function recordUpdate(_previous: KubeObject | undefined, next: KubeObject, _options: { manager: string; type: ResourceType; now: string; subresource?: string }): KubeObject {
  return next;
}
