import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  callsNeeding,
  concreteArn,
  simulatedPrincipal,
  statementFor,
  statementSimulations,
} from '../../src/domain/iam/simulation-plan.js';
import { PRODUCT_POLICY } from '../../src/domain/iam/product-policy.js';

/** How `instantstart doctor` asks IAM's policy simulator about the product's policy (src/domain/iam/simulation-plan.ts). */
const where = { accountId: '123456789012', region: 'eu-west-1' };
const statement = (sid: string) => PRODUCT_POLICY.find((s) => s.sid === sid)!;

describe("doctor's simulation plan", () => {
  it("fills an ARN pattern's account and Region, keeping the name wildcard", () => {
    assert.equal(concreteArn('arn:aws:eks:*:*:cluster/*', where), 'arn:aws:eks:eu-west-1:123456789012:cluster/*');
    assert.equal(
      concreteArn('arn:aws:iam::*:role/instantstart-*', where),
      'arn:aws:iam::123456789012:role/instantstart-*',
    );
    assert.equal(concreteArn('arn:aws:s3:::sagemaker-*', where), 'arn:aws:s3:::sagemaker-*');
  });

  it('asks every action of the policy, each condition value on its own, `*` resources as none', () => {
    const all = PRODUCT_POLICY.flatMap((s) => statementSimulations(s, where));
    for (const s of PRODUCT_POLICY)
      for (const a of s.actions)
        assert.ok(
          all.some((q) => q.sid === s.sid && q.actions.includes(a)),
          `${s.sid} ${a} is asked`,
        );
    const pass = statementSimulations(statement('IamPassOwnRoles'), where);
    assert.deepEqual(
      pass.map((q) => q.context['iam:PassedToService']),
      [['eks.amazonaws.com'], ['sagemaker.amazonaws.com'], ['pods.eks.amazonaws.com']],
    );
    assert.deepEqual(pass[0]!.resources, [
      'arn:aws:iam::123456789012:role/instantstart-*',
      'arn:aws:iam::123456789012:role/SageMakerHyperPodInference-*',
    ]);
    const read = statementSimulations(statement('Ec2Read'), where);
    assert.deepEqual(read, [{ sid: 'Ec2Read', actions: statement('Ec2Read').actions, resources: [], context: {} }]);
    const tagged = statementSimulations(statement('EksDeleteOwnCluster'), where);
    assert.deepEqual(tagged[0]!.context, { 'aws:ResourceTag/instantstart.io/managed-by': ['instantstart'] });
  });

  it('names the calls that need an action: its own, the S3 exceptions, and those it is a dependent action of', () => {
    assert.deepEqual(callsNeeding('eks:DeleteCluster'), ['EKS DeleteCluster']);
    assert.deepEqual(callsNeeding('s3:ListBucket'), ['S3 HeadBucket', 'S3 ListObjectsV2']);
    const pass = callsNeeding('iam:PassRole');
    assert.ok(!pass.includes('IAM PassRole'), 'PassRole is a permission, not a call');
    assert.ok(pass.includes('EKS CreateCluster (checked with it)'));
    assert.ok(callsNeeding('ec2:CreateTags').includes('EC2 CreateTags'));
    assert.ok(callsNeeding('ec2:CreateTags').includes('EC2 CreateVpc (checked with it)'));
  });

  it('gives the statement to add for one action, with its resources and condition', () => {
    assert.deepEqual(JSON.parse(statementFor(statement('EksDeleteOwnCluster'), 'eks:DeleteCluster')), {
      Sid: 'EksDeleteOwnCluster',
      Effect: 'Allow',
      Action: 'eks:DeleteCluster',
      Resource: 'arn:aws:eks:*:*:cluster/*',
      Condition: { StringEquals: { 'aws:ResourceTag/instantstart.io/managed-by': 'instantstart' } },
    });
  });

  it('simulates an assumed role as its role and a user as itself; not root nor a federated user', () => {
    assert.equal(
      simulatedPrincipal('arn:aws:sts::123456789012:assumed-role/instantstart-server/i-0abc'),
      'arn:aws:iam::123456789012:role/instantstart-server',
    );
    assert.equal(simulatedPrincipal('arn:aws:iam::123456789012:user/alice'), 'arn:aws:iam::123456789012:user/alice');
    assert.equal(simulatedPrincipal('arn:aws:iam::123456789012:root'), undefined);
    assert.equal(simulatedPrincipal('arn:aws:sts::123456789012:federated-user/bob'), undefined);
  });
});
