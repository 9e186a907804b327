import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { TestSandbox } from '../helpers/sandbox.js';
import { startSandboxAndServer, stopAll, type TestServer } from '../helpers/server.js';
import { call } from '../mcp/client-helpers.js';

const SPEED = 600;
const CLUSTER = 'short';
const ZONE = 'us-west-2b';
const TYPE = 'ml.c5.xlarge';

async function until<T>(probe: () => Promise<T | undefined | false>, what: string, seconds = 60): Promise<T> {
  const end = Date.now() + seconds * 1000;
  let last: unknown;
  while (Date.now() < end) {
    const v = await probe().catch((err: unknown) => ((last = err), undefined));
    if (v) return v;
    await new Promise((r) => setTimeout(r, 300));
  }
  throw new Error(`timed out waiting for ${what}${last ? ` (last error: ${String(last)})` : ''}`);
}

describe('missing capacity is visible: a replacement that cannot launch shows in list_nodes, the group view and the cluster health (REST and MCP)', () => {
  let sb: TestSandbox;
  let server: TestServer;
  let mcp: Client;
  let group = '';
  let victim = '';

  before(async () => {
    ({ sb, server } = await startSandboxAndServer(SPEED));
    const created = await server.api('POST', '/api/v1/clusters', {
      name: CLUSTER,
      availabilityZone: ZONE,
      instanceType: TYPE,
      instanceCount: 2,
      storage: { s3: false },
    });
    assert.equal(created.status, 202, JSON.stringify(created.body));
    assert.equal((await server.waitForOperation(created.body.operation.id)).status, 'succeeded');
    mcp = new Client({ name: 'e2e-shortfall', version: '1.0.0' });
    await mcp.connect(new StreamableHTTPClientTransport(new URL(`${server.url}/mcp`)));
  });
  after(() => stopAll(mcp, server, sb));

  it('reports a healthy cluster with every group at its target', async () => {
    const nodes = await until(async () => {
      const r = await server.api('GET', `/api/v1/clusters/${CLUSTER}/nodes`);
      return r.body.counts?.healthy === 2 && r.body;
    }, 'two healthy nodes');
    assert.deepEqual(nodes.shortfalls, []);
    group = nodes.nodes[0].instanceGroupName;
    victim = nodes.nodes[0].instanceId;
    const detail = await server.api('GET', `/api/v1/clusters/${CLUSTER}`);
    assert.equal(detail.body.health.state, 'healthy', JSON.stringify(detail.body.health));
    assert.equal(detail.body.health.nodes.total, 2);
    const list = await server.api('GET', '/api/v1/clusters');
    assert.equal(list.body.clusters.find((c: any) => c.name === CLUSTER).health.state, 'healthy');
  });

  it("shows the unlaunched slot and AWS's reason when a replacement finds no capacity", async () => {
    const capacity = await sb.admin('/_sandbox/faults', {
      method: 'POST',
      body: { type: 'insufficient-capacity', availabilityZone: ZONE, instanceType: TYPE, available: 0 },
    });
    assert.ok(capacity.status < 300, JSON.stringify(capacity.body));
    // HyperPod's automatic recovery replaces the node; the new instance cannot launch.
    const fault = await sb.admin('/_sandbox/faults', {
      method: 'POST',
      body: {
        type: 'node-fault',
        cluster: CLUSTER,
        instanceId: victim,
        health: 'UnschedulablePendingReplacement',
        reason: 'EC2 system status check failed: hardware failure',
      },
    });
    assert.ok(fault.status < 300, JSON.stringify(fault.body));

    const listed = await until(async () => {
      const r = await server.api('GET', `/api/v1/clusters/${CLUSTER}/nodes`);
      return r.body.shortfalls?.[0]?.state === 'waiting' && r.body;
    }, 'the group to wait for capacity');
    const s = listed.shortfalls[0];
    assert.equal(s.instanceGroupName, group);
    assert.equal(s.instanceType, TYPE);
    assert.equal(s.targetCount, 2);
    assert.equal(s.launched, 1);
    assert.equal(s.missing, 1);
    assert.equal(s.unlaunched.length, 1);
    assert.match(s.unlaunched[0].nodeLogicalId, /\S/);
    assert.match(s.unlaunched[0].message, /capacity/i, "the slot carries SageMaker's InstanceStatus message");
    assert.match(s.reason, /insufficient ml\.c5\.xlarge capacity in us-west-2b/);
    assert.equal(s.reasonSource, 'cluster-event');
    // The reason is AWS's own event, word for word: not text of ours.
    const events = await server.api('GET', `/api/v1/clusters/${CLUSTER}/events?group=${group}&limit=50`);
    assert.ok(
      events.body.events.some((e: any) => e.source === 'hyperpod' && e.message === s.reason),
      `the reason is one of HyperPod's events: ${s.reason}`,
    );
    assert.equal(listed.nodes.length, 1, 'a slot without an instance is not a node row');

    const groups = await server.api('GET', `/api/v1/clusters/${CLUSTER}/instance-groups`);
    const g = groups.body.instanceGroups.find((x: any) => x.name === group);
    assert.equal(g.shortfall?.missing, 1, JSON.stringify(g));
    assert.equal(g.shortfall.reason, s.reason);

    const detail = await server.api('GET', `/api/v1/clusters/${CLUSTER}`);
    assert.equal(detail.body.health.state, 'degraded', JSON.stringify(detail.body.health));
    assert.match(detail.body.health.summary, new RegExp(`group ${group} has 1 of 2 instances: .*insufficient`, 'i'));
    assert.equal(detail.body.health.shortfalls[0].missing, 1);
    const list = await server.api('GET', '/api/v1/clusters');
    assert.equal(
      list.body.clusters.find((c: any) => c.name === CLUSTER).health.state,
      'degraded',
      'the clusters list rolls the shortfall up too',
    );
  });

  it('says the same through MCP: list_nodes, list_instance_groups, get_cluster and list_clusters', async () => {
    const nodes = await call(mcp, 'list_nodes', { cluster: CLUSTER });
    assert.ok(!nodes.isError, nodes.text);
    assert.match(
      nodes.text,
      new RegExp(
        `group ${group} has 1 of 2 ml\\.c5\\.xlarge instance\\(s\\): 1 not launched \\(waiting\\) — .*insufficient`,
      ),
    );
    assert.equal((nodes.structuredContent as any).shortfalls[0].missing, 1);
    const groups = await call(mcp, 'list_instance_groups', { cluster: CLUSTER });
    assert.match(groups.text, /1 not launched \(waiting\): .*insufficient/);
    const cluster = await call(mcp, 'get_cluster', { cluster: CLUSTER });
    assert.match(cluster.text, /Health: degraded — .*insufficient/);
    const clusters = await call(mcp, 'list_clusters', {});
    assert.match(clusters.text, new RegExp(`${CLUSTER} .*health degraded`));
  });

  it('clears once the capacity is back and the replacement launches', async () => {
    assert.ok((await sb.admin('/_sandbox/faults', { method: 'DELETE' })).status < 300);
    const healed = await until(
      async () => {
        const r = await server.api('GET', `/api/v1/clusters/${CLUSTER}`);
        return r.body.health?.state === 'healthy' && r.body;
      },
      'the cluster to be healthy again',
      90,
    );
    assert.deepEqual(healed.health.shortfalls, []);
    const nodes = await server.api('GET', `/api/v1/clusters/${CLUSTER}/nodes`);
    assert.deepEqual(nodes.body.shortfalls, []);
    assert.equal(nodes.body.counts.healthy, 2);
  });
});
