import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { AwsClients, Cloud } from '../../src/cloud/index.js';
import { ConflictError, PreconditionError } from '../../src/domain/errors.js';
import type { WorkflowDeps } from '../../src/workflows/context.js';
import {
  ensureFeatureIdentities,
  featureIdentityStates,
  removeFeatureIdentities,
  type FeatureClusterFacts,
} from '../../src/workflows/feature-identities.js';
import { kubeAccess, type TestKubeCluster } from '../helpers/kube.js';
import { startTestSandbox, type TestSandbox } from '../helpers/sandbox.js';
import { activeCluster, buildEksWorld } from '../sandbox/eks-fixtures.js';

/**
 * The identity chain of managed tiered checkpointing, made and removed against the sandbox and seen
 * with the real aws CLI and kubectl: the IAM role (IRSA trust with :sub and :aud) and its inline
 * policy, the cluster's IAM OIDC provider, the service account annotation, and AWS_ROLE_ARN in a pod
 * of that service account. Removal takes exactly that chain and leaves every object it did not make.
 */

const ROLE = 'instantstart-ckpt-checkpointing';
const BUCKET = 'sagemaker-ckpt-abc123';
const FEATURE = 'tiered-checkpointing';

const podOf = (name: string, namespace: string, sa: string) => `apiVersion: v1
kind: Pod
metadata: { name: ${name}, namespace: ${namespace} }
spec:
  serviceAccountName: ${sa}
  containers: [{ name: train, image: public.ecr.aws/amazonlinux/amazonlinux:2023 }]
`;

const userTrust = (providerArn: string, hostPath: string) =>
  JSON.stringify({
    Version: '2012-10-17',
    Statement: [
      {
        Effect: 'Allow',
        Principal: { Federated: providerArn },
        Action: 'sts:AssumeRoleWithWebIdentity',
        Condition: { StringEquals: { [`${hostPath}:sub`]: 'system:serviceaccount:default:mine' } },
      },
    ],
  });

describe('feature identities: the tiered checkpointing chain on the sandbox', () => {
  let sb: TestSandbox;
  let k: TestKubeCluster;
  let deps: WorkflowDeps;
  let facts: FeatureClusterFacts;
  let issuer: string;
  let hostPath: string;
  const lines: string[] = [];
  const log = (m: string) => void lines.push(m);

  const mutations = async () =>
    (await sb.calls({ mutating: true })).filter((c) => c.service === 'iam' || c.service === 'eks');
  const sa = async (name: string, namespace = 'default') => {
    const r = await k.kubectl(['get', 'serviceaccount', name, '-n', namespace, '-o', 'json'], { allowFailure: true });
    return r.code === 0 ? JSON.parse(r.stdout) : undefined;
  };
  const providers = async () =>
    (
      (await sb.aws(['iam', 'list-open-id-connect-providers'])).json.OpenIDConnectProviderList as Array<{ Arn: string }>
    ).map((p) => p.Arn);
  const roleExists = async (name: string) =>
    (await sb.aws(['iam', 'get-role', '--role-name', name], { allowFailure: true })).code === 0;

  before(async () => {
    sb = await startTestSandbox({ speed: 600 });
    await activeCluster(sb, await buildEksWorld('ckpt'), 'ckpt-eks');
    k = await kubeAccess(sb, 'ckpt-eks');
    deps = {
      cloud: new Cloud(new AwsClients({ defaultRegion: 'us-west-2' })),
    };
    facts = {
      clusterName: 'ckpt',
      region: 'us-west-2',
      eksClusterName: 'ckpt-eks',
      hyperpodClusterArn: 'arn:aws:sagemaker:us-west-2:000000000000:cluster/ckpt',
      sharedBucket: BUCKET,
    };
    issuer = (await sb.aws(['eks', 'describe-cluster', '--name', 'ckpt-eks'])).json.cluster.identity.oidc.issuer;
    hostPath = issuer.replace(/^https:\/\//, '');
  });
  after(async () => sb?.dispose());

  it('refuses a namespace that does not exist, naming the setting, before changing anything', async () => {
    const before = (await mutations()).length;
    await assert.rejects(ensureFeatureIdentities(deps, facts, FEATURE, { namespace: 'nope' }, log), (err: unknown) => {
      assert.ok(err instanceof PreconditionError);
      assert.deepEqual(
        err.problems.map((p) => p.path),
        ['tiered-checkpointing.namespace'],
      );
      assert.match(err.message, /namespace 'nope' does not exist/);
      return true;
    });
    assert.equal((await mutations()).length, before);
    assert.equal(await sa('instantstart-checkpointing'), undefined);
  });

  it('enable: the role, its policy, the OIDC provider and the annotation exist (aws CLI, kubectl), and a pod of the account gets AWS_ROLE_ARN', async () => {
    // Objects that exist before and must outlive the chain: someone's role and someone's service account.
    await sb.aws([
      'iam',
      'create-role',
      '--role-name',
      'team-reader',
      '--assume-role-policy-document',
      JSON.stringify({
        Version: '2012-10-17',
        Statement: [
          {
            Effect: 'Allow',
            Principal: { Service: 'pods.eks.amazonaws.com' },
            Action: ['sts:AssumeRole', 'sts:TagSession'],
          },
        ],
      }),
    ]);
    await k.kubectl(['create', 'serviceaccount', 'other', '-n', 'default']);
    await k.kubectl([
      'annotate',
      'serviceaccount',
      'other',
      '-n',
      'default',
      'eks.amazonaws.com/role-arn=arn:aws:iam::000000000000:role/team-reader',
    ]);

    const arns = await ensureFeatureIdentities(deps, facts, FEATURE, {}, log);
    const arn = arns.get('training-pods');
    assert.equal(arn, `arn:aws:iam::000000000000:role/${ROLE}`);

    const role = (await sb.aws(['iam', 'get-role', '--role-name', ROLE])).json.Role;
    assert.deepEqual(role.AssumeRolePolicyDocument.Statement, [
      {
        Effect: 'Allow',
        Principal: { Federated: `arn:aws:iam::000000000000:oidc-provider/${hostPath}` },
        Action: 'sts:AssumeRoleWithWebIdentity',
        Condition: {
          StringEquals: {
            [`${hostPath}:sub`]: 'system:serviceaccount:default:instantstart-checkpointing',
            [`${hostPath}:aud`]: 'sts.amazonaws.com',
          },
        },
      },
    ]);
    assert.ok(
      role.Tags.some((t: { Key: string; Value: string }) => t.Key === 'instantstart.io/feature' && t.Value === FEATURE),
    );
    assert.deepEqual((await sb.aws(['iam', 'list-role-policies', '--role-name', ROLE])).json.PolicyNames, [
      'instantstart-permissions',
    ]);
    const policy = (
      await sb.aws(['iam', 'get-role-policy', '--role-name', ROLE, '--policy-name', 'instantstart-permissions'])
    ).json.PolicyDocument;
    assert.deepEqual(
      policy.Statement.map((s: { Resource: string }) => s.Resource),
      [`arn:aws:s3:::${BUCKET}`, `arn:aws:s3:::${BUCKET}/checkpoints/*`, '*'],
    );

    const providerArn = `arn:aws:iam::000000000000:oidc-provider/${hostPath}`;
    assert.deepEqual(await providers(), [providerArn]);
    const provider = (
      await sb.aws(['iam', 'get-open-id-connect-provider', '--open-id-connect-provider-arn', providerArn])
    ).json;
    assert.deepEqual(provider.ClientIDList, ['sts.amazonaws.com']);
    const tags = Object.fromEntries(
      (
        await sb.aws(['iam', 'list-open-id-connect-provider-tags', '--open-id-connect-provider-arn', providerArn])
      ).json.Tags.map((t: { Key: string; Value: string }) => [t.Key, t.Value]),
    );
    assert.deepEqual(
      [tags['instantstart.io/managed-by'], tags['instantstart.io/cluster'], tags['instantstart.io/part']],
      ['instantstart', 'ckpt', 'oidc-provider'],
    );

    const account = await sa('instantstart-checkpointing');
    assert.equal(account.metadata.annotations['eks.amazonaws.com/role-arn'], arn);
    assert.equal(account.metadata.labels['app.kubernetes.io/managed-by'], 'instantstart');

    await k.kubectl(['apply', '-f', '-'], { input: podOf('trainer', 'default', 'instantstart-checkpointing') });
    const pod = JSON.parse((await k.kubectl(['get', 'pod', 'trainer', '-n', 'default', '-o', 'json'])).stdout);
    const env = Object.fromEntries(
      (pod.spec.containers[0].env ?? []).map((e: { name: string; value: string }) => [e.name, e.value]),
    );
    assert.equal(env.AWS_ROLE_ARN, arn);
    assert.equal(env.AWS_WEB_IDENTITY_TOKEN_FILE, '/var/run/secrets/eks.amazonaws.com/serviceaccount/token');

    const states = await featureIdentityStates(deps, facts, FEATURE, {});
    assert.deepEqual(
      states.map((s) => [s.identity, s.roleName, s.present]),
      [['training-pods', ROLE, true]],
    );
  });

  it('enable again: no IAM or EKS mutation, the service account untouched', async () => {
    const before = (await mutations()).length;
    const version = (await sa('instantstart-checkpointing')).metadata.resourceVersion;
    await ensureFeatureIdentities(deps, facts, FEATURE, {}, log);
    assert.deepEqual((await mutations()).slice(before), []);
    assert.equal((await sa('instantstart-checkpointing')).metadata.resourceVersion, version);
  });

  it('refuses to adopt a role of its name that InstantStart did not make', async () => {
    await sb.aws([
      'iam',
      'create-role',
      '--role-name',
      'instantstart-other-checkpointing',
      '--assume-role-policy-document',
      userTrust('arn:aws:iam::000000000000:oidc-provider/x', 'x'),
    ]);
    await assert.rejects(
      ensureFeatureIdentities(deps, { ...facts, clusterName: 'other' }, FEATURE, {}, log),
      (err: unknown) => err instanceof ConflictError && /did not make it/.test(err.message),
    );
    await removeFeatureIdentities(deps, { ...facts, clusterName: 'other' }, FEATURE, {}, log);
    assert.ok(await roleExists('instantstart-other-checkpointing'), 'a role we did not make is never deleted');
    await sb.aws(['iam', 'delete-role', '--role-name', 'instantstart-other-checkpointing']);
  });

  it('disable: exactly the chain is gone; the other role and service account are untouched; a repeat changes nothing', async () => {
    const otherBefore = await sa('other');
    const readerBefore = (await sb.aws(['iam', 'get-role', '--role-name', 'team-reader'])).json.Role;

    await removeFeatureIdentities(deps, facts, FEATURE, {}, log);
    assert.equal(await roleExists(ROLE), false);
    assert.deepEqual(await providers(), []);
    assert.equal(await sa('instantstart-checkpointing'), undefined);

    assert.deepEqual(await sa('other'), otherBefore);
    assert.deepEqual((await sb.aws(['iam', 'get-role', '--role-name', 'team-reader'])).json.Role, readerBefore);
    assert.deepEqual(
      (await featureIdentityStates(deps, facts, FEATURE, {})).map((s) => s.present),
      [false],
    );

    const before = (await mutations()).length;
    await removeFeatureIdentities(deps, facts, FEATURE, {}, log);
    assert.deepEqual((await mutations()).slice(before), []);
    await k.kubectl(['delete', 'pod', 'trainer', '-n', 'default']);
  });

  it('a pre-existing OIDC provider trusted by another role and a pre-existing service account: used, then left as they were', async () => {
    await k.kubectl(['create', 'namespace', 'team-a']);
    await k.kubectl(['create', 'serviceaccount', 'instantstart-checkpointing', '-n', 'team-a']);
    await k.kubectl(['label', 'serviceaccount', 'instantstart-checkpointing', '-n', 'team-a', 'team=a']);
    const providerArn = (
      await sb.aws(['iam', 'create-open-id-connect-provider', '--url', issuer, '--client-id-list', 'sts.amazonaws.com'])
    ).json.OpenIDConnectProviderArn;
    await sb.aws([
      'iam',
      'create-role',
      '--role-name',
      'user-irsa',
      '--assume-role-policy-document',
      userTrust(providerArn, hostPath),
    ]);
    const saBefore = await sa('instantstart-checkpointing', 'team-a');

    const arn = (await ensureFeatureIdentities(deps, facts, FEATURE, { namespace: 'team-a' }, log)).get(
      'training-pods',
    );
    assert.equal(
      (await sb.calls({ operation: 'CreateOpenIDConnectProvider' })).filter((c) => c.status === 200).length,
      2,
      "ours from the first test and the user's: none made now",
    );
    const annotated = await sa('instantstart-checkpointing', 'team-a');
    assert.equal(annotated.metadata.annotations['eks.amazonaws.com/role-arn'], arn);
    assert.equal(
      annotated.metadata.labels['app.kubernetes.io/managed-by'],
      undefined,
      'not marked ours: we did not create it',
    );
    const trust = (await sb.aws(['iam', 'get-role', '--role-name', ROLE])).json.Role.AssumeRolePolicyDocument;
    assert.equal(
      trust.Statement[0].Condition.StringEquals[`${hostPath}:sub`],
      'system:serviceaccount:team-a:instantstart-checkpointing',
    );

    await removeFeatureIdentities(deps, facts, FEATURE, { namespace: 'team-a' }, log);
    assert.equal(await roleExists(ROLE), false);
    const after = await sa('instantstart-checkpointing', 'team-a');
    assert.ok(after, 'the service account we did not make stays');
    assert.equal(after.metadata.annotations?.['eks.amazonaws.com/role-arn'], undefined, 'our annotation is gone');
    assert.deepEqual(after.metadata.labels, saBefore.metadata.labels);
    assert.deepEqual(await providers(), [providerArn], 'the provider we did not make stays');
    assert.ok(await roleExists('user-irsa'));
    assert.ok(lines.some((l) => /Kept the IAM OIDC provider .*InstantStart did not make it/.test(l)));

    await sb.aws(['iam', 'delete-role', '--role-name', 'user-irsa']);
    await sb.aws(['iam', 'delete-open-id-connect-provider', '--open-id-connect-provider-arn', providerArn]);
  });

  it('our OIDC provider stays while another role trusts it, and goes once none does', async () => {
    await ensureFeatureIdentities(deps, facts, FEATURE, {}, log);
    const [providerArn] = await providers();
    await sb.aws([
      'iam',
      'create-role',
      '--role-name',
      'late-irsa',
      '--assume-role-policy-document',
      userTrust(providerArn!, hostPath),
    ]);

    await removeFeatureIdentities(deps, facts, FEATURE, {}, log);
    assert.equal(await roleExists(ROLE), false);
    assert.deepEqual(await providers(), [providerArn]);
    assert.ok(lines.some((l) => /Kept the IAM OIDC provider .*still trusted by late-irsa/.test(l)));

    await sb.aws(['iam', 'delete-role', '--role-name', 'late-irsa']);
    await removeFeatureIdentities(deps, facts, FEATURE, {}, log);
    assert.deepEqual(await providers(), []);
  });

  it('a changed namespace setting moves the binding: the old service account is released, the trust names the new one', async () => {
    const arn = (await ensureFeatureIdentities(deps, facts, FEATURE, {}, log)).get('training-pods');
    assert.ok(await sa('instantstart-checkpointing'));
    await ensureFeatureIdentities(deps, facts, FEATURE, { namespace: 'team-a' }, log);
    assert.equal(await sa('instantstart-checkpointing'), undefined, 'the one we made in default is gone');
    assert.equal(
      (await sa('instantstart-checkpointing', 'team-a')).metadata.annotations['eks.amazonaws.com/role-arn'],
      arn,
    );
    const trust = (await sb.aws(['iam', 'get-role', '--role-name', ROLE])).json.Role.AssumeRolePolicyDocument;
    assert.equal(
      trust.Statement[0].Condition.StringEquals[`${hostPath}:sub`],
      'system:serviceaccount:team-a:instantstart-checkpointing',
    );
    assert.deepEqual(
      (await featureIdentityStates(deps, facts, FEATURE, { namespace: 'team-a' })).map((s) => s.present),
      [true],
    );
    assert.deepEqual(
      (await featureIdentityStates(deps, facts, FEATURE, {})).map((s) => s.present),
      [false],
    );
    await removeFeatureIdentities(deps, facts, FEATURE, { namespace: 'team-a' }, log);
    assert.ok(await sa('instantstart-checkpointing', 'team-a'), "the team's own service account stays");
    assert.deepEqual(await providers(), []);
  });
});
