import {
  isOperationKind,
  OPERATION_KINDS,
  type OperationInputs,
  type OperationKind,
} from '../domain/operation-kinds.js';
import type { OperationView } from '../domain/schemas/operations.js';
import type { ToolName } from './tool-list.js';

/** The call an agent makes next, with its arguments, and why (for the answer's text). */
export interface NextCall {
  tool: ToolName;
  arguments: Record<string, unknown>;
  why: string;
}

/**
 * Where each operation kind's result is read once it succeeded: the call an agent makes to confirm
 * the change and tell the user about it. Written per kind, from the kind's own input, so adding a
 * kind without saying where its result shows does not compile — and no tool guesses it from a name.
 */
const AFTER_SUCCESS: { [K in OperationKind]: (input: OperationInputs[K]) => NextCall } = {
  'create-cluster': (i) => ({
    tool: 'get_cluster',
    arguments: { cluster: i.name, region: i.region },
    why: 'to see the cluster, its instance groups and whether its storage claims are Bound',
  }),
  'delete-cluster': (i) => ({
    tool: 'list_clusters',
    arguments: { region: i.region },
    why: 'to confirm the cluster is no longer listed',
  }),
  'add-instance-group': (i) => ({
    tool: 'list_instance_groups',
    arguments: { cluster: i.cluster, region: i.region },
    why: 'to see the new group and its counts',
  }),
  'scale-instance-group': (i) => ({
    tool: 'list_instance_groups',
    arguments: { cluster: i.cluster, region: i.region },
    why: "to see the group's current and target counts",
  }),
  'update-instance-group': (i) => ({
    tool: 'list_instance_groups',
    arguments: { cluster: i.cluster, region: i.region },
    why: "to see the group's settings",
  }),
  'delete-instance-group': (i) => ({
    tool: 'list_instance_groups',
    arguments: { cluster: i.cluster, region: i.region },
    why: 'to confirm the group is gone',
  }),
  'set-autoscaling': (i) => ({
    tool: 'get_autoscaling',
    arguments: { cluster: i.cluster, region: i.region },
    why: 'to see whether autoscaling is ready on the chosen groups',
  }),
  'set-features': (i) => ({
    tool: 'get_features',
    arguments: { cluster: i.cluster, region: i.region },
    why: "to see each feature's state, version and health as the cluster reports them now",
  }),
  // Node actions: the per-node results are in the operation itself; the node list shows where each stands now.
  'reboot-nodes': (i) => ({
    tool: 'list_nodes',
    arguments: { cluster: i.cluster, region: i.region },
    why: "to see the rebooted nodes' health now",
  }),
  'replace-nodes': (i) => ({
    tool: 'list_nodes',
    arguments: { cluster: i.cluster, region: i.region },
    why: 'to see the replacements (their new instance ids are in the per-node results)',
  }),
  'delete-nodes': (i) => ({
    tool: 'list_instance_groups',
    arguments: { cluster: i.cluster, region: i.region },
    why: "to see the groups' new counts",
  }),
  'deep-health-check': (i) => ({
    tool: 'list_nodes',
    arguments: { cluster: i.cluster, region: i.region, group: i.instanceGroupName },
    why: "to see the checked nodes' health",
  }),
  'add-storage': (i) => ({
    tool: 'list_storage',
    arguments: { cluster: i.cluster, region: i.region },
    why: `to see storage ${i.name} with its claim phase (Bound: pods can mount it)`,
  }),
  'remove-storage': (i) => ({
    tool: 'list_storage',
    arguments: { cluster: i.cluster, region: i.region },
    why: `to confirm storage ${i.name} is no longer listed`,
  }),
  // The files that landed are in the operation's result; the list shows every download of the cluster and where each
  // model is.
  'model-download': (i) => ({
    tool: 'list_model_downloads',
    arguments: { cluster: i.cluster, region: i.region },
    why: "to see where the model landed, next to the cluster's other downloads",
  }),
};

/** The next call after an operation succeeded; undefined for a kind this server does not know or an input it cannot read. */
export function nextCallAfterSuccess(op: OperationView): NextCall | undefined {
  if (!isOperationKind(op.kind)) return undefined;
  const input = OPERATION_KINDS[op.kind].safeParse(op.input);
  if (!input.success) return undefined;
  return (AFTER_SUCCESS[op.kind] as (input: unknown) => NextCall)(input.data);
}
