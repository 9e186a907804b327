import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { featureManifests } from '../../src/domain/cluster-dependencies.js';
import {
  CreateClusterCommand,
  DescribeClusterCommand,
  ListClusterEventsCommand,
  SageMakerClient,
  UpdateClusterCommand,
} from '@aws-sdk/client-sagemaker';
import { eventually, startTestSandbox, type TestSandbox } from '../helpers/sandbox.js';
import { kubeAccess, type TestKubeCluster } from '../helpers/kube.js';
import {
  buildPrereqs,
  ensureQuota,
  group,
  inventoryJson,
  waitForCluster,
  type HyperPodPrereqs,
} from './sagemaker-fixtures.js';

/**
 * HyperPod-managed Karpenter, end to end with the real kubectl: autoscaling is refused unless the
 * cluster is Continuous and the ClusterRole exists and trusts HyperPod; once enabled, the Karpenter
 * CRDs appear, a Deployment that needs GPUs scales a zero-count instance group up (NodeClaims,
 * nodes joining, pods running) and, once the Deployment is gone, consolidation takes it back to 0.
 */

const GPU = 'ml.g5.8xlarge';
const CPU = 'ml.m5.xlarge';

const NODECLASS = `apiVersion: karpenter.sagemaker.amazonaws.com/v1
kind: HyperpodNodeClass
metadata: { name: gpu-class }
spec:
  instanceGroups: [gpu]
`;

const NODEPOOL = `apiVersion: karpenter.sh/v1
kind: NodePool
metadata: { name: gpu-pool }
spec:
  template:
    metadata: { labels: { team: ml } }
    spec:
      nodeClassRef: { group: karpenter.sagemaker.amazonaws.com, kind: HyperpodNodeClass, name: gpu-class }
      expireAfter: Never
      requirements:
        - { key: node.kubernetes.io/instance-type, operator: Exists }
  disruption: { consolidationPolicy: WhenEmpty, consolidateAfter: 30s }
  limits: { nvidia.com/gpu: 4 }
`;

const DEPLOYMENT = `apiVersion: apps/v1
kind: Deployment
metadata: { name: infer, namespace: default }
spec:
  replicas: 2
  selector: { matchLabels: { app: infer } }
  template:
    metadata: { labels: { app: infer } }
    spec:
      nodeSelector: { karpenter.sh/nodepool: gpu-pool }
      containers:
        - { name: server, image: vllm/vllm-openai:latest, resources: { limits: { nvidia.com/gpu: 1 }, requests: { cpu: "2", memory: 8Gi } } }
`;

describe('HyperPod autoscaling with Karpenter (sandbox)', () => {
  let sb: TestSandbox;
  let p: HyperPodPrereqs;
  let k: TestKubeCluster;
  const sm = new SageMakerClient({});
  const gpuGroup = async () =>
    (await sm.send(new DescribeClusterCommand({ ClusterName: 'auto' }))).InstanceGroups!.find(
      (g) => g.InstanceGroupName === 'gpu',
    )!;
  const kubectl = async (...args: string[]) => (await k.kubectl(args)).stdout;
  const json = async (...args: string[]) =>
    JSON.parse(await kubectl(...args, '-o', 'json')) as { items: Array<Record<string, any>> };

  before(async () => {
    sb = await startTestSandbox();
    p = await buildPrereqs(sb, 'kp');
    await ensureQuota(sb, `${GPU} for cluster usage`, 6);
    await ensureQuota(sb, `${CPU} for cluster usage`, 1);
    // A fixed system group runs CoreDNS; Karpenter would otherwise (rightly) launch a GPU node for it.
    await sm.send(
      new CreateClusterCommand({
        ClusterName: 'auto',
        InstanceGroups: [group(p, 'gpu', GPU, 0), group(p, 'system', CPU, 1)],
        VpcConfig: { SecurityGroupIds: [p.securityGroupId], Subnets: [p.privateSubnets[0]!] },
        Orchestrator: { Eks: { ClusterArn: p.eksClusterArn } },
        NodeProvisioningMode: 'Continuous',
      }),
    );
    await waitForCluster(sb, 'auto', 'InService');
    // Continuous clusters are InService before their nodes run: wait for the system node, then let CoreDNS land on it.
    await eventually(
      async () =>
        (await sm.send(new DescribeClusterCommand({ ClusterName: 'auto' }))).InstanceGroups!.find(
          (g) => g.InstanceGroupName === 'system',
        )!.CurrentCount === 1,
      {
        sandbox: sb,
        stepSeconds: 60,
        what: 'system node running',
      },
    );
    await sb.advance(30);
    k = await kubeAccess(sb, p.eksClusterName);
    // The device plugins, as create-cluster installs them: nodes advertise GPUs only once these run.
    await k.kubectl(['apply', '-f', '-'], {
      input: JSON.stringify({ apiVersion: 'v1', kind: 'List', items: featureManifests('device-plugins', 'us-west-2') }),
    });
  });
  after(async () => sb.dispose());

  it('refuses autoscaling without a usable ClusterRole or outside Continuous mode, naming the field, and changes nothing', async () => {
    const before = await inventoryJson(sb);
    const enable = { Mode: 'Enable' as const, AutoScalerType: 'Karpenter' as const };
    const attempts: Array<[Promise<unknown>, RegExp]> = [
      [sm.send(new UpdateClusterCommand({ ClusterName: 'auto', AutoScaling: enable })), /requires ClusterRole/],
      [
        sm.send(
          new UpdateClusterCommand({ ClusterName: 'auto', AutoScaling: enable, ClusterRole: p.executionRoleArn }),
        ),
        /ClusterRole cannot be assumed by hyperpod\.sagemaker\.amazonaws\.com/,
      ],
      [
        sm.send(
          new UpdateClusterCommand({
            ClusterName: 'auto',
            AutoScaling: enable,
            ClusterRole: 'arn:aws:iam::000000000000:role/nope',
          }),
        ),
        /in ClusterRole does not exist/,
      ],
      [
        sm.send(
          new CreateClusterCommand({
            ClusterName: 'not-continuous',
            InstanceGroups: [group(p, 'gpu', GPU, 0)],
            VpcConfig: { SecurityGroupIds: [p.securityGroupId], Subnets: [p.privateSubnets[0]!] },
            Orchestrator: { Eks: { ClusterArn: p.eksClusterArn } },
            ClusterRole: p.clusterRoleArn,
            AutoScaling: enable,
          }),
        ),
        /NodeProvisioningMode Continuous/,
      ],
    ];
    for (const [call, message] of attempts) {
      await assert.rejects(call, (e: Error) => {
        assert.equal(e.name, 'ValidationException');
        assert.match(e.message, message);
        return true;
      });
    }
    assert.equal(await inventoryJson(sb), before);
    const described = await sm.send(new DescribeClusterCommand({ ClusterName: 'auto' }));
    assert.equal(described.AutoScaling, undefined);
    assert.equal(described.ClusterRole, undefined);
    const crds = await k.kubectl(['get', 'hyperpodnodeclasses'], { allowFailure: true });
    assert.notEqual(crds.code, 0, 'no Karpenter CRDs before autoscaling is enabled');
  });

  it('enables Karpenter autoscaling: DescribeCluster returns it with its status, and the CRDs appear', async () => {
    await sm.send(
      new UpdateClusterCommand({
        ClusterName: 'auto',
        ClusterRole: p.clusterRoleArn,
        AutoScaling: { Mode: 'Enable', AutoScalerType: 'Karpenter' },
      }),
    );
    const described = await sm.send(new DescribeClusterCommand({ ClusterName: 'auto' }));
    assert.equal(described.ClusterRole, p.clusterRoleArn);
    assert.deepEqual(described.AutoScaling, { Mode: 'Enable', AutoScalerType: 'Karpenter', Status: 'InService' });
    await sb.advance(1);
    const names = (await json('get', 'crd')).items.map((c) => c.metadata.name as string);
    for (const n of [
      'hyperpodnodeclasses.karpenter.sagemaker.amazonaws.com',
      'nodepools.karpenter.sh',
      'nodeclaims.karpenter.sh',
    ])
      assert.ok(names.includes(n), n);
    const refused = await k.kubectl(['apply', '-f', '-'], {
      allowFailure: true,
      input: NODECLASS.replace('[gpu]', `[${Array.from({ length: 11 }, (_, i) => `g${i}`).join(', ')}]`),
    });
    assert.notEqual(refused.code, 0);
    assert.match(refused.stderr, /spec\.instanceGroups.*(must have at most 10 items|Too many)/);
  });

  it('marks a HyperpodNodeClass naming a missing group not Ready, and a valid class and NodePool Ready', async () => {
    await k.kubectl(['apply', '-f', '-'], { input: NODECLASS.replace('[gpu]', '[gpu, missing]') });
    await sb.advance(1);
    const broken = (await json('get', 'hyperpodnodeclasses')).items[0]!;
    const readyOf = (o: Record<string, any>) =>
      (o.status.conditions as Array<Record<string, string>>).find((c) => c.type === 'Ready')!;
    assert.equal(readyOf(broken).status, 'False');
    assert.match(readyOf(broken).message, /'missing' not found in HyperPod cluster 'auto'/);
    await k.kubectl(['apply', '-f', '-'], { input: NODECLASS });
    await k.kubectl(['apply', '-f', '-'], { input: NODEPOOL });
    await sb.advance(1);
    const nc = (await json('get', 'hyperpodnodeclasses')).items[0]!;
    assert.equal(readyOf(nc).status, 'True');
    assert.deepEqual(nc.status.instanceGroups[0].instanceTypes, [GPU]);
    const table = await kubectl('get', 'nodepools');
    assert.match(table, /^NAME\s+NODECLASS\s+NODES\s+READY\s+AGE\n/);
    assert.match(table, /gpu-pool\s+gpu-class\s+0\s+True\s+/);
  });

  it('scales the zero-count group up for pods that need its GPUs: NodeClaims, nodes joining, pods running', async () => {
    await k.kubectl(['apply', '-f', '-'], { input: DEPLOYMENT });
    const claims = await eventually(
      async () => {
        const items = (await json('get', 'nodeclaims')).items;
        return items.length === 2 ? items : undefined;
      },
      { sandbox: sb, stepSeconds: 1, what: 'two NodeClaims' },
    );
    assert.ok(
      claims.every(
        (c) =>
          c.metadata.labels['node.kubernetes.io/instance-type'] === GPU &&
          c.metadata.labels['karpenter.sh/nodepool'] === 'gpu-pool',
      ),
    );
    assert.equal((await gpuGroup()).TargetCount, 2);
    await eventually(
      async () => {
        const pods = (await json('get', 'pods', '-l', 'app=infer')).items;
        return pods.length === 2 && pods.every((pod) => pod.status.phase === 'Running');
      },
      { sandbox: sb, stepSeconds: 30, what: 'pods Running on new nodes' },
    );
    const nodes = (await json('get', 'nodes', '-l', 'karpenter.sh/nodepool=gpu-pool')).items;
    assert.equal(nodes.length, 2);
    assert.ok(
      nodes.every(
        (n) =>
          n.metadata.labels['sagemaker.amazonaws.com/instance-group-name'] === 'gpu' &&
          n.metadata.labels.team === 'ml' &&
          n.metadata.labels['karpenter.sh/initialized'] === 'true',
      ),
    );
    const g = await gpuGroup();
    assert.deepEqual([g.CurrentCount, g.TargetCount], [2, 2]);
    const wide = await kubectl('get', 'nodeclaims');
    assert.match(wide, /^NAME\s+TYPE\s+CAPACITY\s+ZONE\s+NODE\s+READY\s+AGE\n/);
    assert.equal(
      (wide.match(/ml\.g5\.8xlarge\s+on-demand\s+us-west-2a\s+hyperpod-i-[0-9a-f]+\s+True/g) ?? []).length,
      2,
    );
    assert.match(await kubectl('get', 'nodepools'), /gpu-pool\s+gpu-class\s+2\s+True/);
  });

  it('consolidates empty nodes after consolidateAfter: the group goes back to zero and events say why', async () => {
    await kubectl('delete', 'deployment', 'infer');
    await sb.advance(5);
    assert.equal((await gpuGroup()).TargetCount, 2, 'nodes stay until consolidateAfter has passed');
    await eventually(async () => (await gpuGroup()).TargetCount === 0, {
      sandbox: sb,
      stepSeconds: 10,
      what: 'target count back to 0',
    });
    await eventually(
      async () => {
        const g = await gpuGroup();
        const claims = (await json('get', 'nodeclaims')).items;
        const nodes = (await json('get', 'nodes', '-l', 'karpenter.sh/nodepool=gpu-pool')).items;
        return g.CurrentCount === 0 && claims.length === 0 && nodes.length === 0;
      },
      { sandbox: sb, stepSeconds: 30, what: 'nodes and NodeClaims gone' },
    );
    const events = (
      await sm.send(new ListClusterEventsCommand({ ClusterName: 'auto', InstanceGroupName: 'gpu', MaxResults: 100 }))
    ).Events!.map((e) => e.Description ?? '');
    assert.equal(
      events.filter((d) => /^Autoscaling \(Karpenter\) added a node to instance group 'gpu'/.test(d)).length,
      2,
    );
    assert.equal(
      events.filter((d) =>
        /^Autoscaling \(Karpenter\) removed node i-[0-9a-f]+ from instance group 'gpu' \(empty/.test(d),
      ).length,
      2,
    );
    assert.match(await kubectl('get', 'nodepools'), /gpu-pool\s+gpu-class\s+0\s+True/);
  });

  it('stops at the NodePool limits and says so on the pod that does not fit', async () => {
    await k.kubectl(['apply', '-f', '-'], { input: DEPLOYMENT.replace('replicas: 2', 'replicas: 5') });
    await eventually(async () => (await json('get', 'nodeclaims')).items.length === 4, {
      sandbox: sb,
      stepSeconds: 1,
      what: 'four NodeClaims',
    });
    await sb.advance(5);
    assert.equal((await json('get', 'nodeclaims')).items.length, 4, 'nvidia.com/gpu: 4 allows four one-GPU nodes');
    assert.equal((await gpuGroup()).TargetCount, 4);
    const events = (await json('get', 'events', '--field-selector', 'reason=FailedScheduling')).items;
    assert.ok(
      events.some(
        (e) =>
          e.source?.component === 'karpenter' &&
          /incompatible with nodepool "gpu-pool", all available instance types exceed limits for nodepool/.test(
            e.message,
          ),
      ),
    );
  });

  it('a deleted NodeClaim takes its node away through HyperPod, and Karpenter provisions again for the displaced pod', async () => {
    const victim = (await json('get', 'nodeclaims')).items[0]!.metadata.name as string;
    await kubectl('delete', 'nodeclaim', victim, '--wait=false');
    await sb.advance(1);
    const deleting = JSON.parse(await kubectl('get', 'nodeclaim', victim, '-o', 'json'));
    assert.ok(deleting.metadata.deletionTimestamp, 'held by karpenter.sh/termination until the instance is gone');
    assert.deepEqual(deleting.metadata.finalizers, ['karpenter.sh/termination']);
    await eventually(
      async () => {
        const names = (await json('get', 'nodeclaims')).items.map((c) => c.metadata.name as string);
        return !names.includes(victim) && names.length === 4;
      },
      { sandbox: sb, stepSeconds: 30, what: 'the deleted claim gone and a new one made' },
    );
    const events = (
      await sm.send(new ListClusterEventsCommand({ ClusterName: 'auto', InstanceGroupName: 'gpu', MaxResults: 100 }))
    ).Events!.map((e) => e.Description ?? '');
    assert.ok(events.some((d) => /removed node \S+ from instance group 'gpu' \(its NodeClaim was deleted/.test(d)));
    await kubectl('delete', 'deployment', 'infer');
  });
});
