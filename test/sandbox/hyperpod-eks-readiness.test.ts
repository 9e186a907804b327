import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import {
  CreateClusterCommand as CreateEksClusterCommand,
  DescribeClusterCommand as DescribeEksClusterCommand,
  DescribeClusterVersionsCommand,
  EKSClient,
} from '@aws-sdk/client-eks';
import {
  CreateClusterCommand,
  DescribeClusterCommand,
  SageMakerClient,
  type CreateClusterCommandInput,
} from '@aws-sdk/client-sagemaker';
import { eventually, startTestSandbox, type TestSandbox } from '../helpers/sandbox.js';
import { installHyperPodDependencies, kubeObjects } from './hyperpod-dependencies-fixture.js';
import {
  buildPrereqs,
  group,
  HYPERPOD_EKS_VERSION,
  inventoryJson,
  type HyperPodPrereqs,
} from './sagemaker-fixtures.js';

/**
 * HyperPod's CreateCluster looks inside the EKS cluster it is given, as a real account's does: a
 * Kubernetes version HyperPod does not support, or HyperPod's dependencies chart not installed, is a
 * ValidationException and nothing is made (sandbox/services/sagemaker/eks-readiness.ts).
 */
describe("SageMaker HyperPod CreateCluster: the EKS cluster's version and dependencies", () => {
  let sb: TestSandbox;
  let p: HyperPodPrereqs;
  const sm = new SageMakerClient({});
  const eks = new EKSClient({});
  const request = (name: string, eksClusterArn: string): CreateClusterCommandInput => ({
    ClusterName: name,
    InstanceGroups: [group(p, 'workers', 'ml.c5.xlarge', 1)],
    VpcConfig: { SecurityGroupIds: [p.securityGroupId], Subnets: p.privateSubnets },
    Orchestrator: { Eks: { ClusterArn: eksClusterArn } },
  });
  /** Another ACTIVE EKS cluster in the fixture's VPC; `version` undefined = EKS's default. */
  const eksCluster = async (name: string, version?: string): Promise<string> => {
    const created = await eks.send(
      new CreateEksClusterCommand({
        name,
        roleArn: (await eks.send(new DescribeEksClusterCommand({ name: p.eksClusterName }))).cluster!.roleArn!,
        ...(version ? { version } : {}),
        resourcesVpcConfig: { subnetIds: p.privateSubnets, securityGroupIds: [p.securityGroupId] },
        accessConfig: { authenticationMode: 'API_AND_CONFIG_MAP' },
      }),
    );
    await eventually(
      async () => (await eks.send(new DescribeEksClusterCommand({ name }))).cluster?.status === 'ACTIVE',
      { sandbox: sb, stepSeconds: 120, what: `${name} ACTIVE` },
    );
    await sb.advance(1);
    return created.cluster!.arn!;
  };
  const refused = async (name: string, eksClusterArn: string, message: RegExp) => {
    const before = await inventoryJson(sb);
    await assert.rejects(sm.send(new CreateClusterCommand(request(name, eksClusterArn))), (e: Error) => {
      assert.equal(e.name, 'ValidationException', `${e.name}: ${e.message}`);
      assert.match(e.message, message);
      return true;
    });
    assert.equal(await inventoryJson(sb), before, 'a refused CreateCluster changes nothing');
  };

  before(async () => {
    sb = await startTestSandbox();
    p = await buildPrereqs(sb, 'ready');
  });
  after(async () => sb.dispose());

  it("offers, as EKS's default, a Kubernetes version newer than HyperPod supports", async () => {
    const { clusterVersions } = await eks.send(new DescribeClusterVersionsCommand({ defaultOnly: true }));
    assert.equal(clusterVersions?.length, 1);
    assert.equal(clusterVersions![0]!.clusterVersion, '1.35');
  });

  it("refuses an EKS cluster at a Kubernetes version HyperPod does not support (EKS's default here)", async () => {
    const arn = await eksCluster('ready-default');
    assert.equal((await eks.send(new DescribeEksClusterCommand({ name: 'ready-default' }))).cluster!.version, '1.35');
    await installHyperPodDependencies(sb, 'ready-default');
    await refused(
      'on-default',
      arn,
      /EKS cluster 'ready-default' in Orchestrator\.Eks\.ClusterArn runs Kubernetes version 1\.35, which SageMaker HyperPod does not support\. Supported Kubernetes versions: 1\.28, 1\.29, 1\.30, 1\.31, 1\.32, 1\.33, 1\.34\./,
    );
  });

  it("refuses an EKS cluster without HyperPod's dependencies, naming each that is missing", async () => {
    const arn = await eksCluster('ready-bare', HYPERPOD_EKS_VERSION);
    await refused(
      'on-bare',
      arn,
      /EKS cluster 'ready-bare' in Orchestrator\.Eks\.ClusterArn is missing one or more required dependencies: DaemonSet aws-hyperpod\/health-monitoring-agent; ServiceAccount aws-hyperpod\/health-monitoring-agent; ClusterRoleBinding health-monitoring-agent; the NVIDIA device plugin DaemonSet .*; the EFA device plugin DaemonSet .*; the Neuron device plugin DaemonSet .*\. Install the SageMaker HyperPod dependencies Helm chart/,
    );

    await installHyperPodDependencies(sb, 'ready-bare');
    await (await kubeObjects('ready-bare')).delete({
      apiVersion: 'apps/v1',
      kind: 'DaemonSet',
      metadata: { name: 'health-monitoring-agent', namespace: 'aws-hyperpod' },
    });
    await refused(
      'on-bare',
      arn,
      /is missing one or more required dependencies: DaemonSet aws-hyperpod\/health-monitoring-agent\. Install/,
    );
  });

  it('accepts the EKS cluster once its version is supported and the dependencies chart is installed', async () => {
    const { ClusterArn } = await sm.send(new CreateClusterCommand(request('on-ready', p.eksClusterArn)));
    assert.ok(ClusterArn);
    assert.equal((await sm.send(new DescribeClusterCommand({ ClusterName: 'on-ready' }))).ClusterStatus, 'Creating');
  });
});
