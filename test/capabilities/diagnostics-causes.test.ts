import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { creationCause, quotaNamed } from '../../src/capabilities/diagnostics/creation-causes.js';

// The errors a create-cluster phase keeps, in the words AWS (and the sandbox, which plays it) uses.
const CASES: Array<[string, { phase: string; code: string; message: string }]> = [
  [
    'quota-exceeded',
    {
      phase: 'hyperpod',
      code: 'ResourceLimitExceeded',
      message:
        "The account-level service limit 'ml.p5.48xlarge for cluster usage' is 0 Instances, with current utilization of 0 Instances and a request delta of 2 Instances.",
    },
  ],
  [
    'insufficient-capacity',
    {
      phase: 'hyperpod',
      code: 'ClusterFailed',
      message: 'HyperPod cluster c failed: insufficient ml.p5.48xlarge capacity in us-west-2a (usw2-az2)',
    },
  ],
  ['insufficient-capacity', { phase: 'hyperpod', code: 'InsufficientCapacity', message: 'After 3 attempts …' }],
  [
    'subnet-space',
    {
      phase: 'hyperpod',
      code: 'ClusterFailed',
      message: 'HyperPod cluster c failed: subnet subnet-1 has no free IP addresses',
    },
  ],
  [
    'iam-trust',
    {
      phase: 'eks',
      code: 'InvalidParameterException',
      message:
        'Role arn:aws:iam::0:role/r cannot be assumed by the EKS service: its trust policy does not allow eks.amazonaws.com to sts:AssumeRole.',
    },
  ],
  [
    'iam-permission',
    {
      phase: 'iam',
      code: 'AccessDenied',
      message: 'User: arn:aws:iam::0:user/u is not authorized to perform: iam:CreateRole',
    },
  ],
  ['addon-version-incompatible', { phase: 'eks-addons', code: 'AddonVersionNotFound', message: 'no version' }],
  [
    'hyperpod-create-failed',
    { phase: 'hyperpod', code: 'ClusterFailed', message: 'HyperPod cluster c failed: Lifecycle script exited 1' },
  ],
  ['eks-create-failed', { phase: 'eks', code: 'ClusterFailed', message: 'EKS cluster failed' }],
  ['phase-deadline', { phase: 'eks', code: 'PhaseDeadlineExceeded', message: 'waited' }],
  ['cloud-unreachable', { phase: 'network', code: 'CloudTimeout', message: 'no answer' }],
  ['unclassified', { phase: 'storage', code: 'Whatever', message: 'something else' }],
];

describe('the cause of a failed create, from the error its phase kept', () => {
  for (const [cause, error] of CASES) {
    it(`${error.code} "${error.message.slice(0, 40)}…" → ${cause}`, () => {
      assert.equal(creationCause(error), cause);
    });
  }

  it('reads the quota a ResourceLimitExceeded names', () => {
    assert.equal(quotaNamed(CASES[0]![1].message), 'ml.p5.48xlarge for cluster usage');
    assert.equal(quotaNamed('no quota here'), undefined);
  });
});
