import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { DescribeSubnetsCommand, EC2Client } from '@aws-sdk/client-ec2';
import { DescribeAccessEntryCommand, EKSClient } from '@aws-sdk/client-eks';
import {
  CreateClusterCommand,
  DeleteClusterCommand,
  DescribeClusterCommand,
  DescribeClusterNodeCommand,
  ListClusterNodesCommand,
  ListClustersCommand,
  ListTagsCommand,
  SageMakerClient,
  type CreateClusterCommandInput,
} from '@aws-sdk/client-sagemaker';
import { startTestSandbox, type TestSandbox } from '../helpers/sandbox.js';
import {
  buildPrereqs,
  ensureQuota,
  group,
  inventoryJson,
  waitForCluster,
  type HyperPodPrereqs,
} from './sagemaker-fixtures.js';

const GPU = 'ml.g5.8xlarge';

describe('SageMaker HyperPod: create, inspect and delete a cluster', () => {
  let sb: TestSandbox;
  let p: HyperPodPrereqs;
  let freeIpsBefore = 0;
  const sm = new SageMakerClient({});
  const freeIps = async () =>
    (await new EC2Client({}).send(new DescribeSubnetsCommand({ SubnetIds: p.privateSubnets }))).Subnets!.reduce(
      (a, s) => a + s.AvailableIpAddressCount!,
      0,
    );
  const request = (name: string, extra: Partial<CreateClusterCommandInput> = {}): CreateClusterCommandInput => ({
    ClusterName: name,
    InstanceGroups: [
      group(p, 'workers', GPU, 3, {
        OnStartDeepHealthChecks: ['InstanceStress'],
        KubernetesConfig: { Labels: { team: 'research' } },
      }),
    ],
    VpcConfig: { SecurityGroupIds: [p.securityGroupId], Subnets: p.privateSubnets },
    Orchestrator: { Eks: { ClusterArn: p.eksClusterArn } },
    NodeRecovery: 'Automatic',
    ...extra,
  });

  before(async () => {
    sb = await startTestSandbox();
    p = await buildPrereqs(sb, 'hp');
    await ensureQuota(sb, `${GPU} for cluster usage`, 8);
  });
  after(async () => sb.dispose());

  it('refuses bad input with ValidationException naming the field, and changes nothing', async () => {
    const before = await inventoryJson(sb);
    const cases: [Partial<CreateClusterCommandInput>, RegExp][] = [
      [
        { ClusterName: 'bad_name!' },
        /at 'clusterName' failed to satisfy constraint: Member must satisfy regular expression pattern/,
      ],
      [
        { NodeRecovery: 'Sometimes' as never },
        /at 'nodeRecovery' failed to satisfy constraint: Member must satisfy enum value set: \[Automatic, None\]/,
      ],
      [
        { InstanceGroups: [{ InstanceGroupName: 'workers', InstanceType: GPU, InstanceCount: 1 } as never] },
        /at 'instanceGroups\.1\.member\.executionRole' failed to satisfy constraint: Member must not be null/,
      ],
      [
        { VpcConfig: { SecurityGroupIds: [p.securityGroupId], Subnets: [p.publicSubnets[0]!] } },
        /subnet '.*' in VpcConfig\.Subnets is public/,
      ],
      [
        { InstanceGroups: [group(p, 'workers', GPU, 1, { MinInstanceCount: 2 })] },
        /MinInstanceCount \(2\) must be less than or equal to InstanceCount \(1\)/,
      ],
      [
        { InstanceGroups: [group(p, 'workers', GPU, 1, { ExecutionRole: 'arn:aws:iam::000000000000:role/nobody' })] },
        /role 'arn:aws:iam::000000000000:role\/nobody' in ExecutionRole .* does not exist/,
      ],
      [
        { Orchestrator: { Eks: { ClusterArn: 'arn:aws:eks:us-west-2:000000000000:cluster/missing' } } },
        /EKS cluster .* in Orchestrator\.Eks\.ClusterArn does not exist/,
      ],
    ];
    for (const [extra, message] of cases) {
      await assert.rejects(sm.send(new CreateClusterCommand(request('ml-cluster', extra))), (e: Error) => {
        assert.equal(e.name, 'ValidationException', `${JSON.stringify(extra)} → ${e.name}: ${e.message}`);
        assert.match(e.message, message);
        return true;
      });
    }
    assert.equal(await inventoryJson(sb), before);
  });

  it('refuses a request over the instance-type quota with ResourceLimitExceeded in AWS wording', async () => {
    const before = await inventoryJson(sb);
    await assert.rejects(
      sm.send(new CreateClusterCommand(request('too-big', { InstanceGroups: [group(p, 'workers', GPU, 9)] }))),
      (e: Error) =>
        e.name === 'ResourceLimitExceeded' &&
        e.message ===
          `The account-level service limit '${GPU} for cluster usage' is 8 Instances, with current utilization of 0 Instances and a request delta of 9 Instances. Please use AWS Service Quotas to request an increase for this quota.`,
    );
    assert.equal(await inventoryJson(sb), before);
  });

  it('creates a cluster that goes Creating → InService, with nodes in the private subnets and an EKS access entry', async () => {
    freeIpsBefore = await freeIps();
    const { ClusterArn } = await sm.send(
      new CreateClusterCommand(request('ml-cluster', { Tags: [{ Key: 'project', Value: 'llm' }] })),
    );
    assert.match(ClusterArn!, /^arn:aws:sagemaker:us-west-2:000000000000:cluster\/[a-z0-9]{12}$/);
    const creating = await sm.send(new DescribeClusterCommand({ ClusterName: 'ml-cluster' }));
    assert.equal(creating.ClusterStatus, 'Creating');
    assert.equal(creating.InstanceGroups![0]!.TargetCount, 3);
    assert.equal(creating.InstanceGroups![0]!.CurrentCount, 0);
    assert.equal(creating.Orchestrator?.Eks?.ClusterArn, p.eksClusterArn);

    // HyperPod registers the execution role on the EKS cluster itself.
    const entry = await new EKSClient({}).send(
      new DescribeAccessEntryCommand({ clusterName: p.eksClusterName, principalArn: p.executionRoleArn }),
    );
    assert.equal(entry.accessEntry?.type, 'HYPERPOD_LINUX');

    const ready = await waitForCluster(sb, 'ml-cluster', 'InService');
    const workers = ready.InstanceGroups![0]!;
    assert.equal(workers.Status, 'InService');
    assert.equal(workers.CurrentCount, 3);
    assert.deepEqual(workers.KubernetesConfig?.CurrentLabels, { team: 'research' });
    assert.deepEqual((await sm.send(new ListTagsCommand({ ResourceArn: ClusterArn! }))).Tags, [
      { Key: 'project', Value: 'llm' },
    ]);

    const nodes = (await sm.send(new ListClusterNodesCommand({ ClusterName: 'ml-cluster' }))).ClusterNodeSummaries!;
    assert.equal(nodes.length, 3);
    const zones = new Set<string>();
    for (const n of nodes) {
      assert.match(n.InstanceId!, /^i-[0-9a-f]{17}$/);
      assert.equal(n.InstanceStatus?.Status, 'Running');
      assert.match(n.PrivateDnsHostname!, /^ip-10-1-\d+-\d+\.us-west-2\.compute\.internal$/);
      const d = (await sm.send(new DescribeClusterNodeCommand({ ClusterName: 'ml-cluster', NodeId: n.InstanceId })))
        .NodeDetails!;
      assert.ok(p.zones.includes(d.Placement!.AvailabilityZone!));
      zones.add(d.Placement!.AvailabilityZone!);
      assert.equal(d.PrivateDnsHostname, `ip-${d.PrivatePrimaryIp!.replaceAll('.', '-')}.us-west-2.compute.internal`);
      assert.match(d.PrivatePrimaryIp!, /^10\.1\.(6[4-9]|[7-9]\d|1[01]\d|12[0-7])\./); // the private /19s
      assert.equal(d.CapacityType, 'OnDemand');
      assert.equal(d.ThreadsPerCore !== undefined, true);
    }
    assert.equal(zones.size, 2, 'nodes spread across both zones');

    // Each node holds an ENI (and so a private IP) in its subnet.
    assert.equal(await freeIps(), freeIpsBefore - 3);
  });

  it('lists nodes a page at a time (at most 100 a page) and describes one by id or logical id, not both', async () => {
    const first = await sm.send(new ListClusterNodesCommand({ ClusterName: 'ml-cluster', MaxResults: 2 }));
    assert.equal(first.ClusterNodeSummaries!.length, 2);
    assert.ok(first.NextToken);
    const second = await sm.send(
      new ListClusterNodesCommand({ ClusterName: 'ml-cluster', MaxResults: 2, NextToken: first.NextToken }),
    );
    assert.equal(second.ClusterNodeSummaries!.length, 1);
    assert.equal(second.NextToken, undefined);
    const ids = new Set([...first.ClusterNodeSummaries!, ...second.ClusterNodeSummaries!].map((n) => n.InstanceId));
    assert.equal(ids.size, 3);
    await assert.rejects(
      sm.send(new ListClusterNodesCommand({ ClusterName: 'ml-cluster', MaxResults: 101 })),
      (e: Error) => e.name === 'ValidationException' && /maxResults/.test(e.message),
    );

    const withLogical = await sm.send(
      new ListClusterNodesCommand({ ClusterName: 'ml-cluster', IncludeNodeLogicalIds: true }),
    );
    const node = withLogical.ClusterNodeSummaries![0]!;
    assert.ok(node.NodeLogicalId);
    const byLogical = await sm.send(
      new DescribeClusterNodeCommand({ ClusterName: 'ml-cluster', NodeLogicalId: node.NodeLogicalId }),
    );
    assert.equal(byLogical.NodeDetails?.InstanceId, node.InstanceId);
    await assert.rejects(
      sm.send(
        new DescribeClusterNodeCommand({
          ClusterName: 'ml-cluster',
          NodeId: node.InstanceId,
          NodeLogicalId: node.NodeLogicalId,
        }),
      ),
      (e: Error) => e.name === 'ValidationException',
    );
    await assert.rejects(
      sm.send(new DescribeClusterNodeCommand({ ClusterName: 'ml-cluster', NodeId: 'i-0123456789abcdef0' })),
      (e: Error) => e.name === 'ResourceNotFound',
    );
  });

  it('refuses a second cluster of the same name with ResourceInUse', async () => {
    await assert.rejects(
      sm.send(new CreateClusterCommand(request('ml-cluster'))),
      (e: Error) => e.name === 'ResourceInUse',
    );
  });

  it('answers the real aws CLI: list-clusters and describe-cluster', async () => {
    const list = await sb.aws(['sagemaker', 'list-clusters']);
    const summary = list.json.ClusterSummaries.find((c: { ClusterName: string }) => c.ClusterName === 'ml-cluster');
    assert.equal(summary.ClusterStatus, 'InService');
    assert.match(summary.ClusterArn, /^arn:aws:sagemaker:us-west-2:000000000000:cluster\/[a-z0-9]{12}$/);
    const described = await sb.aws(['sagemaker', 'describe-cluster', '--cluster-name', 'ml-cluster']);
    assert.equal(described.json.ClusterName, 'ml-cluster');
    assert.equal(described.json.InstanceGroups[0].InstanceType, GPU);
    assert.equal(described.json.InstanceGroups[0].CurrentCount, 3);
    assert.equal(described.json.NodeRecovery, 'Automatic');
    // CLI v1 prints timestamps as they come on the wire: epoch seconds.
    const viaSdk = await sm.send(new DescribeClusterCommand({ ClusterName: 'ml-cluster' }));
    assert.equal(described.json.CreationTime, viaSdk.CreationTime!.getTime() / 1000);
    const missing = await sb.aws(['sagemaker', 'describe-cluster', '--cluster-name', 'nope'], { allowFailure: true });
    assert.notEqual(missing.code, 0);
    assert.match(missing.stderr, /ResourceNotFound/);
  });

  it('deletes: Deleting, nodes ShuttingDown, then gone with their ENIs and the access entry', async () => {
    await sm.send(new DeleteClusterCommand({ ClusterName: 'ml-cluster' }));
    const deleting = await sm.send(new DescribeClusterCommand({ ClusterName: 'ml-cluster' }));
    assert.equal(deleting.ClusterStatus, 'Deleting');
    const nodes = (await sm.send(new ListClusterNodesCommand({ ClusterName: 'ml-cluster' }))).ClusterNodeSummaries!;
    assert.ok(nodes.every((n) => n.InstanceStatus?.Status === 'ShuttingDown'));
    await sb.advance(600);
    await assert.rejects(
      sm.send(new DescribeClusterCommand({ ClusterName: 'ml-cluster' })),
      (e: Error) => e.name === 'ResourceNotFound',
    );
    assert.equal((await sm.send(new ListClustersCommand({}))).ClusterSummaries!.length, 0);
    assert.equal(await freeIps(), freeIpsBefore);
    await assert.rejects(
      new EKSClient({}).send(
        new DescribeAccessEntryCommand({ clusterName: p.eksClusterName, principalArn: p.executionRoleArn }),
      ),
      (e: Error) => e.name === 'ResourceNotFoundException',
    );
    const inventory = await sb.inventory();
    assert.deepEqual(inventory.sagemaker?.clusters ?? [], []);
  });
});
