import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { findManagedPolicy } from '../../sandbox/catalog/managed-policies.js';
import { keyed } from '../../sandbox/core/keyed.js';
import { emptyState } from '../../sandbox/core/store.js';
import { actAsRole, assumeRoleWithWebIdentity } from '../../sandbox/services/iam/authorize.js';
import {
  evaluatePolicies,
  requestContext,
  type EvaluationRequest,
} from '../../sandbox/services/iam/policy-evaluation.js';
import { iamSection, type StoredRole } from '../../sandbox/services/iam/state.js';

const doc = (...Statement: object[]) => ({ Version: '2012-10-17', Statement });
const ask = (action: string, resource: string, keys: Record<string, string | string[]> = {}): EvaluationRequest => ({
  action,
  resource,
  context: requestContext(keys),
});
const decide = (statements: object[], request: EvaluationRequest) =>
  evaluatePolicies([{ name: 'p', document: doc(...statements) }], request).decision;

describe('IAM policy evaluation', () => {
  it('allows what a statement allows, and nothing else (implicit deny)', () => {
    const allow = { Effect: 'Allow', Action: 's3:GetObject', Resource: 'arn:aws:s3:::data/*' };
    assert.equal(decide([allow], ask('s3:GetObject', 'arn:aws:s3:::data/a/b.txt')), 'Allow');
    assert.equal(decide([allow], ask('s3:PutObject', 'arn:aws:s3:::data/a.txt')), 'ImplicitDeny');
    assert.equal(decide([allow], ask('s3:GetObject', 'arn:aws:s3:::other/a.txt')), 'ImplicitDeny');
  });

  it('lets an explicit Deny win over any Allow, in whichever policy it is', () => {
    const request = ask('iam:PassRole', 'arn:aws:iam::111122223333:role/x');
    const decision = evaluatePolicies(
      [
        { name: 'allow-all', document: doc({ Effect: 'Allow', Action: '*', Resource: '*' }) },
        { name: 'no-pass', document: doc({ Sid: 'NoPass', Effect: 'Deny', Action: 'iam:PassRole', Resource: '*' }) },
      ],
      request,
    );
    assert.deepEqual(decision, { decision: 'ExplicitDeny', policy: 'no-pass', sid: 'NoPass' });
  });

  it('matches actions case-insensitively with * and ?, resources part by part', () => {
    const s = { Effect: 'Allow', Action: ['s3:Get*', 'ec2:Describe?pcs'], Resource: 'arn:aws:*:*:*:*' };
    assert.equal(decide([s], ask('S3:GETOBJECT', 'arn:aws:s3:::b/k')), 'Allow');
    assert.equal(decide([s], ask('ec2:DescribeVpcs', 'arn:aws:ec2:us-west-2:111122223333:vpc/vpc-1')), 'Allow');
    assert.equal(decide([s], ask('ec2:DescribeSubnets', '*')), 'ImplicitDeny');
    // Each of an ARN's six parts matches on its own: a wildcard does not run on into the next part.
    const cluster = 'arn:aws:sagemaker:us-west-2:111122223333:cluster/abc';
    assert.equal(
      decide(
        [{ Effect: 'Allow', Action: 'sagemaker:*', Resource: 'arn:aws:sagemaker:*:cluster/*' }],
        ask('sagemaker:DescribeCluster', cluster),
      ),
      'ImplicitDeny',
    );
    assert.equal(
      decide(
        [{ Effect: 'Allow', Action: 'sagemaker:*', Resource: 'arn:aws:sagemaker:*:*:cluster/*' }],
        ask('sagemaker:DescribeCluster', cluster),
      ),
      'Allow',
    );
  });

  it('reads NotAction and NotResource as "everything but"', () => {
    const s = { Effect: 'Allow', NotAction: 'iam:*', NotResource: 'arn:aws:s3:::secret/*' };
    assert.equal(decide([s], ask('s3:GetObject', 'arn:aws:s3:::open/k')), 'Allow');
    assert.equal(decide([s], ask('iam:CreateRole', '*')), 'ImplicitDeny');
    assert.equal(decide([s], ask('s3:GetObject', 'arn:aws:s3:::secret/k')), 'ImplicitDeny');
  });

  it('evaluates string, ARN and Null conditions, AND across keys and operators, OR across values', () => {
    const s = {
      Effect: 'Allow',
      Action: 'iam:PassRole',
      Resource: '*',
      Condition: {
        StringEquals: { 'iam:PassedToService': ['sagemaker.amazonaws.com', 'eks.amazonaws.com'] },
        ArnLike: { 'iam:AssociatedResourceArn': 'arn:aws:sagemaker:*:*:model/*' },
      },
    };
    const model = 'arn:aws:sagemaker:us-west-2:111122223333:model/m';
    assert.equal(
      decide(
        [s],
        ask('iam:PassRole', 'r', { 'iam:PassedToService': 'eks.amazonaws.com', 'iam:AssociatedResourceArn': model }),
      ),
      'Allow',
    );
    assert.equal(
      decide(
        [s],
        ask('iam:PassRole', 'r', { 'iam:PassedToService': 'ec2.amazonaws.com', 'iam:AssociatedResourceArn': model }),
      ),
      'ImplicitDeny',
    );
    assert.equal(decide([s], ask('iam:PassRole', 'r', { 'iam:PassedToService': 'eks.amazonaws.com' })), 'ImplicitDeny');
    // Keys are case-insensitive, values are not (except …IgnoreCase).
    assert.equal(
      decide(
        [s],
        ask('iam:PassRole', 'r', { 'IAM:PASSEDTOSERVICE': 'eks.amazonaws.com', 'iam:associatedresourcearn': model }),
      ),
      'Allow',
    );
    assert.equal(
      decide(
        [s],
        ask('iam:PassRole', 'r', { 'iam:PassedToService': 'EKS.amazonaws.com', 'iam:AssociatedResourceArn': model }),
      ),
      'ImplicitDeny',
    );
    const tagged = {
      Effect: 'Allow',
      Action: 'ec2:DeleteSecurityGroup',
      Resource: '*',
      Condition: { Null: { 'aws:ResourceTag/owner': 'false' } },
    };
    assert.equal(decide([tagged], ask('ec2:DeleteSecurityGroup', '*', { 'aws:ResourceTag/owner': 'me' })), 'Allow');
    assert.equal(decide([tagged], ask('ec2:DeleteSecurityGroup', '*')), 'ImplicitDeny');
  });

  it('treats a missing key as IAM does: false, true for negated operators, IfExists and ForAllValues', () => {
    const cond = (Condition: object) => [{ Effect: 'Allow', Action: 's3:*', Resource: '*', Condition }];
    assert.equal(decide(cond({ StringEquals: { 's3:prefix': 'a' } }), ask('s3:ListBucket', '*')), 'ImplicitDeny');
    assert.equal(decide(cond({ StringNotEquals: { 's3:prefix': 'a' } }), ask('s3:ListBucket', '*')), 'Allow');
    assert.equal(decide(cond({ StringEqualsIfExists: { 's3:prefix': 'a' } }), ask('s3:ListBucket', '*')), 'Allow');
    assert.equal(
      decide(cond({ StringEqualsIfExists: { 's3:prefix': 'a' } }), ask('s3:ListBucket', '*', { 's3:prefix': 'b' })),
      'ImplicitDeny',
    );
    assert.equal(
      decide(cond({ 'ForAllValues:StringEquals': { 'aws:TagKeys': ['CreatedBy'] } }), ask('s3:PutObject', '*')),
      'Allow',
    );
    assert.equal(
      decide(
        cond({ 'ForAllValues:StringEquals': { 'aws:TagKeys': ['CreatedBy'] } }),
        ask('s3:PutObject', '*', { 'aws:TagKeys': ['CreatedBy', 'Other'] }),
      ),
      'ImplicitDeny',
    );
    assert.equal(
      decide(cond({ 'ForAnyValue:StringEquals': { 'aws:TagKeys': ['CreatedBy'] } }), ask('s3:PutObject', '*')),
      'ImplicitDeny',
    );
    assert.equal(
      decide(
        cond({ 'ForAnyValue:StringLike': { 'aws:TagKeys': ['Created*'] } }),
        ask('s3:PutObject', '*', { 'aws:TagKeys': ['x', 'CreatedBy'] }),
      ),
      'Allow',
    );
  });

  it('replaces policy variables from the request, and matches nothing when one is missing', () => {
    const s = {
      Effect: 'Allow',
      Action: 'eks:DescribeCluster',
      Resource: 'arn:aws:eks:*:*:cluster/*',
      Condition: { StringEquals: { 'aws:ResourceAccount': '${aws:PrincipalAccount}' } },
    };
    const arn = 'arn:aws:eks:us-west-2:111122223333:cluster/c';
    assert.equal(
      decide(
        [s],
        ask('eks:DescribeCluster', arn, {
          'aws:ResourceAccount': '111122223333',
          'aws:PrincipalAccount': '111122223333',
        }),
      ),
      'Allow',
    );
    assert.equal(
      decide(
        [s],
        ask('eks:DescribeCluster', arn, {
          'aws:ResourceAccount': '999999999999',
          'aws:PrincipalAccount': '111122223333',
        }),
      ),
      'ImplicitDeny',
    );
    assert.equal(
      decide([s], ask('eks:DescribeCluster', arn, { 'aws:ResourceAccount': '111122223333' })),
      'ImplicitDeny',
    );
  });

  it('matches trust policies by principal instead of resource', () => {
    const trust = doc({
      Effect: 'Allow',
      Principal: { Service: ['sagemaker.amazonaws.com'] },
      Action: 'sts:AssumeRole',
    });
    const asks = (id: string) =>
      evaluatePolicies([{ name: 'trust', document: trust }], {
        action: 'sts:AssumeRole',
        resource: '*',
        context: requestContext({}),
        principal: { kind: 'Service', id },
      }).decision;
    assert.equal(asks('sagemaker.amazonaws.com'), 'Allow');
    assert.equal(asks('eks.amazonaws.com'), 'ImplicitDeny');
  });
});

describe('the managed policies AWS publishes, evaluated', () => {
  const inference = findManagedPolicy('arn:aws:iam::aws:policy/AmazonSageMakerHyperPodInferenceAccess')!;
  const training = findManagedPolicy('arn:aws:iam::aws:policy/AmazonSageMakerHyperPodTrainingOperatorAccess')!;
  const pass = (roleName: string, service: string) =>
    evaluatePolicies(
      [{ name: inference.arn, document: inference.document }],
      ask('iam:PassRole', `arn:aws:iam::111122223333:role/${roleName}`, { 'iam:PassedToService': service }),
    ).decision;

  it('AmazonSageMakerHyperPodInferenceAccess passes only SageMakerHyperPodInference* roles, only to SageMaker', () => {
    assert.equal(pass('SageMakerHyperPodInference-demo-abc123', 'sagemaker.amazonaws.com'), 'Allow');
    assert.equal(pass('instantstart-demo-inference-exec', 'sagemaker.amazonaws.com'), 'ImplicitDeny');
    assert.equal(pass('SageMakerHyperPodInference-demo-abc123', 'ec2.amazonaws.com'), 'ImplicitDeny');
  });

  it('AmazonSageMakerHyperPodTrainingOperatorAccess describes nodes only of clusters tagged SageMaker=true', () => {
    const describe = (tags: Record<string, string>) =>
      evaluatePolicies(
        [{ name: training.arn, document: training.document }],
        ask(
          'sagemaker:DescribeClusterNode',
          'arn:aws:sagemaker:us-west-2:111122223333:cluster/abcdef123456',
          Object.fromEntries(Object.entries(tags).map(([k, v]) => [`aws:ResourceTag/${k}`, v])),
        ),
      ).decision;
    assert.equal(describe({ SageMaker: 'true' }), 'Allow');
    assert.equal(describe({ SageMaker: 'false' }), 'ImplicitDeny');
    assert.equal(describe({}), 'ImplicitDeny');
  });
});

describe('a controller acting as a role', () => {
  const account = '111122223333';
  const role = (name: string, patch: Partial<StoredRole> = {}): StoredRole => ({
    roleName: name,
    roleId: `AROA${name.length}`,
    arn: `arn:aws:iam::${account}:role/${name}`,
    path: '/',
    assumeRolePolicyDocument: '{}',
    maxSessionDuration: 3600,
    createDate: 0,
    tags: [],
    inlinePolicies: {},
    attachedPolicyArns: [],
    ...patch,
  });
  const stateWith = (...roles: StoredRole[]) => {
    const state = emptyState();
    for (const r of roles) keyed.set(iamSection(state).roles, r.roleName.toLowerCase(), r);
    return state;
  };

  it("is refused with AWS's sentence when no policy of the role allows the action", () => {
    const exec = role('instantstart-demo-inference-exec', {
      attachedPolicyArns: ['arn:aws:iam::aws:policy/AmazonSageMakerHyperPodInferenceAccess'],
    });
    const answer = actAsRole(stateWith(exec), exec.arn, {
      action: 'iam:PassRole',
      resource: exec.arn,
      context: { 'iam:PassedToService': 'sagemaker.amazonaws.com' },
      sessionName: 'op',
    });
    assert.deepEqual(answer, {
      allowed: false,
      code: 'AccessDenied',
      message: `User: arn:aws:sts::${account}:assumed-role/instantstart-demo-inference-exec/op is not authorized to perform: iam:PassRole on resource: ${exec.arn} because no identity-based policy allows the iam:PassRole action`,
    });
  });

  it('is allowed by an attached managed policy, with the account keys filled in', () => {
    const exec = role('SageMakerHyperPodInference-demo-abc123', {
      attachedPolicyArns: ['arn:aws:iam::aws:policy/AmazonSageMakerHyperPodInferenceAccess'],
    });
    const state = stateWith(exec);
    assert.deepEqual(
      actAsRole(state, exec.arn, {
        action: 'iam:PassRole',
        resource: exec.arn,
        context: { 'iam:PassedToService': 'sagemaker.amazonaws.com' },
      }),
      { allowed: true },
    );
    // SageMakerAccess asks that the cluster be in the caller's own account.
    assert.deepEqual(
      actAsRole(state, exec.arn, {
        action: 'sagemaker:UpdateClusterInference',
        resource: `arn:aws:sagemaker:us-west-2:${account}:cluster/abcdef123456`,
      }),
      { allowed: true },
    );
    assert.equal(
      actAsRole(state, exec.arn, {
        action: 'sagemaker:UpdateClusterInference',
        resource: 'arn:aws:sagemaker:us-west-2:999999999999:cluster/abcdef123456',
      }).allowed,
      false,
    );
  });

  it('is refused by an explicit deny in an inline policy, whatever a managed policy allows', () => {
    const deny = JSON.stringify(doc({ Effect: 'Deny', Action: 'iam:PassRole', Resource: '*' }));
    const exec = role('SageMakerHyperPodInference-demo-abc123', {
      attachedPolicyArns: ['arn:aws:iam::aws:policy/AmazonSageMakerHyperPodInferenceAccess'],
      inlinePolicies: keyed.from([['no-pass', deny]]),
    });
    const answer = actAsRole(stateWith(exec), exec.arn, {
      action: 'iam:PassRole',
      resource: exec.arn,
      context: { 'iam:PassedToService': 'sagemaker.amazonaws.com' },
    });
    assert.equal(answer.allowed, false);
    assert.match(answer.allowed ? '' : answer.message, /with an explicit deny in an identity-based policy$/);
  });

  it("assumes a role by web identity only through the account's OIDC provider and the role's trust", () => {
    const issuer = 'https://oidc.eks.us-west-2.amazonaws.com/id/ABC';
    const provider = `arn:aws:iam::${account}:oidc-provider/oidc.eks.us-west-2.amazonaws.com/id/ABC`;
    const key = 'oidc.eks.us-west-2.amazonaws.com/id/ABC';
    const trust = JSON.stringify(
      doc(
        {
          Effect: 'Allow',
          Principal: { Federated: provider },
          Action: 'sts:AssumeRoleWithWebIdentity',
          Condition: {
            StringEquals: { [`${key}:sub`]: 'system:serviceaccount:ns:sa', [`${key}:aud`]: 'sts.amazonaws.com' },
          },
        },
        { Effect: 'Allow', Principal: { Service: 'sagemaker.amazonaws.com' }, Action: 'sts:AssumeRole' },
      ),
    );
    const exec = role('SageMakerHyperPodInference-demo-abc123', { assumeRolePolicyDocument: trust });
    const state = stateWith(exec);
    assert.deepEqual(
      assumeRoleWithWebIdentity(state, exec.arn, issuer, 'system:serviceaccount:ns:sa', 'sts.amazonaws.com'),
      {
        allowed: false,
        code: 'InvalidIdentityToken',
        message: `No OpenIDConnect provider found in your account for ${issuer}`,
      },
    );
    keyed.set(iamSection(state).oidcProviders, provider, {
      arn: provider,
      url: issuer,
      clientIds: ['sts.amazonaws.com'],
      thumbprints: [],
      createDate: 0,
      tags: [],
    });
    assert.deepEqual(
      assumeRoleWithWebIdentity(state, exec.arn, issuer, 'system:serviceaccount:ns:sa', 'sts.amazonaws.com'),
      { allowed: true },
    );
    assert.deepEqual(
      assumeRoleWithWebIdentity(state, exec.arn, issuer, 'system:serviceaccount:ns:other', 'sts.amazonaws.com'),
      {
        allowed: false,
        code: 'AccessDenied',
        message: 'Not authorized to perform sts:AssumeRoleWithWebIdentity',
      },
    );
  });
});
