import type { KubeObject } from '../types.js';
import { isReady, nodeNameOf, type Any } from './util.js';

/**
 * The kubelet's device manager: a node advertises an extended resource only while a device plugin
 * is registered for it, as on a real node (Kubernetes device-plugin API: a plugin registers over the
 * kubelet's socket directory `/var/lib/kubelet/device-plugins`; when it goes, the kubelet drops its
 * resources from capacity and allocatable).
 *
 * A plugin counts as registered on a node while a pod of it is Ready there and its container mounts
 * that directory from the host. Which plugin a container is is read from its image repository — the
 * one thing the sandbox cannot learn from a socket (assumed):
 * `…/k8s-device-plugin` → NVIDIA (`nvidia.com/gpu`), `…/neuron-device-plugin` → Neuron
 * (`aws.amazon.com/neuron`, `…/neurondevice`, `…/neuroncore`), `…/aws-efa-k8s-device-plugin` → EFA
 * (`vpc.amazonaws.com/efa`). A plugin on a node without its hardware advertises nothing.
 */

export type DeviceKind = 'nvidia' | 'neuron' | 'efa';

export const DEVICE_PLUGIN_DIR = '/var/lib/kubelet/device-plugins';

const REPOSITORIES: ReadonlyArray<[string, DeviceKind]> = [
  ['aws-efa-k8s-device-plugin', 'efa'],
  ['neuron-device-plugin', 'neuron'],
  ['k8s-device-plugin', 'nvidia'],
];

/** The plugin a container image is, by the last segment of its repository (`nvcr.io/nvidia/k8s-device-plugin:v0.16.1` → nvidia). */
export function deviceKindOfImage(image: unknown): DeviceKind | undefined {
  const repository = String(image ?? '')
    .replace(/@.*$/, '')
    .replace(/:[^:/]*$/, '');
  const last = repository.slice(repository.lastIndexOf('/') + 1);
  return REPOSITORIES.find(([name]) => last === name)?.[1];
}

const trimSlash = (p: unknown) => String(p ?? '').replace(/\/+$/, '');

/** Whether the container mounts the kubelet's device-plugin directory from the host (a hostPath volume of that path). */
export function mountsSocketDir(podSpec: Any, container: Any): boolean {
  const volumes = new Map(((podSpec.volumes ?? []) as Any[]).map((v) => [v.name, v]));
  return ((container.volumeMounts ?? []) as Any[]).some(
    (m) =>
      trimSlash(m.mountPath) === DEVICE_PLUGIN_DIR &&
      trimSlash(volumes.get(m.name)?.hostPath?.path) === DEVICE_PLUGIN_DIR,
  );
}

/** The plugins registered on `nodeName`: pods there that are Ready, not going, with a plugin container that mounts the socket directory. */
export function registeredPlugins(pods: readonly KubeObject[], nodeName: string): Set<DeviceKind> {
  const out = new Set<DeviceKind>();
  for (const pod of pods) {
    if (nodeNameOf(pod) !== nodeName || pod.metadata.deletionTimestamp || !isReady(pod)) continue;
    const spec = (pod.spec ?? {}) as Any;
    for (const c of (spec.containers ?? []) as Any[]) {
      const kind = deviceKindOfImage(c.image);
      if (kind && mountsSocketDir(spec, c)) out.add(kind);
    }
  }
  return out;
}
