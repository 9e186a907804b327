import type { KubeObject } from '../kube-object.js';
import { kuberayManifests } from './kuberay.js';

/**
 * The pieces of features InstantStart builds itself: the KubeRay operator's manifests (pinned, in
 * kuberay.ts) and the inference operator add-on's configuration values.
 */

/** KubeRay's CRDs (RayCluster, RayJob, RayService) and its operator (namespace, service account, RBAC, Deployment), pinned. */
export function kuberayOperatorManifests(): KubeObject[] {
  return kuberayManifests();
}

/** The facts the inference operator add-on's configuration values are built from. */
export interface InferenceOperatorFacts {
  region: string;
  eksClusterName: string;
  hyperpodClusterArn: string;
  tlsBucket: string;
  /** Role ARNs by the registry's identity ids: execution, gated-model, load-balancer-controller, keda. */
  roleArns: ReadonlyMap<string, string>;
}

/** The registry's identity ids of the inference operator (registry.ts → inferenceIdentities), by the value each fills. */
export const INFERENCE_VALUE_ROLES = {
  executionRoleArn: 'execution',
  jumpstartGatedModelDownloadRoleArn: 'gated-model',
  albRoleArn: 'load-balancer-controller',
  kedaRoleArn: 'keda',
} as const;

const ROLE_ARN = /^arn:aws[a-z-]*:iam::\d{12}:role\/.+$/;
const CLUSTER_ARN = /^arn:aws[a-z-]*:sagemaker:([a-z0-9-]+):\d{12}:cluster\/[a-z0-9]+$/;

/**
 * The add-on's `configurationValues` JSON: the keys AWS's add-on setup guide and sagemaker-hyperpod-cli's
 * helm_to_addon.sh set (`executionRoleArn`, `tlsCertificateS3Bucket`, `hyperpodClusterArn`,
 * `jumpstartGatedModelDownloadRoleArn`, `alb.serviceAccount.roleArn`, `keda.auth.aws.irsa.roleArn`),
 * with the ALB controller and KEDA turned on as the inference operator's endpoints need them. The
 * region and EKS cluster name are not among them: the add-on is installed into its cluster, and
 * the Helm chart's `region`/`eksClusterName`/`alb.clusterName` values are filled in by EKS.
 *
 * The output is canonical (fixed key order, no whitespace), so the value read back from
 * DescribeAddon can be compared as a string to tell whether the add-on needs reconfiguring.
 * Throws (a bug, not a user error) when an identity's role is missing or the facts are malformed:
 * the reconciler makes every identity before it builds these values.
 *
 * @example
 * inferenceOperatorConfigurationValues({ region: 'us-west-2', eksClusterName: 'ml-eks', hyperpodClusterArn,
 *   tlsBucket: 'instantstart-ml-tls-…', roleArns: new Map([['execution', arn1], …]) });
 */
export function inferenceOperatorConfigurationValues(facts: InferenceOperatorFacts): string {
  const role = (id: string): string => {
    const arn = facts.roleArns.get(id);
    if (!arn) throw new Error(`inference operator values: no role ARN for identity '${id}'`);
    if (!ROLE_ARN.test(arn))
      throw new Error(`inference operator values: '${arn}' (identity '${id}') is not an IAM role ARN`);
    return arn;
  };
  const cluster = CLUSTER_ARN.exec(facts.hyperpodClusterArn);
  if (!cluster)
    throw new Error(`inference operator values: '${facts.hyperpodClusterArn}' is not a HyperPod cluster ARN`);
  if (cluster[1] !== facts.region)
    throw new Error(
      `inference operator values: HyperPod cluster ${facts.hyperpodClusterArn} is not in ${facts.region}`,
    );
  if (!facts.tlsBucket) throw new Error('inference operator values: no TLS certificate bucket');
  const values = {
    executionRoleArn: role(INFERENCE_VALUE_ROLES.executionRoleArn),
    tlsCertificateS3Bucket: facts.tlsBucket,
    hyperpodClusterArn: facts.hyperpodClusterArn,
    jumpstartGatedModelDownloadRoleArn: role(INFERENCE_VALUE_ROLES.jumpstartGatedModelDownloadRoleArn),
    alb: { enabled: true, serviceAccount: { create: true, roleArn: role(INFERENCE_VALUE_ROLES.albRoleArn) } },
    keda: {
      enabled: true,
      auth: { aws: { irsa: { enabled: true, roleArn: role(INFERENCE_VALUE_ROLES.kedaRoleArn) } } },
    },
  };
  return JSON.stringify(values);
}
