import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { addonValues, addonValuesDrift } from '../../src/workflows/feature-reconciliation/addon-values.js';
import type { FeatureFacts } from '../../src/workflows/feature-reconciliation/feature-facts.js';
import { FEATURES, featureRoleName } from '../../src/domain/features/registry.js';

const FACTS: FeatureFacts = {
  clusterName: 'demo',
  region: 'us-west-2',
  accountId: '111122223333',
  eksClusterName: 'demo-eks',
  hyperpodClusterArn: 'arn:aws:sagemaker:us-west-2:111122223333:cluster/abcdef123456',
  kubernetesVersion: '1.33',
  tlsBucket: 'sagemaker-demo-abc123-tls',
};
const identities = FEATURES.get('inference-operator')!.identities;
const arns = new Map(
  identities.map((i) => [i.id, `arn:aws:iam::111122223333:role/${featureRoleName('demo', 'us-west-2', i)}`]),
);
const installed = addonValues('inference-operator', FACTS, arns);

describe("the inference operator add-on's values, as installed and as InstantStart would install them now", () => {
  it('are the same for an add-on InstantStart installed (key order and spacing aside)', () => {
    assert.equal(addonValuesDrift('inference-operator', FACTS, 'inference-operator', installed), undefined);
    assert.equal(
      addonValuesDrift(
        'inference-operator',
        FACTS,
        'inference-operator',
        JSON.stringify(JSON.parse(installed), null, 2),
      ),
      undefined,
    );
  });

  it("differ, saying how, when the add-on names the execution role's former name", () => {
    const former = JSON.stringify({
      ...JSON.parse(installed),
      executionRoleArn: 'arn:aws:iam::111122223333:role/instantstart-demo-inference-exec',
    });
    const drift = addonValuesDrift('inference-operator', FACTS, 'inference-operator', former);
    assert.match(
      drift ?? '',
      /^configuration out of date \(executionRoleArn names instantstart-demo-inference-exec, not SageMakerHyperPodInference-demo-[0-9a-z]{6}\): turn the feature on again/,
    );
    assert.match(
      addonValuesDrift('inference-operator', FACTS, 'inference-operator', undefined) ?? '',
      /executionRoleArn names none/,
    );
  });

  it('are not judged before the HyperPod cluster exists (its ARN is part of them)', () => {
    assert.equal(
      addonValuesDrift('inference-operator', { ...FACTS, hyperpodClusterArn: '' }, 'inference-operator', '{}'),
      undefined,
    );
  });
});
