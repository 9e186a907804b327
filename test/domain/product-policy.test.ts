import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, it } from 'node:test';
import { actionMatches, iamActionOf, statementsGranting } from '../../src/domain/iam/policy-actions.js';
import { permissionsTable, TABLE_BEGIN, TABLE_END } from '../../src/domain/iam/permissions-table.js';
import {
  PASSED_TO_SERVICES,
  PRODUCT_POLICY,
  PRODUCT_ROLE_ARNS,
  productPolicyDocument,
} from '../../src/domain/iam/product-policy.js';

/**
 * The product's IAM policy (issue 30 item 3) holds its own rules: no wildcard action, no *FullAccess, PassRole
 * only on its roles and to named services, IAM's statement-id rule; and docs/SECURITY.md's table is the data's.
 * That every call the product makes is granted, and nothing granted is never called, is
 * test/conformance/product-policy-calls.test.ts (it needs the whole suite's recordings).
 */

function repoRoot(): string {
  let dir = dirname(fileURLToPath(import.meta.url));
  while (!existsSync(join(dir, 'package.json'))) dir = dirname(dir);
  return dir;
}

describe('the product IAM policy', () => {
  it('names every action exactly: no "*", no service wildcard, no *FullAccess', () => {
    for (const s of PRODUCT_POLICY)
      for (const a of s.actions) {
        assert.match(a, /^[a-z0-9-]+:[A-Za-z0-9]+$/, `${s.sid}: '${a}' is not one exact service:Action`);
        assert.doesNotMatch(a, /FullAccess/i, `${s.sid}: ${a}`);
      }
    const text = JSON.stringify(productPolicyDocument());
    assert.doesNotMatch(text, /FullAccess|AdministratorAccess|PowerUserAccess/);
    assert.doesNotMatch(text, /"Action":\["\*"\]|"NotAction"|"Effect":"Deny"/);
  });

  it('has unique statement ids of letters and digits, each with a why, actions and resources', () => {
    const sids = PRODUCT_POLICY.map((s) => s.sid);
    assert.equal(new Set(sids).size, sids.length, 'duplicate sid');
    for (const s of PRODUCT_POLICY) {
      assert.match(s.sid, /^[A-Za-z0-9]+$/);
      assert.ok(s.why.length > 10 && s.actions.length > 0 && s.resources.length > 0, s.sid);
    }
  });

  it('passes only the roles it creates, only to the services it names', () => {
    const passing = statementsGranting(PRODUCT_POLICY, 'iam:PassRole');
    assert.ok(passing.length > 0, 'no statement grants iam:PassRole (EKS and HyperPod creates need it)');
    for (const s of passing) {
      assert.deepEqual([...s.resources], PRODUCT_ROLE_ARNS, `${s.sid}: PassRole on other roles`);
      assert.ok(!s.resources.includes('*'));
      assert.deepEqual(s.conditions?.StringEquals?.['iam:PassedToService'], PASSED_TO_SERVICES, s.sid);
    }
    for (const arn of PRODUCT_ROLE_ARNS) assert.match(arn, /^arn:aws:iam::\*:role\/[A-Za-z]+[A-Za-z-]*-\*$/);
  });

  it('scopes every mutating action to tagged or named resources, or says the action has no resource type', () => {
    // Creates, deletes and changes with Resource "*" must carry a tag or service condition (EC2 takes no ARN
    // pattern for a create across its resource types; the condition is the scope).
    for (const s of PRODUCT_POLICY) {
      const mutating = s.actions.filter((a) => !/:(Describe|List|Get|Search)/.test(a));
      if (mutating.length === 0 || !s.resources.includes('*')) continue;
      assert.ok(s.conditions, `${s.sid}: ${mutating.join(', ')} on "*" without a condition`);
    }
  });

  it('maps SDK operations to IAM actions, with the S3 exceptions', () => {
    assert.equal(iamActionOf('s3', 'HeadBucket'), 's3:ListBucket');
    assert.equal(iamActionOf('s3', 'ListObjectsV2'), 's3:ListBucket');
    assert.equal(iamActionOf('s3', 'DeleteObjects'), 's3:DeleteObject');
    assert.equal(iamActionOf('quotas', 'GetServiceQuota'), 'servicequotas:GetServiceQuota');
    assert.equal(iamActionOf('sagemaker', 'CreateCluster'), 'sagemaker:CreateCluster');
    assert.throws(() => iamActionOf('nope', 'X'), /no IAM service prefix/);
    assert.ok(actionMatches('ec2:Describe*', 'ec2:DescribeVpcs') && !actionMatches('ec2:Describe*', 'ec2:CreateVpc'));
    assert.ok(actionMatches('EC2:describevpcs', 'ec2:DescribeVpcs'), 'IAM actions are case-insensitive');
  });

  it("docs/SECURITY.md's permissions table is the policy data's", () => {
    const doc = readFileSync(join(repoRoot(), 'docs/SECURITY.md'), 'utf8');
    const begin = doc.indexOf(TABLE_BEGIN);
    const end = doc.indexOf(TABLE_END);
    assert.ok(begin >= 0 && end > begin, 'docs/SECURITY.md has no permissions-table markers');
    assert.equal(
      doc.slice(begin, end + TABLE_END.length),
      permissionsTable(),
      'docs/SECURITY.md is out of date: run `node scripts/permissions-table.mjs` after a build',
    );
  });
});
