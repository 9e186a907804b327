import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import {
  CreateAddonCommand,
  DeleteAddonCommand,
  DescribeAddonCommand,
  DescribeAddonConfigurationCommand,
  DescribeAddonVersionsCommand,
  DescribeUpdateCommand,
  EKSClient,
  ListAddonsCommand,
  ListPodIdentityAssociationsCommand,
  UpdateAddonCommand,
} from '@aws-sdk/client-eks';
import { startTestSandbox, type TestSandbox } from '../helpers/sandbox.js';
import { activeCluster, buildEksWorld, type EksWorld } from './eks-fixtures.js';

const TRAINING_OPERATOR = 'amazon-sagemaker-hyperpod-training-operator';

describe('EKS add-ons through the SDK', () => {
  let sb: TestSandbox;
  let world: EksWorld;
  const eks = () => new EKSClient({});
  const status = async (addonName: string) =>
    (await eks().send(new DescribeAddonCommand({ clusterName: 'ml', addonName }))).addon!;
  before(async () => {
    sb = await startTestSandbox();
    world = await buildEksWorld('addons');
    await activeCluster(sb, world, 'ml', { version: '1.33' });
  });
  after(async () => sb.dispose());

  it('lists the HyperPod add-ons with versions and one default per Kubernetes version', async () => {
    const out = await eks().send(new DescribeAddonVersionsCommand({ kubernetesVersion: '1.33' }));
    const names = out.addons!.map((a) => a.addonName);
    for (const n of [
      'vpc-cni',
      'coredns',
      'kube-proxy',
      'eks-pod-identity-agent',
      'cert-manager',
      'metrics-server',
      'aws-fsx-csi-driver',
      'aws-mountpoint-s3-csi-driver',
      TRAINING_OPERATOR,
      'amazon-sagemaker-hyperpod-inference',
      'amazon-sagemaker-hyperpod-observability',
      'amazon-sagemaker-hyperpod-taskgovernance',
    ]) {
      assert.ok(names.includes(n), `${n} listed`);
    }
    const cni = out.addons!.find((a) => a.addonName === 'vpc-cni')!;
    assert.ok(cni.addonVersions!.every((v) => /^v\d+\.\d+\.\d+-eksbuild\.\d+$/.test(v.addonVersion!)));
    const defaults = cni.addonVersions!.filter((v) =>
      v.compatibilities!.some((c) => c.clusterVersion === '1.33' && c.defaultVersion),
    );
    assert.equal(defaults.length, 1);
    const kp = await eks().send(
      new DescribeAddonVersionsCommand({ addonName: 'kube-proxy', kubernetesVersion: '1.34' }),
    );
    assert.deepEqual(
      kp.addons![0]!.addonVersions!.map((v) => v.addonVersion),
      ['v1.34.1-eksbuild.2'],
    );
    const paged = await eks().send(new DescribeAddonVersionsCommand({ maxResults: 5 }));
    assert.equal(paged.addons?.length, 5);
    assert.ok(paged.nextToken);
  });

  it('describes an add-on configuration schema and its pod identity service account', async () => {
    const out = await eks().send(
      new DescribeAddonConfigurationCommand({ addonName: TRAINING_OPERATOR, addonVersion: 'v1.2.1-eksbuild.1' }),
    );
    assert.equal(JSON.parse(out.configurationSchema!).$schema, 'http://json-schema.org/draft-07/schema#');
    assert.equal(out.podIdentityConfiguration?.[0]?.serviceAccount, 'hp-training-operator-controller-manager');
  });

  it('refuses unknown add-ons and versions incompatible with the cluster, changing nothing', async () => {
    const before = await sb.inventory();
    await assert.rejects(
      eks().send(new CreateAddonCommand({ clusterName: 'ml', addonName: 'no-such-addon' })),
      (e: Error) => e.name === 'InvalidParameterException',
    );
    await assert.rejects(
      eks().send(
        new CreateAddonCommand({ clusterName: 'ml', addonName: 'kube-proxy', addonVersion: 'v1.35.0-eksbuild.2' }),
      ),
      (e: Error) => e.name === 'InvalidParameterException',
    );
    await assert.rejects(
      eks().send(
        new CreateAddonCommand({
          clusterName: 'ml',
          addonName: 'coredns',
          configurationValues: '{"replicaCount":"two"}',
        }),
      ),
      (e: Error) => e.name === 'InvalidParameterException' && /replicaCount/.test(e.message),
    );
    assert.deepEqual(await sb.inventory(), before);
  });

  it('keeps the training operator DEGRADED until cert-manager and the pod identity agent are ACTIVE', async () => {
    const created = await eks().send(
      new CreateAddonCommand({
        clusterName: 'ml',
        addonName: TRAINING_OPERATOR,
        resolveConflicts: 'OVERWRITE',
        podIdentityAssociations: [
          { serviceAccount: 'hp-training-operator-controller-manager', roleArn: world.podRoleArn },
        ],
      }),
    );
    assert.equal(created.addon?.status, 'CREATING');
    assert.equal(created.addon?.podIdentityAssociations?.length, 1);
    await sb.advance(4 * 60);
    let op = await status(TRAINING_OPERATOR);
    assert.equal(op.status, 'DEGRADED');
    assert.match(op.health!.issues![0]!.message!, /cert-manager/);
    assert.match(op.health!.issues![0]!.message!, /eks-pod-identity-agent/);

    await eks().send(new CreateAddonCommand({ clusterName: 'ml', addonName: 'cert-manager' }));
    await sb.advance(4 * 60);
    op = await status(TRAINING_OPERATOR);
    assert.equal(op.status, 'DEGRADED', 'still missing the pod identity agent');
    assert.doesNotMatch(op.health!.issues![0]!.message!, /not ACTIVE on this cluster: .*cert-manager/);

    await eks().send(new CreateAddonCommand({ clusterName: 'ml', addonName: 'eks-pod-identity-agent' }));
    await sb.advance(4 * 60);
    op = await status(TRAINING_OPERATOR);
    assert.equal(op.status, 'ACTIVE');
    assert.deepEqual(op.health?.issues, []);
    assert.deepEqual(
      (await eks().send(new ListAddonsCommand({ clusterName: 'ml' }))).addons,
      ['cert-manager', TRAINING_OPERATOR, 'eks-pod-identity-agent'].sort(),
    );
  });

  it('refuses a second add-on of the same name', async () => {
    await assert.rejects(
      eks().send(new CreateAddonCommand({ clusterName: 'ml', addonName: 'cert-manager' })),
      (e: Error) => e.name === 'ResourceInUseException',
    );
  });

  it('updates an add-on through an update (UPDATING → ACTIVE)', async () => {
    const { update } = await eks().send(
      new UpdateAddonCommand({ clusterName: 'ml', addonName: 'cert-manager', addonVersion: 'v1.19.1-eksbuild.1' }),
    );
    assert.equal(update?.type, 'AddonUpdate');
    assert.equal((await status('cert-manager')).status, 'UPDATING');
    await sb.advance(3 * 60);
    const a = await status('cert-manager');
    assert.equal(a.status, 'ACTIVE');
    assert.equal(a.addonVersion, 'v1.19.1-eksbuild.1');
    const u = await eks().send(
      new DescribeUpdateCommand({ name: 'ml', updateId: update!.id!, addonName: 'cert-manager' }),
    );
    assert.equal(u.update?.status, 'Successful');
  });

  it('degrades the operator again when cert-manager is deleted, and removes an add-on with its associations', async () => {
    const deleting = await eks().send(new DeleteAddonCommand({ clusterName: 'ml', addonName: 'cert-manager' }));
    assert.equal(deleting.addon?.status, 'DELETING');
    await sb.advance(3 * 60);
    await assert.rejects(status('cert-manager'), (e: Error) => e.name === 'ResourceNotFoundException');
    assert.equal((await status(TRAINING_OPERATOR)).status, 'DEGRADED');

    await eks().send(new DeleteAddonCommand({ clusterName: 'ml', addonName: TRAINING_OPERATOR, preserve: true }));
    await sb.advance(3 * 60);
    const pias = await eks().send(new ListPodIdentityAssociationsCommand({ clusterName: 'ml' }));
    assert.deepEqual(pias.associations, []);
  });

  it('ends an add-on create CREATE_FAILED with the message of a create-failure fault naming it; it can be deleted and made again', async () => {
    const fault = await sb.admin('/_sandbox/faults', {
      method: 'POST',
      body: {
        type: 'create-failure',
        service: 'eks',
        name: 'ml',
        addonName: 'metrics-server',
        message: 'the metrics-server pods crash at start',
      },
    });
    assert.equal(fault.status, 201, JSON.stringify(fault.body));
    await eks().send(new CreateAddonCommand({ clusterName: 'ml', addonName: 'metrics-server' }));
    await sb.advance(4 * 60);
    const failed = await status('metrics-server');
    assert.equal(failed.status, 'CREATE_FAILED');
    assert.deepEqual(
      failed.health?.issues?.map((i) => i.message),
      ['the metrics-server pods crash at start'],
    );

    await eks().send(new DeleteAddonCommand({ clusterName: 'ml', addonName: 'metrics-server' }));
    await sb.advance(3 * 60);
    await assert.rejects(status('metrics-server'), (e: Error) => e.name === 'ResourceNotFoundException');
    await eks().send(new CreateAddonCommand({ clusterName: 'ml', addonName: 'metrics-server' }));
    await sb.advance(4 * 60);
    assert.equal((await status('metrics-server')).status, 'ACTIVE', 'the fault was used up by the first create');
  });
});
