import { badRequest } from '../errors.js';
import type { KubeObject, ResourceType } from '../types.js';
import { shapeOf } from './merge-keys.js';
import { isObject, strategicMerge, type Json } from './strategic.js';

/**
 * The write paths of the Kubernetes API that merge: the three PATCH kinds, server-side apply and
 * the managedFields bookkeeping of every write. Each returns a new object and never mutates its input.
 */
export { applyJsonPatch } from './json-patch.js';
export { applyMergePatch } from './merge-patch.js';
export { serverSideApply, type ApplyOptions } from './apply.js';
export { recordUpdate, type UpdateOptions } from './managed-fields.js';
export { patchExtensions, type Extensions } from './openapi-extensions.js';

/**
 * Kubernetes strategic merge patch (`application/strategic-merge-patch+json`) for built-in kinds:
 * lists merge by their patchMergeKey, directives (`$patch`, `$retainKeys`,
 * `$deleteFromPrimitiveList/…`, `$setElementOrder/…`) are honoured. Custom resources have no
 * strategic information: the API layer answers 415 for them (see supportsStrategicMerge).
 */
export function applyStrategicMergePatch(doc: KubeObject, patch: unknown, type: ResourceType): KubeObject {
  if (!isObject(patch)) throw badRequest('strategic merge patch must be a JSON object');
  const result = strategicMerge(structuredClone(doc) as unknown as Json, patch, shapeOf(type), 'patch');
  if (!isObject(result)) throw badRequest('strategic merge patch: the patch cannot delete the whole object');
  return result as unknown as KubeObject;
}

/** Strategic merge patch needs the Go types' merge keys: built-in kinds have them, custom resources do not. */
export const supportsStrategicMerge = (type: ResourceType): boolean => !type.crd;
