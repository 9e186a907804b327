import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { kubeAccess, type TestKubeCluster } from '../helpers/kube.js';
import type { TestSandbox } from '../helpers/sandbox.js';
import { startSandboxAndServer, stopAll, type TestServer } from '../helpers/server.js';
import { call } from '../mcp/client-helpers.js';
import { ensureQuota } from '../sandbox/sagemaker-fixtures.js';

const SPEED = 600;
const GPU = 'ml.g5.8xlarge';
const url = '/api/v1/clusters/elastic/autoscaling';
const groupsUrl = '/api/v1/clusters/elastic/instance-groups';

const DEPLOYMENT = `apiVersion: apps/v1
kind: Deployment
metadata: { name: infer, namespace: default }
spec:
  replicas: 2
  selector: { matchLabels: { app: infer } }
  template:
    metadata: { labels: { app: infer } }
    spec:
      containers:
        - { name: server, image: vllm/vllm-openai:latest, resources: { limits: { nvidia.com/gpu: 1 }, requests: { cpu: "2", memory: 8Gi } } }
`;

/** Real-time polling: the sandbox runs at 600× so minutes of cloud time pass in a second or so. */
async function until<T>(what: string, probe: () => Promise<T | undefined | false>, seconds = 90): Promise<T> {
  for (let i = 0; i < seconds * 2; i++) {
    const v = await probe();
    if (v) return v;
    await new Promise((r) => setTimeout(r, 500));
  }
  throw new Error(`timed out waiting for ${what}`);
}

/**
 * Managed autoscaling end to end: refused by name before AWS when the groups cannot be scaled;
 * enabled through MCP (ClusterRole, AutoScaling, Karpenter objects Ready); a Deployment that needs
 * GPUs scales a zero-count group up through HyperPod; idle nodes go away again; disabled through REST.
 */
describe('managed node autoscaling (HyperPod-managed Karpenter) through REST and MCP on the sandbox', () => {
  let sb: TestSandbox;
  let server: TestServer;
  let mcp: Client;
  let kube: TestKubeCluster;
  const gpuGroup = async () =>
    (await server.api('GET', groupsUrl)).body.instanceGroups.find((g: any) => g.name === 'gpu');

  before(async () => {
    ({ sb, server } = await startSandboxAndServer(SPEED));
    await ensureQuota(sb, `${GPU} for cluster usage`, 4);
    // The first group (CPU) runs CoreDNS and the add-ons, so only the GPU pods wait for capacity.
    const created = await server.api('POST', '/api/v1/clusters', {
      name: 'elastic',
      availabilityZone: 'us-west-2b',
      instanceType: 'ml.c5.xlarge',
      instanceCount: 1,
      storage: { s3: false },
    });
    assert.equal(created.status, 202, JSON.stringify(created.body));
    assert.equal((await server.waitForOperation(created.body.operation.id)).status, 'succeeded');
    const gpu = await server.api('POST', groupsUrl, {
      name: 'gpu',
      availabilityZone: 'us-west-2b',
      instanceType: GPU,
      instanceCount: 0,
    });
    assert.equal(gpu.status, 202, JSON.stringify(gpu.body));
    assert.equal((await server.waitForOperation(gpu.body.operation.id)).status, 'succeeded');
    const dhc = await server.api('POST', groupsUrl, {
      name: 'checked',
      availabilityZone: 'us-west-2b',
      instanceType: GPU,
      instanceCount: 0,
      deepHealthChecks: true,
    });
    assert.equal((await server.waitForOperation(dhc.body.operation.id)).status, 'succeeded');
    mcp = new Client({ name: 'e2e-autoscaling', version: '1.0.0' });
    await mcp.connect(new StreamableHTTPClientTransport(new URL(`${server.url}/mcp`)));
    kube = await kubeAccess(sb, 'elastic-eks');
  });
  after(() => stopAll(mcp, server, sb));

  it('starts off, and says it covers HyperPod instance groups only', async () => {
    const r = await server.api('GET', url);
    assert.equal(r.status, 200, JSON.stringify(r.body));
    assert.equal(r.body.mode, 'Disable');
    assert.equal(r.body.continuous, true);
    assert.deepEqual(r.body.instanceGroups, []);
    assert.match(r.body.scope, /HyperPod instance groups only .*does not scale EKS managed node groups/);
  });

  it('refuses groups it cannot scale by name, before any AWS change', async () => {
    const mutationsBefore = (await sb.calls({ service: 'sagemaker', mutating: true })).length;
    const missing = await server.api('PUT', url, { enabled: true });
    assert.equal(missing.status, 400);
    assert.equal(missing.body.errors[0].path, 'instanceGroups');
    for (const [groups, message] of [
      [['gpu', 'nope'], /no instance group 'nope'/],
      [['checked'], /'checked' runs deep health checks/],
    ] as const) {
      const r = await server.api('PUT', url, { enabled: true, instanceGroups: groups });
      assert.equal(r.status, 422, JSON.stringify(r.body));
      assert.equal(r.body.errors[0].path, 'instanceGroups');
      assert.match(r.body.detail, message);
    }
    assert.equal((await sb.calls({ service: 'sagemaker', mutating: true })).length, mutationsBefore);
    const role = await sb.aws(['iam', 'get-role', '--role-name', 'instantstart-elastic-autoscaling'], {
      allowFailure: true,
    });
    assert.notEqual(role.code, 0, 'no ClusterRole made for a refused request');
  });

  it('enables through MCP: ClusterRole trusted by HyperPod, AutoScaling on, HyperpodNodeClass and NodePool Ready', async () => {
    const started = await call(mcp, 'set_autoscaling', { cluster: 'elastic', enabled: true, groups: ['gpu'] });
    assert.ok(!started.isError, started.text);
    const opId = (started.structuredContent as any).operationId;
    const op = await server.waitForOperation(opId);
    assert.equal(op.status, 'succeeded', JSON.stringify(op.error));

    const shown = await call(mcp, 'get_autoscaling', { cluster: 'elastic' });
    assert.match(shown.text, /Autoscaling of elastic is on \(InService\)/);
    assert.match(shown.text, /Groups Karpenter may scale: gpu/);
    const v = (await server.api('GET', url)).body;
    assert.equal(v.mode, 'Enable');
    assert.equal(v.autoScalerType, 'Karpenter');
    assert.deepEqual(v.instanceGroups, ['gpu']);
    assert.equal(v.nodeClass.ready, true);
    assert.equal(v.nodePool.ready, true);

    const role = (await sb.aws(['iam', 'get-role', '--role-name', 'instantstart-elastic-autoscaling'])).json.Role;
    assert.equal(v.clusterRoleArn, role.Arn);
    assert.match(JSON.stringify(role.AssumeRolePolicyDocument), /hyperpod\.sagemaker\.amazonaws\.com/);
    const described = (await sb.aws(['sagemaker', 'describe-cluster', '--cluster-name', 'elastic'])).json;
    assert.deepEqual(
      [described.AutoScaling.Mode, described.AutoScaling.AutoScalerType, described.ClusterRole],
      ['Enable', 'Karpenter', role.Arn],
    );
    assert.match((await kube.kubectl(['get', 'nodepools'])).stdout, /instantstart\s+instantstart\s+0\s+True/);

    // The same request again changes nothing in AWS.
    const mutationsBefore = (await sb.calls({ service: 'sagemaker', operation: 'UpdateCluster', mutating: true }))
      .length;
    const again = await server.api('PUT', url, { enabled: true, instanceGroups: ['gpu'] });
    assert.equal((await server.waitForOperation(again.body.operation.id)).status, 'succeeded');
    assert.equal(
      (await sb.calls({ service: 'sagemaker', operation: 'UpdateCluster', mutating: true })).length,
      mutationsBefore,
    );
  });

  it('scales the zero-count group up for pods that need GPUs, and back to zero once they are gone', async () => {
    assert.equal((await gpuGroup()).targetCount, 0);
    await kube.kubectl(['apply', '-f', '-'], { input: DEPLOYMENT });
    await until('two GPU nodes running the pods', async () => {
      const g = await gpuGroup();
      if (g.currentCount !== 2) return false;
      const pods = JSON.parse((await kube.kubectl(['get', 'pods', '-l', 'app=infer', '-o', 'json'])).stdout).items;
      return pods.length === 2 && pods.every((p: any) => p.status.phase === 'Running');
    });
    // The node table reads a snapshot shared for a few seconds (the group and health views read it too
    // while the group is short): it shows the new nodes healthy within that time.
    const nodes = await until(
      'the node table to show both GPU nodes healthy',
      async () => {
        const r = await server.api('GET', '/api/v1/clusters/elastic/nodes?group=gpu');
        return r.body.total === 2 && r.body.nodes.every((n: any) => n.health.state === 'healthy') && r;
      },
      15,
    );
    assert.ok(
      nodes.body.nodes.every((n: any) => n.instanceType === GPU),
      JSON.stringify(nodes.body.nodes),
    );
    const events = (await server.api('GET', '/api/v1/clusters/elastic/events?group=gpu')).body.events;
    assert.ok(
      events.some((e: any) => /Autoscaling \(Karpenter\) added a node to instance group 'gpu'/.test(e.message)),
      JSON.stringify(events.slice(0, 5)),
    );

    await kube.kubectl(['delete', 'deployment', 'infer']);
    await until('the group back at zero', async () => {
      const g = await gpuGroup();
      return g.targetCount === 0 && g.currentCount === 0;
    });
  });

  it('disables through REST; counts then change only when scaled', async () => {
    const r = await server.api('PUT', url, { enabled: false });
    assert.equal(r.status, 202, JSON.stringify(r.body));
    assert.equal((await server.waitForOperation(r.body.operation.id)).status, 'succeeded');
    const v = (await server.api('GET', url)).body;
    assert.equal(v.mode, 'Disable');
    await kube.kubectl(['apply', '-f', '-'], { input: DEPLOYMENT.replace('replicas: 2', 'replicas: 1') });
    await new Promise((res) => setTimeout(res, 2000));
    assert.equal((await gpuGroup()).targetCount, 0, 'no node is added while autoscaling is off');
  });
});
