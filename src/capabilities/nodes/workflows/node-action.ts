import { NODE_ACTION_BATCH_LIMITS } from '../../../domain/instance-groups.js';
import { clusterNodesTarget, clusterTarget, clusterUpdateChannel, nodeLock } from '../../../domain/naming.js';
import {
  NODE_ACTION_KINDS,
  nodeIdProblem,
  type DeepHealthCheckInput,
  type NodeActionInput,
  type NodeActionName,
  type NodeActionResult,
} from '../../../domain/schemas/nodes.js';
import {
  exclusive,
  shared,
  type LockClaim,
  type PhaseContext,
  type PhaseDefinition,
} from '../../../engine/workflow.js';
import type { NodeActionResult as PortResult } from '../../../cloud/ports.js';
import type { WorkflowDeps } from '../../../workflows/context.js';
import { defineWorkflow, type KindWorkflow } from '../../../workflows/define.js';
import {
  judge,
  observed,
  outcomes,
  progressLine,
  underWay,
  type NodeActionState,
  type NodeTrack,
  type ObservedNodes,
} from './node-tracking.js';

/**
 * reboot-nodes, replace-nodes, delete-nodes and deep-health-check: one workflow shape, two phases.
 * `request` asks HyperPod (Batch*ClusterNodes, StartClusterHealthCheck) and records HyperPod's answer
 * per node; `settle` awaits every accepted node's end state as ListClusterNodes reports it. The
 * operation succeeds once every node reached a terminal state; its result has one entry per node
 * (succeeded, or failed with why) — like AWS's Batch* answers, a refused node does not fail the rest.
 */

type Input = NodeActionInput | DeepHealthCheckInput;
type Ctx = PhaseContext<Input, NodeActionState>;

/** Each action's titles, its settle's typical duration and how long that wait may take (`waitSeconds`). */
const TITLES: Record<
  NodeActionName,
  { request: string; settle: string; expectedSeconds: number; waitSeconds: number }
> = {
  reboot: {
    request: 'Ask HyperPod to reboot the nodes',
    settle: 'Wait for the nodes to run again',
    expectedSeconds: 300,
    waitSeconds: 1800, // a reboot is back within minutes
  },
  replace: {
    request: 'Ask HyperPod to replace the nodes',
    settle: 'Wait for the replacements to run',
    expectedSeconds: 600,
    waitSeconds: 7200, // a new instance (capacity permitting) and its health checks
  },
  delete: {
    request: 'Ask HyperPod to delete the nodes',
    settle: 'Wait for the nodes to be gone',
    expectedSeconds: 240,
    waitSeconds: 3600, // HyperPod drains, then terminates
  },
  'deep-health-check': {
    request: 'Start the deep health checks',
    settle: 'Wait for the checks to end',
    expectedSeconds: 1800,
    waitSeconds: 28_800, // stress, DCGM level 4, EFA and NCCL tests: hours on big nodes, by intent
  },
};

/** Every id as asked: those that are not node ids are refused at once, for that node alone. */
function initialNodes(input: Input): NodeTrack[] {
  return input.nodeIds.map((nodeId) => {
    const problem = nodeIdProblem(nodeId);
    return problem
      ? { nodeId, step: 'failed', code: 'InvalidNodeId', message: `${nodeId} ${problem}` }
      : { nodeId, step: 'asked' };
  });
}

/**
 * The cluster is neither created nor deleted meanwhile (shared), and each node has one action at a
 * time (exclusive per node). A delete also shrinks groups, so it takes the UpdateCluster channel too:
 * a scale restating a group's count from an older read would undo it.
 */
export function nodeActionLocks(action: NodeActionName, input: Input): LockClaim[] {
  const claims = [shared(clusterTarget(input.region, input.cluster))];
  if (action === 'delete') claims.push(exclusive(clusterUpdateChannel(input.region, input.cluster)));
  for (const id of input.nodeIds)
    if (!nodeIdProblem(id)) claims.push(exclusive(nodeLock(input.region, input.cluster, id)));
  return claims;
}

async function readNodes(deps: WorkflowDeps, input: Input): Promise<ObservedNodes> {
  return observed(await deps.cloud.hyperpodNodes.listAll(input.region, input.cluster));
}

function replaceNodes(ctx: Ctx, changed: ReadonlyMap<string, NodeTrack>): void {
  ctx.setState({ nodes: ctx.state.nodes.map((t) => changed.get(t.nodeId) ?? t) });
}

function requestPhase(deps: WorkflowDeps, action: NodeActionName): PhaseDefinition<Input, NodeActionState> {
  return {
    name: 'request',
    title: TITLES[action].request,
    expectedSeconds: 5,
    deadline: { actSeconds: 300, waitSeconds: 300 }, // one Batch* call per 99 nodes
    async observe(ctx) {
      const sent = ctx.state.nodes.filter((t) => t.step === 'sent');
      if (sent.length) {
        // Asked before a restart, answer unknown: what HyperPod shows decides, not a second request.
        const seen = await readNodes(deps, ctx.input);
        const changed = new Map(
          sent.map((t) => [
            t.nodeId,
            { ...t, step: underWay(action, t, seen) ? 'accepted' : 'asked' } satisfies NodeTrack,
          ]),
        );
        replaceNodes(ctx, changed);
        const resumed = [...changed.values()].filter((t) => t.step === 'accepted').map((t) => t.nodeId);
        if (resumed.length) ctx.log(`Already under way, not asked again: ${resumed.join(', ')}`);
      }
      return ctx.state.nodes.some((t) => t.step === 'asked') ? 'needs-act' : 'done';
    },
    async act(ctx) {
      const seen = await readNodes(deps, ctx.input);
      const asked = ctx.state.nodes.filter((t) => t.step === 'asked').map((t) => ({ ...t, ...logicalIdOf(t, seen) }));
      if (action === 'deep-health-check') await startChecks(deps, ctx, asked, seen);
      else await batchAct(deps, ctx, action, asked);
    },
  };
}

function logicalIdOf(t: NodeTrack, seen: ObservedNodes): Partial<NodeTrack> {
  const id = seen.byId.get(t.nodeId)?.NodeLogicalId;
  return id ? { logicalId: id } : {};
}

/** Batch*ClusterNodes, one call per AWS limit; each chunk is journaled as sent before its call. */
async function batchAct(
  deps: WorkflowDeps,
  ctx: Ctx,
  action: Exclude<NodeActionName, 'deep-health-check'>,
  asked: NodeTrack[],
): Promise<void> {
  const port = deps.cloud.hyperpodNodes;
  const call = { reboot: port.reboot, replace: port.replace, delete: port.delete }[action].bind(port);
  const limit = NODE_ACTION_BATCH_LIMITS[action];
  for (let i = 0; i < asked.length; i += limit) {
    const chunk = asked.slice(i, i + limit);
    replaceNodes(ctx, new Map(chunk.map((t) => [t.nodeId, { ...t, step: 'sent' } satisfies NodeTrack])));
    const answers = new Map<string, PortResult>(
      (
        await call(
          ctx.input.region,
          ctx.input.cluster,
          chunk.map((t) => t.nodeId),
        )
      ).map((r) => [r.nodeId, r]),
    );
    const answered = chunk.map((t): NodeTrack => {
      const a = answers.get(t.nodeId);
      if (!a) return { ...t, step: 'failed', code: 'NoAnswer', message: 'HyperPod did not answer for this node.' };
      return a.ok
        ? { ...t, step: 'accepted' }
        : { ...t, step: 'failed', code: a.code ?? 'Refused', message: a.message ?? 'HyperPod refused the node.' };
    });
    replaceNodes(ctx, new Map(answered.map((t) => [t.nodeId, t])));
    const refused = answered.filter((t) => t.step === 'failed');
    ctx.log(
      `${action}: HyperPod accepted ${answered.length - refused.length} of ${answered.length} node(s)${refused.length ? `; refused ${refused.map((t) => `${t.nodeId} (${t.code})`).join(', ')}` : ''}`,
    );
  }
}

/**
 * StartClusterHealthCheck is one call for all nodes, refused whole when one node cannot be checked:
 * nodes that are not Running nodes of the group are refused here, per node, and the rest are checked.
 */
async function startChecks(deps: WorkflowDeps, ctx: Ctx, asked: NodeTrack[], seen: ObservedNodes): Promise<void> {
  const input = ctx.input as DeepHealthCheckInput;
  const refuse = (t: NodeTrack): NodeTrack | undefined => {
    const node = seen.byId.get(t.nodeId);
    if (!node || node.InstanceGroupName !== input.instanceGroupName)
      return {
        ...t,
        step: 'failed',
        code: 'InstanceIdNotFound',
        message: `${t.nodeId} is not a node of instance group '${input.instanceGroupName}'.`,
      };
    const status = node.InstanceStatus?.Status;
    if (status !== 'Running')
      return {
        ...t,
        step: 'failed',
        code: 'InvalidInstanceStatus',
        message: `${t.nodeId} is ${status ?? 'in an unknown state'}; deep health checks run on Running nodes only.`,
      };
    return undefined;
  };
  const judged = asked.map((t) => refuse(t) ?? { ...t, step: 'sent' as const });
  replaceNodes(ctx, new Map(judged.map((t) => [t.nodeId, t])));
  const checked = judged.filter((t) => t.step === 'sent');
  if (checked.length === 0) {
    ctx.log('No node can be checked now; nothing was started.', 'warn');
    return;
  }
  await deps.cloud.hyperpodNodes.startDeepHealthCheck(
    input.region,
    input.cluster,
    input.instanceGroupName,
    checked.map((t) => t.nodeId),
    input.checks,
  );
  replaceNodes(ctx, new Map(checked.map((t) => [t.nodeId, { ...t, step: 'accepted' } satisfies NodeTrack])));
  ctx.log(
    `Deep health checks (${input.checks.join(', ')}) started on ${checked.length} node(s)${checked.length < judged.length ? `; ${judged.length - checked.length} refused` : ''}`,
  );
}

function settlePhase(deps: WorkflowDeps, action: NodeActionName): PhaseDefinition<Input, NodeActionState> {
  return {
    name: 'settle',
    title: TITLES[action].settle,
    expectedSeconds: TITLES[action].expectedSeconds,
    deadline: { actSeconds: 300, waitSeconds: TITLES[action].waitSeconds }, // act: reads only
    async observe(ctx) {
      return ctx.state.nodes.some((t) => t.step === 'accepted') ? 'in-progress' : 'done';
    },
    async await(ctx) {
      const seen = await readNodes(deps, ctx.input);
      const changed = new Map<string, NodeTrack>();
      for (const t of ctx.state.nodes) {
        const next = judge(action, t, seen);
        if (next === t) continue;
        changed.set(t.nodeId, next);
        if (next.step === 'succeeded')
          ctx.log(`${t.nodeId}: done${next.newInstanceId ? ` (now ${next.newInstanceId})` : ''}`);
        if (next.step === 'failed') ctx.log(`${t.nodeId}: ${next.code}: ${next.message}`, 'warn');
      }
      if (changed.size) replaceNodes(ctx, changed);
      return {
        done: !ctx.state.nodes.some((t) => t.step === 'accepted'),
        progress: progressLine(action, ctx.state.nodes, seen),
      };
    },
  };
}

function result(action: NodeActionName, state: NodeActionState, input: Input): NodeActionResult {
  const results = outcomes(state.nodes);
  const succeeded = results.filter((r) => r.outcome === 'succeeded').length;
  return {
    cluster: input.cluster,
    region: input.region,
    action,
    results,
    succeeded,
    failed: results.length - succeeded,
  };
}

function nodeActionWorkflow<K extends (typeof NODE_ACTION_KINDS)[NodeActionName]>(
  deps: WorkflowDeps,
  action: NodeActionName,
  kind: K,
): KindWorkflow<K, NodeActionState> {
  return defineWorkflow(kind, {
    target: (input) => clusterNodesTarget(input.region, input.cluster),
    locks: (input) => nodeActionLocks(action, input),
    initialState: (input) => ({ nodes: initialNodes(input) }),
    phases: [requestPhase(deps, action), settlePhase(deps, action)],
    result: (state, input) => result(action, state, input),
  });
}

export const rebootNodesWorkflow = (deps: WorkflowDeps) => nodeActionWorkflow(deps, 'reboot', NODE_ACTION_KINDS.reboot);
export const replaceNodesWorkflow = (deps: WorkflowDeps) =>
  nodeActionWorkflow(deps, 'replace', NODE_ACTION_KINDS.replace);
export const deleteNodesWorkflow = (deps: WorkflowDeps) => nodeActionWorkflow(deps, 'delete', NODE_ACTION_KINDS.delete);
export const deepHealthCheckWorkflow = (deps: WorkflowDeps) =>
  nodeActionWorkflow(deps, 'deep-health-check', NODE_ACTION_KINDS['deep-health-check']);
