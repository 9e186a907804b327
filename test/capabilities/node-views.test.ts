import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { NodeViews } from '../../src/capabilities/nodes/views.js';
import type { CloudPort, KubePort, ListedKubeObject } from '../../src/cloud/ports.js';
import type { KubeKind } from '../../src/domain/kube/kind.js';
import { ListNodesQuerySchema } from '../../src/domain/schemas/nodes.js';

const REGION = 'us-west-2';
const NODES = 120;
const idOf = (i: number) => `i-${i.toString(16).padStart(17, '0')}`;
/** Node i runs i % 4 pods, and one that finished (never counted). */
const runningPods = (i: number) => i % 4;
const tick = () => new Promise((r) => setImmediate(r));

/** A cluster of NODES nodes whose Kubernetes API records every Pod list and how many ran at once. */
function cluster() {
  const podLists: string[] = [];
  let nodeLists = 0;
  let inFlight = 0;
  let mostAtOnce = 0;
  const kubeNodes: ListedKubeObject[] = Array.from({ length: NODES }, (_, i) => ({
    metadata: { name: `hyperpod-${idOf(i)}`, labels: { 'sagemaker.amazonaws.com/instance-group-name': 'workers' } },
    spec: { providerID: `aws:///us-west-2b/${idOf(i)}` },
    status: { conditions: [{ type: 'Ready', status: 'True' }] },
  }));
  const kube = {
    // As the client does: typed by the kind descriptor, each item parsed by it.
    async list(descriptor: KubeKind, options: { fieldSelector?: string } = {}) {
      const kind = descriptor.kind;
      if (kind === 'Node') return (nodeLists++, kubeNodes.map((n) => descriptor.parse(n)));
      assert.equal(kind, 'Pod');
      podLists.push(options.fieldSelector ?? '');
      inFlight++;
      mostAtOnce = Math.max(mostAtOnce, inFlight);
      await tick();
      inFlight--;
      const node = /spec\.nodeName=([^,]+)/.exec(options.fieldSelector ?? '')?.[1];
      assert.ok(node, `a Pod list names its node: ${options.fieldSelector}`);
      const i = parseInt(node.slice('hyperpod-i-'.length), 16);
      const pod = (n: number, phase: string) => ({
        metadata: { name: `p${n}`, namespace: 'default' },
        spec: { nodeName: node },
        status: { phase },
      });
      return [...Array.from({ length: runningPods(i) }, (_, n) => pod(n, 'Running')), pod(99, 'Succeeded')].map((p) =>
        descriptor.parse(p),
      );
    },
  } as unknown as KubePort;
  const cloud = {
    hyperpod: {
      describe: async () => ({
        ClusterName: 'big',
        ClusterArn: 'arn:c',
        InstanceGroups: [{ InstanceGroupName: 'workers' }],
        Orchestrator: { Eks: { ClusterArn: 'arn:aws:eks:us-west-2:0:cluster/big-eks' } },
      }),
    },
    eks: { describeCluster: async () => ({ name: 'big-eks', endpoint: 'https://kube.invalid' }) },
    kube: async () => kube,
    hyperpodNodes: {
      listAll: async () =>
        Array.from({ length: NODES }, (_, i) => ({
          InstanceId: idOf(i),
          InstanceGroupName: 'workers',
          InstanceType: 'ml.c5.xlarge',
          LaunchTime: new Date(0),
          InstanceStatus: { Status: 'Running' },
        })),
    },
  } as unknown as CloudPort;
  return { cloud, kubeNodes, podLists, nodeLists: () => nodeLists, mostAtOnce: () => mostAtOnce };
}

const query = (q: Record<string, string>) => ListNodesQuerySchema.parse(q);

describe('node pages count pods only for the nodes they show', () => {
  it('a page of 50 lists the pods of its 50 nodes (by spec.nodeName, at most 8 at once); the same page again lists none', async () => {
    const c = cluster();
    const views = new NodeViews(c.cloud);
    const first = await views.list(REGION, 'big', query({ limit: '50' }));
    assert.equal(first.total, NODES);
    assert.equal(first.nodes.length, 50);
    assert.deepEqual(
      c.podLists.sort(),
      first.nodes.map((n) => `spec.nodeName=${n.nodeName},status.phase!=Succeeded,status.phase!=Failed`).sort(),
    );
    assert.ok(c.mostAtOnce() > 1 && c.mostAtOnce() <= 8, `pod lists at once: ${c.mostAtOnce()}`);
    for (const n of first.nodes)
      assert.equal(n.podCount, runningPods(parseInt(n.instanceId.slice(2), 16)), `pods of ${n.instanceId}`);

    const again = await views.list(REGION, 'big', query({ limit: '50' }));
    assert.deepEqual(again.nodes, first.nodes);
    assert.equal(c.podLists.length, 50, 'the page again is answered from the snapshot');

    const second = await views.list(REGION, 'big', query({ limit: '50', nextToken: first.nextToken! }));
    assert.equal(c.podLists.length, 100, 'the next page counts its own 50 nodes');
    assert.equal(new Set(c.podLists).size, 100, 'no node counted twice');
    assert.ok(second.nodes.every((n) => !first.nodes.some((f) => f.instanceId === n.instanceId)));
    assert.equal(c.nodeLists(), 1, 'three pages from one read of the Nodes');
  });

  it('filters and counts health over every node without listing pods beyond the page', async () => {
    const c = cluster();
    const views = new NodeViews(c.cloud);
    const page = await views.list(REGION, 'big', query({ health: 'healthy', limit: '5' }));
    assert.equal(page.total, NODES);
    assert.equal(page.counts.healthy, NODES);
    assert.equal(c.podLists.length, 5);
  });

  it("the cluster's health follows the newest read of its nodes (never healthy beside a node list that shows a failed node)", async () => {
    const c = cluster();
    let now = 0;
    const views = new NodeViews(c.cloud, { now: () => now });
    await views.list(REGION, 'big', query({ limit: '5' })); // the snapshot read at 0 s, kept until 5 s
    now = 3_000;
    assert.equal((await views.health(REGION, 'big')).state, 'healthy'); // rolled up at 3 s from that snapshot
    c.kubeNodes[0]!.status = { conditions: [{ type: 'Ready', status: 'False' }] };
    now = 6_000;
    const page = await views.list(REGION, 'big', query({ limit: '5' })); // a newer read sees the node
    assert.notEqual(page.counts.healthy, NODES);
    assert.notEqual(
      (await views.health(REGION, 'big')).state,
      'healthy',
      'the rollup of the older read no longer stands',
    );
  });
});
