import { keyed } from '../../core/keyed.js';
import type { SandboxState } from '../../core/store.js';
import { actAsRole, assumeRoleWithWebIdentity } from '../iam/public.js';
import { hyperPodClusterOf } from '../sagemaker/public.js';
import { clusterOidcIssuer } from './public.js';
import type { HealthIssue, StoredAddon, StoredCluster } from './state.js';

/**
 * What two HyperPod add-ons need of IAM to run, checked as IAM decides it (services/iam/authorize.ts),
 * the add-on DEGRADED with AWS's refusal while it is not so:
 *
 * - amazon-sagemaker-hyperpod-inference: its chart, rendered as the add-on, refuses an execution role
 *   whose name lacks the prefix `SageMakerHyperPodInference` (aws/sagemaker-hyperpod-cli 011ca92,
 *   `charts/inference-operator/templates/_validateRequiredValues.tpl`, `isAddOn`): the install or update
 *   fails with the chart's message. Once running, the operator assumes that role through IRSA (its
 *   service account `hyperpod-inference-controller-manager`) and enables the inference watcher on the
 *   HyperPod cluster with `sagemaker:UpdateClusterInference` — AWS's troubleshooting pages quote both
 *   failures ("failed to enable inference watcher for HyperPod cluster …"). The passes of that role
 *   to SageMaker happen per endpoint (kube/controllers/inference-operator.ts).
 * - amazon-sagemaker-hyperpod-training-operator: the operator describes its HyperPod cluster's nodes with
 *   `sagemaker:DescribeClusterNode` as the role of its pod identity association; its managed policy
 *   allows that only on clusters tagged `SageMaker=true` (AWS's docs: without the tag "the installation
 *   will fail"). Checked once the HyperPod cluster of this EKS cluster exists.
 *
 * Assumed (no source says): EKS reports these as health issues of code `AccessDenied` (install- and
 * update-time chart refusals as `ConfigurationConflict`), with the operator's error as the message.
 */

const INFERENCE = 'amazon-sagemaker-hyperpod-inference';
const TRAINING = 'amazon-sagemaker-hyperpod-training-operator';
export const INFERENCE_ROLE_PREFIX = 'SageMakerHyperPodInference';
const INFERENCE_SERVICE_ACCOUNT = 'hyperpod-inference-controller-manager';
const TRAINING_SERVICE_ACCOUNT = { namespace: 'aws-hyperpod', name: 'hp-training-operator-controller-manager' };

const valuesOf = (a: StoredAddon): Record<string, unknown> => {
  try {
    const v = a.configurationValues ? (JSON.parse(a.configurationValues) as unknown) : undefined;
    return v && typeof v === 'object' ? (v as Record<string, unknown>) : {};
  } catch {
    return {};
  }
};

/** A request id as AWS's SDK errors print it (stable per message, so the health issue does not churn). */
function requestId(text: string): string {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 0x01000193);
  const hex = (h >>> 0).toString(16).padStart(8, '0');
  return `${hex}-${hex.slice(0, 4)}-4${hex.slice(1, 4)}-8${hex.slice(4, 7)}-${hex}${hex.slice(0, 4)}`;
}

/**
 * What the add-on's chart refuses when EKS renders it with these values (the install or update then
 * fails); undefined when it renders.
 */
export function addonRenderProblem(a: StoredAddon): HealthIssue | undefined {
  if (a.addonName !== INFERENCE) return undefined;
  const arn = valuesOf(a).executionRoleArn;
  const roleName = typeof arn === 'string' ? (arn.split('/').pop() ?? '') : '';
  if (roleName.startsWith(INFERENCE_ROLE_PREFIX)) return undefined;
  return {
    code: 'ConfigurationConflict',
    message: `executionRoleArn must have a role name with prefix '${INFERENCE_ROLE_PREFIX}'`,
    resourceIds: [],
  };
}

function inferenceIssues(state: SandboxState, region: string, c: StoredCluster, a: StoredAddon): HealthIssue[] {
  const values = valuesOf(a);
  const roleArn = typeof values.executionRoleArn === 'string' ? values.executionRoleArn : undefined;
  const clusterArn = typeof values.hyperpodClusterArn === 'string' ? values.hyperpodClusterArn : undefined;
  if (!roleArn || !clusterArn) return [];
  const watcher = `failed to enable inference watcher for HyperPod cluster ${clusterArn}: operation error SageMaker: UpdateClusterInference, `;
  const subject = `system:serviceaccount:${a.namespace ?? 'hyperpod-inference-system'}:${INFERENCE_SERVICE_ACCOUNT}`;
  const assumed = assumeRoleWithWebIdentity(state, roleArn, clusterOidcIssuer(c, region), subject, 'sts.amazonaws.com');
  if (!assumed.allowed) {
    const cause = `operation error STS: AssumeRoleWithWebIdentity, https response error StatusCode: ${assumed.code === 'AccessDenied' ? 403 : 400}, RequestID: ${requestId(assumed.message)}, api error ${assumed.code}: ${assumed.message}`;
    return [
      {
        code: 'AccessDenied',
        message: `${watcher}get identity: get credentials: failed to refresh cached credentials, failed to retrieve credentials, ${cause}`,
        resourceIds: [roleArn],
      },
    ];
  }
  const enabled = actAsRole(state, roleArn, {
    action: 'sagemaker:UpdateClusterInference',
    resource: clusterArn,
    sessionName: 'hyperpod-inference-operator',
  });
  if (!enabled.allowed) {
    return [
      {
        code: 'AccessDenied',
        message: `${watcher}https response error StatusCode: 400, RequestID: ${requestId(enabled.message)}, api error AccessDeniedException: ${enabled.message}`,
        resourceIds: [roleArn],
      },
    ];
  }
  return [];
}

function trainingIssues(state: SandboxState, region: string, c: StoredCluster): HealthIssue[] {
  const hyperpod = hyperPodClusterOf(state, region, c.arn);
  const association = keyed
    .values(c.podIdentityAssociations)
    .find(
      (p) => p.namespace === TRAINING_SERVICE_ACCOUNT.namespace && p.serviceAccount === TRAINING_SERVICE_ACCOUNT.name,
    );
  if (!hyperpod || !association) return [];
  const tags = Object.fromEntries(Object.entries(hyperpod.tags).map(([k, v]) => [`aws:ResourceTag/${k}`, v]));
  const described = actAsRole(state, association.roleArn, {
    action: 'sagemaker:DescribeClusterNode',
    resource: hyperpod.arn,
    context: tags,
    sessionName: 'hp-training-operator',
  });
  if (described.allowed) return [];
  const message = `operation error SageMaker: DescribeClusterNode, https response error StatusCode: 400, RequestID: ${requestId(described.message)}, api error AccessDeniedException: ${described.message}`;
  return [{ code: 'AccessDenied', message, resourceIds: [association.roleArn] }];
}

/** The IAM problems of a running add-on, as its operator meets them (empty: it has what it needs). */
export function addonIdentityIssues(
  state: SandboxState,
  region: string,
  c: StoredCluster,
  a: StoredAddon,
): HealthIssue[] {
  if (a.addonName === INFERENCE) return inferenceIssues(state, region, c, a);
  if (a.addonName === TRAINING) return trainingIssues(state, region, c);
  return [];
}
