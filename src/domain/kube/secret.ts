import type { KubeObject } from '../kube-object.js';
import { kubeKind, parseBase, str, MANAGED_BY, type KubeResource } from './kind.js';

/**
 * Secret (v1): where a credential a workload needs (a Hugging Face token) lives, and the only place.
 * The parser keeps the metadata and type and drops `data`/`stringData`: InstantStart writes secrets
 * and references them by name, and never reads a secret's value back into its own memory.
 */

export type KubeSecret = KubeResource & { type?: string };

export function parseSecret(raw: unknown): KubeSecret {
  const { data: _data, stringData: _stringData, ...rest } = parseBase(raw, { apiVersion: 'v1', kind: 'Secret' });
  return { ...rest, ...(str(rest.type) ? { type: str(rest.type) } : {}) } as KubeSecret;
}

export const SECRET = kubeKind<KubeSecret>(
  { apiVersion: 'v1', kind: 'Secret', plural: 'secrets', namespaced: true },
  parseSecret,
);

/** An Opaque secret of one key; the value travels base64-encoded in `data`, as the API stores it. */
export function opaqueSecretManifest(p: {
  name: string;
  namespace: string;
  key: string;
  value: string;
  labels?: Record<string, string>;
}): KubeObject {
  return {
    apiVersion: 'v1',
    kind: 'Secret',
    metadata: { name: p.name, namespace: p.namespace, labels: { ...MANAGED_BY, ...(p.labels ?? {}) } },
    type: 'Opaque',
    data: { [p.key]: base64(p.value) },
  };
}

/** UTF-8 then base64, with what both Node and browsers have (the domain runs in either). */
const base64 = (text: string) =>
  btoa(Array.from(new TextEncoder().encode(text), (b) => String.fromCharCode(b)).join(''));
