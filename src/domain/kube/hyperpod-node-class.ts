import type { KubeObject } from '../kube-object.js';
import {
  kubeKind,
  list,
  parseBase,
  parseConditions,
  rec,
  readyConditionHealth,
  str,
  MANAGED_BY,
  type Condition,
  type KubeHealth,
  type KubeResource,
  type Loose,
} from './kind.js';

/**
 * HyperpodNodeClass (karpenter.sagemaker.amazonaws.com/v1): which HyperPod instance groups
 * HyperPod-managed Karpenter may scale. Its CRD exists only once autoscaling is turned on for the
 * cluster (HyperPod installs it), so every use goes through the CRD wait of applyAndAwait.
 */

export const HYPERPOD_NODE_CLASS_API = 'karpenter.sagemaker.amazonaws.com/v1';

/** Reasons HyperPod gives when the listed groups cannot be used: no waiting fixes them. */
export const NODE_CLASS_FAILURES = ['InstanceGroupNotFound', 'InstanceGroupNotSupported'] as const;

export type KubeHyperpodNodeClass = KubeResource & {
  spec: Loose & { instanceGroups: string[] };
  status: Loose & {
    conditions: Condition[];
    instanceGroups: Array<{ name: string; instanceTypes: string[]; availabilityZones: string[] }>;
  };
};

const strs = (v: unknown) => list(v).filter((x): x is string => typeof x === 'string');

export function parseHyperpodNodeClass(raw: unknown): KubeHyperpodNodeClass {
  const base = parseBase(raw, { apiVersion: HYPERPOD_NODE_CLASS_API, kind: 'HyperpodNodeClass' });
  const spec = rec(base.spec);
  const status = rec(base.status);
  return {
    ...base,
    spec: { ...spec, instanceGroups: strs(spec.instanceGroups) },
    status: {
      ...status,
      conditions: parseConditions(status.conditions),
      instanceGroups: list(status.instanceGroups)
        .map(rec)
        .filter((g) => typeof g.name === 'string')
        .map((g) => ({
          name: g.name as string,
          instanceTypes: strs(g.instanceTypes),
          availabilityZones: strs(g.availabilityZones),
        })),
    },
  };
}

export const HYPERPOD_NODE_CLASS = kubeKind<KubeHyperpodNodeClass>(
  {
    apiVersion: HYPERPOD_NODE_CLASS_API,
    kind: 'HyperpodNodeClass',
    plural: 'hyperpodnodeclasses',
    namespaced: false,
    crd: 'hyperpodnodeclasses.karpenter.sagemaker.amazonaws.com',
    installedBy:
      'HyperPod-managed Karpenter (turn managed autoscaling on for the cluster: PUT …/autoscaling {"enabled": true})',
    health: hyperpodNodeClassHealth,
  },
  parseHyperpodNodeClass,
);

/** One class listing the groups Karpenter may scale. */
export function hyperpodNodeClassManifest(name: string, instanceGroups: readonly string[]): KubeObject {
  return {
    apiVersion: HYPERPOD_NODE_CLASS_API,
    kind: 'HyperpodNodeClass',
    metadata: { name, labels: { ...MANAGED_BY } },
    spec: { instanceGroups: [...instanceGroups] },
  };
}

export function hyperpodNodeClassHealth(nc: KubeHyperpodNodeClass): KubeHealth {
  return readyConditionHealth(`HyperpodNodeClass ${nc.metadata.name}`, nc.status.conditions, NODE_CLASS_FAILURES);
}
