import type { KubeObject } from '../kube-object.js';
import {
  groupOf,
  kubeKind,
  num,
  parseBase,
  parseConditions,
  rec,
  readyConditionHealth,
  str,
  strings,
  MANAGED_BY,
  type Condition,
  type KubeHealth,
  type KubeResource,
  type Loose,
} from './kind.js';

/**
 * NodePool (karpenter.sh/v1): how Karpenter may add and remove nodes, pointing at a node class.
 * Served once HyperPod runs Karpenter for the cluster (its CRD comes with managed autoscaling).
 */

export const NODE_POOL_API = 'karpenter.sh/v1';

export type KubeNodePool = KubeResource & {
  spec: Loose & { nodeClassRef?: { group?: string; kind?: string; name?: string } };
  status: Loose & { conditions: Condition[]; nodes?: number; resources: Record<string, string> };
};

/** A whole-number quantity (`"3"`, or 3) as a number. */
const count = (v: unknown): number | undefined =>
  typeof v === 'number' ? num(v) : typeof v === 'string' && /^\d+$/.test(v) ? Number(v) : undefined;

export function parseNodePool(raw: unknown): KubeNodePool {
  const base = parseBase(raw, { apiVersion: NODE_POOL_API, kind: 'NodePool' });
  const spec = rec(base.spec);
  const status = rec(base.status);
  const ref = rec(rec(rec(spec.template).spec).nodeClassRef);
  return {
    ...base,
    spec: {
      ...spec,
      ...(Object.keys(ref).length
        ? { nodeClassRef: { group: str(ref.group), kind: str(ref.kind), name: str(ref.name) } }
        : {}),
    },
    // Karpenter v1.6 counts a pool's nodes in `status.resources.nodes` (its printer column's path); `status.nodes` only
    // in later versions.
    status: {
      ...status,
      conditions: parseConditions(status.conditions),
      nodes: num(status.nodes) ?? count(rec(status.resources).nodes),
      resources: strings(status.resources),
    },
  };
}

export const NODE_POOL = kubeKind<KubeNodePool>(
  {
    apiVersion: NODE_POOL_API,
    kind: 'NodePool',
    plural: 'nodepools',
    namespaced: false,
    crd: 'nodepools.karpenter.sh',
    installedBy:
      'HyperPod-managed Karpenter (turn managed autoscaling on for the cluster: PUT …/autoscaling {"enabled": true})',
    health: nodePoolHealth,
  },
  parseNodePool,
);

/**
 * A pool that may launch any instance type of the node class's groups (the groups are the choice
 * of capacity), never expires nodes, and gives empty nodes back after `consolidateAfter`.
 */
export function nodePoolManifest(p: {
  name: string;
  nodeClass: { apiVersion: string; kind: string; name: string };
  consolidateAfter: string;
}): KubeObject {
  return {
    apiVersion: NODE_POOL_API,
    kind: 'NodePool',
    metadata: { name: p.name, labels: { ...MANAGED_BY } },
    spec: {
      template: {
        spec: {
          nodeClassRef: { group: groupOf(p.nodeClass.apiVersion), kind: p.nodeClass.kind, name: p.nodeClass.name },
          requirements: [{ key: 'node.kubernetes.io/instance-type', operator: 'Exists' }],
          expireAfter: 'Never',
        },
      },
      disruption: { consolidationPolicy: 'WhenEmpty', consolidateAfter: p.consolidateAfter },
    },
  };
}

export function nodePoolHealth(pool: KubeNodePool): KubeHealth {
  return readyConditionHealth(`NodePool ${pool.metadata.name}`, pool.status.conditions);
}
