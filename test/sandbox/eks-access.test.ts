import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import {
  AssociateAccessPolicyCommand,
  CreateAccessEntryCommand,
  CreatePodIdentityAssociationCommand,
  DeleteAccessEntryCommand,
  DeletePodIdentityAssociationCommand,
  DescribeAccessEntryCommand,
  DescribePodIdentityAssociationCommand,
  DisassociateAccessPolicyCommand,
  EKSClient,
  ListAccessEntriesCommand,
  ListAccessPoliciesCommand,
  ListAssociatedAccessPoliciesCommand,
  ListPodIdentityAssociationsCommand,
  UpdateAccessEntryCommand,
  UpdateClusterConfigCommand,
  UpdatePodIdentityAssociationCommand,
} from '@aws-sdk/client-eks';
import { CreateRoleCommand, IAMClient } from '@aws-sdk/client-iam';
import { startTestSandbox, type TestSandbox } from '../helpers/sandbox.js';
import { activeCluster, buildEksWorld, type EksWorld } from './eks-fixtures.js';

const ADMIN_VIEW = 'arn:aws:eks::aws:cluster-access-policy/AmazonEKSAdminViewPolicy';
const EDIT = 'arn:aws:eks::aws:cluster-access-policy/AmazonEKSEditPolicy';

describe('EKS access entries and pod identity through the SDK', () => {
  let sb: TestSandbox;
  let world: EksWorld;
  let devRole: string;
  let nodeRole: string;
  const eks = () => new EKSClient({});
  before(async () => {
    sb = await startTestSandbox();
    world = await buildEksWorld('acc');
    const iam = new IAMClient({});
    const trust = (svc: string) =>
      JSON.stringify({
        Version: '2012-10-17',
        Statement: [{ Effect: 'Allow', Principal: { Service: svc }, Action: 'sts:AssumeRole' }],
      });
    devRole = (
      await iam.send(
        new CreateRoleCommand({ RoleName: 'developers', AssumeRolePolicyDocument: trust('ec2.amazonaws.com') }),
      )
    ).Role!.Arn!;
    nodeRole = (
      await iam.send(
        new CreateRoleCommand({
          RoleName: 'hyperpod-nodes',
          AssumeRolePolicyDocument: trust('sagemaker.amazonaws.com'),
        }),
      )
    ).Role!.Arn!;
    await activeCluster(sb, world, 'api');
    await activeCluster(sb, world, 'legacy', { accessConfig: { authenticationMode: 'CONFIG_MAP' } });
  });
  after(async () => sb.dispose());

  it('lists the access policy catalogue', async () => {
    const out = await eks().send(new ListAccessPoliciesCommand({}));
    const names = out.accessPolicies!.map((p) => p.name);
    for (const n of [
      'AmazonEKSClusterAdminPolicy',
      'AmazonEKSAdminPolicy',
      'AmazonEKSEditPolicy',
      'AmazonEKSViewPolicy',
      'AmazonEKSAdminViewPolicy',
    ])
      assert.ok(names.includes(n));
    assert.ok(out.accessPolicies!.every((p) => p.arn === `arn:aws:eks::aws:cluster-access-policy/${p.name}`));
  });

  it('creates a STANDARD entry with the assumed-role username, associates namespace-scoped policies and lists them', async () => {
    const { accessEntry } = await eks().send(
      new CreateAccessEntryCommand({ clusterName: 'api', principalArn: devRole, kubernetesGroups: ['devs'] }),
    );
    assert.equal(accessEntry?.type, 'STANDARD');
    assert.equal(accessEntry?.username, 'arn:aws:sts::000000000000:assumed-role/developers/{{SessionName}}');
    assert.match(
      accessEntry!.accessEntryArn!,
      /^arn:aws:eks:us-west-2:000000000000:access-entry\/api\/role\/000000000000\/developers\//,
    );
    const assoc = await eks().send(
      new AssociateAccessPolicyCommand({
        clusterName: 'api',
        principalArn: devRole,
        policyArn: EDIT,
        accessScope: { type: 'namespace', namespaces: ['team-a'] },
      }),
    );
    assert.deepEqual(assoc.associatedAccessPolicy?.accessScope, { type: 'namespace', namespaces: ['team-a'] });
    await eks().send(
      new AssociateAccessPolicyCommand({
        clusterName: 'api',
        principalArn: devRole,
        policyArn: ADMIN_VIEW,
        accessScope: { type: 'cluster' },
      }),
    );
    const listed = await eks().send(
      new ListAssociatedAccessPoliciesCommand({ clusterName: 'api', principalArn: devRole }),
    );
    assert.deepEqual(
      listed.associatedAccessPolicies!.map((p) => p.policyArn),
      [ADMIN_VIEW, EDIT],
    );
    const byPolicy = await eks().send(new ListAccessEntriesCommand({ clusterName: 'api', associatedPolicyArn: EDIT }));
    assert.deepEqual(byPolicy.accessEntries, [devRole]);
    await eks().send(
      new DisassociateAccessPolicyCommand({ clusterName: 'api', principalArn: devRole, policyArn: EDIT }),
    );
    assert.equal(
      (await eks().send(new ListAssociatedAccessPoliciesCommand({ clusterName: 'api', principalArn: devRole })))
        .associatedAccessPolicies?.length,
      1,
    );
    const updated = await eks().send(
      new UpdateAccessEntryCommand({ clusterName: 'api', principalArn: devRole, kubernetesGroups: ['devs', 'ops'] }),
    );
    assert.deepEqual(updated.accessEntry?.kubernetesGroups, ['devs', 'ops']);
  });

  it('creates HYPERPOD_LINUX node entries, which take no access policies', async () => {
    const { accessEntry } = await eks().send(
      new CreateAccessEntryCommand({ clusterName: 'api', principalArn: nodeRole, type: 'HYPERPOD_LINUX' }),
    );
    assert.equal(accessEntry?.type, 'HYPERPOD_LINUX');
    assert.deepEqual(accessEntry?.kubernetesGroups, ['system:nodes']);
    await assert.rejects(
      eks().send(
        new AssociateAccessPolicyCommand({
          clusterName: 'api',
          principalArn: nodeRole,
          policyArn: ADMIN_VIEW,
          accessScope: { type: 'cluster' },
        }),
      ),
      (e: Error) => e.name === 'InvalidRequestException',
    );
  });

  it('refuses duplicates, bad principals, unknown policies and CONFIG_MAP clusters without changing anything', async () => {
    const before = await sb.inventory();
    await assert.rejects(
      eks().send(new CreateAccessEntryCommand({ clusterName: 'api', principalArn: devRole })),
      (e: Error) => e.name === 'ResourceInUseException',
    );
    await assert.rejects(
      eks().send(new CreateAccessEntryCommand({ clusterName: 'api', principalArn: 'not-an-arn' })),
      (e: Error) => e.name === 'InvalidParameterException',
    );
    await assert.rejects(
      eks().send(
        new CreateAccessEntryCommand({ clusterName: 'api', principalArn: 'arn:aws:iam::000000000000:role/ghost' }),
      ),
      (e: Error) => e.name === 'InvalidParameterException',
    );
    await assert.rejects(
      eks().send(
        new AssociateAccessPolicyCommand({
          clusterName: 'api',
          principalArn: devRole,
          policyArn: 'arn:aws:eks::aws:cluster-access-policy/Nope',
          accessScope: { type: 'cluster' },
        }),
      ),
      (e: Error) => e.name === 'InvalidParameterException',
    );
    await assert.rejects(
      eks().send(new CreateAccessEntryCommand({ clusterName: 'legacy', principalArn: devRole })),
      (e: Error) => e.name === 'InvalidRequestException' && /CONFIG_MAP/.test(e.message),
    );
    await assert.rejects(
      eks().send(new CreateAccessEntryCommand({ clusterName: 'nope', principalArn: devRole })),
      (e: Error) => e.name === 'ResourceNotFoundException',
    );
    assert.deepEqual(await sb.inventory(), before);
  });

  it('gives the creator its admin entry when a CONFIG_MAP cluster moves to API_AND_CONFIG_MAP', async () => {
    await eks().send(
      new UpdateClusterConfigCommand({ name: 'legacy', accessConfig: { authenticationMode: 'API_AND_CONFIG_MAP' } }),
    );
    await sb.advance(180);
    const entries = await eks().send(new ListAccessEntriesCommand({ clusterName: 'legacy' }));
    assert.deepEqual(entries.accessEntries, ['arn:aws:iam::000000000000:user/sandbox-admin']);
  });

  it('deletes an access entry', async () => {
    await eks().send(new DeleteAccessEntryCommand({ clusterName: 'api', principalArn: devRole }));
    await assert.rejects(
      eks().send(new DescribeAccessEntryCommand({ clusterName: 'api', principalArn: devRole })),
      (e: Error) => e.name === 'ResourceNotFoundException',
    );
  });

  it('creates, filters, updates and deletes pod identity associations', async () => {
    const { association } = await eks().send(
      new CreatePodIdentityAssociationCommand({
        clusterName: 'api',
        namespace: 'aws-hyperpod',
        serviceAccount: 'trainer',
        roleArn: world.podRoleArn,
      }),
    );
    assert.match(association!.associationId!, /^a-[a-z0-9]{17}$/);
    assert.equal(
      association!.associationArn,
      `arn:aws:eks:us-west-2:000000000000:podidentityassociation/api/${association!.associationId}`,
    );
    await eks().send(
      new CreatePodIdentityAssociationCommand({
        clusterName: 'api',
        namespace: 'other',
        serviceAccount: 'trainer',
        roleArn: world.podRoleArn,
      }),
    );
    const filtered = await eks().send(
      new ListPodIdentityAssociationsCommand({ clusterName: 'api', namespace: 'aws-hyperpod' }),
    );
    assert.deepEqual(
      filtered.associations!.map((a) => a.associationId),
      [association!.associationId],
    );
    const paged = await eks().send(new ListPodIdentityAssociationsCommand({ clusterName: 'api', maxResults: 1 }));
    assert.equal(paged.associations?.length, 1);
    assert.ok(paged.nextToken);

    await assert.rejects(
      eks().send(
        new CreatePodIdentityAssociationCommand({
          clusterName: 'api',
          namespace: 'aws-hyperpod',
          serviceAccount: 'trainer',
          roleArn: world.podRoleArn,
        }),
      ),
      (e: Error) => e.name === 'ResourceInUseException',
    );
    await assert.rejects(
      eks().send(
        new CreatePodIdentityAssociationCommand({
          clusterName: 'api',
          namespace: 'x',
          serviceAccount: 'y',
          roleArn: devRole,
        }),
      ),
      (e: Error) => e.name === 'InvalidParameterException' && /pods\.eks\.amazonaws\.com/.test(e.message),
    );

    const iam = new IAMClient({});
    const second = (
      await iam.send(
        new CreateRoleCommand({
          RoleName: 'pods-2',
          AssumeRolePolicyDocument: JSON.stringify({
            Version: '2012-10-17',
            Statement: [
              {
                Effect: 'Allow',
                Principal: { Service: 'pods.eks.amazonaws.com' },
                Action: ['sts:AssumeRole', 'sts:TagSession'],
              },
            ],
          }),
        }),
      )
    ).Role!.Arn!;
    const upd = await eks().send(
      new UpdatePodIdentityAssociationCommand({
        clusterName: 'api',
        associationId: association!.associationId!,
        roleArn: second,
      }),
    );
    assert.equal(upd.association?.roleArn, second);
    const described = await eks().send(
      new DescribePodIdentityAssociationCommand({ clusterName: 'api', associationId: association!.associationId! }),
    );
    assert.equal(described.association?.roleArn, second);
    await eks().send(
      new DeletePodIdentityAssociationCommand({ clusterName: 'api', associationId: association!.associationId! }),
    );
    await assert.rejects(
      eks().send(
        new DescribePodIdentityAssociationCommand({ clusterName: 'api', associationId: association!.associationId! }),
      ),
      (e: Error) => e.name === 'ResourceNotFoundException',
    );
  });
});
