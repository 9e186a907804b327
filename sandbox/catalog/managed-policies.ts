import { createHash } from 'node:crypto';
import * as documents from './managed-policy-documents.js';
import type { Statement } from './managed-policy-documents.js';

/**
 * AWS-managed IAM policies the sandbox knows (`arn:aws:iam::aws:policy/<name>`): the ones an
 * EKS + HyperPod setup attaches, each with AWS's document of its default version
 * (managed-policy-documents.ts names the source), its version id and that version's date. The
 * sandbox's IAM evaluates these documents when a controller acts as a role (services/iam/authorize.ts).
 */
export interface ManagedPolicyInfo {
  policyName: string;
  arn: string;
  path: string;
  policyId: string;
  description: string;
  defaultVersionId: string;
  createDate: string;
  updateDate: string;
  document: string;
}

/** `ANPA` + 17 upper-case alphanumerics, stable per name, like AWS's policy ids. */
function policyIdFor(name: string): string {
  const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567';
  const digest = createHash('sha256').update(`aws-managed-policy|${name}`).digest();
  let id = 'ANPA';
  for (let i = 0; i < 17; i++) id += alphabet[digest[i]! % alphabet.length];
  return id;
}

function policy(
  name: string,
  description: string,
  version: string,
  created: string,
  updated: string,
  statements: Statement[],
): ManagedPolicyInfo {
  return {
    policyName: name,
    arn: `arn:aws:iam::aws:policy/${name}`,
    path: '/',
    policyId: policyIdFor(name),
    description,
    defaultVersionId: version,
    createDate: created,
    updateDate: updated,
    document: JSON.stringify({ Version: '2012-10-17', Statement: statements }, null, 4),
  };
}

/** Created: the policy's first version; the version id and update date: its default version (managed-policy-documents.ts). */
export const MANAGED_POLICIES: ManagedPolicyInfo[] = [
  policy(
    'AmazonEKSClusterPolicy',
    'Provides Kubernetes the permissions it requires to manage resources on your behalf.',
    'v10',
    '2018-05-27T21:06:14Z',
    '2026-02-12T17:58:15Z',
    documents.AmazonEKSClusterPolicy,
  ),
  policy(
    'AmazonEKSServicePolicy',
    'This policy allows Amazon Elastic Container Service for Kubernetes to create and manage the necessary resources to operate EKS Clusters.',
    'v7',
    '2018-05-27T21:08:21Z',
    '2024-10-14T21:12:40Z',
    documents.AmazonEKSServicePolicy,
  ),
  policy(
    'AmazonEKSWorkerNodePolicy',
    'This policy allows Amazon EKS worker nodes to connect to Amazon EKS Clusters.',
    'v3',
    '2018-05-27T21:09:01Z',
    '2023-11-27T00:06:13Z',
    documents.AmazonEKSWorkerNodePolicy,
  ),
  policy(
    'AmazonEKS_CNI_Policy',
    'This policy provides the Amazon VPC CNI Plugin (amazon-vpc-cni-k8s) the permissions it requires to modify the IP address configuration on your EKS worker nodes.',
    'v6',
    '2018-05-27T21:07:42Z',
    '2026-03-04T19:12:14Z',
    documents.AmazonEKS_CNI_Policy,
  ),
  policy(
    'AmazonEKSVPCResourceController',
    'Policy used by VPC Resource Controller to manage ENI and IPs for worker nodes.',
    'v1',
    '2020-08-12T00:55:34Z',
    '2020-08-12T00:55:34Z',
    documents.AmazonEKSVPCResourceController,
  ),
  policy(
    'AmazonEC2ContainerRegistryReadOnly',
    'Provides read-only access to Amazon EC2 Container Registry repositories.',
    'v3',
    '2015-10-02T18:00:00Z',
    '2019-12-10T20:56:32Z',
    documents.AmazonEC2ContainerRegistryReadOnly,
  ),
  policy(
    'AmazonSageMakerClusterInstanceRolePolicy',
    'This policy provides the permissions instances of a SageMaker HyperPod cluster need to publish logs and metrics and to register with the cluster.',
    'v1',
    '2023-11-29T15:11:26Z',
    '2023-11-29T15:11:26Z',
    documents.AmazonSageMakerClusterInstanceRolePolicy,
  ),
  policy(
    'AmazonSageMakerHyperPodTrainingOperatorAccess',
    'This policy provides administrative permissions required to set up the SageMaker HyperPod training operator.',
    'v3',
    '2025-08-22T18:00:00Z',
    '2026-02-12T17:58:35Z',
    documents.AmazonSageMakerHyperPodTrainingOperatorAccess,
  ),
  policy(
    'AmazonSageMakerHyperPodInferenceAccess',
    'This policy provides administrative privileges required for setting up the SageMaker HyperPod inference operator. It enables the inference operator to access AWS networking resources, Amazon S3, Amazon ECR, Amazon CloudWatch, AWS Certificate Manager, and SageMaker resources necessary to deploy and manage inference workloads on HyperPod clusters',
    'v4',
    '2026-01-27T20:34:00Z',
    '2026-07-20T20:57:13Z',
    documents.AmazonSageMakerHyperPodInferenceAccess,
  ),
  policy(
    'AmazonSageMakerHyperPodGatedModelAccess',
    'Grants access to download gated SageMaker JumpStart models for deployment on SageMaker HyperPod clusters.',
    'v3',
    '2025-07-14T18:00:00Z',
    '2026-02-12T18:00:37Z',
    documents.AmazonSageMakerHyperPodGatedModelAccess,
  ),
  policy(
    'AmazonSageMakerFullAccess',
    'Provides full access to Amazon SageMaker via the AWS Management Console and SDK. Also provides select access to related services (e.g., S3, ECR, CloudWatch Logs).',
    'v29',
    '2017-11-29T23:16:38Z',
    '2026-02-12T17:58:32Z',
    documents.AmazonSageMakerFullAccess,
  ),
  policy(
    'AmazonS3FullAccess',
    'Provides full access to all buckets via the AWS Management Console.',
    'v2',
    '2015-02-06T18:40:58Z',
    '2021-09-27T20:16:37Z',
    documents.AmazonS3FullAccess,
  ),
  policy(
    'AmazonS3ReadOnlyAccess',
    'Provides read only access to all buckets via the AWS Management Console.',
    'v3',
    '2015-02-06T18:40:59Z',
    '2023-08-10T21:31:39Z',
    documents.AmazonS3ReadOnlyAccess,
  ),
  policy(
    'AmazonSSMManagedInstanceCore',
    'The policy for Amazon EC2 Role to enable AWS Systems Manager service core functionality.',
    'v2',
    '2019-03-15T17:22:12Z',
    '2019-05-23T16:54:21Z',
    documents.AmazonSSMManagedInstanceCore,
  ),
  policy(
    'CloudWatchAgentServerPolicy',
    'Permissions required to use AmazonCloudWatchAgent on servers.',
    'v3',
    '2017-08-31T18:00:00Z',
    '2024-02-06T16:37:37Z',
    documents.CloudWatchAgentServerPolicy,
  ),
  policy(
    'AmazonFSxFullAccess',
    'Provides full access to Amazon FSx and access to related AWS services.',
    'v13',
    '2018-11-28T18:00:00Z',
    '2026-02-12T17:58:13Z',
    documents.AmazonFSxFullAccess,
  ),
];

const BY_ARN = new Map(MANAGED_POLICIES.map((p) => [p.arn, p]));

export function findManagedPolicy(arn: string): ManagedPolicyInfo | undefined {
  return BY_ARN.get(arn);
}
