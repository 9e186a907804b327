import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import {
  CreateClusterCommand,
  CreateTrainingPlanCommand,
  DeleteClusterCommand,
  DescribeClusterCommand,
  DescribeClusterNodeCommand,
  DescribeTrainingPlanCommand,
  ListClusterNodesCommand,
  ListClustersCommand,
  SageMakerClient,
  SearchTrainingPlanOfferingsCommand,
  type CreateClusterCommandInput,
} from '@aws-sdk/client-sagemaker';
import { eventually, startTestSandbox, type TestSandbox } from '../helpers/sandbox.js';
import {
  buildPrereqs,
  ensureQuota,
  group,
  inventoryJson,
  waitForCluster,
  type HyperPodPrereqs,
} from './sagemaker-fixtures.js';

const P5 = 'ml.p5.48xlarge';

describe('SageMaker HyperPod on a training plan', () => {
  let sb: TestSandbox;
  let p: HyperPodPrereqs;
  let planArn = '';
  let planZone = '';
  const sm = new SageMakerClient({});
  const request = (count: number, extra: Partial<CreateClusterCommandInput> = {}): CreateClusterCommandInput => ({
    ClusterName: 'reserved',
    InstanceGroups: [group(p, 'h100', P5, count, { TrainingPlanArn: planArn })],
    VpcConfig: { SecurityGroupIds: [p.securityGroupId], Subnets: p.privateSubnets },
    Orchestrator: { Eks: { ClusterArn: p.eksClusterArn } },
    ...extra,
  });
  const plan = () => sm.send(new DescribeTrainingPlanCommand({ TrainingPlanName: 'h100-week' }));

  before(async () => {
    sb = await startTestSandbox();
    // p5 is offered in us-west-2b and us-west-2d only.
    p = await buildPrereqs(sb, 'tp', ['us-west-2b', 'us-west-2d']);
    await ensureQuota(sb, `${P5} for cluster usage`, 4);
    const offerings = (
      await sm.send(
        new SearchTrainingPlanOfferingsCommand({
          InstanceType: P5,
          InstanceCount: 2,
          DurationHours: 48,
          TargetResources: ['hyperpod-cluster'],
        }),
      )
    ).TrainingPlanOfferings!;
    const offering = offerings.find((o) => p.zones.includes(o.ReservedCapacityOfferings![0]!.AvailabilityZone!))!;
    assert.ok(offering, 'an offering in one of the cluster zones');
    planZone = offering.ReservedCapacityOfferings![0]!.AvailabilityZone!;
    planArn = (
      await sm.send(
        new CreateTrainingPlanCommand({
          TrainingPlanName: 'h100-week',
          TrainingPlanOfferingId: offering.TrainingPlanOfferingId,
        }),
      )
    ).TrainingPlanArn!;
    await eventually(async () => (await plan()).Status === 'Scheduled', {
      sandbox: sb,
      stepSeconds: 60,
      what: 'plan Scheduled',
    });
  });
  after(async () => sb.dispose());

  it('refuses groups the plan cannot serve: other type, too many instances', async () => {
    const before = await inventoryJson(sb);
    await assert.rejects(
      sm.send(
        new CreateClusterCommand(
          request(1, { InstanceGroups: [group(p, 'h100', 'ml.g5.8xlarge', 1, { TrainingPlanArn: planArn })] }),
        ),
      ),
      (e: Error) =>
        e.name === 'ValidationException' &&
        new RegExp(`reserves ${P5.replaceAll('.', '\\.')}, but instance group 'h100' uses ml\\.g5\\.8xlarge`).test(
          e.message,
        ),
    );
    await assert.rejects(
      sm.send(new CreateClusterCommand(request(3))),
      (e: Error) =>
        e.name === 'ValidationException' &&
        /has 2 available instances; instance group 'h100' needs 3 more/.test(e.message),
    );
    assert.equal(await inventoryJson(sb), before);
  });

  it('reserves the plan at create, waits for its start, launches in its zone, and gives it back on delete', async () => {
    await sm.send(new CreateClusterCommand(request(2)));
    assert.deepEqual([(await plan()).AvailableInstanceCount, (await plan()).InUseInstanceCount], [0, 2]);
    assert.deepEqual(
      (await sm.send(new ListClustersCommand({ TrainingPlanArn: planArn }))).ClusterSummaries!.map(
        (c) => c.ClusterName,
      ),
      ['reserved'],
    );

    // Until the plan's capacity starts the nodes wait (the create does not fail).
    await sb.advance(600);
    const waiting = (
      await sm.send(new ListClusterNodesCommand({ ClusterName: 'reserved', IncludeNodeLogicalIds: true }))
    ).ClusterNodeSummaries!;
    assert.equal((await sm.send(new DescribeClusterCommand({ ClusterName: 'reserved' }))).ClusterStatus, 'Creating');
    assert.ok(
      waiting.length === 2 &&
        waiting.every(
          (n) => !n.InstanceId && /training plan 'h100-week' is Scheduled/.test(n.InstanceStatus!.Message!),
        ),
    );

    const ready = await waitForCluster(sb, 'reserved', 'InService', 3600);
    assert.equal(ready.InstanceGroups![0]!.TrainingPlanArn, planArn);
    assert.equal(ready.InstanceGroups![0]!.TrainingPlanStatus, 'Active');
    for (const n of (await sm.send(new ListClusterNodesCommand({ ClusterName: 'reserved' }))).ClusterNodeSummaries!) {
      const d = await sm.send(new DescribeClusterNodeCommand({ ClusterName: 'reserved', NodeId: n.InstanceId }));
      assert.equal(d.NodeDetails!.Placement!.AvailabilityZone, planZone);
    }

    await sm.send(new DeleteClusterCommand({ ClusterName: 'reserved' }));
    await sb.advance(600);
    await assert.rejects(
      sm.send(new DescribeClusterCommand({ ClusterName: 'reserved' })),
      (e: Error) => e.name === 'ResourceNotFound',
    );
    assert.equal((await plan()).AvailableInstanceCount, 2);
  });
});
