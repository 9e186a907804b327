import { SHAPES_BY_DEFINITION, type Shape } from './merge-keys.js';

/**
 * The OpenAPI extensions by which clients learn how the server merges a field: kubectl reads
 * `x-kubernetes-patch-strategy` / `x-kubernetes-patch-merge-key` to build the strategic merge
 * patches of `kubectl apply` and `kubectl edit` (without them it sends keyed lists whole, and the
 * server's merge by key keeps items the user removed), and `x-kubernetes-list-type` /
 * `x-kubernetes-list-map-keys` describe server-side apply. Derived from the table the patch code
 * merges by, so the documents and the behaviour cannot disagree.
 */
export type Extensions = Record<string, unknown>;

/** definition name (`io.k8s.api.core.v1.PodSpec`) → property → its extensions. */
export function patchExtensions(): Record<string, Record<string, Extensions>> {
  const out: Record<string, Record<string, Extensions>> = {};
  for (const [definition, shape] of Object.entries(SHAPES_BY_DEFINITION)) {
    const properties: Record<string, Extensions> = {};
    for (const [field, child] of Object.entries(shape.fields ?? {})) {
      const ext = extensionsOf(child);
      if (Object.keys(ext).length > 0) properties[field] = ext;
    }
    out[definition] = properties;
  }
  return out;
}

function extensionsOf(shape: Shape): Extensions {
  if (shape.set) return { 'x-kubernetes-list-type': 'set', 'x-kubernetes-patch-strategy': 'merge' };
  if (shape.list) {
    const { patchKey, applyKeys } = shape.list;
    return {
      ...(applyKeys
        ? { 'x-kubernetes-list-type': 'map', 'x-kubernetes-list-map-keys': applyKeys }
        : { 'x-kubernetes-list-type': 'atomic' }),
      ...(patchKey
        ? {
            'x-kubernetes-patch-merge-key': patchKey,
            'x-kubernetes-patch-strategy': shape.retainKeys ? 'merge,retainKeys' : 'merge',
          }
        : {}),
    };
  }
  if (shape.retainKeys) return { 'x-kubernetes-patch-strategy': 'retainKeys' };
  return {};
}
