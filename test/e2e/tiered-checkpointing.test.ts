import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { kubeAccess, type TestKubeCluster } from '../helpers/kube.js';
import type { TestSandbox } from '../helpers/sandbox.js';
import { startSandboxAndServer, stopAll, type TestServer } from '../helpers/server.js';

/**
 * Managed tiered checkpointing turned on and off through the features API, as a user sees it from
 * outside: HyperPod's TieredStorageConfig (aws sagemaker describe-cluster), the IRSA chain (aws iam,
 * kubectl) and AWS_ROLE_ARN in a training pod of that service account; off removes exactly the chain.
 */
describe('tiered checkpointing through PATCH …/features (aws CLI and kubectl on the sandbox)', () => {
  let sb: TestSandbox;
  let server: TestServer;
  let k: TestKubeCluster;
  const url = '/api/v1/clusters/ckpt/features';
  const ROLE = 'instantstart-ckpt-checkpointing';
  const tiered = async () =>
    (await sb.aws(['sagemaker', 'describe-cluster', '--cluster-name', 'ckpt'])).json.TieredStorageConfig;
  const roleExists = async () =>
    (await sb.aws(['iam', 'get-role', '--role-name', ROLE], { allowFailure: true })).code === 0;
  const serviceAccount = async () => {
    const r = await k.kubectl(['get', 'serviceaccount', 'instantstart-checkpointing', '-n', 'default', '-o', 'json'], {
      allowFailure: true,
    });
    return r.code === 0 ? JSON.parse(r.stdout) : undefined;
  };
  const patch = async (body: unknown) => {
    const r = await server.api('PATCH', url, body);
    assert.equal(r.status, 202, JSON.stringify(r.body));
    const op = await server.waitForOperation(r.body.operation.id);
    assert.equal(op.status, 'succeeded', JSON.stringify(op.error ?? op.phases));
  };
  const feature = async () =>
    (await server.api('GET', url)).body.features.find((f: { id: string }) => f.id === 'tiered-checkpointing');

  before(async () => {
    ({ sb, server } = await startSandboxAndServer(600));
    const created = await server.api('POST', '/api/v1/clusters', {
      name: 'ckpt',
      availabilityZone: 'us-west-2a',
      instanceType: 'ml.c5.xlarge',
      instanceCount: 1,
      storage: { s3: true },
    });
    assert.equal(created.status, 202, JSON.stringify(created.body));
    assert.equal((await server.waitForOperation(created.body.operation.id)).status, 'succeeded');
    k = await kubeAccess(sb, 'ckpt-eks');
  });
  after(() => stopAll(server, sb));

  it('on: TieredStorageConfig, the role and its policy, the OIDC provider, the annotated service account; a training pod gets AWS_ROLE_ARN', async () => {
    assert.equal((await feature()).state, 'off');
    await patch({ 'tiered-checkpointing': { instanceMemoryAllocationPercentage: 40 } });

    assert.deepEqual(await tiered(), { Mode: 'Enable', InstanceMemoryAllocationPercentage: 40 });
    const role = (await sb.aws(['iam', 'get-role', '--role-name', ROLE])).json.Role;
    const trust = JSON.stringify(role.AssumeRolePolicyDocument);
    assert.match(trust, /system:serviceaccount:default:instantstart-checkpointing/);
    assert.match(trust, /:aud/);
    assert.deepEqual((await sb.aws(['iam', 'list-role-policies', '--role-name', ROLE])).json.PolicyNames, [
      'instantstart-permissions',
    ]);
    const issuer = (
      await sb.aws(['eks', 'describe-cluster', '--name', 'ckpt-eks'])
    ).json.cluster.identity.oidc.issuer.replace(/^https:\/\//, '');
    const providers = (await sb.aws(['iam', 'list-open-id-connect-providers'])).json.OpenIDConnectProviderList.map(
      (p: { Arn: string }) => p.Arn,
    );
    assert.ok(
      providers.some((a: string) => a.endsWith(`oidc-provider/${issuer}`)),
      providers.join(', '),
    );

    const account = await serviceAccount();
    assert.equal(account.metadata.annotations['eks.amazonaws.com/role-arn'], role.Arn);
    await k.kubectl([
      'run',
      'trainer',
      '--image=public.ecr.aws/amazonlinux/amazonlinux:2023',
      '--overrides',
      JSON.stringify({ spec: { serviceAccountName: 'instantstart-checkpointing' } }),
      '--',
      'sleep',
      '600',
    ]);
    const pod = JSON.parse((await k.kubectl(['get', 'pod', 'trainer', '-o', 'json'])).stdout);
    const env = new Map<string, string>(
      (pod.spec.containers[0].env ?? []).map((e: { name: string; value: string }) => [e.name, e.value]),
    );
    assert.equal(env.get('AWS_ROLE_ARN'), role.Arn);

    const f = await feature();
    assert.equal(f.state, 'on');
    assert.equal(f.config.instanceMemoryAllocationPercentage, 40);
    assert.deepEqual(
      f.identities.map((i: { roleName: string; present: boolean }) => [i.roleName, i.present]),
      [[ROLE, true]],
    );
    await k.kubectl(['delete', 'pod', 'trainer', '--wait=false']);
  });

  it("off: the setting is Disable and exactly the chain is gone (role, service account); the S3 driver's role stays", async () => {
    await patch({ 'tiered-checkpointing': false });
    assert.equal((await tiered())?.Mode, 'Disable');
    assert.equal(await roleExists(), false);
    assert.equal(await serviceAccount(), undefined);
    assert.equal(
      (await sb.aws(['iam', 'get-role', '--role-name', 'instantstart-ckpt-s3-csi'], { allowFailure: true })).code,
      0,
      "another feature's role is kept",
    );
    assert.equal((await feature()).state, 'off');
  });
});
