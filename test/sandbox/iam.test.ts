import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import {
  AttachRolePolicyCommand,
  CreateOpenIDConnectProviderCommand,
  CreatePolicyCommand,
  CreateRoleCommand,
  DeleteOpenIDConnectProviderCommand,
  DeletePolicyCommand,
  DeleteRoleCommand,
  DeleteRolePolicyCommand,
  DetachRolePolicyCommand,
  GetOpenIDConnectProviderCommand,
  GetPolicyCommand,
  GetPolicyVersionCommand,
  GetRoleCommand,
  GetRolePolicyCommand,
  IAMClient,
  ListAttachedRolePoliciesCommand,
  ListOpenIDConnectProviderTagsCommand,
  ListOpenIDConnectProvidersCommand,
  ListPoliciesCommand,
  ListRolePoliciesCommand,
  ListRolesCommand,
  ListRoleTagsCommand,
  PutRolePolicyCommand,
  TagOpenIDConnectProviderCommand,
  TagRoleCommand,
  UntagOpenIDConnectProviderCommand,
  UntagRoleCommand,
  UpdateAssumeRolePolicyCommand,
} from '@aws-sdk/client-iam';
import { SignatureV4 } from '@smithy/signature-v4';
import { Sha256 } from '@aws-crypto/sha256-js';
import { HttpRequest } from '@smithy/protocol-http';
import { startTestSandbox, type TestSandbox } from '../helpers/sandbox.js';

const trust = (service: string) =>
  JSON.stringify({
    Version: '2012-10-17',
    Statement: [{ Effect: 'Allow', Principal: { Service: service }, Action: 'sts:AssumeRole' }],
  });
const s3Read = JSON.stringify({
  Version: '2012-10-17',
  Statement: [{ Effect: 'Allow', Action: ['s3:GetObject'], Resource: 'arn:aws:s3:::data/*' }],
});

const rejectsWith = (code: string, status?: number) => (e: Error & { $metadata?: { httpStatusCode?: number } }) => {
  assert.equal(e.name, code, e.message);
  if (status !== undefined) assert.equal(e.$metadata?.httpStatusCode, status);
  return true;
};

describe('IAM', () => {
  let sb: TestSandbox;
  let iam: IAMClient;

  before(async () => {
    sb = await startTestSandbox();
    iam = new IAMClient({});
  });
  after(async () => sb.dispose());

  it('creates, reads and lists roles with their trust policy URL-encoded as IAM returns it', async () => {
    const { Role } = await iam.send(
      new CreateRoleCommand({
        RoleName: 'eks-cluster',
        Path: '/infra/',
        AssumeRolePolicyDocument: trust('eks.amazonaws.com'),
        Tags: [{ Key: 'team', Value: 'ml' }],
      }),
    );
    assert.match(Role!.RoleId!, /^AROA[A-Z0-9]{17}$/);
    assert.match(Role!.Arn!, /^arn:aws:iam::\d{12}:role\/infra\/eks-cluster$/);
    assert.equal(Role!.MaxSessionDuration, 3600);
    assert.ok(Role!.CreateDate instanceof Date);

    const got = (await iam.send(new GetRoleCommand({ RoleName: 'eks-cluster' }))).Role!;
    assert.equal(got.Arn, Role!.Arn);
    assert.match(got.AssumeRolePolicyDocument!, /^%7B%22Version%22/);
    assert.equal(
      JSON.parse(decodeURIComponent(got.AssumeRolePolicyDocument!)).Statement[0].Principal.Service,
      'eks.amazonaws.com',
    );
    assert.deepEqual(got.Tags, [{ Key: 'team', Value: 'ml' }]);

    await iam.send(
      new CreateRoleCommand({ RoleName: 'hyperpod-exec', AssumeRolePolicyDocument: trust('sagemaker.amazonaws.com') }),
    );
    await iam.send(new CreateRoleCommand({ RoleName: 'nodes', AssumeRolePolicyDocument: trust('ec2.amazonaws.com') }));
    const infra = await iam.send(new ListRolesCommand({ PathPrefix: '/infra/' }));
    assert.deepEqual(
      infra.Roles!.map((r) => r.RoleName),
      ['eks-cluster'],
    );
    const first = await iam.send(new ListRolesCommand({ MaxItems: 2 }));
    assert.equal(first.Roles!.length, 2);
    assert.equal(first.IsTruncated, true);
    const rest = await iam.send(new ListRolesCommand({ MaxItems: 2, Marker: first.Marker }));
    assert.equal(rest.IsTruncated, false);
    assert.deepEqual([...first.Roles!, ...rest.Roles!].map((r) => r.RoleName).sort(), [
      'eks-cluster',
      'hyperpod-exec',
      'nodes',
    ]);

    await assert.rejects(
      iam.send(
        new CreateRoleCommand({ RoleName: 'EKS-cluster', AssumeRolePolicyDocument: trust('eks.amazonaws.com') }),
      ),
      rejectsWith('EntityAlreadyExistsException', 409),
    );
    await assert.rejects(
      iam.send(new GetRoleCommand({ RoleName: 'missing' })),
      rejectsWith('NoSuchEntityException', 404),
    );
  });

  it('updates the trust policy and tags', async () => {
    await iam.send(
      new UpdateAssumeRolePolicyCommand({ RoleName: 'nodes', PolicyDocument: trust('sagemaker.amazonaws.com') }),
    );
    const doc = (await iam.send(new GetRoleCommand({ RoleName: 'nodes' }))).Role!.AssumeRolePolicyDocument!;
    assert.match(decodeURIComponent(doc), /sagemaker\.amazonaws\.com/);
    await iam.send(
      new TagRoleCommand({
        RoleName: 'nodes',
        Tags: [
          { Key: 'a', Value: '1' },
          { Key: 'b', Value: '2' },
        ],
      }),
    );
    await iam.send(new TagRoleCommand({ RoleName: 'nodes', Tags: [{ Key: 'A', Value: '3' }] }));
    await iam.send(new UntagRoleCommand({ RoleName: 'nodes', TagKeys: ['b'] }));
    assert.deepEqual((await iam.send(new ListRoleTagsCommand({ RoleName: 'nodes' }))).Tags, [{ Key: 'A', Value: '3' }]);
  });

  it('manages inline and attached policies, and refuses to delete a role that still has them', async () => {
    await iam.send(
      new PutRolePolicyCommand({ RoleName: 'hyperpod-exec', PolicyName: 'read-data', PolicyDocument: s3Read }),
    );
    const inline = await iam.send(new GetRolePolicyCommand({ RoleName: 'hyperpod-exec', PolicyName: 'read-data' }));
    assert.deepEqual(JSON.parse(decodeURIComponent(inline.PolicyDocument!)), JSON.parse(s3Read));
    assert.deepEqual((await iam.send(new ListRolePoliciesCommand({ RoleName: 'hyperpod-exec' }))).PolicyNames, [
      'read-data',
    ]);

    const managed = 'arn:aws:iam::aws:policy/AmazonSageMakerClusterInstanceRolePolicy';
    await iam.send(new AttachRolePolicyCommand({ RoleName: 'hyperpod-exec', PolicyArn: managed }));
    const attached = await iam.send(new ListAttachedRolePoliciesCommand({ RoleName: 'hyperpod-exec' }));
    assert.deepEqual(attached.AttachedPolicies, [
      { PolicyName: 'AmazonSageMakerClusterInstanceRolePolicy', PolicyArn: managed },
    ]);
    assert.equal((await iam.send(new GetPolicyCommand({ PolicyArn: managed }))).Policy!.AttachmentCount, 1);

    await assert.rejects(
      iam.send(new DeleteRoleCommand({ RoleName: 'hyperpod-exec' })),
      rejectsWith('DeleteConflictException', 409),
    );
    await iam.send(new DetachRolePolicyCommand({ RoleName: 'hyperpod-exec', PolicyArn: managed }));
    await assert.rejects(
      iam.send(new DeleteRoleCommand({ RoleName: 'hyperpod-exec' })),
      rejectsWith('DeleteConflictException', 409),
    );
    await iam.send(new DeleteRolePolicyCommand({ RoleName: 'hyperpod-exec', PolicyName: 'read-data' }));
    await iam.send(new DeleteRoleCommand({ RoleName: 'hyperpod-exec' }));
    await assert.rejects(
      iam.send(new GetRoleCommand({ RoleName: 'hyperpod-exec' })),
      rejectsWith('NoSuchEntityException'),
    );
  });

  it('limits a role to 10 managed policies and rejects unknown policy ARNs', async () => {
    await iam.send(new CreateRoleCommand({ RoleName: 'busy', AssumeRolePolicyDocument: trust('ec2.amazonaws.com') }));
    const catalogue = (await iam.send(new ListPoliciesCommand({ Scope: 'AWS' }))).Policies!;
    assert.ok(catalogue.length >= 11);
    for (const p of catalogue.slice(0, 10))
      await iam.send(new AttachRolePolicyCommand({ RoleName: 'busy', PolicyArn: p.Arn }));
    // The SDK retries LimitExceeded as a throttle (it does so against IAM too); one attempt keeps the test quick.
    const once = new IAMClient({ maxAttempts: 1 });
    await assert.rejects(
      once.send(new AttachRolePolicyCommand({ RoleName: 'busy', PolicyArn: catalogue[10]!.Arn })),
      rejectsWith('LimitExceededException', 409),
    );
    await assert.rejects(
      iam.send(
        new AttachRolePolicyCommand({ RoleName: 'nodes', PolicyArn: 'arn:aws:iam::aws:policy/NoSuchManagedPolicy' }),
      ),
      rejectsWith('NoSuchEntityException', 404),
    );
  });

  it('creates customer-managed policies and will not delete one that is attached', async () => {
    const { Policy } = await iam.send(
      new CreatePolicyCommand({
        PolicyName: 'data-read',
        Path: '/ml/',
        PolicyDocument: s3Read,
        Description: 'read training data',
      }),
    );
    assert.match(Policy!.PolicyId!, /^ANPA[A-Z0-9]{17}$/);
    assert.match(Policy!.Arn!, /^arn:aws:iam::\d{12}:policy\/ml\/data-read$/);
    assert.equal(Policy!.DefaultVersionId, 'v1');
    const version = await iam.send(new GetPolicyVersionCommand({ PolicyArn: Policy!.Arn, VersionId: 'v1' }));
    assert.deepEqual(JSON.parse(decodeURIComponent(version.PolicyVersion!.Document!)), JSON.parse(s3Read));
    const local = await iam.send(new ListPoliciesCommand({ Scope: 'Local' }));
    assert.deepEqual(
      local.Policies!.map((p) => p.PolicyName),
      ['data-read'],
    );

    await iam.send(new AttachRolePolicyCommand({ RoleName: 'nodes', PolicyArn: Policy!.Arn }));
    const attachedOnly = await iam.send(new ListPoliciesCommand({ OnlyAttached: true, Scope: 'Local' }));
    assert.equal(attachedOnly.Policies![0]!.AttachmentCount, 1);
    await assert.rejects(
      iam.send(new DeletePolicyCommand({ PolicyArn: Policy!.Arn })),
      rejectsWith('DeleteConflictException', 409),
    );
    await iam.send(new DetachRolePolicyCommand({ RoleName: 'nodes', PolicyArn: Policy!.Arn }));
    await iam.send(new DeletePolicyCommand({ PolicyArn: Policy!.Arn }));
    await assert.rejects(
      iam.send(new GetPolicyCommand({ PolicyArn: Policy!.Arn })),
      rejectsWith('NoSuchEntityException'),
    );
  });

  it('registers OIDC providers by issuer URL', async () => {
    const url = 'https://oidc.eks.us-west-2.amazonaws.com/id/ABCDEF0123456789ABCDEF0123456789';
    const { OpenIDConnectProviderArn: arn } = await iam.send(
      new CreateOpenIDConnectProviderCommand({
        Url: url,
        ClientIDList: ['sts.amazonaws.com'],
        ThumbprintList: ['9e99a48a9960b14926bb7f3b02e22da2b0ab7280'],
      }),
    );
    assert.match(
      arn!,
      /^arn:aws:iam::\d{12}:oidc-provider\/oidc\.eks\.us-west-2\.amazonaws\.com\/id\/ABCDEF0123456789ABCDEF0123456789$/,
    );
    const got = await iam.send(new GetOpenIDConnectProviderCommand({ OpenIDConnectProviderArn: arn }));
    assert.equal(got.Url, 'oidc.eks.us-west-2.amazonaws.com/id/ABCDEF0123456789ABCDEF0123456789');
    assert.deepEqual(got.ClientIDList, ['sts.amazonaws.com']);
    assert.deepEqual((await iam.send(new ListOpenIDConnectProvidersCommand({}))).OpenIDConnectProviderList, [
      { Arn: arn },
    ]);
    await assert.rejects(
      iam.send(new CreateOpenIDConnectProviderCommand({ Url: url, ClientIDList: ['sts.amazonaws.com'] })),
      rejectsWith('EntityAlreadyExistsException', 409),
    );
    await assert.rejects(
      iam.send(new CreateOpenIDConnectProviderCommand({ Url: 'http://insecure.example.com' })),
      rejectsWith('InvalidInputException', 400),
    );
    await iam.send(new DeleteOpenIDConnectProviderCommand({ OpenIDConnectProviderArn: arn }));
    await assert.rejects(
      iam.send(new GetOpenIDConnectProviderCommand({ OpenIDConnectProviderArn: arn })),
      rejectsWith('NoSuchEntityException', 404),
    );
  });

  it('tags OIDC providers as it tags roles: at create, then Tag/Untag/List', async () => {
    const url = 'https://oidc.eks.us-west-2.amazonaws.com/id/00000000000000000000000000000TAG';
    const { OpenIDConnectProviderArn: arn } = await iam.send(
      new CreateOpenIDConnectProviderCommand({
        Url: url,
        ClientIDList: ['sts.amazonaws.com'],
        Tags: [{ Key: 'owner', Value: 'a' }],
      }),
    );
    await iam.send(
      new TagOpenIDConnectProviderCommand({
        OpenIDConnectProviderArn: arn,
        Tags: [
          { Key: 'OWNER', Value: 'b' },
          { Key: 'team', Value: 'ml' },
        ],
      }),
    );
    assert.deepEqual(
      (await iam.send(new ListOpenIDConnectProviderTagsCommand({ OpenIDConnectProviderArn: arn }))).Tags,
      [
        { Key: 'OWNER', Value: 'b' },
        { Key: 'team', Value: 'ml' },
      ],
    );
    await iam.send(new UntagOpenIDConnectProviderCommand({ OpenIDConnectProviderArn: arn, TagKeys: ['owner'] }));
    assert.deepEqual((await iam.send(new GetOpenIDConnectProviderCommand({ OpenIDConnectProviderArn: arn }))).Tags, [
      { Key: 'team', Value: 'ml' },
    ]);
    await iam.send(new DeleteOpenIDConnectProviderCommand({ OpenIDConnectProviderArn: arn }));
    await assert.rejects(
      iam.send(
        new TagOpenIDConnectProviderCommand({ OpenIDConnectProviderArn: arn, Tags: [{ Key: 'x', Value: 'y' }] }),
      ),
      rejectsWith('NoSuchEntityException', 404),
    );
  });

  it('rejects bad input with IAM error codes and changes nothing', async () => {
    const before = await sb.inventory();
    await assert.rejects(
      iam.send(new CreateRoleCommand({ RoleName: 'bad name!', AssumeRolePolicyDocument: trust('ec2.amazonaws.com') })),
      (e: Error) => {
        assert.equal(e.name, 'ValidationError');
        assert.match(
          e.message,
          /Value 'bad name!' at 'roleName' failed to satisfy constraint: Member must satisfy regular expression pattern: \[\\w\+=,\.@-\]\+/,
        );
        return true;
      },
    );
    await assert.rejects(
      iam.send(
        new CreateRoleCommand({ RoleName: 'x'.repeat(65), AssumeRolePolicyDocument: trust('ec2.amazonaws.com') }),
      ),
      rejectsWith('ValidationError', 400),
    );
    await assert.rejects(
      iam.send(new CreateRoleCommand({ RoleName: 'ok', AssumeRolePolicyDocument: '{not json' })),
      rejectsWith('MalformedPolicyDocumentException', 400),
    );
    await assert.rejects(
      iam.send(
        new CreateRoleCommand({ RoleName: 'ok', AssumeRolePolicyDocument: JSON.stringify({ Version: '2012-10-17' }) }),
      ),
      rejectsWith('MalformedPolicyDocumentException'),
    );
    const badEffect = JSON.stringify({
      Version: '2012-10-17',
      Statement: [{ Effect: 'Maybe', Action: 's3:*', Resource: '*' }],
    });
    await assert.rejects(
      iam.send(new PutRolePolicyCommand({ RoleName: 'nodes', PolicyName: 'p', PolicyDocument: badEffect })),
      rejectsWith('MalformedPolicyDocumentException'),
    );
    await assert.rejects(
      iam.send(new CreatePolicyCommand({ PolicyName: 'p', PolicyDocument: trust('ec2.amazonaws.com') })),
      rejectsWith('MalformedPolicyDocumentException'),
    );
    await assert.rejects(
      iam.send(
        new CreateRoleCommand({
          RoleName: 'ok',
          Path: 'no-slash',
          AssumeRolePolicyDocument: trust('ec2.amazonaws.com'),
        }),
      ),
      rejectsWith('ValidationError'),
    );
    await assert.rejects(
      iam.send(new CreateRoleCommand({ RoleName: undefined, AssumeRolePolicyDocument: trust('ec2.amazonaws.com') })),
      (e: Error) => {
        assert.equal(e.name, 'ValidationError');
        assert.match(e.message, /Value null at 'roleName' failed to satisfy constraint: Member must not be null/);
        return true;
      },
    );
    assert.deepEqual(await sb.inventory(), before);
  });

  it('works through the real aws CLI, including DeleteConflict', async () => {
    const before = await sb.inventory();
    const created = await sb.aws([
      'iam',
      'create-role',
      '--role-name',
      'cli-role',
      '--assume-role-policy-document',
      trust('eks.amazonaws.com'),
    ]);
    assert.equal(created.json.Role.RoleName, 'cli-role');
    const got = await sb.aws(['iam', 'get-role', '--role-name', 'cli-role']);
    // The CLI decodes IAM's URL-encoded documents into JSON objects.
    assert.equal(got.json.Role.AssumeRolePolicyDocument.Statement[0].Principal.Service, 'eks.amazonaws.com');
    await sb.aws([
      'iam',
      'attach-role-policy',
      '--role-name',
      'cli-role',
      '--policy-arn',
      'arn:aws:iam::aws:policy/AmazonEKSClusterPolicy',
    ]);
    const conflict = await sb.aws(['iam', 'delete-role', '--role-name', 'cli-role'], { allowFailure: true });
    assert.notEqual(conflict.code, 0);
    assert.match(conflict.stderr, /DeleteConflict/);
    await sb.aws([
      'iam',
      'detach-role-policy',
      '--role-name',
      'cli-role',
      '--policy-arn',
      'arn:aws:iam::aws:policy/AmazonEKSClusterPolicy',
    ]);
    await sb.aws(['iam', 'delete-role', '--role-name', 'cli-role']);
    const unknown = await sb.aws(['iam', 'get-role', '--role-name', 'cli-role'], { allowFailure: true });
    assert.match(unknown.stderr, /NoSuchEntity/);
    assert.deepEqual(await sb.inventory(), before);
  });

  it('answers an unknown action with InvalidAction', async () => {
    const before = await sb.inventory();
    const body = 'Action=CreateWidget&Version=2010-05-08';
    const url = new URL(sb.url);
    const signer = new SignatureV4({
      service: 'iam',
      region: 'us-east-1',
      sha256: Sha256,
      credentials: { accessKeyId: sb.env.AWS_ACCESS_KEY_ID!, secretAccessKey: sb.env.AWS_SECRET_ACCESS_KEY! },
    });
    const request = new HttpRequest({
      method: 'POST',
      protocol: 'http:',
      hostname: url.hostname,
      port: Number(url.port),
      path: '/',
      headers: { host: url.host, 'content-type': 'application/x-www-form-urlencoded' },
      body,
    });
    const signed = await signer.sign(request);
    const res = await fetch(sb.url, { method: 'POST', headers: signed.headers, body });
    assert.equal(res.status, 400);
    assert.match(await res.text(), /<Code>InvalidAction<\/Code>/);
    assert.deepEqual(await sb.inventory(), before);
  });
});
