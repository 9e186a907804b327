import type { KubeCluster } from '../cluster.js';
import type { KubeObject } from '../types.js';
import { T, type Any } from './util.js';

/**
 * A container's environment as the kubelet resolves it when the container starts: `envFrom`
 * (Secrets and ConfigMaps, whole), then `env` (literal values, `secretKeyRef`, `configMapKeyRef`),
 * later entries winning. A reference to a Secret, ConfigMap or key that does not exist (and is not
 * `optional`) is the kubelet's CreateContainerConfigError: `error` says which.
 */
export function containerEnv(
  cluster: KubeCluster,
  pod: KubeObject,
  container: Any,
): { vars: Record<string, string>; error?: string } {
  const namespace = pod.metadata.namespace ?? 'default';
  const vars: Record<string, string> = {};
  const set = (name: string, value: string) =>
    Object.defineProperty(vars, name, { value, enumerable: true, writable: true, configurable: true });
  const secretData = (name: string): Record<string, string> | undefined => {
    const secret = cluster.objects.get(T.secrets, namespace, name);
    if (!secret) return undefined;
    const out: Record<string, string> = {};
    for (const [k, v] of Object.entries(((secret as Any).data ?? {}) as Record<string, string>))
      out[k] = Buffer.from(String(v), 'base64').toString('utf8');
    for (const [k, v] of Object.entries(((secret as Any).stringData ?? {}) as Record<string, string>))
      out[k] = String(v);
    return out;
  };
  const configMapData = (name: string): Record<string, string> | undefined => {
    const cm = cluster.objects.get(T.configmaps, namespace, name);
    return cm ? (((cm as Any).data ?? {}) as Record<string, string>) : undefined;
  };
  for (const from of (container.envFrom ?? []) as Any[]) {
    const ref = from.secretRef ?? from.configMapRef;
    if (!ref?.name) continue;
    const data = from.secretRef ? secretData(ref.name) : configMapData(ref.name);
    if (!data) {
      if (ref.optional) continue;
      return { vars, error: `${from.secretRef ? 'secret' : 'configmap'} "${ref.name}" not found` };
    }
    for (const [k, v] of Object.entries(data)) set(`${from.prefix ?? ''}${k}`, v);
  }
  for (const e of (container.env ?? []) as Any[]) {
    if (typeof e?.name !== 'string') continue;
    if (e.value !== undefined || !e.valueFrom) {
      set(e.name, String(e.value ?? ''));
      continue;
    }
    const ref = e.valueFrom.secretKeyRef ?? e.valueFrom.configMapKeyRef;
    if (!ref) continue; // fieldRef / resourceFieldRef: not needed by any program yet
    const kind = e.valueFrom.secretKeyRef ? 'secret' : 'configmap';
    const data = kind === 'secret' ? secretData(ref.name) : configMapData(ref.name);
    const value = data && Object.hasOwn(data, ref.key) ? data[ref.key] : undefined;
    if (value === undefined) {
      if (ref.optional) continue;
      return {
        vars,
        error: data
          ? `couldn't find key ${ref.key} in ${kind === 'secret' ? 'Secret' : 'ConfigMap'} ${namespace}/${ref.name}`
          : `${kind} "${ref.name}" not found`,
      };
    }
    set(e.name, value);
  }
  return { vars };
}
