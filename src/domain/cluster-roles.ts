import type { ClusterResourceNames } from './naming.js';

/**
 * The IAM roles a managed cluster needs, with the trust and policies AWS's documentation and
 * setup templates give them (see docs/OPERATIONS.md → create-cluster → iam).
 */
export interface RoleDefinition {
  roleName: string;
  description: string;
  trustedServices: string[];
  trustActions?: string[];
  managedPolicyArns: string[];
  inlinePolicies?: Record<string, unknown>;
}

const managed = (name: string) => `arn:aws:iam::aws:policy/${name}`;
/** EKS Pod Identity assumes roles with these actions (the agent tags the session). */
const POD_IDENTITY_ACTIONS = ['sts:AssumeRole', 'sts:TagSession'];

export function eksClusterRole(names: ClusterResourceNames): RoleDefinition {
  return {
    roleName: names.eksClusterRole,
    description: `EKS control plane of ${names.hyperpodCluster} (InstantStart)`,
    trustedServices: ['eks.amazonaws.com'],
    managedPolicyArns: [managed('AmazonEKSClusterPolicy')],
  };
}

/** The instance-group execution role: HyperPod's managed policy plus what the VPC CNI, ECR and pod identity need on the nodes. */
export function hyperpodExecutionRole(names: ClusterResourceNames, eksClusterArn: string): RoleDefinition {
  return {
    roleName: names.executionRole,
    description: `HyperPod instance groups of ${names.hyperpodCluster} (InstantStart)`,
    trustedServices: ['sagemaker.amazonaws.com'],
    managedPolicyArns: [managed('AmazonSageMakerClusterInstanceRolePolicy')],
    inlinePolicies: {
      'eks-nodes': {
        Version: '2012-10-17',
        Statement: [
          {
            Effect: 'Allow',
            Action: [
              'ec2:AssignPrivateIpAddresses', 'ec2:AttachNetworkInterface', 'ec2:CreateNetworkInterface', 'ec2:CreateNetworkInterfacePermission',
              'ec2:DeleteNetworkInterface', 'ec2:DeleteNetworkInterfacePermission', 'ec2:DetachNetworkInterface', 'ec2:ModifyNetworkInterfaceAttribute',
              'ec2:UnassignPrivateIpAddresses', 'ec2:DescribeInstances', 'ec2:DescribeTags', 'ec2:DescribeNetworkInterfaces', 'ec2:DescribeInstanceTypes',
              'ec2:DescribeSubnets', 'ec2:DescribeVpcs', 'ec2:DescribeDhcpOptions', 'ec2:DescribeSecurityGroups',
              'ecr:BatchCheckLayerAvailability', 'ecr:BatchGetImage', 'ecr:GetAuthorizationToken', 'ecr:GetDownloadUrlForLayer',
              'cloudwatch:DescribeAlarms',
            ],
            Resource: '*',
          },
          { Effect: 'Allow', Action: ['ec2:CreateTags'], Resource: 'arn:aws:ec2:*:*:network-interface/*' },
          { Effect: 'Allow', Action: ['eks-auth:AssumeRoleForPodIdentity'], Resource: eksClusterArn },
        ],
      },
    },
  };
}

/** The HyperPod training operator's pod-identity role. */
export function trainingOperatorRole(names: ClusterResourceNames): RoleDefinition {
  return {
    roleName: names.trainingOperatorRole,
    description: `HyperPod training operator of ${names.hyperpodCluster} (InstantStart)`,
    trustedServices: ['pods.eks.amazonaws.com'],
    trustActions: POD_IDENTITY_ACTIONS,
    managedPolicyArns: [managed('AmazonSageMakerHyperPodTrainingOperatorAccess')],
  };
}

/** The Mountpoint for S3 CSI driver's pod-identity role: read/write on the shared bucket only. */
export function s3CsiDriverRole(names: ClusterResourceNames): RoleDefinition {
  return {
    roleName: names.s3CsiRole,
    description: `Mountpoint for Amazon S3 CSI driver of ${names.hyperpodCluster} (InstantStart)`,
    trustedServices: ['pods.eks.amazonaws.com'],
    trustActions: POD_IDENTITY_ACTIONS,
    managedPolicyArns: [],
    inlinePolicies: {
      'shared-bucket': {
        Version: '2012-10-17',
        Statement: [
          { Effect: 'Allow', Action: ['s3:ListBucket'], Resource: `arn:aws:s3:::${names.bucket}` },
          { Effect: 'Allow', Action: ['s3:GetObject', 's3:PutObject', 's3:AbortMultipartUpload', 's3:DeleteObject'], Resource: `arn:aws:s3:::${names.bucket}/*` },
        ],
      },
    },
  };
}

/**
 * The ClusterRole of managed autoscaling: HyperPod assumes it to add and remove the cluster's nodes
 * for Karpenter, so it may call the two Batch* node APIs on this cluster and nothing else.
 */
export function hyperpodAutoscalingRole(names: ClusterResourceNames, hyperpodClusterArn: string): RoleDefinition {
  return {
    roleName: names.autoscalingRole,
    description: `HyperPod-managed autoscaling (Karpenter) of ${names.hyperpodCluster} (InstantStart)`,
    trustedServices: ['hyperpod.sagemaker.amazonaws.com'],
    managedPolicyArns: [],
    inlinePolicies: {
      'scale-nodes': {
        Version: '2012-10-17',
        Statement: [{ Effect: 'Allow', Action: ['sagemaker:BatchAddClusterNodes', 'sagemaker:BatchDeleteClusterNodes'], Resource: hyperpodClusterArn || '*' }],
      },
    },
  };
}

/** Every role a managed cluster may own, by name: what the delete saga and the leftovers check look for. */
export function clusterRoleNames(names: ClusterResourceNames): string[] {
  return [eksClusterRole(names), hyperpodExecutionRole(names, ''), trainingOperatorRole(names), s3CsiDriverRole(names), hyperpodAutoscalingRole(names, '')].map((r) => r.roleName);
}
