import type { OperationError } from '../../domain/schemas/operations.js';

/**
 * The causes a create-cluster can fail of, told apart by the error the failed phase kept: the cloud's own code where
 * it has one (ResourceLimitExceeded, AccessDenied…), else the words AWS uses in its message (HyperPod reports a
 * capacity or subnet shortfall only as a FailureMessage of a Failed cluster, under our code ClusterFailed). Pure: the
 * evidence is gathered by creation.ts.
 */
export type CreationCause =
  | 'quota-exceeded'
  | 'insufficient-capacity'
  | 'iam-trust'
  | 'iam-permission'
  | 'subnet-space'
  | 'addon-version-incompatible'
  | 'hyperpod-create-failed'
  | 'eks-create-failed'
  | 'phase-deadline'
  | 'cloud-unreachable'
  | 'unclassified';

interface CauseRule {
  cause: CreationCause;
  codes?: readonly string[];
  message?: RegExp;
}

// Order matters: a HyperPod FailureMessage about capacity comes under ClusterFailed, so the specific words are read
// before the generic codes. Codes: AWS's (sandbox/services/*/errors.ts plays them) and ours (create-cluster workflows,
// src/workflows/capacity-watch.ts, src/domain/features/addon-version.ts, src/engine's PhaseDeadlineExceeded).
const RULES: readonly CauseRule[] = [
  {
    cause: 'quota-exceeded',
    codes: ['ResourceLimitExceeded', 'ServiceQuotaExceededException', 'LimitExceededException'],
    message: /service limit|quota/i,
  },
  {
    cause: 'insufficient-capacity',
    codes: ['InsufficientCapacity', 'InsufficientInstanceCapacity', 'InsufficientCapacityError'],
    message: /insufficient [\w.-]+ capacity|insufficient capacity|could not launch|not offered in/i,
  },
  {
    cause: 'subnet-space',
    codes: ['InsufficientFreeAddressesInSubnet'],
    message: /free (ip )?addresses|no free ip|subnet .* (is )?full/i,
  },
  {
    cause: 'iam-trust',
    message:
      /cannot be assumed|unable to assume|not authorized to perform: sts:AssumeRole|trust(ed)? (policy|relationship)/i,
  },
  {
    cause: 'iam-permission',
    codes: ['AccessDenied', 'AccessDeniedException', 'UnauthorizedOperation', 'NoSuchEntity'],
    message: /not authorized to perform|access denied/i,
  },
  {
    cause: 'addon-version-incompatible',
    codes: ['AddonVersionNotFound', 'AddonCreateFailed', 'NoSupportedKubernetesVersion'],
  },
  { cause: 'phase-deadline', codes: ['PhaseDeadlineExceeded'] },
  {
    cause: 'cloud-unreachable',
    codes: ['CloudTimeout', 'ThrottlingException', 'Throttling', 'RequestLimitExceeded', 'KubeApiUnavailable'],
  },
];

/**
 * The cause of a failed phase's error.
 *
 * @example
 * creationCause({ phase: 'hyperpod', code: 'ClusterFailed', message: 'insufficient ml.c5.xlarge capacity in us-west-2b' });
 * // 'insufficient-capacity'
 */
export function creationCause(error: OperationError): CreationCause {
  for (const rule of RULES) {
    if (rule.codes?.includes(error.code) || rule.message?.test(error.message)) return rule.cause;
  }
  if (error.code === 'ClusterFailed')
    return error.phase === 'hyperpod' ? 'hyperpod-create-failed' : 'eks-create-failed';
  return 'unclassified';
}

/** The quota a ResourceLimitExceeded message names (`The account-level service limit '<name>' is …`), if any. */
export function quotaNamed(message: string): string | undefined {
  return /service limit '([^']+)'/.exec(message)?.[1];
}

/** What each cause means, in plain words, for the finding's title and explanation. */
export const CAUSE_TEXT: Record<CreationCause, { title: string; explanation: string }> = {
  'quota-exceeded': {
    title: 'An account quota is too low for the request',
    explanation:
      'AWS refused to create (or grow) the HyperPod cluster because the instances it asks for would go over a Service Quotas limit of the account in this Region. Nothing about the cluster is wrong: the quota must be raised (or the request made smaller) and the phase retried.',
  },
  'insufficient-capacity': {
    title: 'AWS has no capacity for the instance type in the zone',
    explanation:
      'HyperPod could not launch the instances: the Availability Zone has no free capacity of that instance type right now. Capacity comes and goes; another zone, another instance type, a training plan (reserved capacity) or a later retry are the ways out.',
  },
  'subnet-space': {
    title: 'The subnet has no free IP addresses',
    explanation:
      'Every node (and every EFA interface) takes IP addresses from the compute subnet; it ran out. A larger or another subnet, or fewer nodes, is needed.',
  },
  'iam-trust': {
    title: 'A role cannot be assumed by the service that needs it',
    explanation:
      "The service (EKS or SageMaker) was refused when it tried to assume a role: the role's trust policy does not name that service as a principal.",
  },
  'iam-permission': {
    title: 'A call was refused for missing IAM permission',
    explanation:
      'The credentials InstantStart runs with (or a role a service uses) lack a permission the create needs. The refused action is named in the message.',
  },
  'addon-version-incompatible': {
    title: "An add-on's version does not fit the cluster's Kubernetes version",
    explanation:
      'EKS offers each add-on version for certain Kubernetes versions only; the version asked for (or the cluster’s Kubernetes version) has none that fits, or the add-on failed to install.',
  },
  'hyperpod-create-failed': {
    title: 'HyperPod reported the cluster Failed',
    explanation:
      'SageMaker HyperPod set the cluster to Failed and said why in its FailureMessage (often a lifecycle script or an instance that did not come up). A retry of the phase deletes the failed cluster and creates it again: fix the cause first.',
  },
  'eks-create-failed': {
    title: 'EKS reported the cluster creation failed',
    explanation: 'The EKS control plane did not come up; its message names why.',
  },
  'phase-deadline': {
    title: 'A phase waited past its deadline',
    explanation:
      'The phase waited longer than AWS documents for that step and gave up, naming what it last saw. Check that state in the cloud; a retry starts its clocks again.',
  },
  'cloud-unreachable': {
    title: 'The cloud did not answer (throttled, timed out or unreachable)',
    explanation:
      'A call was throttled or got no answer in time. Nothing is wrong with the request: retrying the phase observes first and continues where the cloud is.',
  },
  unclassified: {
    title: 'The create failed for a reason not recognised here',
    explanation: "Read the phase's error and log lines below; they are AWS's own words.",
  },
};
