import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { stringify } from 'yaml';
import { kubeAccess, type TestKubeCluster } from '../helpers/kube.js';
import type { TestSandbox } from '../helpers/sandbox.js';
import { startSandboxAndServer, stopAll, type TestServer } from '../helpers/server.js';

const SPEED = 600;
const CLUSTER = 'tainted';
const GROUP_LABEL = 'sagemaker.amazonaws.com/instance-group-name';
const TAINTS = [
  { key: 'team', value: 'ml', effect: 'NoSchedule' },
  { key: 'dedicated', effect: 'NoSchedule' },
];

/**
 * Serving pods on a tainted instance group, end to end on the sandbox: the group's taints are set through the
 * instance-group edit (one UpdateCluster; HyperPod keeps them on the group's two ml.g5.xlarge nodes), a pod pinned to
 * the group without tolerations stays Pending on them (the scheduler's TaintToleration filter), while a vLLM container
 * endpoint and a model pool's worker placed on the same group tolerate exactly those taints, run, and the endpoint
 * answers a chat completion. (Their GPUs are there because the NVIDIA device plugin already on the nodes keeps running
 * through NoSchedule taints added later, as the DaemonSet controller keeps it.)
 */
describe('inference on a tainted instance group', () => {
  let sb: TestSandbox;
  let server: TestServer;
  let kube: TestKubeCluster;
  let group: string;

  const until = async <T>(probe: () => Promise<T | undefined | false>, what: string, ms = 120_000): Promise<T> => {
    const deadline = Date.now() + ms;
    let last: unknown;
    while (Date.now() < deadline) {
      const v = await probe().catch((err: unknown) => {
        last = err;
        return undefined;
      });
      if (v) return v;
      await new Promise((r) => setTimeout(r, 200));
    }
    throw new Error(`timed out waiting for ${what}${last ? `: ${String(last)}` : ''}`);
  };
  const kubectlJson = async (args: string[]) => JSON.parse((await kube.kubectl([...args, '-o', 'json'])).stdout);
  const operationOk = async (r: { status: number; body: any }) => {
    assert.equal(r.status, 202, JSON.stringify(r.body));
    const op = await server.waitForOperation(r.body.operation.id);
    assert.equal(op.status, 'succeeded', JSON.stringify(op.error ?? op.phases));
  };

  before(async () => {
    ({ sb, server } = await startSandboxAndServer(SPEED));
    await operationOk(
      await server.api('POST', '/api/v1/clusters', {
        name: CLUSTER,
        availabilityZone: 'us-west-2b',
        instanceType: 'ml.g5.xlarge',
        instanceCount: 2,
      }),
    );
    group = (await server.api('GET', `/api/v1/clusters/${CLUSTER}`)).body.instanceGroups[0].name;
    kube = await kubeAccess(sb, `${CLUSTER}-eks`);
    await operationOk(
      await server.api('PATCH', `/api/v1/clusters/${CLUSTER}/instance-groups/${group}`, { taints: TAINTS }),
    );
  });
  after(() => stopAll(server, sb));

  it("the group's nodes carry its taints, and a pod pinned to the group without tolerations stays Pending", async () => {
    const nodes = (await kubectlJson(['get', 'nodes', '-l', `${GROUP_LABEL}=${group}`])).items;
    assert.equal(nodes.length, 2);
    for (const n of nodes)
      for (const t of TAINTS)
        assert.ok(
          n.spec.taints.some((x: any) => x.key === t.key && x.effect === t.effect && x.value === t.value),
          `${n.metadata.name} carries ${t.key}`,
        );
    await kube.kubectl(['apply', '-f', '-'], {
      input: stringify({
        apiVersion: 'v1',
        kind: 'Pod',
        metadata: { name: 'untolerating', namespace: 'default' },
        spec: { nodeSelector: { [GROUP_LABEL]: group }, containers: [{ name: 'c', image: 'busybox:1.36' }] },
      }),
    });
    const unscheduled = await until(async () => {
      const pod = await kubectlJson(['get', 'pod', 'untolerating']);
      const c = (pod.status.conditions ?? []).find((x: any) => x.type === 'PodScheduled');
      return c?.status === 'False' ? c : undefined;
    }, 'the untolerating pod to be refused by the scheduler');
    assert.equal(unscheduled.reason, 'Unschedulable');
    assert.match(unscheduled.message, /untolerated taint/);
    await kube.kubectl(['delete', 'pod', 'untolerating', '--wait=false']);
  });

  it('a vLLM endpoint and a pool worker on the tainted group tolerate exactly its taints, run, and the endpoint answers', async () => {
    const r = await server.api('POST', `/api/v1/clusters/${CLUSTER}/endpoints/container`, {
      name: 'chat',
      engine: 'vllm',
      model: 'Qwen/Qwen3-0.6B',
      instanceGroup: group,
      gpus: 1,
      service: { variant: 'internal' },
    });
    assert.equal(r.status, 201, JSON.stringify(r.body));
    const pool = await server.api('POST', `/api/v1/clusters/${CLUSTER}/model-pools`, {
      name: 'warm',
      engine: 'vllm',
      model: 'Qwen/Qwen3-0.6B',
      instanceGroup: group,
      gpus: 1,
      workers: 1,
    });
    assert.equal(pool.status, 201, JSON.stringify(pool.body));
    const expected = [
      { key: 'team', operator: 'Equal', value: 'ml', effect: 'NoSchedule' },
      { key: 'dedicated', operator: 'Exists', effect: 'NoSchedule' },
    ];
    for (const name of ['chat', 'pool-warm'])
      assert.deepEqual((await kubectlJson(['get', 'deployment', name])).spec.template.spec.tolerations, expected, name);

    const view = await until(async () => {
      const v = (await server.api('GET', `/api/v1/clusters/${CLUSTER}/endpoints/default/chat`)).body;
      return v.state === 'Ready' ? v : undefined;
    }, 'chat Ready');
    assert.equal(view.replicas.ready, 1);
    const worker = await until(async () => {
      const pods = (await kubectlJson(['get', 'pods', '-l', 'instantstart.io/pool=warm'])).items;
      return pods.find((p: any) =>
        (p.status.conditions ?? []).some((c: any) => c.type === 'Ready' && c.status === 'True'),
      );
    }, 'a ready pool worker');
    const nodeNames = new Set(
      (await kubectlJson(['get', 'nodes', '-l', `${GROUP_LABEL}=${group}`])).items.map((n: any) => n.metadata.name),
    );
    assert.ok(nodeNames.has(worker.spec.nodeName), 'the worker runs on a node of the group');

    const answer = await server.api('POST', `/api/v1/clusters/${CLUSTER}/endpoints/default/chat/invoke`, {
      messages: [{ role: 'user', content: 'Say hello.' }],
      maxTokens: 16,
    });
    assert.equal(answer.status, 200, JSON.stringify(answer.body));
    assert.ok(answer.body.content.length > 0);
  });
});
