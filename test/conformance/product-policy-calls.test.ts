import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import {
  DEPENDENT_ACTIONS,
  iamActionOf,
  policyActions,
  statementsGranting,
} from '../../src/domain/iam/policy-actions.js';
import { PRODUCT_POLICY } from '../../src/domain/iam/product-policy.js';
import { CONFORMANCE_DIR_ENV, type ConformanceRecord } from '../helpers/conformance-recorder.js';

/**
 * Least privilege, proved over the product's own calls (issue 30 item 3): every AWS request the product's
 * servers sent while the rest of the suite ran (recorded by test/helpers/conformance-recorder.ts; scripts/test.mjs
 * runs test/conformance/ last) is mapped to its IAM action and must be granted by PRODUCT_POLICY; and every action
 * the policy grants must have been called, be needed by a call that was (DEPENDENT_ACTIONS), or be in the short
 * allow-list below. Only actions are matched — a statement's resources and conditions are not evaluated here.
 */

/**
 * Actions the product calls on paths the suite's recorder cannot see or does not reach, each with the code that
 * calls it. An entry that shows up in the recordings fails the test: it is no longer needed here.
 */
const NOT_RECORDED: Readonly<Record<string, string>> = {
  // Signed MLflow REST calls, not SDK commands, so the clients' observer never sees them (they are called in
  // test/e2e/training-mlflow*.test.ts against the sandbox): src/cloud/aws/mlflow.ts MlflowAdapter → MlflowRest.
  'sagemaker-mlflow:GetExperimentByName': 'src/cloud/aws/mlflow.ts (a job’s experiment, by name)',
  'sagemaker-mlflow:SearchRuns': 'src/cloud/aws/mlflow.ts (the experiment’s runs)',
  'sagemaker-mlflow:GetMetricHistory': 'src/cloud/aws/mlflow.ts (a run’s metric history)',
  // Only when a storage is removed keeping an FSx file system another storage still names, or the last one:
  'fsx:UntagResource': 'src/cloud/aws/tagged-resources.ts untag ← src/capabilities/storage/service.ts (kept storage)',
  // Only when a role InstantStart made finds its trust policy changed (e.g. the cluster's OIDC issuer moved):
  'iam:UpdateAssumeRolePolicy':
    'src/workflows/feature-identities.ts ensureOwnedRole → src/cloud/aws/iam-roles.ts updateTrustPolicy',
  // HyperPod's delete removes the EKS access entries its create made (assumed, ClusterMetadata.EksRoleAccessEntries).
  'eks:DeleteAccessEntry': 'sagemaker:DeleteCluster (src/cloud/aws/hyperpod.ts), checked by AWS on the caller',
};

type AwsRecord = Extract<ConformanceRecord, { type: 'aws' }>;

function awsRecords(): AwsRecord[] {
  const dir = process.env[CONFORMANCE_DIR_ENV];
  assert.ok(
    dir && existsSync(dir),
    `no recordings: this test is fed by the whole suite — run \`npm test\` (it sets ${CONFORMANCE_DIR_ENV}, records ` +
      'every AWS request the product sends, and runs test/conformance/ last), or point ' +
      `${CONFORMANCE_DIR_ENV} at a directory such a run left (dist/conformance-records)`,
  );
  const out: AwsRecord[] = [];
  for (const name of readdirSync(dir).filter((n) => n.endsWith('.jsonl')))
    for (const line of readFileSync(join(dir, name), 'utf8').split('\n')) {
      if (!line) continue;
      const r = JSON.parse(line) as ConformanceRecord;
      if (r.type === 'aws') out.push(r);
    }
  return out;
}

describe('the product IAM policy grants what the product calls, and nothing else', () => {
  const records = awsRecords();
  // The action of each call, with the first test that made it.
  const called = new Map<string, string>();
  for (const r of records) {
    const action = iamActionOf(r.service, r.operation);
    if (!called.has(action)) called.set(action, `${r.service} ${r.operation} in ${r.test}`);
  }

  it('recorded the calls of the whole suite', () => {
    // A recorder that stopped working would make the checks below pass on nothing.
    for (const a of [
      'sagemaker:CreateCluster',
      'eks:CreateCluster',
      'ec2:CreateVpc',
      'iam:CreateRole',
      's3:CreateBucket',
    ])
      assert.ok(called.has(a), `no ${a} was recorded: the suite did not run, or the recorder is broken`);
  });

  it('every action the product called is granted by a statement', () => {
    const missing = [...called].filter(([a]) => statementsGranting(PRODUCT_POLICY, a).length === 0);
    assert.deepEqual(
      missing.map(([a, where]) => `${a} (${where})`),
      [],
      'add these to src/domain/iam/product-policy.ts',
    );
  });

  it('every action AWS checks on those calls besides their own is granted too', () => {
    const missing: string[] = [];
    for (const [action] of called)
      for (const dep of DEPENDENT_ACTIONS[action] ?? [])
        if (statementsGranting(PRODUCT_POLICY, dep).length === 0) missing.push(`${dep} (needed by ${action})`);
    assert.deepEqual(missing, []);
  });

  it('every action the policy grants was called, is needed by a call, or is allowed-listed with its code path', () => {
    const needed = new Set([...called.keys()].flatMap((a) => DEPENDENT_ACTIONS[a] ?? []));
    const unused = policyActions(PRODUCT_POLICY).filter((a) => !called.has(a) && !needed.has(a) && !NOT_RECORDED[a]);
    assert.deepEqual(unused, [], 'granted but never called in the suite: remove them, or reach them in a test');
  });

  it('the allow-list is short, granted, and holds nothing the suite now records', () => {
    const entries = Object.keys(NOT_RECORDED);
    assert.ok(entries.length <= 8, 'the allow-list grew: reach these calls in a test instead');
    for (const a of entries) {
      assert.ok(!called.has(a), `${a} is recorded now (${called.get(a)}): remove it from NOT_RECORDED`);
      assert.ok(statementsGranting(PRODUCT_POLICY, a).length > 0, `${a} is allow-listed but not granted`);
    }
  });
});
