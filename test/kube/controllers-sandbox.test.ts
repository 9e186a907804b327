import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { CreateAddonCommand, DeleteAddonCommand, DescribeAddonCommand, EKSClient } from '@aws-sdk/client-eks';
import { CreateClusterCommand, ListClusterNodesCommand, SageMakerClient } from '@aws-sdk/client-sagemaker';
import { featureManifests } from '../../src/domain/cluster-dependencies.js';
import { makeKubeCluster, type KubeCluster } from '../../sandbox/kube/cluster.js';
import { T } from '../../sandbox/kube/controllers/util.js';
import type { ClusterKubeState } from '../../sandbox/kube/objects.js';
import type { KubeObject } from '../../sandbox/kube/types.js';
import { listHyperPodNodes } from '../../sandbox/services/sagemaker/public.js';
import { eventually, startTestSandbox, type TestSandbox } from '../helpers/sandbox.js';
import { uninstallHyperPodDependencies } from '../sandbox/hyperpod-dependencies-fixture.js';
import {
  buildPrereqs,
  ensureQuota,
  group,
  waitForCluster,
  type HyperPodPrereqs,
} from '../sandbox/sagemaker-fixtures.js';

const GPU = 'ml.g5.8xlarge';
const CPU = 'ml.m5.xlarge';
const HEALTH = 'sagemaker.amazonaws.com/node-health-status';

/** A real sandbox: an EKS cluster with a HyperPod cluster on it, the controllers run by the sandbox's own ticks. */
describe('controllers in a sandbox: HyperPod nodes, bootstrap, EKS add-ons', () => {
  let sb: TestSandbox;
  let p: HyperPodPrereqs;
  let kube: KubeCluster;
  const eks = new EKSClient({});
  const sm = new SageMakerClient({});
  const state = () => sb.sandbox.runtime.store.state;
  const nodes = () => kube.objects.list(T.nodes);
  const hyperpodNode = (instanceId: string) =>
    listHyperPodNodes(state(), 'us-west-2', p.eksClusterArn).find((n) => n.instanceId === instanceId);
  const labels = (n: KubeObject) => n.metadata.labels!;
  /** Puts objects in the cluster as an API create would (admission included); what exists stays. */
  const apply = (objects: readonly KubeObject[]) => {
    for (const o of objects) {
      const type = kube.findTypeByKind(o.apiVersion, o.kind)!;
      if (!kube.objects.get(type, o.metadata.namespace, o.metadata.name!))
        kube.objects.create(type, kube.admit(type, structuredClone(o)));
    }
  };
  const capacity = (name: string) =>
    (kube.objects.get(T.nodes, undefined, name)!.status as { capacity: Record<string, string> }).capacity;
  const gpuNodes = () => nodes().filter((n) => labels(n)['sagemaker.amazonaws.com/instance-group-name'] === 'gpu');

  before(async () => {
    sb = await startTestSandbox();
    p = await buildPrereqs(sb, 'kc');
    await ensureQuota(sb, `${GPU} for cluster usage`, 4);
    await ensureQuota(sb, `${CPU} for cluster usage`, 2);
    await sm.send(
      new CreateClusterCommand({
        ClusterName: 'kc',
        InstanceGroups: [
          group(p, 'gpu', GPU, 2, {
            KubernetesConfig: {
              Labels: { team: 'ml' },
              Taints: [{ Key: 'nvidia.com/gpu', Value: 'present', Effect: 'NoSchedule' }],
            },
          }),
          group(p, 'system', CPU, 1),
        ],
        VpcConfig: { SecurityGroupIds: [p.securityGroupId], Subnets: p.privateSubnets },
        Orchestrator: { Eks: { ClusterArn: p.eksClusterArn } },
        NodeRecovery: 'Automatic',
      }),
    );
    // What this file watches is EKS's and HyperPod's own doing: the dependencies chart HyperPod needed
    // to accept the cluster goes again before the nodes join.
    await uninstallHyperPodDependencies(p.eksClusterName);
    await waitForCluster(sb, 'kc', 'InService');
    await sb.advance(1);
    const data = (state() as unknown as { kube: Record<string, ClusterKubeState> }).kube[p.eksClusterArn]!;
    kube = makeKubeCluster({ arn: p.eksClusterArn, name: p.eksClusterName, region: 'us-west-2' }, data, {
      now: () => sb.sandbox.runtime.clock.now(),
      changed: () => sb.sandbox.runtime.store.markDirty(),
    });
  });
  after(async () => sb.dispose());

  it('bootstraps the cluster as EKS does: namespaces, the kubernetes Service, gp2, self-managed vpc-cni, kube-proxy and CoreDNS, the root CA', () => {
    assert.deepEqual(
      kube.objects.list(T.namespaces).map((n) => n.metadata.name),
      ['default', 'kube-node-lease', 'kube-public', 'kube-system'],
    );
    assert.equal(
      (kube.objects.get(T.services, 'default', 'kubernetes')!.spec as { clusterIP: string }).clusterIP,
      '172.20.0.1',
    );
    assert.equal(
      (kube.objects.get(T.services, 'kube-system', 'kube-dns')!.spec as { clusterIP: string }).clusterIP,
      '172.20.0.10',
    );
    assert.ok(kube.objects.get(T.storageclasses, undefined, 'gp2'));
    assert.ok(kube.objects.get(T.daemonsets, 'kube-system', 'aws-node'));
    assert.ok(kube.objects.get(T.daemonsets, 'kube-system', 'kube-proxy'));
    const coredns = kube.objects.get(T.deployments, 'kube-system', 'coredns')!;
    assert.match(
      (coredns.spec as { template: { spec: { containers: Array<{ image: string }> } } }).template.spec.containers[0]!
        .image,
      /^602401143452\.dkr\.ecr\.us-west-2\.amazonaws\.com\/eks\/coredns:v1\.\d+\.\d+-eksbuild\.\d+$/,
    );
    assert.equal(
      coredns.metadata.labels?.['app.kubernetes.io/managed-by'],
      undefined,
      'self-managed until the EKS add-on adopts it',
    );
    assert.equal(
      (kube.objects.get(T.configmaps, 'default', 'kube-root-ca.crt')!.data as Record<string, string>)['ca.crt'],
      sb.sandbox.runtime.ca.certificatePem,
    );
  });

  it('shows every HyperPod instance as a Node with HyperPod labels, taints, capacity and node info', () => {
    const all = nodes();
    assert.equal(all.length, 3);
    const gpu = all.filter((n) => labels(n)['sagemaker.amazonaws.com/instance-group-name'] === 'gpu');
    assert.equal(gpu.length, 2);
    const n = gpu[0]!;
    const instanceId = n.metadata.name!.replace(/^hyperpod-/, '');
    const view = hyperpodNode(instanceId)!;
    assert.match(n.metadata.name!, /^hyperpod-i-[0-9a-f]+$/);
    assert.deepEqual(
      [
        labels(n)['sagemaker.amazonaws.com/compute-type'],
        labels(n)['node.kubernetes.io/instance-type'],
        labels(n)['topology.kubernetes.io/zone'],
        labels(n)['topology.kubernetes.io/region'],
        labels(n)[HEALTH],
        labels(n).team,
      ],
      ['hyperpod', GPU, view.availabilityZone, 'us-west-2', 'Schedulable', 'ml'],
    );
    const spec = n.spec as {
      providerID: string;
      taints: Array<{ key: string; value: string; effect: string }>;
      unschedulable?: boolean;
    };
    assert.equal(spec.providerID, `aws:///${view.availabilityZone}/${instanceId}`);
    assert.deepEqual(spec.taints, [{ key: 'nvidia.com/gpu', value: 'present', effect: 'NoSchedule' }]);
    assert.equal(spec.unschedulable, undefined);
    const status = n.status as {
      capacity: Record<string, string>;
      allocatable: Record<string, string>;
      conditions: Array<{ type: string; status: string }>;
      addresses: Array<{ type: string; address: string }>;
      nodeInfo: Record<string, string>;
    };
    // No device plugin runs yet: the node advertises no GPU and no EFA, as a real node before its plugins register.
    assert.deepEqual(
      [
        status.capacity.cpu,
        status.capacity['nvidia.com/gpu'],
        status.capacity['vpc.amazonaws.com/efa'],
        status.capacity.pods,
      ],
      ['32', undefined, undefined, '234'],
    );
    assert.equal(status.allocatable['nvidia.com/gpu'], undefined);
    assert.match(status.capacity.memory!, /^\d+Ki$/);
    assert.match(status.allocatable.cpu!, /^31\d{3}m$/);
    assert.equal(status.conditions.find((c) => c.type === 'Ready')!.status, 'True');
    assert.deepEqual(status.addresses.find((a) => a.type === 'InternalIP')!.address, view.privateIp);
    assert.match(status.nodeInfo.kubeletVersion!, /^v1\.\d+\.0-eks-[0-9a-f]{7}$/);
    assert.match(status.nodeInfo.osImage!, /^Amazon Linux 2023/);
    assert.match(status.nodeInfo.containerRuntimeVersion!, /^containerd:\/\//);
  });

  it("runs the system pods on the nodes: aws-node on each node with the node's IP, CoreDNS Running", async () => {
    await sb.advance(30);
    const pods = kube.objects.list(T.pods, 'kube-system');
    const awsNode = pods.filter((q) => q.metadata.labels?.['k8s-app'] === 'aws-node');
    assert.equal(awsNode.length, 3);
    assert.ok(
      awsNode.every(
        (q) => (q.status as { podIP: string; hostIP: string }).podIP === (q.status as { hostIP: string }).hostIP,
      ),
      'host network',
    );
    const dns = pods.filter((q) => q.metadata.labels?.['k8s-app'] === 'kube-dns');
    assert.deepEqual(
      dns.map((q) => (q.status as { phase: string }).phase),
      ['Running', 'Running'],
    );
    assert.ok(
      dns.every(
        (q) =>
          labels(nodes().find((n) => n.metadata.name === (q.spec as { nodeName: string }).nodeName)!)[
            'sagemaker.amazonaws.com/instance-group-name'
          ] === 'system',
      ),
      'the GPU nodes are tainted',
    );
  });

  it('advertises nvidia.com/gpu only while the device plugin with the socket mount runs on the node, and drops it when the plugin goes', async () => {
    const [plugin] = featureManifests('device-plugins', 'us-west-2').filter(
      (o) => o.metadata.name === 'nvidia-device-plugin-daemonset',
    );
    // The same plugin image without the host mount cannot register: nothing is advertised.
    const unmounted = structuredClone(plugin!) as any;
    unmounted.metadata.name = 'nvidia-device-plugin-unmounted';
    unmounted.spec.selector.matchLabels = { 'app.kubernetes.io/name': 'nvidia-device-plugin-unmounted' };
    unmounted.spec.template.metadata.labels = { 'app.kubernetes.io/name': 'nvidia-device-plugin-unmounted' };
    unmounted.spec.template.spec.containers[0].volumeMounts = [];
    apply([unmounted]);
    const unmountedPods = () =>
      kube.objects
        .list(T.pods, 'kube-system')
        .filter((q) => q.metadata.name!.startsWith('nvidia-device-plugin-unmounted'));
    await eventually(
      async () =>
        unmountedPods().length === 2 &&
        unmountedPods().every((q) => (q.status as { phase: string }).phase === 'Running'),
      { sandbox: sb, stepSeconds: 5, what: 'the unmounted plugin running on both GPU nodes' },
    );
    await sb.advance(10);
    assert.deepEqual(
      gpuNodes().map((n) => capacity(n.metadata.name!)['nvidia.com/gpu']),
      [undefined, undefined],
    );
    kube.objects.remove(T.daemonsets, 'kube-system', 'nvidia-device-plugin-unmounted');

    apply([plugin!]);
    await eventually(async () => gpuNodes().every((n) => capacity(n.metadata.name!)['nvidia.com/gpu'] === '1'), {
      sandbox: sb,
      stepSeconds: 5,
      what: 'the GPU advertised once the plugin runs',
    });
    const system = nodes().find((n) => labels(n)['sagemaker.amazonaws.com/instance-group-name'] === 'system')!;
    assert.equal(
      capacity(system.metadata.name!)['nvidia.com/gpu'],
      undefined,
      'the plugin is not scheduled on a CPU node',
    );
    const ds = kube.objects.get(T.daemonsets, 'kube-system', 'nvidia-device-plugin-daemonset')!;
    assert.equal((ds.status as { desiredNumberScheduled: number }).desiredNumberScheduled, 2);

    kube.objects.remove(T.daemonsets, 'kube-system', 'nvidia-device-plugin-daemonset');
    await eventually(async () => gpuNodes().every((n) => capacity(n.metadata.name!)['nvidia.com/gpu'] === undefined), {
      sandbox: sb,
      stepSeconds: 5,
      what: 'the GPU gone with the plugin',
    });
    apply([plugin!]);
  });

  it('a DaemonSet whose selector matches no node shows desiredNumberScheduled 0', async () => {
    const [plugin] = featureManifests('device-plugins', 'us-west-2').filter(
      (o) => o.metadata.name === 'nvidia-device-plugin-daemonset',
    );
    const wrong = structuredClone(plugin!) as any;
    wrong.metadata.name = 'nvidia-upper-case';
    wrong.spec.selector.matchLabels = { 'app.kubernetes.io/name': 'nvidia-upper-case' };
    wrong.spec.template.metadata.labels = { 'app.kubernetes.io/name': 'nvidia-upper-case' };
    wrong.spec.template.spec.nodeSelector = { 'sagemaker.amazonaws.com/compute-type': 'HyperPod' };
    apply([wrong]);
    await sb.advance(5);
    assert.equal(
      (kube.objects.get(T.daemonsets, 'kube-system', 'nvidia-upper-case')!.status as { desiredNumberScheduled: number })
        .desiredNumberScheduled,
      0,
    );
    kube.objects.remove(T.daemonsets, 'kube-system', 'nvidia-upper-case');
  });

  it('a fault the agent would find stays off a node whose agent may not patch nodes (no binding); SageMaker reports it all the same', async () => {
    const agent = featureManifests('health-monitoring-agent', 'us-west-2');
    apply(agent.filter((o) => o.kind !== 'ClusterRoleBinding'));
    await eventually(
      async () =>
        kube.objects.list(T.pods, 'aws-hyperpod').filter((q) => (q.status as { phase: string }).phase === 'Running')
          .length === 2,
      { sandbox: sb, stepSeconds: 5, what: 'the agent on both GPU nodes' },
    );
    const victim = gpuNodes()[0]!;
    const instanceId = victim.metadata.name!.replace(/^hyperpod-/, '');
    const res = await sb.admin('/_sandbox/faults', {
      method: 'POST',
      body: {
        type: 'node-fault',
        cluster: 'kc',
        instanceId,
        health: 'UnschedulablePendingReplacement',
        reason: 'Xid 79: GPU has fallen off the bus',
      },
    });
    assert.equal(res.status, 201);
    await sb.advance(1);
    assert.equal(
      hyperpodNode(instanceId)!.healthStatus,
      'UnschedulablePendingReplacement',
      'DescribeClusterNode has it',
    );
    const unseen = kube.objects.get(T.nodes, undefined, victim.metadata.name!)!;
    assert.equal(labels(unseen)[HEALTH], 'Schedulable');
    assert.equal(labels(unseen)['sagemaker.amazonaws.com/fault-reason'], undefined);
    // HyperPod's automatic recovery still replaces the instance; the cluster settles on three nodes again.
    await eventually(
      async () =>
        !kube.objects.get(T.nodes, undefined, victim.metadata.name!) &&
        nodes().length === 3 &&
        nodes().every((n) => labels(n)[HEALTH] === 'Schedulable'),
      { sandbox: sb, stepSeconds: 60, what: 'the replacement node Schedulable' },
    );
    apply(agent);
    await eventually(
      async () =>
        kube.objects.list(T.pods, 'aws-hyperpod').filter((q) => (q.status as { phase: string }).phase === 'Running')
          .length === 2,
      { sandbox: sb, stepSeconds: 5, what: 'the agent on both GPU nodes' },
    );
  });

  it('a node fault flips the health label and taints the node; HyperPod replaces the instance and a new Schedulable node joins', async () => {
    const victim = nodes().find((n) => labels(n)['sagemaker.amazonaws.com/instance-group-name'] === 'gpu')!;
    const instanceId = victim.metadata.name!.replace(/^hyperpod-/, '');
    const res = await sb.admin('/_sandbox/faults', {
      method: 'POST',
      body: {
        type: 'node-fault',
        cluster: 'kc',
        instanceId,
        health: 'UnschedulablePendingReplacement',
        reason: 'Xid 79: GPU has fallen off the bus',
      },
    });
    assert.equal(res.status, 201);
    await sb.advance(1);
    const faulted = kube.objects.get(T.nodes, undefined, victim.metadata.name!)!;
    assert.equal(labels(faulted)[HEALTH], 'UnschedulablePendingReplacement');
    assert.equal(labels(faulted)['sagemaker.amazonaws.com/fault-reason'], 'Xid_79_GPU_has_fallen_off_the_bus');
    assert.equal((faulted.spec as { unschedulable: boolean }).unschedulable, true);
    assert.ok(
      (faulted.spec as { taints: Array<{ key: string; value: string }> }).taints.some(
        (t) => t.key === HEALTH && t.value === 'Unschedulable',
      ),
    );
    await eventually(
      async () =>
        !kube.objects.get(T.nodes, undefined, victim.metadata.name!) &&
        nodes().length === 3 &&
        nodes().every((n) => labels(n)[HEALTH] === 'Schedulable'),
      { sandbox: sb, stepSeconds: 60, what: 'the replacement node Schedulable' },
    );
    const listed = (await sm.send(new ListClusterNodesCommand({ ClusterName: 'kc' })))
      .ClusterNodeSummaries!.map((s) => `hyperpod-${s.InstanceId}`)
      .sort();
    assert.deepEqual(
      nodes()
        .map((n) => n.metadata.name)
        .sort(),
      listed,
      'Nodes and SageMaker nodes agree',
    );
    // The agent goes again (the add-on test below expects aws-hyperpod to be the training operator's alone).
    for (const o of featureManifests('health-monitoring-agent', 'us-west-2').reverse())
      kube.objects.remove(kube.findTypeByKind(o.apiVersion, o.kind)!, o.metadata.namespace, o.metadata.name!);
  });

  it('labelling a node UnschedulablePendingReboot asks HyperPod to reboot it; it comes back Schedulable', async () => {
    const target = nodes().find((n) => labels(n)['sagemaker.amazonaws.com/instance-group-name'] === 'gpu')!;
    const instanceId = target.metadata.name!.replace(/^hyperpod-/, '');
    kube.objects.update(T.nodes, {
      ...target,
      metadata: {
        ...target.metadata,
        labels: { ...labels(target), [HEALTH]: 'UnschedulablePendingReboot' },
        resourceVersion: undefined,
      },
    });
    await sb.advance(1);
    assert.equal(hyperpodNode(instanceId)!.healthStatus, 'UnschedulablePendingReboot', 'SageMaker took the request');
    const ready = (n: KubeObject) =>
      (n.status as { conditions: Array<{ type: string; status: string }> }).conditions.find((c) => c.type === 'Ready')!
        .status;
    const rebooting = await eventually(
      async () => {
        const n = kube.objects.get(T.nodes, undefined, target.metadata.name!)!;
        return ready(n) !== 'True' ? n : undefined;
      },
      { sandbox: sb, stepSeconds: 10, what: 'the node NotReady while it reboots' },
    );
    assert.equal(labels(rebooting)[HEALTH], 'UnschedulablePendingReboot');
    await eventually(
      async () => labels(kube.objects.get(T.nodes, undefined, target.metadata.name!)!)[HEALTH] === 'Schedulable',
      { sandbox: sb, stepSeconds: 60, what: 'the node back after its reboot' },
    );
    const back = kube.objects.get(T.nodes, undefined, target.metadata.name!)!;
    assert.equal(ready(back), 'True');
    assert.equal((back.spec as { unschedulable?: boolean }).unschedulable, undefined);
  });

  it('materialises EKS add-ons (namespaces, workloads, established CRDs, CSI drivers) and removes them with DeleteAddon', async () => {
    for (const addonName of [
      'cert-manager',
      'eks-pod-identity-agent',
      'amazon-sagemaker-hyperpod-training-operator',
      'aws-fsx-csi-driver',
      'coredns',
    ]) {
      await eks.send(
        new CreateAddonCommand({ clusterName: p.eksClusterName, addonName, resolveConflicts: 'OVERWRITE' }),
      );
    }
    await sb.advance(1);
    assert.ok(kube.objects.get(T.namespaces, undefined, 'cert-manager'));
    assert.deepEqual(
      kube.objects.list(T.deployments, 'cert-manager').map((d) => d.metadata.name),
      ['cert-manager', 'cert-manager-cainjector', 'cert-manager-webhook'],
    );
    const pytorch = kube.objects.get(T.crds, undefined, 'hyperpodpytorchjobs.sagemaker.amazonaws.com')!;
    assert.equal(pytorch.metadata.labels?.['app.kubernetes.io/managed-by'], 'eks');
    assert.equal(
      pytorch.metadata.annotations?.['sandbox.instantstart.dev/eks-addon'],
      'amazon-sagemaker-hyperpod-training-operator',
    );
    assert.ok(
      kube.findType('sagemaker.amazonaws.com', 'v1', 'hyperpodpytorchjobs'),
      'the CRD is established, its resource served',
    );
    assert.ok(kube.findType('cert-manager.io', 'v1', 'certificates'));
    assert.ok(kube.objects.get(T.deployments, 'aws-hyperpod', 'hp-training-operator-hp-training-controller-manager'));
    assert.ok(kube.objects.get(T.csidrivers, undefined, 'fsx.csi.aws.com'));
    assert.equal(
      kube.objects.get(T.deployments, 'kube-system', 'coredns')!.metadata.labels?.['app.kubernetes.io/managed-by'],
      'eks',
      'the self-managed CoreDNS is adopted',
    );

    kube.objects.create(kube.findType('sagemaker.amazonaws.com', 'v1', 'hyperpodpytorchjobs')!, {
      apiVersion: 'sagemaker.amazonaws.com/v1',
      kind: 'HyperPodPyTorchJob',
      metadata: { name: 'llama', namespace: 'default' },
      spec: { replicaSpecs: [] },
    });
    await eks.send(
      new DeleteAddonCommand({
        clusterName: p.eksClusterName,
        addonName: 'amazon-sagemaker-hyperpod-training-operator',
      }),
    );
    await eventually(
      async () =>
        (await eks
          .send(
            new DescribeAddonCommand({
              clusterName: p.eksClusterName,
              addonName: 'amazon-sagemaker-hyperpod-training-operator',
            }),
          )
          .catch(() => undefined)) === undefined,
      { sandbox: sb, stepSeconds: 30, what: 'the add-on deleted' },
    );
    assert.equal(kube.objects.get(T.namespaces, undefined, 'aws-hyperpod'), undefined);
    assert.equal(kube.objects.get(T.crds, undefined, 'hyperpodpytorchjobs.sagemaker.amazonaws.com'), undefined);
    assert.equal(kube.findType('sagemaker.amazonaws.com', 'v1', 'hyperpodpytorchjobs'), undefined);
    assert.ok(kube.objects.get(T.namespaces, undefined, 'cert-manager'), 'other add-ons stay');
  });
});
