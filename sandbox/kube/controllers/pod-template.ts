import { defaultPodSpec } from '../api/defaults.js';
import type { KubeObject } from '../types.js';
import { parseQuantity } from './quantity.js';
import { controllerRef, shortHash, type Any } from './util.js';

/**
 * Pods made from a workload's pod template, as the workload controllers make them: the template's
 * labels and annotations plus the controller's own, a controller ownerReference, the spec with
 * the API server's defaults, and the QoS class the API server computes at creation.
 */
export function podFromTemplate(
  owner: KubeObject,
  template: Any | undefined,
  meta: { name?: string; generateName?: string; labels?: Record<string, string>; annotations?: Record<string, string> },
  adjustSpec: (spec: Any) => void = () => {},
): KubeObject {
  const spec = structuredClone((template?.spec ?? {}) as Any);
  adjustSpec(spec);
  defaultPodSpec(spec);
  const pod: KubeObject = {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: {
      ...(meta.name ? { name: meta.name } : { generateName: meta.generateName ?? `${owner.metadata.name}-` }),
      namespace: owner.metadata.namespace,
      labels: { ...((template?.metadata?.labels ?? {}) as Record<string, string>), ...(meta.labels ?? {}) },
      ...(template?.metadata?.annotations || meta.annotations
        ? {
            annotations: {
              ...((template?.metadata?.annotations ?? {}) as Record<string, string>),
              ...(meta.annotations ?? {}),
            },
          }
        : {}),
      ownerReferences: [controllerRef(owner)],
    },
    spec,
    status: { phase: 'Pending', qosClass: qosClass(spec) },
  };
  return pod;
}

/** The hash workload controllers label their pods with, stable for one template. */
export const templateHash = (template: unknown, salt = '') => shortHash(`${JSON.stringify(template ?? {})}${salt}`, 10);

/** Guaranteed when every container's cpu and memory requests equal limits, BestEffort when nothing is set, else Burstable. */
export function qosClass(spec: Any): 'Guaranteed' | 'Burstable' | 'BestEffort' {
  const containers = [...((spec.containers ?? []) as Any[]), ...((spec.initContainers ?? []) as Any[])];
  let any = false;
  let guaranteed = containers.length > 0;
  for (const c of containers) {
    const limits = (c.resources?.limits ?? {}) as Record<string, string>;
    const requests = { ...limits, ...((c.resources?.requests ?? {}) as Record<string, string>) };
    if (Object.keys(requests).length > 0 || Object.keys(limits).length > 0) any = true;
    for (const r of ['cpu', 'memory']) {
      if (limits[r] === undefined || parseQuantity(limits[r]) !== parseQuantity(requests[r])) guaranteed = false;
    }
  }
  if (!any) return 'BestEffort';
  return guaranteed ? 'Guaranteed' : 'Burstable';
}
