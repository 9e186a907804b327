import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { describe, it } from 'node:test';
import {
  clusterRoleNames,
  hyperpodAutoscalingRole,
  s3CsiDriverRole,
  trainingOperatorRole,
} from '../../src/domain/cluster-roles.js';
import { PreconditionError } from '../../src/domain/errors.js';
import {
  annotatedServiceAccounts,
  CHECKPOINT_PREFIX,
  featureIdentities,
  featureRoleSpec,
  identityPermissionsPolicy,
  identityTrustPolicy,
  issuerHostPath,
  oidcProviderArnFor,
} from '../../src/domain/features/identity-policies.js';
import { federatedPrincipals, samePolicy } from '../../src/domain/features/policy-document.js';
import { publishedPolicy } from '../../src/domain/features/published-policies.js';
import { formerFeatureRoleName } from '../../src/domain/features/registry.js';
import { resourceNames } from '../../src/domain/naming.js';
import { findManagedPolicy } from '../../sandbox/catalog/managed-policies.js';
import { evaluatePolicies, requestContext } from '../../sandbox/services/iam/policy-evaluation.js';
import type { FeatureId } from '../../src/domain/schemas/features.js';

const ISSUER = 'https://oidc.eks.us-west-2.amazonaws.com/id/0123456789ABCDEF0123456789ABCDEF';
const HOST = 'oidc.eks.us-west-2.amazonaws.com/id/0123456789ABCDEF0123456789ABCDEF';
const PROVIDER = oidcProviderArnFor('111122223333', ISSUER);
const FACTS = {
  region: 'us-west-2',
  hyperpodClusterArn: 'arn:aws:sagemaker:us-west-2:111122223333:cluster/abc',
  oidcProviderArn: PROVIDER,
  sharedBucket: 'sagemaker-demo-x',
  tlsBucket: 'demo-tls',
};

const identity = (feature: FeatureId, id: string, config: Record<string, unknown> = {}) =>
  featureIdentities(feature, config).find((i) => i.id === id)!;

describe('feature identity trust policies', () => {
  it("names the OIDC provider as IAM does: the issuer's host and path", () => {
    assert.equal(issuerHostPath(`${ISSUER}/`), HOST);
    assert.equal(PROVIDER, `arn:aws:iam::111122223333:oidc-provider/${HOST}`);
  });

  it('tiered checkpointing: IRSA for <namespace>:instantstart-checkpointing with :sub and :aud, the namespace from its settings', () => {
    const trust = identityTrustPolicy(
      'tiered-checkpointing',
      identity('tiered-checkpointing', 'training-pods', { namespace: 'team-a' }),
      PROVIDER,
    );
    assert.deepEqual(trust, {
      Version: '2012-10-17',
      Statement: [
        {
          Effect: 'Allow',
          Principal: { Federated: PROVIDER },
          Action: 'sts:AssumeRoleWithWebIdentity',
          Condition: {
            StringEquals: {
              [`${HOST}:sub`]: 'system:serviceaccount:team-a:instantstart-checkpointing',
              [`${HOST}:aud`]: 'sts.amazonaws.com',
            },
          },
        },
      ],
    });
    assert.deepEqual(annotatedServiceAccounts(identity('tiered-checkpointing', 'training-pods')), [
      { namespace: 'default', serviceAccount: 'instantstart-checkpointing' },
    ]);
  });

  it('a wildcard subject is StringLike; a service binding is its own statement; no :aud unless the binding says so', () => {
    const trust = identityTrustPolicy('inference-operator', identity('inference-operator', 'gated-model'), PROVIDER);
    assert.deepEqual(trust.Statement, [
      { Effect: 'Allow', Principal: { Service: 'sagemaker.amazonaws.com' }, Action: 'sts:AssumeRole' },
      {
        Effect: 'Allow',
        Principal: { Federated: PROVIDER },
        Action: 'sts:AssumeRoleWithWebIdentity',
        Condition: { StringLike: { [`${HOST}:sub`]: 'system:serviceaccount:*:hyperpod-inference-service-account*' } },
      },
    ]);
  });

  it('pod identity: pods.eks.amazonaws.com with sts:AssumeRole and sts:TagSession', () => {
    assert.deepEqual(identityTrustPolicy('training-operator', identity('training-operator', 'controller')).Statement, [
      {
        Effect: 'Allow',
        Principal: { Service: 'pods.eks.amazonaws.com' },
        Action: ['sts:AssumeRole', 'sts:TagSession'],
      },
    ]);
  });

  it('an IRSA trust without the provider is a programming error, not a half-built document', () => {
    assert.throws(
      () => identityTrustPolicy('tiered-checkpointing', identity('tiered-checkpointing', 'training-pods')),
      /OIDC provider/,
    );
  });
});

describe('feature identity permissions', () => {
  it('tiered checkpointing: the shared bucket, its checkpoint prefix only, and CloudWatch metrics', () => {
    const policy = identityPermissionsPolicy(
      'tiered-checkpointing',
      identity('tiered-checkpointing', 'training-pods'),
      FACTS,
    );
    assert.equal(CHECKPOINT_PREFIX, 'checkpoints/');
    assert.deepEqual(policy?.Statement, [
      { Effect: 'Allow', Action: ['s3:ListBucket', 's3:GetBucketLocation'], Resource: 'arn:aws:s3:::sagemaker-demo-x' },
      {
        Effect: 'Allow',
        Action: ['s3:GetObject', 's3:PutObject', 's3:DeleteObject'],
        Resource: 'arn:aws:s3:::sagemaker-demo-x/checkpoints/*',
      },
      { Effect: 'Allow', Action: ['cloudwatch:PutMetricData'], Resource: '*' },
    ]);
  });

  it('refuses, naming the feature, when the cluster has no shared bucket', () => {
    const err = (() => {
      try {
        identityPermissionsPolicy('tiered-checkpointing', identity('tiered-checkpointing', 'training-pods'), {
          ...FACTS,
          sharedBucket: undefined,
        });
      } catch (e) {
        return e;
      }
    })();
    assert.ok(err instanceof PreconditionError);
    assert.deepEqual(
      err.problems.map((p) => p.path),
      ['tiered-checkpointing'],
    );
  });

  it("leaves out the S3 CSI driver's shared-bucket grants when the cluster has no shared bucket (added storages grant their own)", () => {
    assert.equal(
      identityPermissionsPolicy('s3-csi-driver', identity('s3-csi-driver', 'driver'), {
        ...FACTS,
        sharedBucket: undefined,
      }),
      undefined,
    );
    assert.equal(
      identityPermissionsPolicy('s3-csi-driver', identity('s3-csi-driver', 'driver'), FACTS)?.Statement.length,
      2,
    );
  });

  it('scopes the TLS bucket, the cluster and "any" as the registry says; managed-only identities have no inline policy', () => {
    assert.deepEqual(
      identityPermissionsPolicy('inference-operator', identity('inference-operator', 'execution'), FACTS)?.Statement[0]
        ?.Resource,
      'arn:aws:s3:::demo-tls/*',
    );
    assert.deepEqual(
      identityPermissionsPolicy('autoscaling', identity('autoscaling', 'cluster-role'), FACTS)?.Statement[0]?.Resource,
      FACTS.hyperpodClusterArn,
    );
    assert.equal(
      identityPermissionsPolicy('inference-operator', identity('inference-operator', 'gated-model'), FACTS),
      undefined,
    );
  });

  it('the load balancer controller gets its published policy, vendored unchanged at v2.13.0', () => {
    const doc = publishedPolicy('aws-load-balancer-controller', 'v2.13.0');
    // sha256 of the compact JSON of docs/install/iam_policy.json at tag v2.13.0: an edit of the vendored copy fails
    // here.
    assert.equal(
      createHash('sha256').update(JSON.stringify(doc)).digest('hex'),
      'a4163aa4d4f27878f93ad71ea9d29b80067781e143c05ddc948e70da74f01ed4',
    );
    assert.deepEqual(
      identityPermissionsPolicy('inference-operator', identity('inference-operator', 'load-balancer-controller'), FACTS)
        ?.Statement,
      doc.Statement,
    );
    assert.ok(JSON.stringify(doc).length < 10_240, "fits IAM's inline policy size");
    assert.throws(() => publishedPolicy('aws-load-balancer-controller', 'v9.9.9'), /no vendored/);
  });

  it('the role spec carries the name, the tags that mark it ours, the managed policies and the inline policy', () => {
    const spec = featureRoleSpec('demo', 'inference-operator', identity('inference-operator', 'execution'), FACTS);
    assert.match(spec.roleName, /^SageMakerHyperPodInference-demo-[0-9a-z]{6}$/);
    assert.deepEqual(spec.managedPolicyArns, ['arn:aws:iam::aws:policy/AmazonSageMakerHyperPodInferenceAccess']);
    assert.deepEqual(spec.tags, {
      'instantstart.io/cluster': 'demo',
      'instantstart.io/managed-by': 'instantstart',
      'instantstart.io/part': 'role',
      'instantstart.io/feature': 'inference-operator',
    });
    assert.ok(spec.inlinePolicy);
  });
});

describe("the inference operator's execution role", () => {
  const exec = identity('inference-operator', 'execution');
  const policy = findManagedPolicy('arn:aws:iam::aws:policy/AmazonSageMakerHyperPodInferenceAccess')!;
  /** AmazonSageMakerHyperPodInferenceAccess (AWS's document), evaluated: may the operator pass role `name` to SageMaker? */
  const passable = (name: string) =>
    evaluatePolicies([{ name: policy.arn, document: policy.document }], {
      action: 'iam:PassRole',
      resource: `arn:aws:iam::111122223333:role/${name}`,
      context: requestContext({
        'iam:PassedToService': 'sagemaker.amazonaws.com',
        'aws:PrincipalAccount': '111122223333',
      }),
    }).decision;

  it('is named so that AmazonSageMakerHyperPodInferenceAccess may pass it to SageMaker (the name it had may not be)', () => {
    for (const cluster of ['demo', 'c'.repeat(32), `a${'-b'.repeat(31)}`]) {
      const name = featureRoleSpec(cluster, 'inference-operator', exec, FACTS).roleName;
      assert.equal(passable(name), 'Allow', name);
      assert.ok(name.length <= 64, name);
    }
    assert.equal(formerFeatureRoleName('demo', exec), 'instantstart-demo-inference-exec');
    assert.equal(passable('instantstart-demo-inference-exec'), 'ImplicitDeny');
  });

  it("stays unique per cluster and Region within IAM's 64 characters, however long the cluster name", () => {
    const name = (cluster: string, region: string) =>
      featureRoleSpec(cluster, 'inference-operator', exec, { ...FACTS, region }).roleName;
    const longest = 'x'.repeat(63); // any HyperPod cluster's name (ClusterRefSchema)
    assert.ok(name(longest, 'us-west-2').length <= 64);
    assert.notEqual(name('demo', 'us-west-2'), name('demo', 'us-east-1'));
    // Two names that are cut to the same stem still differ.
    assert.notEqual(name(`${'x'.repeat(40)}a`, 'us-west-2'), name(`${'x'.repeat(40)}b`, 'us-west-2'));
    assert.equal(name('demo', 'us-west-2'), name('demo', 'us-west-2'));
  });

  it("trusts SageMaker and the operator's service account through the cluster's OIDC provider (AWS's documented trust)", () => {
    assert.deepEqual(identityTrustPolicy('inference-operator', exec, PROVIDER).Statement, [
      { Effect: 'Allow', Principal: { Service: 'sagemaker.amazonaws.com' }, Action: 'sts:AssumeRole' },
      {
        Effect: 'Allow',
        Principal: { Federated: PROVIDER },
        Action: 'sts:AssumeRoleWithWebIdentity',
        Condition: {
          StringEquals: {
            [`${HOST}:sub`]: 'system:serviceaccount:hyperpod-inference-system:hyperpod-inference-controller-manager',
            [`${HOST}:aud`]: 'sts.amazonaws.com',
          },
        },
      },
    ]);
  });

  it('is among the roles delete-cluster looks for, under its name and its former one', () => {
    const names = resourceNames('demo', '111122223333', 'us-west-2');
    const roles = clusterRoleNames(names);
    assert.ok(roles.includes(featureRoleSpec('demo', 'inference-operator', exec, FACTS).roleName));
    assert.ok(roles.includes('instantstart-demo-inference-exec'));
  });
});

describe('policy comparison', () => {
  it('reads a one-element list as its element, ignores list and statement order, and sees a changed resource', () => {
    const a = {
      Version: '2012-10-17',
      Statement: [
        {
          Effect: 'Allow',
          Principal: { Service: ['pods.eks.amazonaws.com'] },
          Action: ['sts:AssumeRole', 'sts:TagSession'],
        },
      ],
    };
    const b = JSON.stringify({
      Version: '2012-10-17',
      Statement: [
        {
          Action: ['sts:TagSession', 'sts:AssumeRole'],
          Effect: 'Allow',
          Principal: { Service: 'pods.eks.amazonaws.com' },
        },
      ],
    });
    assert.ok(samePolicy(a, b));
    assert.ok(
      !samePolicy(a, { ...a, Statement: [{ ...a.Statement[0]!, Principal: { Service: 'eks.amazonaws.com' } }] }),
    );
    assert.ok(
      samePolicy(
        {
          Version: '2012-10-17',
          Statement: [
            { Sid: '1', Effect: 'Allow', Action: 'a', Resource: '*' },
            { Effect: 'Allow', Action: 'b', Resource: '*' },
          ],
        },
        {
          Version: '2012-10-17',
          Statement: [
            { Effect: 'Allow', Action: 'b', Resource: '*' },
            { Sid: '1', Effect: 'Allow', Action: ['a'], Resource: '*' },
          ],
        },
      ),
    );
  });

  it('finds the federated principals a trust policy names (what keeps an OIDC provider)', () => {
    const trust = identityTrustPolicy(
      'tiered-checkpointing',
      identity('tiered-checkpointing', 'training-pods'),
      PROVIDER,
    );
    assert.deepEqual(federatedPrincipals(JSON.stringify(trust)), [PROVIDER]);
    assert.deepEqual(federatedPrincipals({ Statement: { Principal: { Federated: ['x', 'y'] } } }), ['x', 'y']);
    assert.deepEqual(federatedPrincipals('not json'), []);
  });
});

describe("create-cluster's feature roles derive from the registry", () => {
  const names = resourceNames('demo', '111122223333', 'us-west-2');

  it("keep their names and trust, with the registry's policies", () => {
    assert.equal(trainingOperatorRole(names).roleName, names.trainingOperatorRole);
    assert.equal(s3CsiDriverRole(names).roleName, names.s3CsiRole);
    assert.equal(hyperpodAutoscalingRole(names, '').roleName, names.autoscalingRole);
    assert.deepEqual(trainingOperatorRole(names).trustedServices, ['pods.eks.amazonaws.com']);
    assert.deepEqual(trainingOperatorRole(names).managedPolicyArns, [
      'arn:aws:iam::aws:policy/AmazonSageMakerHyperPodTrainingOperatorAccess',
    ]);
    assert.deepEqual(trainingOperatorRole(names).trustPolicy?.Statement[0]?.Action, [
      'sts:AssumeRole',
      'sts:TagSession',
    ]);
    const s3 = Object.values(s3CsiDriverRole(names).inlinePolicies ?? {})[0] as {
      Statement: Array<{ Resource: string }>;
    };
    assert.deepEqual(
      s3.Statement.map((s) => s.Resource),
      [`arn:aws:s3:::${names.bucket}`, `arn:aws:s3:::${names.bucket}/*`],
    );
    const scale = (arn: string) =>
      (
        Object.values(hyperpodAutoscalingRole(names, arn).inlinePolicies ?? {})[0] as {
          Statement: Array<{ Resource: string }>;
        }
      ).Statement[0]!.Resource;
    assert.equal(
      scale('arn:aws:sagemaker:us-west-2:111122223333:cluster/abc'),
      'arn:aws:sagemaker:us-west-2:111122223333:cluster/abc',
    );
    assert.equal(scale(''), '*');
    assert.deepEqual(hyperpodAutoscalingRole(names, '').trustedServices, ['hyperpod.sagemaker.amazonaws.com']);
  });

  it("the delete saga looks for every feature's role too", () => {
    const all = clusterRoleNames(names);
    for (const r of [
      'instantstart-demo-eks-cluster',
      'instantstart-demo-hyperpod-exec',
      'instantstart-demo-training-op',
      'instantstart-demo-s3-csi',
      'instantstart-demo-autoscaling',
      'instantstart-demo-checkpointing',
      'instantstart-demo-inference-alb',
    ]) {
      assert.ok(all.includes(r), r);
    }
    assert.equal(new Set(all).size, all.length);
  });
});
