import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { ClusterNodeSummary } from '@aws-sdk/client-sagemaker';
import type { CloudPort, NodeActionResult } from '../../src/cloud/ports.js';
import { lockHolder } from '../../src/engine/locks.js';
import type { PhaseContext } from '../../src/engine/workflow.js';
import {
  deleteNodesWorkflow,
  nodeActionLocks,
  rebootNodesWorkflow,
  replaceNodesWorkflow,
  deepHealthCheckWorkflow,
} from '../../src/capabilities/nodes/workflows/node-action.js';
import {
  judge,
  observed,
  type NodeActionState,
  type NodeTrack,
} from '../../src/capabilities/nodes/workflows/node-tracking.js';
import type { WorkflowDeps } from '../../src/workflows/context.js';
import type { OperationRecord } from '../../src/store/operations-store.js';

const A = 'i-0aaaaaaaaaaaaaaaa';
const B = 'i-0bbbbbbbbbbbbbbbb';
const NEW = 'i-0cccccccccccccccc';
const INPUT = { cluster: 'demo', region: 'us-west-2', nodeIds: [A, B, 'i-123'] };

const node = (
  InstanceId: string | undefined,
  Status: string,
  NodeLogicalId = `slot-${InstanceId}`,
  Message?: string,
): ClusterNodeSummary =>
  ({
    InstanceId,
    NodeLogicalId,
    InstanceGroupName: 'workers',
    InstanceStatus: { Status, ...(Message ? { Message } : {}) },
  }) as ClusterNodeSummary;

/** A HyperPod that reports `nodes` and records each Batch* call; `answer` decides the per-node answers. */
function fakeCloud(
  nodes: () => ClusterNodeSummary[],
  answer: (ids: string[]) => NodeActionResult[] = (ids) => ids.map((nodeId) => ({ nodeId, ok: true })),
) {
  const calls: Array<{ op: string; ids: string[] }> = [];
  const act = (op: string) => async (_r: string, _c: string, ids: string[]) => {
    calls.push({ op, ids });
    return answer(ids);
  };
  const hyperpodNodes = {
    listAll: async () => nodes(),
    reboot: act('reboot'),
    replace: act('replace'),
    delete: act('delete'),
    startDeepHealthCheck: async (_r: string, _c: string, _g: string, ids: string[]) =>
      void calls.push({ op: 'dhc', ids }),
  };
  const deps = {
    cloud: { hyperpodNodes } as unknown as CloudPort,
  } satisfies WorkflowDeps;
  return { deps, calls };
}

/** A phase context over a state held here: what the journal would persist. */
function context(state: NodeActionState, input: Record<string, unknown> = INPUT) {
  const logs: string[] = [];
  const ctx = {
    operationId: 'op-1',
    input,
    get state() {
      return state;
    },
    setState(patch: Partial<NodeActionState>) {
      state = { ...state, ...patch };
    },
    log: (m: string) => void logs.push(m),
    signal: new AbortController().signal,
    attempt: 1,
    earlierFailures: [],
  } as unknown as PhaseContext<any, NodeActionState>;
  return { ctx, logs, state: () => state };
}

const stepOf = (s: NodeActionState, id: string) => s.nodes.find((t) => t.nodeId === id)!.step;

describe('node-action workflows', () => {
  it('starts with every id asked, and a bad id failed for itself alone (InvalidNodeId)', () => {
    const wf = rebootNodesWorkflow(fakeCloud(() => []).deps);
    const s = wf.initialState(INPUT);
    assert.deepEqual(
      s.nodes.map((t) => t.step),
      ['asked', 'asked', 'failed'],
    );
    assert.equal(s.nodes[2]!.code, 'InvalidNodeId');
    assert.match(s.nodes[2]!.message!, /i-123 must be an EC2 instance id/);
  });

  it("journals each node as sent before the call and records HyperPod's per-node answers", async () => {
    let atCall: NodeActionState | undefined;
    const c = context({
      nodes: [
        { nodeId: A, step: 'asked' },
        { nodeId: B, step: 'asked' },
      ],
    });
    const cloud = fakeCloud(
      () => [node(A, 'Running'), node(B, 'Running')],
      (ids) => {
        atCall = c.state();
        return ids.map((nodeId) =>
          nodeId === B ? { nodeId, ok: false, code: 'InstanceIdInUse', message: 'busy' } : { nodeId, ok: true },
        );
      },
    );
    const [request] = rebootNodesWorkflow(cloud.deps).phases;
    assert.equal(await request!.observe(c.ctx), 'needs-act');
    await request!.act!(c.ctx);
    assert.deepEqual(
      atCall!.nodes.map((t) => t.step),
      ['sent', 'sent'],
      'sent is persisted before the call',
    );
    assert.equal(stepOf(c.state(), A), 'accepted');
    assert.equal(c.state().nodes[0]!.logicalId, `slot-${A}`);
    assert.deepEqual(c.state().nodes[1], {
      nodeId: B,
      step: 'failed',
      code: 'InstanceIdInUse',
      message: 'busy',
      logicalId: `slot-${B}`,
    });
  });

  it('after a crash between the call and its answer, a node already rebooting is not rebooted again; one still Running is', async () => {
    const cloud = fakeCloud(() => [node(A, 'Pending', undefined, 'Rebooting instance'), node(B, 'Running')]);
    const c = context({
      nodes: [
        { nodeId: A, step: 'sent' },
        { nodeId: B, step: 'sent' },
      ],
    });
    const [request] = rebootNodesWorkflow(cloud.deps).phases;
    assert.equal(await request!.observe(c.ctx), 'needs-act');
    assert.equal(stepOf(c.state(), A), 'accepted');
    assert.equal(stepOf(c.state(), B), 'asked');
    await request!.act!(c.ctx);
    assert.deepEqual(
      cloud.calls,
      [{ op: 'reboot', ids: [B] }],
      'only the node HyperPod shows no reboot for is asked again',
    );
    assert.equal(await request!.observe(c.ctx), 'done');
  });

  it('after a crash, a replaced node (gone under its id, its slot still there) and a deleted node are not asked again', async () => {
    const replaced = fakeCloud(() => [node(undefined, 'Pending', `slot-${A}`)]);
    const c = context({ nodes: [{ nodeId: A, step: 'sent', logicalId: `slot-${A}` }] });
    assert.equal(await replaceNodesWorkflow(replaced.deps).phases[0]!.observe(c.ctx), 'done');
    assert.equal(replaced.calls.length, 0);
    const deleted = fakeCloud(() => []);
    const d = context({ nodes: [{ nodeId: A, step: 'sent' }] });
    assert.equal(await deleteNodesWorkflow(deleted.deps).phases[0]!.observe(d.ctx), 'done');
    assert.equal(stepOf(d.state(), A), 'accepted');
  });

  it('deep health checks: nodes not Running in the group are refused per node, the rest checked in one call', async () => {
    const input = { ...INPUT, nodeIds: [A, B], instanceGroupName: 'workers', checks: ['InstanceStress'] };
    const cloud = fakeCloud(() => [node(A, 'Running'), node(B, 'Pending')]);
    const c = context(
      {
        nodes: [
          { nodeId: A, step: 'asked' },
          { nodeId: B, step: 'asked' },
        ],
      },
      input,
    );
    await deepHealthCheckWorkflow(cloud.deps).phases[0]!.act!(c.ctx);
    assert.deepEqual(cloud.calls, [{ op: 'dhc', ids: [A] }]);
    assert.equal(stepOf(c.state(), A), 'accepted');
    assert.equal(c.state().nodes[1]!.code, 'InvalidInstanceStatus');
  });

  it('settles each node on what ListClusterNodes reports and gives one result per node', async () => {
    let nodes = [node(A, 'Pending'), node(B, 'Running')];
    const cloud = fakeCloud(() => nodes);
    const wf = rebootNodesWorkflow(cloud.deps);
    const c = context({
      nodes: [
        { nodeId: A, step: 'accepted' },
        { nodeId: B, step: 'failed', code: 'InstanceIdInUse', message: 'busy' },
        { nodeId: 'i-123', step: 'failed', code: 'InvalidNodeId', message: 'bad' },
      ],
    });
    const settle = wf.phases[1]!;
    assert.equal(await settle.observe(c.ctx), 'in-progress');
    const first = await settle.await!(c.ctx);
    assert.equal(first.done, false);
    assert.match(first.progress!, /0 of 3 done, 2 failed; waiting for i-0a+ \(Pending\)/);
    nodes = [node(A, 'Running'), node(B, 'Running')];
    assert.equal((await settle.await!(c.ctx)).done, true, 'seen rebooting, now Running: done');
    const result = wf.result!(c.state(), INPUT);
    assert.deepEqual(result, {
      cluster: 'demo',
      region: 'us-west-2',
      action: 'reboot',
      succeeded: 1,
      failed: 2,
      results: [
        { nodeId: A, outcome: 'succeeded' },
        { nodeId: B, outcome: 'failed', code: 'InstanceIdInUse', message: 'busy' },
        { nodeId: 'i-123', outcome: 'failed', code: 'InvalidNodeId', message: 'bad' },
      ],
    });
  });

  it("judges each action by its own end: a replacement by its slot's new instance, a delete by the node being gone, a Failure as failed", () => {
    const t: NodeTrack = { nodeId: A, step: 'accepted', logicalId: 'slot-a' };
    assert.equal(judge('replace', t, observed([node(undefined, 'Pending', 'slot-a')])).step, 'accepted');
    assert.deepEqual(judge('replace', t, observed([node(NEW, 'Running', 'slot-a')])), {
      ...t,
      step: 'succeeded',
      newInstanceId: NEW,
    });
    assert.equal(judge('replace', t, observed([])).code, 'NodeGone');
    assert.equal(judge('delete', t, observed([node(A, 'ShuttingDown', 'slot-a')])).step, 'accepted');
    assert.equal(judge('delete', t, observed([])).step, 'succeeded');
    const broken = judge('deep-health-check', t, observed([node(A, 'Failure', 'slot-a', 'DCGM diag failed')]));
    assert.equal(broken.step, 'failed');
    assert.equal(broken.code, 'DeepHealthCheckFailed');
    assert.match(broken.message!, /DCGM diag failed/);
    // A reboot that ended between two reads: Running three reads in a row counts as done.
    let quiet = t;
    for (let i = 0; i < 2; i++) quiet = judge('reboot', quiet, observed([node(A, 'Running', 'slot-a')]));
    assert.equal(quiet.step, 'accepted');
    assert.equal(judge('reboot', quiet, observed([node(A, 'Running', 'slot-a')])).step, 'succeeded');
  });

  it('locks each valid node exclusively (the cluster shared); a delete also holds the UpdateCluster channel', () => {
    const locks = nodeActionLocks('reboot', INPUT);
    assert.deepEqual(
      locks.map((l) => `${l.mode} ${l.resource}`),
      [
        'shared cluster/us-west-2/demo',
        `exclusive cluster/us-west-2/demo/node/${A}`,
        `exclusive cluster/us-west-2/demo/node/${B}`,
      ],
    );
    const wf = replaceNodesWorkflow(fakeCloud(() => []).deps);
    const running = { kind: 'replace-nodes', input: { ...INPUT, nodeIds: [B] } } as unknown as OperationRecord;
    assert.ok(
      lockHolder(nodeActionLocks('reboot', INPUT), [running], () => wf),
      'a reboot of a node being replaced clashes',
    );
    assert.equal(
      lockHolder(nodeActionLocks('reboot', { ...INPUT, nodeIds: [A] }), [running], () => wf),
      undefined,
      'other nodes go ahead',
    );
    assert.ok(
      nodeActionLocks('delete', INPUT).some(
        (l) => l.resource === 'cluster/us-west-2/demo/update-cluster' && l.mode === 'exclusive',
      ),
    );
  });
});
