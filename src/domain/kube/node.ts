import { nodeHealth } from '../node-health.js';
import type { KubeNodeFacts, NodeHealth } from '../node-health-terms.js';
import {
  bool,
  kubeKind,
  list,
  parseBase,
  parseConditions,
  rec,
  str,
  strings,
  type Condition,
  type KubeResource,
  type Loose,
} from './kind.js';

/**
 * Node: what HyperPod's instances look like from Kubernetes. InstantStart never creates Nodes (the
 * kubelet registers them); it reads them to join with SageMaker's view, and judges them with the
 * one health model of node-health.ts.
 */

export type NodeTaint = { key: string; value?: string; effect: string };
export type NodeAddress = { type: string; address: string };

export type KubeNode = KubeResource & {
  spec: Loose & { providerID?: string; unschedulable?: boolean; taints: NodeTaint[] };
  status: Loose & {
    conditions: Condition[];
    addresses: NodeAddress[];
    allocatable: Record<string, string>;
    capacity: Record<string, string>;
  };
};

export function parseNode(raw: unknown): KubeNode {
  const base = parseBase(raw, { apiVersion: 'v1', kind: 'Node' });
  const spec = rec(base.spec);
  const status = rec(base.status);
  return {
    ...base,
    spec: {
      ...spec,
      providerID: str(spec.providerID),
      unschedulable: bool(spec.unschedulable),
      taints: list(spec.taints)
        .map(rec)
        .filter((t) => typeof t.key === 'string' && typeof t.effect === 'string')
        .map((t) => ({
          key: t.key as string,
          ...(str(t.value) !== undefined ? { value: str(t.value) } : {}),
          effect: t.effect as string,
        })),
    },
    status: {
      ...status,
      conditions: parseConditions(status.conditions),
      addresses: list(status.addresses)
        .map(rec)
        .filter((a) => typeof a.type === 'string' && typeof a.address === 'string')
        .map((a) => ({ type: a.type as string, address: a.address as string })),
      allocatable: strings(status.allocatable),
      capacity: strings(status.capacity),
    },
  };
}

export const NODE = kubeKind<KubeNode>(
  { apiVersion: 'v1', kind: 'Node', plural: 'nodes', namespaced: false },
  parseNode,
);

/** The EC2 instance id of a Node: from its providerID (aws:///zone/i-…), else its name hyperpod-i-…. */
export function instanceIdOf(node: KubeNode): string | undefined {
  const fromProvider = node.spec.providerID?.split('/').pop();
  if (fromProvider?.startsWith('i-')) return fromProvider;
  return /^hyperpod-(i-[0-9a-f]+)$/.exec(node.metadata.name)?.[1];
}

/** What the health model needs of a Node. */
export function nodeFacts(node: KubeNode): KubeNodeFacts {
  return {
    name: node.metadata.name,
    labels: node.metadata.labels,
    unschedulable: node.spec.unschedulable === true,
    taints: node.spec.taints,
    conditions: node.status.conditions,
  };
}

/**
 * A Node's health from Kubernetes alone (its HyperPod labels, Ready and pressure conditions,
 * cordon); the node views add SageMaker's facts to the same model.
 *
 * @example
 * nodeKubeHealth(parseNode({ metadata: { name: 'n1' }, status: { conditions: [{ type: 'Ready', status: 'True' }] } }),
 * Date.now()).state; // 'healthy'
 */
export function nodeKubeHealth(node: KubeNode, now: number): NodeHealth {
  return nodeHealth({ kube: nodeFacts(node), now, kubernetesOnly: true });
}
