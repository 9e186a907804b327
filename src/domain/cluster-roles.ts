import { FEATURE_POLICY_NAME, featureRoleSpec } from './features/identity-policies.js';
import type { PolicyDocument } from './features/policy-document.js';
import { featureDefinition, featureRoleName, FEATURES, formerFeatureRoleName } from './features/registry.js';
import type { FeatureId } from './schemas/features.js';
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
  /** The whole trust policy, when it says more than "these services may assume the role" (else built from trustedServices). */
  trustPolicy?: PolicyDocument;
}

const managed = (name: string) => `arn:aws:iam::aws:policy/${name}`;

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
              'ec2:AssignPrivateIpAddresses',
              'ec2:AttachNetworkInterface',
              'ec2:CreateNetworkInterface',
              'ec2:CreateNetworkInterfacePermission',
              'ec2:DeleteNetworkInterface',
              'ec2:DeleteNetworkInterfacePermission',
              'ec2:DetachNetworkInterface',
              'ec2:ModifyNetworkInterfaceAttribute',
              'ec2:UnassignPrivateIpAddresses',
              'ec2:DescribeInstances',
              'ec2:DescribeTags',
              'ec2:DescribeNetworkInterfaces',
              'ec2:DescribeInstanceTypes',
              'ec2:DescribeSubnets',
              'ec2:DescribeVpcs',
              'ec2:DescribeDhcpOptions',
              'ec2:DescribeSecurityGroups',
              'ecr:BatchCheckLayerAvailability',
              'ecr:BatchGetImage',
              'ecr:GetAuthorizationToken',
              'ecr:GetDownloadUrlForLayer',
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

/**
 * A feature's role as create-cluster and set-autoscaling make it (IamPort.ensure): its trust, managed
 * and inline policies built from the feature registry by the same builder the features reconciler
 * uses (features/identity-policies.ts), so the two can never disagree. Only identities without an
 * IRSA binding come this way (those need the cluster's OIDC provider: src/workflows/feature-identities.ts).
 */
function featureRole(
  names: ClusterResourceNames,
  featureId: FeatureId,
  identityId: string,
  facts: { hyperpodClusterArn: string },
): RoleDefinition {
  const identity = featureDefinition(featureId).identities.find((i) => i.id === identityId);
  if (!identity) throw new Error(`feature ${featureId} has no identity ${identityId}`);
  const spec = featureRoleSpec(names.hyperpodCluster, featureId, identity, {
    ...facts,
    region: names.region,
    sharedBucket: names.bucket,
  });
  return {
    roleName: spec.roleName,
    description: spec.description,
    trustedServices: spec.trustPolicy.Statement.flatMap((st) => [st.Principal?.Service ?? []].flat()),
    trustPolicy: spec.trustPolicy,
    managedPolicyArns: spec.managedPolicyArns,
    ...(spec.inlinePolicy ? { inlinePolicies: { [FEATURE_POLICY_NAME]: spec.inlinePolicy } } : {}),
  };
}

/** The HyperPod training operator's pod-identity role (the training-operator feature's `controller` identity). */
export const trainingOperatorRole = (names: ClusterResourceNames): RoleDefinition =>
  featureRole(names, 'training-operator', 'controller', { hyperpodClusterArn: '*' });

/** The Mountpoint for S3 CSI driver's pod-identity role: read/write on the shared bucket only (the s3-csi-driver feature's `driver` identity). */
export const s3CsiDriverRole = (names: ClusterResourceNames): RoleDefinition =>
  featureRole(names, 's3-csi-driver', 'driver', { hyperpodClusterArn: '*' });

/**
 * The ClusterRole of managed autoscaling (the autoscaling feature's `cluster-role` identity): HyperPod
 * assumes it to add and remove the cluster's nodes for Karpenter, so it may call the two Batch* node
 * APIs on this cluster and nothing else (`*` only while the cluster's ARN is not known yet).
 */
export const hyperpodAutoscalingRole = (names: ClusterResourceNames, hyperpodClusterArn: string): RoleDefinition =>
  featureRole(names, 'autoscaling', 'cluster-role', { hyperpodClusterArn: hyperpodClusterArn || '*' });

/**
 * Every role a managed cluster may own, by name: what the delete saga and the leftovers check look for.
 * That is the two roles of create-cluster plus every feature identity's role (a feature turned on
 * after create, e.g. tiered checkpointing, leaves its role until the cluster goes), under its name
 * now and — for an identity whose name changed (the inference execution role) — under its former name.
 */
export function clusterRoleNames(names: ClusterResourceNames): string[] {
  const featureRoles = [...FEATURES.values()].flatMap((f) =>
    f.identities.flatMap((i) =>
      [
        featureRoleName(names.hyperpodCluster, names.region, i),
        formerFeatureRoleName(names.hyperpodCluster, i) ?? [],
      ].flat(),
    ),
  );
  return [...new Set([eksClusterRole(names).roleName, hyperpodExecutionRole(names, '').roleName, ...featureRoles])];
}
