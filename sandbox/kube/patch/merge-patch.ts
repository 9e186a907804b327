import { badRequest } from '../errors.js';
import type { KubeObject } from '../types.js';

/** RFC 7386 JSON Merge Patch (`application/merge-patch+json`): objects merge, null deletes, anything else (lists too) replaces. */
export function applyMergePatch(doc: KubeObject, patch: unknown): KubeObject {
  if (!isObject(patch)) throw badRequest('merge patch must be a JSON object');
  return merge(structuredClone(doc), patch) as KubeObject;
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

function merge(target: unknown, patch: Record<string, unknown>): Record<string, unknown> {
  const out = isObject(target) ? target : {};
  for (const [k, v] of Object.entries(patch)) {
    if (v === null) delete out[k];
    else if (isObject(v)) out[k] = merge(out[k], v);
    else out[k] = structuredClone(v);
  }
  return out;
}
