import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { kubeAccess } from '../helpers/kube.js';
import type { TestSandbox } from '../helpers/sandbox.js';
import { startSandboxAndServer, stopAll, type TestServer } from '../helpers/server.js';
import { call } from '../mcp/client-helpers.js';

const SPEED = 600;
const CLUSTER = 'heal';
const nodesUrl = `/api/v1/clusters/${CLUSTER}/nodes`;

/** Polls (real time; the sandbox runs at SPEED) until `probe` gives a value. */
async function until<T>(probe: () => Promise<T | undefined | false>, what: string, seconds = 60): Promise<T> {
  const end = Date.now() + seconds * 1000;
  while (Date.now() < end) {
    const v = await probe();
    if (v) return v;
    await new Promise((r) => setTimeout(r, 500));
  }
  throw new Error(`timed out waiting for ${what}`);
}

describe('nodes and node health: list, investigate, reboot then replace a faulted node (operations with per-node results), deep health checks, events (REST and MCP)', () => {
  let sb: TestSandbox;
  let server: TestServer;
  let mcp: Client;
  let ids: string[] = [];
  before(async () => {
    ({ sb, server } = await startSandboxAndServer(SPEED));
    const created = await server.api('POST', '/api/v1/clusters', {
      name: CLUSTER,
      availabilityZone: 'us-west-2b',
      instanceType: 'ml.c5.xlarge',
      instanceCount: 2,
      storage: { s3: false },
    });
    assert.equal(created.status, 202, JSON.stringify(created.body));
    assert.equal((await server.waitForOperation(created.body.operation.id)).status, 'succeeded');
    mcp = new Client({ name: 'e2e-nodes', version: '1.0.0' });
    await mcp.connect(new StreamableHTTPClientTransport(new URL(`${server.url}/mcp`)));
    // Manual recovery, so the test (not HyperPod) heals the node: a setting users choose with the AWS CLI.
    await sb.aws(['sagemaker', 'update-cluster', '--cluster-name', CLUSTER, '--node-recovery', 'None']);
  });
  after(() => stopAll(mcp, server, sb));

  const healthyNodes = async () => {
    const r = await server.api('GET', `${nodesUrl}?health=healthy&limit=500`);
    assert.equal(r.status, 200, `GET ${nodesUrl}?health=healthy: ${JSON.stringify(r.body)}`);
    return r.body.nodes as any[];
  };

  it('lists the nodes joined with their Kubernetes Nodes, healthy, paged on the server', async () => {
    const all = await until(async () => {
      const r = await server.api('GET', nodesUrl);
      assert.equal(r.status, 200, JSON.stringify(r.body));
      return r.body.counts.healthy === 2 && r.body;
    }, 'two healthy nodes');
    assert.equal(all.total, 2);
    ids = all.nodes.map((n: any) => n.instanceId);
    const kube = await kubeAccess(sb, `${CLUSTER}-eks`);
    const kubeNames = (
      await kube.kubectl(['get', 'nodes', '-l', 'sagemaker.amazonaws.com/compute-type=hyperpod', '-o', 'name'])
    ).stdout
      .trim()
      .split('\n')
      .sort();
    assert.deepEqual(all.nodes.map((n: any) => `node/${n.nodeName}`).sort(), kubeNames);
    for (const n of all.nodes) {
      assert.equal(n.health.state, 'healthy');
      assert.equal(n.instanceGroupName, all.nodes[0].instanceGroupName);
      assert.equal(n.availabilityZone, 'us-west-2b');
      assert.equal(n.kubernetes.ready, 'True');
    }
    const first = await server.api('GET', `${nodesUrl}?limit=1`);
    assert.equal(first.body.nodes.length, 1);
    assert.ok(first.body.nextToken);
    const second = await server.api('GET', `${nodesUrl}?limit=1&nextToken=${encodeURIComponent(first.body.nextToken)}`);
    assert.equal(second.body.nodes.length, 1);
    assert.notEqual(second.body.nodes[0].instanceId, first.body.nodes[0].instanceId);
    assert.equal(second.body.nextToken, undefined, 'the last page has no nextToken');
    const bad = await server.api('GET', `${nodesUrl}?nextToken=garbage&health=sick`);
    assert.equal(bad.status, 400);
    assert.ok(
      bad.body.errors.some((e: any) => e.path === 'health'),
      JSON.stringify(bad.body),
    );
    const missing = await server.api('GET', '/api/v1/clusters/nope/nodes');
    assert.equal(missing.status, 404);
  });

  it('shows a faulted node as failed with the reason and "reboot" as the next step', async () => {
    const victim = ids[0]!;
    const fault = await sb.admin('/_sandbox/faults', {
      method: 'POST',
      body: {
        type: 'node-fault',
        cluster: CLUSTER,
        instanceId: victim,
        health: 'UnschedulablePendingReboot',
        reason: 'Instance status check failed: the instance is unreachable',
      },
    });
    assert.ok(fault.status < 300, JSON.stringify(fault.body));
    const failed = await until(async () => {
      const r = await server.api('GET', `${nodesUrl}?health=failed`);
      return r.body.nodes.find((n: any) => n.instanceId === victim);
    }, 'the faulted node listed as failed');
    assert.equal(failed.health.code, 'pending-reboot');
    assert.equal(failed.health.suggestedAction, 'reboot');
    assert.match(failed.health.reason, /the instance is unreachable/);
    assert.match(failed.health.reason, /node recovery is None/);
    const detail = await server.api('GET', `${nodesUrl}/${victim}`);
    assert.equal(detail.status, 200, JSON.stringify(detail.body));
    assert.equal(detail.body.node.health.state, 'failed');
    assert.equal(detail.body.labels['sagemaker.amazonaws.com/node-health-status'], 'UnschedulablePendingReboot');
    assert.ok(detail.body.conditions.some((c: any) => c.type === 'Ready'));
    assert.ok(detail.body.events.length > 0, 'the node has events');
    const viaMcp = await call(mcp, 'get_node', { cluster: CLUSTER, nodeId: victim });
    assert.ok(!viaMcp.isError, viaMcp.text);
    assert.match(viaMcp.text, /failed — .*the instance is unreachable/);
  });

  it('refuses replace and delete without confirm: true, naming the field, and calls nothing', async () => {
    const before = (await sb.calls({ service: 'sagemaker', mutating: true })).length;
    for (const action of ['replace', 'delete']) {
      const r = await server.api('POST', `${nodesUrl}/${action}`, { nodeIds: [ids[0]] });
      assert.equal(r.status, 400, JSON.stringify(r.body));
      assert.ok(
        r.body.errors.some((e: any) => e.path === 'confirm' && /must be true/.test(e.message)),
        JSON.stringify(r.body),
      );
    }
    const viaMcp = await call(mcp, 'replace_nodes', { cluster: CLUSTER, nodeIds: [ids[0]] });
    assert.ok(viaMcp.isError);
    assert.match(viaMcp.text, /confirm/);
    assert.equal((await sb.calls({ service: 'sagemaker', mutating: true })).length, before);
  });

  /** Polls wait_for_operation (the status tool the node tools name) until the operation ends; its answer. */
  const waitViaMcp = async (operationId: string) =>
    until(
      async () => {
        const w = await call(mcp, 'wait_for_operation', { operationId, timeoutSeconds: 5 });
        assert.ok(!w.isError, w.text);
        return (w.structuredContent as any).terminal && (w.structuredContent as any);
      },
      `operation ${operationId} to end`,
      120,
    );

  it('heals the node through MCP: reboot first, then (after a new fault) replace; each an operation with per-node results', async () => {
    const victim = ids[0]!;
    const list = await call(mcp, 'list_nodes', { cluster: CLUSTER, health: 'failed' });
    assert.ok(!list.isError, list.text);
    assert.match(list.text, new RegExp(`${victim}.*failed.*Next: reboot`));
    // A batch with an unknown node and an id that is not AWS's pattern: both fail alone, the victim reboots.
    const rebooted = await call(mcp, 'reboot_nodes', {
      cluster: CLUSTER,
      nodeIds: [victim, 'i-0000000000000000f', 'i-0123456789'],
    });
    assert.ok(!rebooted.isError, rebooted.text);
    const started = rebooted.structuredContent as any;
    assert.equal(started.kind, 'reboot-nodes');
    assert.equal(started.statusTool, 'wait_for_operation');
    assert.match(rebooted.text, /NOT done yet.*wait_for_operation/s);
    const listed = await call(mcp, 'list_operations', { kind: 'reboot-nodes' });
    assert.ok(!listed.isError, listed.text);
    assert.ok(listed.text.includes(started.operationId), `listed under Operations: ${listed.text}`);
    const ended = await waitViaMcp(started.operationId);
    assert.equal(ended.status, 'succeeded', JSON.stringify(ended));
    const r = ended.result;
    assert.deepEqual(
      r.results.map((x: any) => [x.nodeId, x.outcome, x.code]),
      [
        [victim, 'succeeded', undefined],
        ['i-0000000000000000f', 'failed', 'InstanceIdNotFound'],
        ['i-0123456789', 'failed', 'InvalidNodeId'],
      ],
    );
    assert.equal(r.succeeded, 1);
    assert.ok(
      r.results.every((x: any) => x.outcome === 'succeeded' || x.message),
      'a failed node says why',
    );
    // The operation ended when the node was Running again: it is healthy now, with no polling of list_nodes.
    assert.ok(
      (await healthyNodes()).some((n) => n.instanceId === victim),
      'the rebooted node is healthy when the operation ends',
    );
    const sent = await sb.calls({ service: 'sagemaker', operation: 'BatchRebootClusterNodes' });
    assert.equal(sent.length, 1);

    await sb.admin('/_sandbox/faults', {
      method: 'POST',
      body: {
        type: 'node-fault',
        cluster: CLUSTER,
        instanceId: victim,
        health: 'UnschedulablePendingReplacement',
        reason: 'EC2 system status check failed: hardware failure',
      },
    });
    // A list taken while the fault lands may answer an error (e.g. the node between states): poll on, and say the last
    // one on a timeout.
    let lastError = '';
    const failed = await until(
      async () => {
        const x = await call(mcp, 'list_nodes', { cluster: CLUSTER, health: 'failed' });
        if (x.isError) return void (lastError = x.text);
        return (x.structuredContent as any).nodes.find((n: any) => n.instanceId === victim);
      },
      'the node failed again',
      60,
    ).catch((e: Error) => assert.fail(`${e.message}; last list_nodes error: ${lastError || 'none'}`));
    assert.equal(failed.health.suggestedAction, 'replace');
    const replaced = await call(mcp, 'replace_nodes', { cluster: CLUSTER, nodeIds: [victim], confirm: true });
    assert.ok(!replaced.isError, replaced.text);
    const done = await waitViaMcp((replaced.structuredContent as any).operationId);
    assert.equal(done.status, 'succeeded', JSON.stringify(done));
    const [one] = done.result.results;
    assert.equal(one.outcome, 'succeeded');
    assert.match(one.newInstanceId, /^i-[0-9a-f]{17}$/);
    assert.notEqual(one.newInstanceId, victim);
    const healed = await until(
      async () => {
        // Under CI load a list taken while the replacement's instances change hands has answered an error
        // now and then (cause not yet found: see the printed answer); poll on, and show it in the run's log.
        const r = await server.api('GET', `${nodesUrl}?health=healthy&limit=500`);
        if (r.status !== 200)
          return void console.log(
            `# [nodes] GET ${nodesUrl} during the replacement answered ${r.status}: ${JSON.stringify(r.body)}`,
          );
        const nodes = r.body.nodes as any[];
        return nodes.length === 2 && !nodes.some((n) => n.instanceId === victim) && nodes;
      },
      'a healthy replacement under a new instance id',
      60,
    );
    assert.ok(healed.some((n: any) => n.instanceId === ids[1]));
    assert.ok(
      healed.some((n: any) => n.instanceId === one.newInstanceId),
      'the result names the replacement',
    );
    const fresh = one.newInstanceId as string;
    ids = healed.map((n: any) => n.instanceId);
    // Kubernetes keeps events an hour (seconds at this clock speed): look at the replacement's now.
    const timeline = await call(mcp, 'list_cluster_events', { cluster: CLUSTER, nodeId: fresh, limit: 50 });
    assert.ok(!timeline.isError, timeline.text);
    const kinds = (timeline.structuredContent as any).events
      .filter((e: any) => e.source === 'kubernetes')
      .map((e: any) => e.kind);
    assert.ok(kinds.includes('RegisteredNode'), `the new Node's Kubernetes events are merged in: ${timeline.text}`);
  });

  it('REST: a node action answers 202 with its operation, listed under Operations; a batch of only bad ids is a 400 naming nodeIds; reboot takes no confirm', async () => {
    const before = (await sb.calls({ service: 'sagemaker', mutating: true })).length;
    const bad = await server.api('POST', `${nodesUrl}/reboot`, { nodeIds: ['i-0123456789', 'node-1'] });
    assert.equal(bad.status, 400, JSON.stringify(bad.body));
    assert.ok(
      bad.body.errors.some((e: any) => e.path === 'nodeIds' && /names no node/.test(e.message)),
      JSON.stringify(bad.body),
    );
    const confirmed = await server.api('POST', `${nodesUrl}/reboot`, { nodeIds: [ids[0]], confirm: true });
    assert.equal(confirmed.status, 400, JSON.stringify(confirmed.body));
    assert.equal(
      (await sb.calls({ service: 'sagemaker', mutating: true })).length,
      before,
      'refused requests call nothing',
    );

    const started = await server.api('POST', `${nodesUrl}/reboot`, { nodeIds: [ids[0]] });
    assert.equal(started.status, 202, JSON.stringify(started.body));
    assert.equal(started.body.operation.kind, 'reboot-nodes');
    assert.equal(started.body.statusTool, 'wait_for_operation');
    const again = await server.api('POST', `${nodesUrl}/reboot`, { nodeIds: [ids[0]] });
    assert.equal(again.status, 202, JSON.stringify(again.body));
    assert.equal(
      again.body.operation.id,
      started.body.operation.id,
      'the same request while it runs gets the same operation',
    );
    assert.equal(again.body.existing, true);
    const clash = await server.api('POST', `${nodesUrl}/replace`, { nodeIds: [ids[0]], confirm: true });
    assert.equal(clash.status, 409, 'another action on a node being rebooted is refused, naming the operation');
    const op = await server.waitForOperation(started.body.operation.id);
    assert.equal(op.status, 'succeeded', JSON.stringify(op));
    assert.deepEqual(op.result.results, [{ nodeId: ids[0], outcome: 'succeeded' }]);
    const listed = await server.api('GET', '/api/v1/operations?kind=reboot-nodes');
    assert.equal(listed.status, 200);
    assert.ok(
      listed.body.operations.some((o: any) => o.id === op.id && o.target === `cluster/us-west-2/${CLUSTER}/nodes`),
      JSON.stringify(listed.body),
    );
    assert.equal(
      (await sb.calls({ service: 'sagemaker', operation: 'BatchRebootClusterNodes' })).length,
      2,
      'one call per operation',
    );
  });

  it("runs deep health checks on a group's nodes as an operation; refuses an unknown group by name", async () => {
    const group = (await healthyNodes())[0].instanceGroupName;
    const unknown = await server.api('POST', `${nodesUrl}/deep-health-check`, { instanceGroupName: 'nope' });
    assert.equal(unknown.status, 400, JSON.stringify(unknown.body));
    assert.ok(unknown.body.errors.some((e: any) => e.path === 'instanceGroupName'));
    const started = await call(mcp, 'start_deep_health_check', {
      cluster: CLUSTER,
      group,
      nodeIds: [ids[0]],
      checks: ['InstanceStress'],
    });
    assert.ok(!started.isError, started.text);
    assert.equal((started.structuredContent as any).kind, 'deep-health-check');
    const ended = await waitViaMcp((started.structuredContent as any).operationId);
    assert.equal(ended.status, 'succeeded', JSON.stringify(ended));
    assert.deepEqual(ended.result.results, [{ nodeId: ids[0], outcome: 'succeeded' }]);
    assert.equal((await sb.calls({ service: 'sagemaker', operation: 'StartClusterHealthCheck' })).length, 1);
    assert.equal((await healthyNodes()).length, 2, 'both nodes healthy when the checks ended');
  });

  it('shows one timeline of HyperPod and Kubernetes events, newest first', async () => {
    const r = await server.api('GET', `/api/v1/clusters/${CLUSTER}/events?limit=200`);
    assert.equal(r.status, 200, JSON.stringify(r.body));
    const events = r.body.events as any[];
    const times = events.map((e) => Date.parse(e.time));
    assert.deepEqual(
      times,
      [...times].sort((a, b) => b - a),
      'newest first',
    );
    assert.ok(
      events.some((e) => e.source === 'hyperpod' && /reboot/i.test(e.message)),
      'the reboot is in the timeline',
    );
    assert.ok(
      events.some((e) => e.source === 'hyperpod' && /replac/i.test(e.message)),
      'the replacement is in the timeline',
    );
    const viaMcp = await call(mcp, 'list_cluster_events', { cluster: CLUSTER, nodeId: ids[0], limit: 20 });
    assert.ok(!viaMcp.isError, viaMcp.text);
    assert.ok(
      (viaMcp.structuredContent as any).events.every((e: any) => e.instanceId === undefined || e.instanceId === ids[0]),
    );
  });

  it('deletes a node as an operation that ends when the node is gone, its group one smaller', async () => {
    const gone = ids[1]!;
    const started = await server.api('POST', `${nodesUrl}/delete`, { nodeIds: [gone], confirm: true });
    assert.equal(started.status, 202, JSON.stringify(started.body));
    assert.equal(started.body.operation.kind, 'delete-nodes');
    const op = await server.waitForOperation(started.body.operation.id);
    assert.equal(op.status, 'succeeded', JSON.stringify(op));
    assert.deepEqual(op.result.results, [{ nodeId: gone, outcome: 'succeeded' }]);
    const listed = (await sb.aws(['sagemaker', 'list-cluster-nodes', '--cluster-name', CLUSTER])).json
      .ClusterNodeSummaries as any[];
    assert.ok(!listed.some((n) => n.InstanceId === gone), 'HyperPod no longer lists the node when the operation ends');
    const groups = (await sb.aws(['sagemaker', 'describe-cluster', '--cluster-name', CLUSTER])).json
      .InstanceGroups as any[];
    assert.equal(groups[0].TargetCount, 1);
  });
});
