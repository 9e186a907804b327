import { createHash } from 'node:crypto';

/**
 * AWS-managed IAM policies the sandbox knows (`arn:aws:iam::aws:policy/<name>`): the ones an
 * EKS + HyperPod setup attaches. Statements are concise summaries of what each policy grants,
 * written for the sandbox; they are not AWS's full documents.
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

type Statement = { Effect: 'Allow'; Action: string | string[]; Resource: string | string[]; Condition?: unknown; Sid?: string };

const allowAll = (actions: string[]): Statement => ({ Effect: 'Allow', Action: actions, Resource: '*' });

/** `ANPA` + 17 upper-case alphanumerics, stable per name, like AWS's policy ids. */
function policyIdFor(name: string): string {
  const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567';
  const digest = createHash('sha256').update(`aws-managed-policy|${name}`).digest();
  let id = 'ANPA';
  for (let i = 0; i < 17; i++) id += alphabet[digest[i]! % alphabet.length];
  return id;
}

function policy(name: string, description: string, version: string, created: string, updated: string, statements: Statement[]): ManagedPolicyInfo {
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

export const MANAGED_POLICIES: ManagedPolicyInfo[] = [
  policy('AmazonEKSClusterPolicy', 'Provides Kubernetes the permissions it requires to manage resources on your behalf.', 'v9', '2018-05-27T21:06:14Z', '2024-10-31T18:00:00Z', [
    allowAll(['autoscaling:DescribeAutoScalingGroups', 'autoscaling:UpdateAutoScalingGroup', 'ec2:AttachVolume', 'ec2:AuthorizeSecurityGroupIngress', 'ec2:CreateRoute', 'ec2:CreateSecurityGroup', 'ec2:CreateTags', 'ec2:CreateVolume', 'ec2:DeleteRoute', 'ec2:DeleteSecurityGroup', 'ec2:DeleteVolume', 'ec2:Describe*', 'ec2:DetachVolume', 'ec2:ModifyInstanceAttribute', 'ec2:ModifyVolume', 'ec2:RevokeSecurityGroupIngress', 'elasticloadbalancing:*', 'kms:DescribeKey']),
    { Effect: 'Allow', Action: 'iam:CreateServiceLinkedRole', Resource: '*', Condition: { StringEquals: { 'iam:AWSServiceName': 'elasticloadbalancing.amazonaws.com' } } },
  ]),
  policy('AmazonEKSServicePolicy', 'This policy allows Amazon Elastic Container Service for Kubernetes to create and manage the necessary resources to operate EKS Clusters.', 'v11', '2018-05-27T21:08:21Z', '2020-02-20T17:48:58Z', [
    allowAll(['ec2:CreateNetworkInterface', 'ec2:CreateNetworkInterfacePermission', 'ec2:DeleteNetworkInterface', 'ec2:DescribeInstances', 'ec2:DescribeNetworkInterfaces', 'ec2:DescribeSecurityGroups', 'ec2:DescribeSubnets', 'ec2:DescribeVpcs', 'ec2:ModifyNetworkInterfaceAttribute', 'iam:ListAttachedRolePolicies', 'eks:UpdateClusterVersion']),
  ]),
  policy('AmazonEKSWorkerNodePolicy', 'This policy allows Amazon EKS worker nodes to connect to Amazon EKS Clusters.', 'v3', '2018-05-27T21:09:01Z', '2024-06-27T18:00:00Z', [
    allowAll(['ec2:DescribeInstances', 'ec2:DescribeInstanceTypes', 'ec2:DescribeRouteTables', 'ec2:DescribeSecurityGroups', 'ec2:DescribeSubnets', 'ec2:DescribeVolumes', 'ec2:DescribeVolumesModifications', 'ec2:DescribeVpcs', 'eks:DescribeCluster', 'eks-auth:AssumeRoleForPodIdentity']),
  ]),
  policy('AmazonEKS_CNI_Policy', 'This policy provides the Amazon VPC CNI Plugin (amazon-vpc-cni-k8s) the permissions it requires to modify the IP address configuration on your EKS worker nodes.', 'v4', '2018-05-27T21:07:42Z', '2021-05-14T18:00:00Z', [
    allowAll(['ec2:AssignPrivateIpAddresses', 'ec2:AssignIpv6Addresses', 'ec2:AttachNetworkInterface', 'ec2:CreateNetworkInterface', 'ec2:DeleteNetworkInterface', 'ec2:DescribeInstances', 'ec2:DescribeTags', 'ec2:DescribeNetworkInterfaces', 'ec2:DescribeInstanceTypes', 'ec2:DescribeSubnets', 'ec2:DetachNetworkInterface', 'ec2:ModifyNetworkInterfaceAttribute', 'ec2:UnassignPrivateIpAddresses']),
    { Effect: 'Allow', Action: 'ec2:CreateTags', Resource: 'arn:aws:ec2:*:*:network-interface/*' },
  ]),
  policy('AmazonEKSVPCResourceController', 'Policy used by VPC Resource Controller to manage ENI and IPs for worker nodes.', 'v2', '2020-09-09T18:00:00Z', '2020-09-09T18:00:00Z', [
    { Effect: 'Allow', Action: 'ec2:CreateNetworkInterfacePermission', Resource: '*', Condition: { 'ForAnyValue:StringEquals': { 'ec2:ResourceTag/eks:eni:owner': 'eks-vpc-resource-controller' } } },
    allowAll(['ec2:CreateNetworkInterface', 'ec2:DetachNetworkInterface', 'ec2:ModifyNetworkInterfaceAttribute', 'ec2:DeleteNetworkInterface', 'ec2:AttachNetworkInterface', 'ec2:UnassignPrivateIpAddresses', 'ec2:AssignPrivateIpAddresses']),
  ]),
  policy('AmazonEC2ContainerRegistryReadOnly', 'Provides read-only access to Amazon EC2 Container Registry repositories.', 'v3', '2015-10-02T18:00:00Z', '2019-12-20T18:00:00Z', [
    allowAll(['ecr:GetAuthorizationToken', 'ecr:BatchCheckLayerAvailability', 'ecr:GetDownloadUrlForLayer', 'ecr:GetRepositoryPolicy', 'ecr:DescribeRepositories', 'ecr:ListImages', 'ecr:DescribeImages', 'ecr:BatchGetImage', 'ecr:GetLifecyclePolicy', 'ecr:GetLifecyclePolicyPreview', 'ecr:ListTagsForResource', 'ecr:DescribeImageScanFindings']),
  ]),
  policy('AmazonSageMakerClusterInstanceRolePolicy', 'This policy provides the permissions instances of a SageMaker HyperPod cluster need to publish logs and metrics and to register with the cluster.', 'v6', '2023-11-29T18:00:00Z', '2025-04-01T18:00:00Z', [
    { Effect: 'Allow', Action: ['cloudwatch:PutMetricData'], Resource: '*', Condition: { StringEquals: { 'cloudwatch:namespace': '/aws/sagemaker/Clusters' } } },
    { Effect: 'Allow', Action: ['logs:CreateLogGroup', 'logs:CreateLogStream', 'logs:PutLogEvents', 'logs:DescribeLogStreams'], Resource: 'arn:aws:logs:*:*:log-group:/aws/sagemaker/Clusters/*' },
    allowAll(['ssmmessages:CreateControlChannel', 'ssmmessages:CreateDataChannel', 'ssmmessages:OpenControlChannel', 'ssmmessages:OpenDataChannel', 'eks-auth:AssumeRoleForPodIdentity']),
  ]),
  policy('AmazonSageMakerHyperPodTrainingOperatorAccess', 'Grants the SageMaker HyperPod training operator access to describe the HyperPod clusters and nodes it schedules training jobs on.', 'v1', '2025-06-30T18:00:00Z', '2025-06-30T18:00:00Z', [
    allowAll(['sagemaker:DescribeClusterNode', 'sagemaker:ListClusterNodes', 'sagemaker:DescribeCluster']),
  ]),
  policy('AmazonSageMakerHyperPodInferenceAccess', 'Grants the SageMaker HyperPod inference operator access to the clusters, endpoints, models and certificates it deploys inference endpoints with.', 'v1', '2025-07-14T18:00:00Z', '2025-07-14T18:00:00Z', [
    allowAll(['sagemaker:DescribeCluster', 'sagemaker:ListClusterNodes', 'sagemaker:CreateEndpoint', 'sagemaker:CreateEndpointConfig', 'sagemaker:CreateModel', 'sagemaker:DescribeEndpoint', 'sagemaker:DeleteEndpoint', 'sagemaker:UpdateEndpoint', 'acm:ImportCertificate', 'acm:DeleteCertificate', 'elasticloadbalancing:Describe*', 'ec2:DescribeSubnets', 'ec2:DescribeVpcs', 'fsx:DescribeFileSystems', 'eks:DescribeCluster']),
  ]),
  policy('AmazonSageMakerHyperPodGatedModelAccess', 'Grants access to download gated SageMaker JumpStart models for deployment on SageMaker HyperPod clusters.', 'v1', '2025-07-14T18:00:00Z', '2025-07-14T18:00:00Z', [
    allowAll(['sagemaker:CreateHubContentReference', 'sagemaker:DescribeHubContent', 'sagemaker:ListHubContents']),
    { Effect: 'Allow', Action: ['s3:GetObject', 's3:ListBucket'], Resource: ['arn:aws:s3:::jumpstart-private-cache-prod-*', 'arn:aws:s3:::jumpstart-private-cache-prod-*/*'] },
  ]),
  policy('AmazonSageMakerFullAccess', 'Provides full access to Amazon SageMaker via the AWS Management Console and SDK. Also provides select access to related services (e.g., S3, ECR, CloudWatch Logs).', 'v28', '2017-11-29T23:16:38Z', '2025-02-01T18:00:00Z', [
    allowAll(['sagemaker:*', 'ecr:GetAuthorizationToken', 'ecr:BatchGetImage', 'ecr:GetDownloadUrlForLayer', 'cloudwatch:PutMetricData', 'logs:CreateLogGroup', 'logs:CreateLogStream', 'logs:PutLogEvents', 'ec2:Describe*', 'ec2:CreateNetworkInterface', 'ec2:DeleteNetworkInterface', 'fsx:DescribeFileSystems', 'eks:DescribeCluster', 'iam:ListRoles']),
    { Effect: 'Allow', Action: ['s3:GetObject', 's3:PutObject', 's3:DeleteObject', 's3:ListBucket', 's3:CreateBucket'], Resource: ['arn:aws:s3:::*SageMaker*', 'arn:aws:s3:::*Sagemaker*', 'arn:aws:s3:::*sagemaker*'] },
    { Effect: 'Allow', Action: 'iam:PassRole', Resource: 'arn:aws:iam::*:role/*', Condition: { StringEquals: { 'iam:PassedToService': 'sagemaker.amazonaws.com' } } },
  ]),
  policy('AmazonS3FullAccess', 'Provides full access to all buckets via the AWS Management Console.', 'v2', '2015-02-06T18:40:58Z', '2021-09-27T20:16:37Z', [
    allowAll(['s3:*', 's3-object-lambda:*']),
  ]),
  policy('AmazonS3ReadOnlyAccess', 'Provides read only access to all buckets via the AWS Management Console.', 'v3', '2015-02-06T18:40:59Z', '2023-08-10T21:31:39Z', [
    allowAll(['s3:Get*', 's3:List*', 's3:Describe*', 's3-object-lambda:Get*', 's3-object-lambda:List*']),
  ]),
  policy('AmazonSSMManagedInstanceCore', 'The policy for Amazon EC2 Role to enable AWS Systems Manager service core functionality.', 'v2', '2019-03-15T17:22:12Z', '2023-04-26T18:00:00Z', [
    allowAll(['ssm:DescribeAssociation', 'ssm:GetDeployablePatchSnapshotForInstance', 'ssm:GetDocument', 'ssm:DescribeDocument', 'ssm:GetManifest', 'ssm:GetParameter', 'ssm:GetParameters', 'ssm:ListAssociations', 'ssm:ListInstanceAssociations', 'ssm:PutInventory', 'ssm:PutComplianceItems', 'ssm:PutConfigurePackageResult', 'ssm:UpdateAssociationStatus', 'ssm:UpdateInstanceAssociationStatus', 'ssm:UpdateInstanceInformation']),
    allowAll(['ssmmessages:CreateControlChannel', 'ssmmessages:CreateDataChannel', 'ssmmessages:OpenControlChannel', 'ssmmessages:OpenDataChannel']),
    allowAll(['ec2messages:AcknowledgeMessage', 'ec2messages:DeleteMessage', 'ec2messages:FailMessage', 'ec2messages:GetEndpoint', 'ec2messages:GetMessages', 'ec2messages:SendReply']),
  ]),
  policy('CloudWatchAgentServerPolicy', 'Permissions required to use AmazonCloudWatchAgent on servers.', 'v2', '2017-08-31T18:00:00Z', '2019-09-05T18:00:00Z', [
    allowAll(['cloudwatch:PutMetricData', 'ec2:DescribeVolumes', 'ec2:DescribeTags', 'logs:PutLogEvents', 'logs:DescribeLogStreams', 'logs:DescribeLogGroups', 'logs:CreateLogStream', 'logs:CreateLogGroup', 'logs:PutRetentionPolicy']),
    { Effect: 'Allow', Action: ['ssm:GetParameter'], Resource: 'arn:aws:ssm:*:*:parameter/AmazonCloudWatch-*' },
  ]),
  policy('AmazonFSxFullAccess', 'Provides full access to Amazon FSx and access to related AWS services.', 'v10', '2018-11-28T18:00:00Z', '2024-04-01T18:00:00Z', [
    allowAll(['fsx:*', 'ec2:DescribeSubnets', 'ec2:DescribeSecurityGroups', 'ec2:DescribeVpcs', 'ec2:DescribeNetworkInterfaces', 'ec2:CreateNetworkInterface', 'ec2:CreateNetworkInterfacePermission', 'ec2:DeleteNetworkInterface', 's3:ListBucket', 'kms:ListAliases', 'logs:CreateLogGroup', 'logs:CreateLogStream', 'logs:PutLogEvents']),
    { Effect: 'Allow', Action: 'iam:CreateServiceLinkedRole', Resource: '*', Condition: { StringLike: { 'iam:AWSServiceName': ['fsx.amazonaws.com', 's3.data-source.lustre.fsx.amazonaws.com'] } } },
  ]),
];

const BY_ARN = new Map(MANAGED_POLICIES.map((p) => [p.arn, p]));

export function findManagedPolicy(arn: string): ManagedPolicyInfo | undefined {
  return BY_ARN.get(arn);
}
