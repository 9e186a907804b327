import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { AwsClients, Cloud } from '../../src/cloud/index.js';
import { networkPhase } from '../../src/capabilities/clusters/workflows/create-cluster/network-phase.js';
import type {
  CreateClusterInput,
  CreateClusterState,
} from '../../src/capabilities/clusters/workflows/create-cluster/types.js';
import { OperationEngine } from '../../src/engine/engine.js';
import { exclusive, type WorkflowDefinition } from '../../src/engine/workflow.js';
import { openStores } from '../../src/store/index.js';
import { startTestSandbox, type TestSandbox } from '../helpers/sandbox.js';
import { memoryKeptStorages, memoryMlflowLinks } from '../helpers/kept-storages.js';

const SPEED = 600;
const REGION = 'us-west-2';

/**
 * A crash between a create and its attribute change leaves a piece that exists but does not work.
 * Here the attribute change itself fails (a non-retryable error from the sandbox), so the network
 * phase stops exactly there — as after a crash at that point. Retrying the phase must observe the
 * piece as incomplete and finish it, changing only what is missing.
 */
describe('network phase: a create whose attribute change never ran is observed as incomplete and finished', () => {
  let sb: TestSandbox;
  let engine: OperationEngine;
  const stores = openStores();
  before(async () => {
    sb = await startTestSandbox({ speed: SPEED });
    engine = new OperationEngine({
      store: stores.operations,
      polling: { minIntervalMs: 1000, maxIntervalMs: 30_000, timeScale: 1 / SPEED },
    });
    const deps = {
      cloud: new Cloud(new AwsClients({ defaultRegion: REGION })),
      activeCluster: { get: () => undefined, set: () => undefined },
      keptStorages: memoryKeptStorages(),
      mlflowLinks: memoryMlflowLinks(),
    };
    const workflow: WorkflowDefinition<CreateClusterInput, CreateClusterState> = {
      kind: 'network-only',
      target: (input) => `network/${input.region}/${input.name}`,
      locks: (input) => [exclusive(`network/${input.region}/${input.name}`)],
      initialState: () => ({}),
      phases: [networkPhase(deps)],
    };
    engine.register(workflow);
  });
  after(async () => {
    await engine?.stop();
    stores.close();
    await sb?.dispose();
  });

  const aws = async (args: string[]) => (await sb.aws(args)).json;
  const tagged = (name: string) => [`Name=tag:instantstart.io/cluster,Values=${name}`];
  const vpcOf = async (name: string) =>
    (await aws(['ec2', 'describe-vpcs', '--filters', ...tagged(name)])).Vpcs[0]?.VpcId as string | undefined;
  const vpcAttribute = async (vpcId: string, attribute: 'enableDnsSupport' | 'enableDnsHostnames') =>
    (await aws(['ec2', 'describe-vpc-attribute', '--vpc-id', vpcId, '--attribute', attribute]))[
      attribute[0]!.toUpperCase() + attribute.slice(1)
    ].Value as boolean;
  const subnetsOf = async (name: string) =>
    (await aws(['ec2', 'describe-subnets', '--filters', ...tagged(name)])).Subnets.map((s: any) => ({
      role: s.Tags.find((t: any) => t.Key === 'instantstart.io/part').Value as string,
      mapPublicIpOnLaunch: s.MapPublicIpOnLaunch as boolean,
    }));
  const nodeGroupOf = async (name: string) =>
    (
      await aws([
        'ec2',
        'describe-security-groups',
        '--filters',
        ...tagged(name),
        'Name=tag:instantstart.io/part,Values=nodes',
      ])
    ).SecurityGroups[0];
  const selfRule = (permissions: any[], groupId: string) =>
    permissions.some((p) => p.IpProtocol === '-1' && p.UserIdGroupPairs.some((g: any) => g.GroupId === groupId));
  const succeeded = async (operation: string) =>
    (await sb.calls({ service: 'ec2', operation })).filter((c) => c.status < 300).length;

  /** Fails the next `operation` call, runs the phase (it stops there), then retries the phase. */
  async function interruptedThenRetried(name: string, operation: string, between: () => Promise<void>) {
    const fault = await sb.admin('/_sandbox/faults', {
      method: 'POST',
      body: {
        type: 'error',
        service: 'ec2',
        operation,
        code: 'UnauthorizedOperation',
        status: 403,
        message: 'You are not authorized to perform this operation.',
        count: 1,
      },
    });
    assert.equal(fault.status, 201, JSON.stringify(fault.body));
    const { operation: op } = engine.start('network-only', {
      name,
      region: REGION,
      availabilityZone: 'us-west-2a',
      instanceType: 'ml.c5.xlarge',
      instanceCount: 1,
    });
    const failed = await engine.waitFor(op.id, 60_000);
    assert.equal(failed.status, 'failed', JSON.stringify(failed.phases));
    assert.equal(failed.error?.code, 'UnauthorizedOperation');
    await between();
    engine.retryPhase(op.id, 'network');
    const done = await engine.waitFor(op.id, 60_000);
    assert.equal(done.status, 'succeeded', JSON.stringify(done.error ?? done.phases));
    return engine.events(op.id, 0, 1000).lines.map((l) => l.message);
  }

  it('a VPC whose DNS hostnames were never turned on gets them on retry, and is not made twice', async () => {
    const vpcsBefore = await succeeded('CreateVpc');
    const logs = await interruptedThenRetried('dns', 'ModifyVpcAttribute', async () => {
      const vpcId = await vpcOf('dns');
      assert.ok(vpcId, 'the VPC was made before the attribute change failed');
      assert.equal(await vpcAttribute(vpcId, 'enableDnsHostnames'), false);
    });
    const vpcId = (await vpcOf('dns'))!;
    assert.equal(await vpcAttribute(vpcId, 'enableDnsHostnames'), true);
    assert.equal(await vpcAttribute(vpcId, 'enableDnsSupport'), true);
    assert.equal((await succeeded('CreateVpc')) - vpcsBefore, 1, 'the VPC was found, not made again');
    assert.ok(
      logs.some((m) => /Incomplete: VPC DNS hostnames are off/.test(m)),
      logs.join('\n'),
    );
    assert.ok(
      logs.some((m) => /Finished what an earlier attempt left undone: VPC DNS hostnames are off/.test(m)),
      logs.join('\n'),
    );
  });

  it('a public subnet that never got its public-IP mapping gets it on retry; other subnets keep theirs off', async () => {
    const subnetsBefore = await succeeded('CreateSubnet');
    await interruptedThenRetried('pubip', 'ModifySubnetAttribute', async () => {
      const made = await subnetsOf('pubip');
      assert.deepEqual(
        made,
        [{ role: 'public', mapPublicIpOnLaunch: false }],
        'the first public subnet was made; its mapping failed',
      );
    });
    const subnets = await subnetsOf('pubip');
    assert.equal(subnets.length, 5, JSON.stringify(subnets));
    for (const s of subnets) assert.equal(s.mapPublicIpOnLaunch, s.role === 'public', JSON.stringify(s));
    assert.equal((await succeeded('CreateSubnet')) - subnetsBefore, 5, 'no subnet was made twice');
  });

  it('a security group whose ingress rule was never added gets both rules on retry', async () => {
    const groupsBefore = await succeeded('CreateSecurityGroup');
    await interruptedThenRetried('rules', 'AuthorizeSecurityGroupIngress', async () => {
      const group = await nodeGroupOf('rules');
      assert.ok(group, 'the group was made before its rules');
      assert.equal(selfRule(group.IpPermissions, group.GroupId), false);
    });
    const group = await nodeGroupOf('rules');
    assert.ok(selfRule(group.IpPermissions, group.GroupId), JSON.stringify(group.IpPermissions));
    assert.ok(selfRule(group.IpPermissionsEgress, group.GroupId), JSON.stringify(group.IpPermissionsEgress));
    assert.equal((await succeeded('CreateSecurityGroup')) - groupsBefore, 1, 'the group was found, not made again');
  });

  it('a security group with only its ingress rule gets just the egress rule on retry', async () => {
    const ingressBefore = await succeeded('AuthorizeSecurityGroupIngress');
    await interruptedThenRetried('egress', 'AuthorizeSecurityGroupEgress', async () => {
      const group = await nodeGroupOf('egress');
      assert.ok(selfRule(group.IpPermissions, group.GroupId));
      assert.equal(selfRule(group.IpPermissionsEgress, group.GroupId), false);
    });
    const group = await nodeGroupOf('egress');
    assert.ok(selfRule(group.IpPermissionsEgress, group.GroupId), JSON.stringify(group.IpPermissionsEgress));
    assert.equal(
      (await succeeded('AuthorizeSecurityGroupIngress')) - ingressBefore,
      1,
      'the ingress rule was not added again',
    );
  });
});
