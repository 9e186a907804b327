/**
 * The documents of the AWS-managed IAM policies the sandbox knows, each as AWS publishes its default
 * version (the version and its date are in managed-policies.ts). Read from the policies' JSON as
 * zoph-io/IAMTrail records them from `iam get-policy-version` (commit 7fc15059, 2026-08-22), and
 * for AmazonSageMakerHyperPodInferenceAccess also AWS's Managed Policy Reference page (v3 and v4).
 * Data, not a summary: the sandbox's IAM evaluates these statements (services/iam/authorize.ts), so
 * a permission AWS does not grant is not granted here either.
 */

/** One statement, as IAM stores it. */
export interface Statement {
  Sid?: string;
  Effect: 'Allow' | 'Deny';
  Action?: string | string[];
  NotAction?: string | string[];
  Resource?: string | string[];
  NotResource?: string | string[];
  Condition?: Record<string, Record<string, string | string[]>>;
}

/** AmazonEKSClusterPolicy v10 (2026-02-12). */
export const AmazonEKSClusterPolicy: Statement[] = [
  {
    Sid: 'AmazonEKSClusterPolicy',
    Effect: 'Allow',
    Action: [
      'autoscaling:DescribeAutoScalingGroups', 'autoscaling:UpdateAutoScalingGroup', 'ec2:AttachVolume',
      'ec2:AuthorizeSecurityGroupIngress', 'ec2:CreateRoute', 'ec2:CreateSecurityGroup', 'ec2:CreateTags', 'ec2:CreateVolume',
      'ec2:DeleteRoute', 'ec2:DeleteSecurityGroup', 'ec2:DeleteVolume', 'ec2:DescribeInstances', 'ec2:DescribeRouteTables',
      'ec2:DescribeSecurityGroups', 'ec2:DescribeSubnets', 'ec2:DescribeVolumes', 'ec2:DescribeVolumesModifications',
      'ec2:DescribeVpcs', 'ec2:DescribeDhcpOptions', 'ec2:DescribeNetworkInterfaces', 'ec2:DescribeAvailabilityZones',
      'ec2:DetachVolume', 'ec2:ModifyInstanceAttribute', 'ec2:ModifyVolume', 'ec2:RevokeSecurityGroupIngress',
      'ec2:DescribeAccountAttributes', 'ec2:DescribeAddresses', 'ec2:DescribeInternetGateways', 'ec2:DescribeInstanceTopology',
      'elasticloadbalancing:AddTags', 'elasticloadbalancing:ApplySecurityGroupsToLoadBalancer',
      'elasticloadbalancing:AttachLoadBalancerToSubnets', 'elasticloadbalancing:ConfigureHealthCheck',
      'elasticloadbalancing:CreateListener', 'elasticloadbalancing:CreateLoadBalancer',
      'elasticloadbalancing:CreateLoadBalancerListeners', 'elasticloadbalancing:CreateLoadBalancerPolicy',
      'elasticloadbalancing:CreateTargetGroup', 'elasticloadbalancing:DeleteListener',
      'elasticloadbalancing:DeleteLoadBalancer', 'elasticloadbalancing:DeleteLoadBalancerListeners',
      'elasticloadbalancing:DeleteTargetGroup', 'elasticloadbalancing:DeregisterInstancesFromLoadBalancer',
      'elasticloadbalancing:DeregisterTargets', 'elasticloadbalancing:DescribeListeners',
      'elasticloadbalancing:DescribeLoadBalancerAttributes', 'elasticloadbalancing:DescribeLoadBalancerPolicies',
      'elasticloadbalancing:DescribeLoadBalancers', 'elasticloadbalancing:DescribeTargetGroupAttributes',
      'elasticloadbalancing:DescribeTargetGroups', 'elasticloadbalancing:DescribeTargetHealth',
      'elasticloadbalancing:DetachLoadBalancerFromSubnets', 'elasticloadbalancing:ModifyListener',
      'elasticloadbalancing:ModifyLoadBalancerAttributes', 'elasticloadbalancing:ModifyTargetGroup',
      'elasticloadbalancing:ModifyTargetGroupAttributes', 'elasticloadbalancing:RegisterInstancesWithLoadBalancer',
      'elasticloadbalancing:RegisterTargets', 'elasticloadbalancing:SetLoadBalancerPoliciesForBackendServer',
      'elasticloadbalancing:SetLoadBalancerPoliciesOfListener', 'kms:DescribeKey',
    ],
    Resource: '*',
  },
  {
    Sid: 'AmazonEKSClusterPolicySLRCreate',
    Effect: 'Allow',
    Action: 'iam:CreateServiceLinkedRole',
    Resource: '*',
    Condition: { StringEquals: { 'iam:AWSServiceName': 'elasticloadbalancing.amazonaws.com' } },
  },
  {
    Sid: 'AmazonEKSClusterPolicyENIDelete',
    Effect: 'Allow',
    Action: 'ec2:DeleteNetworkInterface',
    Resource: '*',
    Condition: { StringEquals: { 'ec2:ResourceTag/eks:eni:owner': 'amazon-vpc-cni' } },
  },
];

/** AmazonEKSServicePolicy v7 (2024-10-14). */
export const AmazonEKSServicePolicy: Statement[] = [
  {
    Effect: 'Allow',
    Action: [
      'ec2:CreateNetworkInterface', 'ec2:CreateNetworkInterfacePermission', 'ec2:DeleteNetworkInterface',
      'ec2:DescribeInstances', 'ec2:DescribeNetworkInterfaces', 'ec2:DetachNetworkInterface', 'ec2:DescribeSecurityGroups',
      'ec2:DescribeSubnets', 'ec2:DescribeVpcs', 'ec2:ModifyNetworkInterfaceAttribute', 'iam:ListAttachedRolePolicies',
      'eks:UpdateClusterVersion', 'ec2:GetSecurityGroupsForVpc',
    ],
    Resource: '*',
  },
  {
    Effect: 'Allow',
    Action: ['ec2:CreateTags', 'ec2:DeleteTags'],
    Resource: ['arn:aws:ec2:*:*:vpc/*', 'arn:aws:ec2:*:*:subnet/*'],
  },
  {
    Effect: 'Allow',
    Action: ['ec2:CreateTags'],
    Resource: ['arn:aws:ec2:*:*:network-interface/*'],
    Condition: { StringLike: { 'aws:RequestTag/Name': 'eks-cluster-*' } },
  },
  { Effect: 'Allow', Action: 'route53:AssociateVPCWithHostedZone', Resource: '*' },
  { Effect: 'Allow', Action: 'logs:CreateLogGroup', Resource: '*' },
  {
    Effect: 'Allow',
    Action: ['logs:CreateLogStream', 'logs:DescribeLogStreams'],
    Resource: 'arn:aws:logs:*:*:log-group:/aws/eks/*:*',
  },
  { Effect: 'Allow', Action: 'logs:PutLogEvents', Resource: 'arn:aws:logs:*:*:log-group:/aws/eks/*:*:*' },
  {
    Effect: 'Allow',
    Action: 'iam:CreateServiceLinkedRole',
    Resource: 'arn:aws:iam::*:role/aws-service-role/eks.amazonaws.com/AWSServiceRoleForAmazonEKS',
    Condition: { StringLike: { 'iam:AWSServiceName': 'eks.amazonaws.com' } },
  },
];

/** AmazonEKSWorkerNodePolicy v3 (2023-11-27). */
export const AmazonEKSWorkerNodePolicy: Statement[] = [
  {
    Sid: 'WorkerNodePermissions',
    Effect: 'Allow',
    Action: [
      'ec2:DescribeInstances', 'ec2:DescribeInstanceTypes', 'ec2:DescribeRouteTables', 'ec2:DescribeSecurityGroups',
      'ec2:DescribeSubnets', 'ec2:DescribeVolumes', 'ec2:DescribeVolumesModifications', 'ec2:DescribeVpcs',
      'eks:DescribeCluster', 'eks-auth:AssumeRoleForPodIdentity',
    ],
    Resource: '*',
  },
];

/** AmazonEKS_CNI_Policy v6 (2026-03-04). */
export const AmazonEKS_CNI_Policy: Statement[] = [
  {
    Sid: 'AmazonEKSCNIPolicy',
    Effect: 'Allow',
    Action: [
      'ec2:AssignPrivateIpAddresses', 'ec2:AttachNetworkInterface', 'ec2:CreateNetworkInterface', 'ec2:DeleteNetworkInterface',
      'ec2:DescribeInstances', 'ec2:DescribeTags', 'ec2:DescribeNetworkInterfaces', 'ec2:DescribeInstanceTypes',
      'ec2:DescribeSubnets', 'ec2:DescribeSecurityGroups', 'ec2:DetachNetworkInterface', 'ec2:ModifyNetworkInterfaceAttribute',
      'ec2:UnassignPrivateIpAddresses',
    ],
    Resource: '*',
  },
  {
    Sid: 'AmazonEKSCNIPolicyENITag',
    Effect: 'Allow',
    Action: ['ec2:CreateTags'],
    Resource: ['arn:aws:ec2:*:*:network-interface/*'],
  },
];

/** AmazonEKSVPCResourceController v1 (2020-08-12). */
export const AmazonEKSVPCResourceController: Statement[] = [
  {
    Effect: 'Allow',
    Action: 'ec2:CreateNetworkInterfacePermission',
    Resource: '*',
    Condition: { 'ForAnyValue:StringEquals': { 'ec2:ResourceTag/eks:eni:owner': 'eks-vpc-resource-controller' } },
  },
  {
    Effect: 'Allow',
    Action: [
      'ec2:CreateNetworkInterface', 'ec2:DetachNetworkInterface', 'ec2:ModifyNetworkInterfaceAttribute',
      'ec2:DeleteNetworkInterface', 'ec2:AttachNetworkInterface', 'ec2:UnassignPrivateIpAddresses',
      'ec2:AssignPrivateIpAddresses',
    ],
    Resource: '*',
  },
];

/** AmazonEC2ContainerRegistryReadOnly v3 (2019-12-10). */
export const AmazonEC2ContainerRegistryReadOnly: Statement[] = [
  {
    Effect: 'Allow',
    Action: [
      'ecr:GetAuthorizationToken', 'ecr:BatchCheckLayerAvailability', 'ecr:GetDownloadUrlForLayer', 'ecr:GetRepositoryPolicy',
      'ecr:DescribeRepositories', 'ecr:ListImages', 'ecr:DescribeImages', 'ecr:BatchGetImage', 'ecr:GetLifecyclePolicy',
      'ecr:GetLifecyclePolicyPreview', 'ecr:ListTagsForResource', 'ecr:DescribeImageScanFindings',
    ],
    Resource: '*',
  },
];

/** AmazonSageMakerClusterInstanceRolePolicy v1 (2023-11-29). */
export const AmazonSageMakerClusterInstanceRolePolicy: Statement[] = [
  {
    Sid: 'CloudwatchLogStreamPublishPermissions',
    Effect: 'Allow',
    Action: ['logs:PutLogEvents', 'logs:CreateLogStream', 'logs:DescribeLogStreams'],
    Resource: ['arn:aws:logs:*:*:log-group:/aws/sagemaker/Clusters/*:log-stream:*'],
  },
  {
    Sid: 'CloudwatchLogGroupCreationPermissions',
    Effect: 'Allow',
    Action: ['logs:CreateLogGroup'],
    Resource: ['arn:aws:logs:*:*:log-group:/aws/sagemaker/Clusters/*'],
  },
  {
    Sid: 'CloudwatchPutMetricDataAccess',
    Effect: 'Allow',
    Action: ['cloudwatch:PutMetricData'],
    Resource: ['*'],
    Condition: { StringEquals: { 'cloudwatch:namespace': '/aws/sagemaker/Clusters' } },
  },
  {
    Sid: 'DataRetrievalFromS3BucketPermissions',
    Effect: 'Allow',
    Action: ['s3:ListBucket', 's3:GetObject'],
    Resource: ['arn:aws:s3:::sagemaker-*'],
    Condition: { StringEquals: { 'aws:ResourceAccount': '${aws:PrincipalAccount}' } },
  },
  {
    Sid: 'SSMConnectivityPermissions',
    Effect: 'Allow',
    Action: [
      'ssmmessages:CreateControlChannel', 'ssmmessages:CreateDataChannel', 'ssmmessages:OpenControlChannel',
      'ssmmessages:OpenDataChannel',
    ],
    Resource: '*',
  },
];

/** AmazonSageMakerHyperPodTrainingOperatorAccess v3 (2026-02-12). */
export const AmazonSageMakerHyperPodTrainingOperatorAccess: Statement[] = [
  {
    Sid: 'AllowDescribeClusterNodeOnHyperPodClusters',
    Effect: 'Allow',
    Action: 'sagemaker:DescribeClusterNode',
    Resource: 'arn:aws:sagemaker:*:*:cluster/*',
    Condition: { StringEquals: { 'aws:ResourceTag/SageMaker': 'true' } },
  },
];

/** AmazonSageMakerHyperPodInferenceAccess v4 (2026-07-20). */
export const AmazonSageMakerHyperPodInferenceAccess: Statement[] = [
  {
    Sid: 'DeleteObjectsPermission',
    Effect: 'Allow',
    Action: ['s3:DeleteObject'],
    Resource: ['arn:aws:s3:::hyperpod-tls*/*'],
    Condition: { StringEquals: { 'aws:ResourceAccount': '${aws:PrincipalAccount}' } },
  },
  {
    Sid: 'S3GetObjectAccess',
    Effect: 'Allow',
    Action: ['s3:GetObject'],
    Resource: ['arn:aws:s3:::hyperpod-tls*/*'],
    Condition: { StringEquals: { 'aws:ResourceAccount': '${aws:PrincipalAccount}', 's3:ExistingObjectTag/CreatedBy': 'HyperPodInference' } },
  },
  {
    Sid: 'S3PutObjectAccess',
    Effect: 'Allow',
    Action: ['s3:PutObject', 's3:PutObjectTagging'],
    Resource: ['arn:aws:s3:::hyperpod-tls*/*'],
    Condition: { StringEquals: { 'aws:ResourceAccount': '${aws:PrincipalAccount}', 's3:RequestObjectTag/CreatedBy': 'HyperPodInference' } },
  },
  {
    Sid: 'DataCaptureS3',
    Effect: 'Allow',
    Action: 's3:PutObject',
    Resource: ['arn:aws:s3:::hyperpod-tls*/data-capture/*'],
    Condition: { StringEquals: { 'aws:ResourceAccount': '${aws:PrincipalAccount}' } },
  },
  {
    Sid: 'S3ListBucketAccess',
    Effect: 'Allow',
    Action: ['s3:ListBucket'],
    Resource: ['arn:aws:s3:::hyperpod-tls*'],
    Condition: { StringEquals: { 'aws:ResourceAccount': '${aws:PrincipalAccount}' } },
  },
  {
    Sid: 'DataCaptureKMS',
    Effect: 'Allow',
    Action: ['kms:Decrypt', 'kms:GenerateDataKey'],
    Resource: 'arn:aws:kms:*:*:key/*',
    Condition: {
      StringLike: { 'kms:ViaService': 's3.*.amazonaws.com', 'kms:EncryptionContext:aws:s3:arn': 'arn:aws:s3:::hyperpod-tls*' },
      StringEquals: { 'aws:ResourceAccount': '${aws:PrincipalAccount}' },
    },
  },
  { Sid: 'ECRAuthorization', Effect: 'Allow', Action: ['ecr:GetAuthorizationToken'], Resource: '*' },
  {
    Sid: 'ECRRepositoryAccess',
    Effect: 'Allow',
    Action: ['ecr:GetDownloadUrlForLayer', 'ecr:BatchGetImage'],
    Resource: 'arn:aws:ecr:*:*:repository/*',
  },
  {
    Sid: 'EC2DescribeAccess',
    Effect: 'Allow',
    Action: [
      'ec2:DescribeVpcs', 'ec2:DescribeInstanceTypes', 'ec2:DescribeNetworkInterfaces', 'ec2:DescribeSubnets',
      'ec2:DescribeDhcpOptions', 'ec2:DescribeSecurityGroups',
    ],
    Resource: '*',
    Condition: { StringEquals: { 'aws:ResourceAccount': '${aws:PrincipalAccount}' } },
  },
  {
    Sid: 'EC2NetworkInterfaceActions',
    Effect: 'Allow',
    Action: ['ec2:CreateNetworkInterface', 'ec2:CreateNetworkInterfacePermission', 'ec2:DeleteNetworkInterface'],
    Resource: ['arn:aws:ec2:*:*:network-interface/*', 'arn:aws:ec2:*:*:subnet/*', 'arn:aws:ec2:*:*:security-group/*'],
    Condition: { StringEquals: { 'aws:ResourceAccount': '${aws:PrincipalAccount}' } },
  },
  {
    Sid: 'EKSClusterAccess',
    Effect: 'Allow',
    Action: ['eks:DescribeCluster', 'eks-auth:AssumeRoleForPodIdentity'],
    Resource: 'arn:aws:eks:*:*:cluster/*',
    Condition: { StringEquals: { 'aws:ResourceAccount': '${aws:PrincipalAccount}' } },
  },
  {
    Sid: 'EKSAccessEntryPolicyAssociation',
    Effect: 'Allow',
    Action: ['eks:AssociateAccessPolicy', 'eks:DisassociateAccessPolicy'],
    Resource: 'arn:aws:eks:*:*:access-entry/*',
    Condition: {
      StringEquals: { 'eks:policyarn': 'arn:aws:eks::aws:cluster-access-policy/AmazonSagemakerHyperpodInferenceMonitoringPolicy' },
    },
  },
  {
    Sid: 'EKSAccessEntryListPolicies',
    Effect: 'Allow',
    Action: ['eks:ListAssociatedAccessPolicies'],
    Resource: 'arn:aws:eks:*:*:access-entry/*',
    Condition: { StringEquals: { 'aws:ResourceAccount': '${aws:PrincipalAccount}' } },
  },
  {
    Sid: 'ELBListAndDescribeAccess',
    Effect: 'Allow',
    Action: ['elasticloadbalancing:DescribeLoadBalancers'],
    Resource: '*',
    Condition: { StringEquals: { 'aws:ResourceAccount': '${aws:PrincipalAccount}' } },
  },
  {
    Sid: 'FSxAccess',
    Effect: 'Allow',
    Action: ['fsx:DescribeFileSystems'],
    Resource: '*',
    Condition: { StringEquals: { 'aws:ResourceAccount': '${aws:PrincipalAccount}' } },
  },
  {
    Sid: 'CertificateImportPermission',
    Effect: 'Allow',
    Action: ['acm:AddTagsToCertificate', 'acm:ImportCertificate'],
    Resource: 'arn:aws:acm:*:*:certificate/*',
    Condition: {
      'ForAllValues:StringEquals': { 'aws:TagKeys': 'CreatedBy' },
      StringEquals: {
        'aws:RequestTag/CreatedBy': 'HyperPodInference',
        'aws:ResourceTag/CreatedBy': 'HyperPodInference',
        'aws:ResourceAccount': '${aws:PrincipalAccount}',
      },
    },
  },
  {
    Sid: 'CertificateDeletePermission',
    Effect: 'Allow',
    Action: 'acm:DeleteCertificate',
    Resource: 'arn:aws:acm:*:*:certificate/*',
    Condition: { StringEquals: { 'aws:ResourceAccount': '${aws:PrincipalAccount}', 'aws:ResourceTag/CreatedBy': 'HyperPodInference' } },
  },
  {
    Sid: 'AllowPassRoleToSageMaker',
    Effect: 'Allow',
    Action: ['iam:PassRole'],
    Resource: 'arn:aws:iam::*:role/SageMakerHyperPodInference*',
    Condition: { StringEquals: { 'iam:PassedToService': 'sagemaker.amazonaws.com' } },
  },
  {
    Sid: 'CloudWatchMetricsAccess',
    Effect: 'Allow',
    Action: ['cloudwatch:PutMetricData'],
    Resource: '*',
    Condition: { StringEquals: { 'cloudwatch:namespace': 'HyperPodInference' } },
  },
  {
    Sid: 'CloudWatchLogsAccess',
    Effect: 'Allow',
    Action: ['logs:PutLogEvents', 'logs:CreateLogStream', 'logs:CreateLogGroup'],
    Resource: ['arn:aws:logs:*:*:log-group:*'],
    Condition: { StringEquals: { 'aws:ResourceAccount': '${aws:PrincipalAccount}' } },
  },
  {
    Sid: 'SageMakerAccess',
    Effect: 'Allow',
    Action: [
      'sagemaker:DescribeModel', 'sagemaker:DescribeEndpointConfig', 'sagemaker:DescribeEndpoint', 'sagemaker:DescribeCluster',
      'sagemaker:DescribeClusterInference', 'sagemaker:UpdateClusterInference', 'sagemaker:DescribeHubContent',
    ],
    Resource: [
      'arn:aws:sagemaker:*:*:model/*', 'arn:aws:sagemaker:*:*:endpoint/*', 'arn:aws:sagemaker:*:*:endpointconfig/*',
      'arn:aws:sagemaker:*:*:cluster/*', 'arn:aws:sagemaker:*:*:hub-content/*', 'arn:aws:sagemaker:*:*:hub/*',
    ],
    Condition: { StringEquals: { 'aws:ResourceAccount': '${aws:PrincipalAccount}' } },
  },
  {
    Sid: 'SageMakerCreateAccess',
    Effect: 'Allow',
    Action: ['sagemaker:CreateModel', 'sagemaker:CreateEndpointConfig', 'sagemaker:CreateEndpoint'],
    Resource: ['arn:aws:sagemaker:*:*:model/*', 'arn:aws:sagemaker:*:*:endpoint/*', 'arn:aws:sagemaker:*:*:endpoint-config/*'],
    Condition: { StringEquals: { 'aws:RequestTag/CreatedBy': 'HyperPodInference' } },
  },
  {
    Sid: 'SageMakerTagging',
    Effect: 'Allow',
    Action: ['sagemaker:AddTags'],
    Resource: ['arn:aws:sagemaker:*:*:model/*', 'arn:aws:sagemaker:*:*:endpoint/*', 'arn:aws:sagemaker:*:*:endpoint-config/*'],
    Condition: { StringEquals: { 'sagemaker:TaggingAction': ['CreateModel', 'CreateEndpointConfig', 'CreateEndpoint'] } },
  },
  {
    Sid: 'SageMakerDeleteAccess',
    Effect: 'Allow',
    Action: ['sagemaker:DeleteModel', 'sagemaker:DeleteEndpointConfig', 'sagemaker:DeleteEndpoint', 'sagemaker:UpdateEndpoint'],
    Resource: ['arn:aws:sagemaker:*:*:model/*', 'arn:aws:sagemaker:*:*:endpoint/*', 'arn:aws:sagemaker:*:*:endpoint-config/*'],
    Condition: { StringEquals: { 'aws:ResourceTag/CreatedBy': 'HyperPodInference' } },
  },
];

/** AmazonSageMakerHyperPodGatedModelAccess v3 (2026-02-12). */
export const AmazonSageMakerHyperPodGatedModelAccess: Statement[] = [
  {
    Sid: 'CreatePresignedUrlAccess',
    Effect: 'Allow',
    Action: ['sagemaker:CreateHubContentPresignedUrls'],
    Resource: ['arn:aws:sagemaker:*:*:hub/SageMakerPublicHub', 'arn:aws:sagemaker:*:*:hub-content/SageMakerPublicHub/*/*'],
    Condition: { StringEquals: { 'aws:ResourceAccount': '${aws:PrincipalAccount}' } },
  },
];

/** AmazonSageMakerFullAccess v29 (2026-02-12). */
export const AmazonSageMakerFullAccess: Statement[] = [
  {
    Sid: 'AllowAllNonAdminSageMakerActions',
    Effect: 'Allow',
    Action: ['sagemaker:*', 'sagemaker-geospatial:*'],
    NotResource: [
      'arn:aws:sagemaker:*:*:domain/*', 'arn:aws:sagemaker:*:*:user-profile/*', 'arn:aws:sagemaker:*:*:app/*',
      'arn:aws:sagemaker:*:*:space/*', 'arn:aws:sagemaker:*:*:partner-app/*', 'arn:aws:sagemaker:*:*:flow-definition/*',
      'arn:aws:sagemaker:*:*:training-plan/*', 'arn:aws:sagemaker:*:*:reserved-capacity/*',
    ],
  },
  {
    Sid: 'AllowAddTagsForSpace',
    Effect: 'Allow',
    Action: ['sagemaker:AddTags'],
    Resource: ['arn:aws:sagemaker:*:*:space/*'],
    Condition: { StringEquals: { 'sagemaker:TaggingAction': 'CreateSpace' } },
  },
  { Sid: 'AllowAddTagsForApp', Effect: 'Allow', Action: ['sagemaker:AddTags'], Resource: ['arn:aws:sagemaker:*:*:app/*'] },
  {
    Sid: 'AllowUseOfTrainingPlanResources',
    Effect: 'Allow',
    Action: ['sagemaker:CreateTrainingJob', 'sagemaker:CreateCluster', 'sagemaker:UpdateCluster', 'sagemaker:DescribeTrainingPlan'],
    Resource: ['arn:aws:sagemaker:*:*:training-plan/*', 'arn:aws:sagemaker:*:*:reserved-capacity/*'],
  },
  {
    Sid: 'AllowStudioActions',
    Effect: 'Allow',
    Action: [
      'sagemaker:CreatePresignedDomainUrl', 'sagemaker:DescribeDomain', 'sagemaker:ListDomains',
      'sagemaker:DescribeUserProfile', 'sagemaker:ListUserProfiles', 'sagemaker:DescribeSpace', 'sagemaker:ListSpaces',
      'sagemaker:DescribeApp', 'sagemaker:ListApps',
    ],
    Resource: '*',
  },
  {
    Sid: 'AllowAppActionsForUserProfile',
    Effect: 'Allow',
    Action: ['sagemaker:CreateApp', 'sagemaker:DeleteApp'],
    Resource: 'arn:aws:sagemaker:*:*:app/*/*/*/*',
    Condition: { Null: { 'sagemaker:OwnerUserProfileArn': 'true' } },
  },
  {
    Sid: 'AllowAppActionsForSharedSpaces',
    Effect: 'Allow',
    Action: ['sagemaker:CreateApp', 'sagemaker:DeleteApp'],
    Resource: 'arn:aws:sagemaker:*:*:app/${sagemaker:DomainId}/*/*/*',
    Condition: { StringEquals: { 'sagemaker:SpaceSharingType': ['Shared'] } },
  },
  {
    Sid: 'AllowMutatingActionsOnSharedSpacesWithoutOwner',
    Effect: 'Allow',
    Action: ['sagemaker:CreateSpace', 'sagemaker:UpdateSpace', 'sagemaker:DeleteSpace'],
    Resource: 'arn:aws:sagemaker:*:*:space/${sagemaker:DomainId}/*',
    Condition: { Null: { 'sagemaker:OwnerUserProfileArn': 'true' } },
  },
  {
    Sid: 'RestrictMutatingActionsOnSpacesToOwnerUserProfile',
    Effect: 'Allow',
    Action: ['sagemaker:CreateSpace', 'sagemaker:UpdateSpace', 'sagemaker:DeleteSpace'],
    Resource: 'arn:aws:sagemaker:*:*:space/${sagemaker:DomainId}/*',
    Condition: {
      ArnLike: {
        'sagemaker:OwnerUserProfileArn': 'arn:aws:sagemaker:*:*:user-profile/${sagemaker:DomainId}/${sagemaker:UserProfileName}',
      },
      StringEquals: { 'sagemaker:SpaceSharingType': ['Private', 'Shared'] },
    },
  },
  {
    Sid: 'RestrictMutatingActionsOnPrivateSpaceAppsToOwnerUserProfile',
    Effect: 'Allow',
    Action: ['sagemaker:CreateApp', 'sagemaker:DeleteApp'],
    Resource: 'arn:aws:sagemaker:*:*:app/${sagemaker:DomainId}/*/*/*',
    Condition: {
      ArnLike: {
        'sagemaker:OwnerUserProfileArn': 'arn:aws:sagemaker:*:*:user-profile/${sagemaker:DomainId}/${sagemaker:UserProfileName}',
      },
      StringEquals: { 'sagemaker:SpaceSharingType': ['Private'] },
    },
  },
  {
    Sid: 'AllowFlowDefinitionActions',
    Effect: 'Allow',
    Action: 'sagemaker:*',
    Resource: ['arn:aws:sagemaker:*:*:flow-definition/*'],
    Condition: { StringEqualsIfExists: { 'sagemaker:WorkteamType': ['private-crowd', 'vendor-crowd'] } },
  },
  {
    Sid: 'AllowAWSServiceActions',
    Effect: 'Allow',
    Action: [
      'application-autoscaling:DeleteScalingPolicy', 'application-autoscaling:DeleteScheduledAction',
      'application-autoscaling:DeregisterScalableTarget', 'application-autoscaling:DescribeScalableTargets',
      'application-autoscaling:DescribeScalingActivities', 'application-autoscaling:DescribeScalingPolicies',
      'application-autoscaling:DescribeScheduledActions', 'application-autoscaling:PutScalingPolicy',
      'application-autoscaling:PutScheduledAction', 'application-autoscaling:RegisterScalableTarget',
      'aws-marketplace:ViewSubscriptions', 'cloudformation:GetTemplateSummary', 'cloudwatch:DeleteAlarms',
      'cloudwatch:DescribeAlarms', 'cloudwatch:GetMetricData', 'cloudwatch:GetMetricStatistics', 'cloudwatch:ListMetrics',
      'cloudwatch:PutMetricAlarm', 'cloudwatch:PutMetricData', 'codecommit:BatchGetRepositories',
      'codecommit:CreateRepository', 'codecommit:GetRepository', 'codecommit:List*', 'cognito-idp:AdminAddUserToGroup',
      'cognito-idp:AdminCreateUser', 'cognito-idp:AdminDeleteUser', 'cognito-idp:AdminDisableUser',
      'cognito-idp:AdminEnableUser', 'cognito-idp:AdminRemoveUserFromGroup', 'cognito-idp:CreateGroup',
      'cognito-idp:CreateUserPool', 'cognito-idp:CreateUserPoolClient', 'cognito-idp:CreateUserPoolDomain',
      'cognito-idp:DescribeUserPool', 'cognito-idp:DescribeUserPoolClient', 'cognito-idp:List*', 'cognito-idp:UpdateUserPool',
      'cognito-idp:UpdateUserPoolClient', 'ec2:CreateNetworkInterface', 'ec2:CreateNetworkInterfacePermission',
      'ec2:CreateVpcEndpoint', 'ec2:DeleteNetworkInterface', 'ec2:DeleteNetworkInterfacePermission', 'ec2:DescribeDhcpOptions',
      'ec2:DescribeNetworkInterfaces', 'ec2:DescribeRouteTables', 'ec2:DescribeSecurityGroups', 'ec2:DescribeSubnets',
      'ec2:DescribeVpcEndpoints', 'ec2:DescribeVpcs', 'ecr:BatchCheckLayerAvailability', 'ecr:BatchGetImage',
      'ecr:CreateRepository', 'ecr:Describe*', 'ecr:GetAuthorizationToken', 'ecr:GetDownloadUrlForLayer', 'ecr:StartImageScan',
      'elastic-inference:Connect', 'elasticfilesystem:DescribeFileSystems', 'elasticfilesystem:DescribeMountTargets',
      'fsx:DescribeFileSystems', 'glue:CreateJob', 'glue:DeleteJob', 'glue:GetJob*', 'glue:GetTable*', 'glue:GetWorkflowRun',
      'glue:ResetJobBookmark', 'glue:StartJobRun', 'glue:StartWorkflowRun', 'glue:UpdateJob', 'groundtruthlabeling:*',
      'iam:ListRoles', 'kms:DescribeKey', 'kms:ListAliases', 'lambda:ListFunctions', 'logs:CreateLogDelivery',
      'logs:CreateLogGroup', 'logs:CreateLogStream', 'logs:DeleteLogDelivery', 'logs:Describe*', 'logs:GetLogDelivery',
      'logs:GetLogEvents', 'logs:ListLogDeliveries', 'logs:PutLogEvents', 'logs:PutResourcePolicy', 'logs:UpdateLogDelivery',
      'robomaker:CreateSimulationApplication', 'robomaker:DescribeSimulationApplication',
      'robomaker:DeleteSimulationApplication', 'robomaker:CreateSimulationJob', 'robomaker:DescribeSimulationJob',
      'robomaker:CancelSimulationJob', 'secretsmanager:ListSecrets', 'servicecatalog:Describe*', 'servicecatalog:List*',
      'servicecatalog:ScanProvisionedProducts', 'servicecatalog:SearchProducts', 'servicecatalog:SearchProvisionedProducts',
      'sns:ListTopics', 'tag:GetResources',
    ],
    Resource: '*',
  },
  {
    Sid: 'AllowECRActions',
    Effect: 'Allow',
    Action: [
      'ecr:SetRepositoryPolicy', 'ecr:CompleteLayerUpload', 'ecr:BatchDeleteImage', 'ecr:UploadLayerPart',
      'ecr:DeleteRepositoryPolicy', 'ecr:InitiateLayerUpload', 'ecr:DeleteRepository', 'ecr:PutImage',
    ],
    Resource: ['arn:aws:ecr:*:*:repository/*sagemaker*'],
  },
  {
    Sid: 'AllowCodeCommitActions',
    Effect: 'Allow',
    Action: ['codecommit:GitPull', 'codecommit:GitPush'],
    Resource: ['arn:aws:codecommit:*:*:*sagemaker*', 'arn:aws:codecommit:*:*:*SageMaker*', 'arn:aws:codecommit:*:*:*Sagemaker*'],
  },
  {
    Sid: 'AllowCodeBuildActions',
    Action: ['codebuild:BatchGetBuilds', 'codebuild:StartBuild'],
    Resource: ['arn:aws:codebuild:*:*:project/sagemaker*', 'arn:aws:codebuild:*:*:build/*'],
    Effect: 'Allow',
  },
  {
    Sid: 'AllowStepFunctionsActions',
    Action: [
      'states:DescribeExecution', 'states:GetExecutionHistory', 'states:StartExecution', 'states:StopExecution',
      'states:UpdateStateMachine',
    ],
    Resource: ['arn:aws:states:*:*:statemachine:*sagemaker*', 'arn:aws:states:*:*:execution:*sagemaker*:*'],
    Effect: 'Allow',
  },
  {
    Sid: 'AllowSecretManagerActions',
    Effect: 'Allow',
    Action: ['secretsmanager:DescribeSecret', 'secretsmanager:GetSecretValue', 'secretsmanager:CreateSecret'],
    Resource: ['arn:aws:secretsmanager:*:*:secret:AmazonSageMaker-*'],
  },
  {
    Sid: 'AllowReadOnlySecretManagerActions',
    Effect: 'Allow',
    Action: ['secretsmanager:DescribeSecret', 'secretsmanager:GetSecretValue'],
    Resource: '*',
    Condition: { StringEquals: { 'secretsmanager:ResourceTag/SageMaker': 'true' } },
  },
  { Sid: 'AllowServiceCatalogProvisionProduct', Effect: 'Allow', Action: ['servicecatalog:ProvisionProduct'], Resource: '*' },
  {
    Sid: 'AllowServiceCatalogTerminateUpdateProvisionProduct',
    Effect: 'Allow',
    Action: ['servicecatalog:TerminateProvisionedProduct', 'servicecatalog:UpdateProvisionedProduct'],
    Resource: '*',
    Condition: { StringEquals: { 'servicecatalog:userLevel': 'self' } },
  },
  {
    Sid: 'AllowS3ObjectActions',
    Effect: 'Allow',
    Action: ['s3:GetObject', 's3:PutObject', 's3:DeleteObject', 's3:AbortMultipartUpload'],
    Resource: ['arn:aws:s3:::*SageMaker*', 'arn:aws:s3:::*Sagemaker*', 'arn:aws:s3:::*sagemaker*', 'arn:aws:s3:::*aws-glue*'],
  },
  {
    Sid: 'AllowS3GetObjectWithSageMakerExistingObjectTag',
    Effect: 'Allow',
    Action: ['s3:GetObject'],
    Resource: ['arn:aws:s3:::*'],
    Condition: { StringEqualsIgnoreCase: { 's3:ExistingObjectTag/SageMaker': 'true' } },
  },
  {
    Sid: 'AllowS3GetObjectWithServiceCatalogProvisioningExistingObjectTag',
    Effect: 'Allow',
    Action: ['s3:GetObject'],
    Resource: ['arn:aws:s3:::*'],
    Condition: { StringEquals: { 's3:ExistingObjectTag/servicecatalog:provisioning': 'true' } },
  },
  {
    Sid: 'AllowS3BucketActions',
    Effect: 'Allow',
    Action: ['s3:CreateBucket', 's3:GetBucketLocation', 's3:ListBucket', 's3:ListAllMyBuckets', 's3:GetBucketCors', 's3:PutBucketCors'],
    Resource: '*',
  },
  {
    Sid: 'AllowS3BucketACL',
    Effect: 'Allow',
    Action: ['s3:GetBucketAcl', 's3:PutObjectAcl'],
    Resource: ['arn:aws:s3:::*SageMaker*', 'arn:aws:s3:::*Sagemaker*', 'arn:aws:s3:::*sagemaker*'],
  },
  {
    Sid: 'AllowLambdaInvokeFunction',
    Effect: 'Allow',
    Action: ['lambda:InvokeFunction'],
    Resource: [
      'arn:aws:lambda:*:*:function:*SageMaker*', 'arn:aws:lambda:*:*:function:*sagemaker*',
      'arn:aws:lambda:*:*:function:*Sagemaker*', 'arn:aws:lambda:*:*:function:*LabelingFunction*',
    ],
  },
  {
    Sid: 'AllowCreateServiceLinkedRoleForSageMakerApplicationAutoscaling',
    Action: 'iam:CreateServiceLinkedRole',
    Effect: 'Allow',
    Resource: 'arn:aws:iam::*:role/aws-service-role/sagemaker.application-autoscaling.amazonaws.com/AWSServiceRoleForApplicationAutoScaling_SageMakerEndpoint',
    Condition: { StringLike: { 'iam:AWSServiceName': 'sagemaker.application-autoscaling.amazonaws.com' } },
  },
  {
    Sid: 'AllowCreateServiceLinkedRoleForRobomaker',
    Effect: 'Allow',
    Action: 'iam:CreateServiceLinkedRole',
    Resource: '*',
    Condition: { StringEquals: { 'iam:AWSServiceName': 'robomaker.amazonaws.com' } },
  },
  {
    Sid: 'AllowSNSActions',
    Effect: 'Allow',
    Action: ['sns:Subscribe', 'sns:CreateTopic', 'sns:Publish'],
    Resource: ['arn:aws:sns:*:*:*SageMaker*', 'arn:aws:sns:*:*:*Sagemaker*', 'arn:aws:sns:*:*:*sagemaker*'],
  },
  {
    Sid: 'AllowPassRoleForSageMakerRoles',
    Effect: 'Allow',
    Action: ['iam:PassRole'],
    Resource: 'arn:aws:iam::*:role/*AmazonSageMaker*',
    Condition: { StringEquals: { 'iam:PassedToService': ['glue.amazonaws.com', 'robomaker.amazonaws.com', 'states.amazonaws.com'] } },
  },
  {
    Sid: 'AllowPassRoleToSageMaker',
    Effect: 'Allow',
    Action: ['iam:PassRole'],
    Resource: 'arn:aws:iam::*:role/*',
    Condition: { StringEquals: { 'iam:PassedToService': 'sagemaker.amazonaws.com' } },
  },
  {
    Sid: 'AllowAthenaActions',
    Effect: 'Allow',
    Action: [
      'athena:ListDataCatalogs', 'athena:ListDatabases', 'athena:ListTableMetadata', 'athena:GetQueryExecution',
      'athena:GetQueryResults', 'athena:StartQueryExecution', 'athena:StopQueryExecution',
    ],
    Resource: ['*'],
  },
  {
    Sid: 'AllowGlueCreateTable',
    Effect: 'Allow',
    Action: ['glue:CreateTable'],
    Resource: [
      'arn:aws:glue:*:*:table/*/sagemaker_tmp_*', 'arn:aws:glue:*:*:table/sagemaker_featurestore/*',
      'arn:aws:glue:*:*:catalog', 'arn:aws:glue:*:*:database/*',
    ],
  },
  {
    Sid: 'AllowGlueUpdateTable',
    Effect: 'Allow',
    Action: ['glue:UpdateTable'],
    Resource: [
      'arn:aws:glue:*:*:table/sagemaker_featurestore/*', 'arn:aws:glue:*:*:catalog',
      'arn:aws:glue:*:*:database/sagemaker_featurestore',
    ],
  },
  {
    Sid: 'AllowGlueDeleteTable',
    Effect: 'Allow',
    Action: ['glue:DeleteTable'],
    Resource: ['arn:aws:glue:*:*:table/*/sagemaker_tmp_*', 'arn:aws:glue:*:*:catalog', 'arn:aws:glue:*:*:database/*'],
  },
  {
    Sid: 'AllowGlueGetTablesAndDatabases',
    Effect: 'Allow',
    Action: ['glue:GetDatabases', 'glue:GetTable', 'glue:GetTables'],
    Resource: ['arn:aws:glue:*:*:table/*', 'arn:aws:glue:*:*:catalog', 'arn:aws:glue:*:*:database/*'],
  },
  {
    Sid: 'AllowGlueGetAndCreateDatabase',
    Effect: 'Allow',
    Action: ['glue:CreateDatabase', 'glue:GetDatabase'],
    Resource: [
      'arn:aws:glue:*:*:catalog', 'arn:aws:glue:*:*:database/sagemaker_featurestore',
      'arn:aws:glue:*:*:database/sagemaker_processing', 'arn:aws:glue:*:*:database/default',
      'arn:aws:glue:*:*:database/sagemaker_data_wrangler',
    ],
  },
  {
    Sid: 'AllowRedshiftDataActions',
    Effect: 'Allow',
    Action: [
      'redshift-data:ExecuteStatement', 'redshift-data:DescribeStatement', 'redshift-data:CancelStatement',
      'redshift-data:GetStatementResult', 'redshift-data:ListSchemas', 'redshift-data:ListTables',
    ],
    Resource: ['*'],
  },
  {
    Sid: 'AllowRedshiftGetClusterCredentials',
    Effect: 'Allow',
    Action: ['redshift:GetClusterCredentials'],
    Resource: ['arn:aws:redshift:*:*:dbuser:*/sagemaker_access*', 'arn:aws:redshift:*:*:dbname:*'],
  },
  {
    Sid: 'AllowListTagsForUserProfile',
    Effect: 'Allow',
    Action: ['sagemaker:ListTags'],
    Resource: ['arn:aws:sagemaker:*:*:user-profile/*'],
  },
  {
    Sid: 'AllowCloudformationListStackResources',
    Effect: 'Allow',
    Action: ['cloudformation:ListStackResources'],
    Resource: 'arn:aws:cloudformation:*:*:stack/SC-*',
  },
  {
    Sid: 'AllowS3ExpressObjectActions',
    Effect: 'Allow',
    Action: ['s3express:CreateSession'],
    Resource: [
      'arn:aws:s3express:*:*:bucket/*SageMaker*', 'arn:aws:s3express:*:*:bucket/*Sagemaker*',
      'arn:aws:s3express:*:*:bucket/*sagemaker*', 'arn:aws:s3express:*:*:bucket/*aws-glue*',
    ],
    Condition: { StringEquals: { 'aws:ResourceAccount': '${aws:PrincipalAccount}' } },
  },
  {
    Sid: 'AllowS3ExpressCreateBucketActions',
    Effect: 'Allow',
    Action: ['s3express:CreateBucket'],
    Resource: [
      'arn:aws:s3express:*:*:bucket/*SageMaker*', 'arn:aws:s3express:*:*:bucket/*Sagemaker*',
      'arn:aws:s3express:*:*:bucket/*sagemaker*',
    ],
    Condition: { StringEquals: { 'aws:ResourceAccount': '${aws:PrincipalAccount}' } },
  },
  { Sid: 'AllowS3ExpressListBucketActions', Effect: 'Allow', Action: ['s3express:ListAllMyDirectoryBuckets'], Resource: '*' },
];

/** AmazonS3FullAccess v2 (2021-09-27). */
export const AmazonS3FullAccess: Statement[] = [{ Effect: 'Allow', Action: ['s3:*', 's3-object-lambda:*'], Resource: '*' }];

/** AmazonS3ReadOnlyAccess v3 (2023-08-10). */
export const AmazonS3ReadOnlyAccess: Statement[] = [
  {
    Effect: 'Allow',
    Action: ['s3:Get*', 's3:List*', 's3:Describe*', 's3-object-lambda:Get*', 's3-object-lambda:List*'],
    Resource: '*',
  },
];

/** AmazonSSMManagedInstanceCore v2 (2019-05-23). */
export const AmazonSSMManagedInstanceCore: Statement[] = [
  {
    Effect: 'Allow',
    Action: [
      'ssm:DescribeAssociation', 'ssm:GetDeployablePatchSnapshotForInstance', 'ssm:GetDocument', 'ssm:DescribeDocument',
      'ssm:GetManifest', 'ssm:GetParameter', 'ssm:GetParameters', 'ssm:ListAssociations', 'ssm:ListInstanceAssociations',
      'ssm:PutInventory', 'ssm:PutComplianceItems', 'ssm:PutConfigurePackageResult', 'ssm:UpdateAssociationStatus',
      'ssm:UpdateInstanceAssociationStatus', 'ssm:UpdateInstanceInformation',
    ],
    Resource: '*',
  },
  {
    Effect: 'Allow',
    Action: [
      'ssmmessages:CreateControlChannel', 'ssmmessages:CreateDataChannel', 'ssmmessages:OpenControlChannel',
      'ssmmessages:OpenDataChannel',
    ],
    Resource: '*',
  },
  {
    Effect: 'Allow',
    Action: [
      'ec2messages:AcknowledgeMessage', 'ec2messages:DeleteMessage', 'ec2messages:FailMessage', 'ec2messages:GetEndpoint',
      'ec2messages:GetMessages', 'ec2messages:SendReply',
    ],
    Resource: '*',
  },
];

/** CloudWatchAgentServerPolicy v3 (2024-02-06). */
export const CloudWatchAgentServerPolicy: Statement[] = [
  {
    Sid: 'CWACloudWatchServerPermissions',
    Effect: 'Allow',
    Action: [
      'cloudwatch:PutMetricData', 'ec2:DescribeVolumes', 'ec2:DescribeTags', 'logs:PutLogEvents', 'logs:PutRetentionPolicy',
      'logs:DescribeLogStreams', 'logs:DescribeLogGroups', 'logs:CreateLogStream', 'logs:CreateLogGroup',
      'xray:PutTraceSegments', 'xray:PutTelemetryRecords', 'xray:GetSamplingRules', 'xray:GetSamplingTargets',
      'xray:GetSamplingStatisticSummaries',
    ],
    Resource: '*',
  },
  {
    Sid: 'CWASSMServerPermissions',
    Effect: 'Allow',
    Action: ['ssm:GetParameter'],
    Resource: 'arn:aws:ssm:*:*:parameter/AmazonCloudWatch-*',
  },
];

/** AmazonFSxFullAccess v13 (2026-02-12). */
export const AmazonFSxFullAccess: Statement[] = [
  { Sid: 'ViewAWSDSDirectories', Effect: 'Allow', Action: ['ds:DescribeDirectories'], Resource: '*' },
  {
    Sid: 'FullAccessToFSx',
    Effect: 'Allow',
    Action: [
      'fsx:AssociateFileGateway', 'fsx:AssociateFileSystemAliases', 'fsx:CancelDataRepositoryTask', 'fsx:CopyBackup',
      'fsx:CopySnapshotAndUpdateVolume', 'fsx:CreateAndAttachS3AccessPoint', 'fsx:CreateBackup',
      'fsx:CreateDataRepositoryAssociation', 'fsx:CreateDataRepositoryTask', 'fsx:CreateFileCache', 'fsx:CreateFileSystem',
      'fsx:CreateFileSystemFromBackup', 'fsx:CreateSnapshot', 'fsx:CreateStorageVirtualMachine', 'fsx:CreateVolume',
      'fsx:CreateVolumeFromBackup', 'fsx:DetachAndDeleteS3AccessPoint', 'fsx:DeleteBackup',
      'fsx:DeleteDataRepositoryAssociation', 'fsx:DeleteFileCache', 'fsx:DeleteFileSystem', 'fsx:DeleteSnapshot',
      'fsx:DeleteStorageVirtualMachine', 'fsx:DeleteVolume', 'fsx:DescribeAssociatedFileGateways', 'fsx:DescribeBackups',
      'fsx:DescribeDataRepositoryAssociations', 'fsx:DescribeDataRepositoryTasks', 'fsx:DescribeFileCaches',
      'fsx:DescribeFileSystemAliases', 'fsx:DescribeFileSystems', 'fsx:DescribeS3AccessPointAttachments',
      'fsx:DescribeSharedVpcConfiguration', 'fsx:DescribeSnapshots', 'fsx:DescribeStorageVirtualMachines',
      'fsx:DescribeVolumes', 'fsx:DisassociateFileGateway', 'fsx:DisassociateFileSystemAliases', 'fsx:ListTagsForResource',
      'fsx:ManageBackupPrincipalAssociations', 'fsx:ReleaseFileSystemNfsV3Locks', 'fsx:RestoreVolumeFromSnapshot',
      'fsx:TagResource', 'fsx:UntagResource', 'fsx:UpdateDataRepositoryAssociation', 'fsx:UpdateFileCache',
      'fsx:UpdateFileSystem', 'fsx:UpdateSharedVpcConfiguration', 'fsx:UpdateSnapshot', 'fsx:UpdateStorageVirtualMachine',
      'fsx:UpdateVolume',
    ],
    Resource: '*',
  },
  {
    Sid: 'CreateSLRForFSx',
    Effect: 'Allow',
    Action: 'iam:CreateServiceLinkedRole',
    Resource: '*',
    Condition: { StringEquals: { 'iam:AWSServiceName': ['fsx.amazonaws.com'] } },
  },
  {
    Sid: 'CreateSLRForLustreS3Integration',
    Effect: 'Allow',
    Action: 'iam:CreateServiceLinkedRole',
    Resource: '*',
    Condition: { StringEquals: { 'iam:AWSServiceName': ['s3.data-source.lustre.fsx.amazonaws.com'] } },
  },
  {
    Sid: 'CreateLogsForFSxWindowsAuditLogs',
    Effect: 'Allow',
    Action: ['logs:CreateLogGroup', 'logs:CreateLogStream', 'logs:PutLogEvents'],
    Resource: ['arn:aws:logs:*:*:log-group:/aws/fsx/*'],
  },
  {
    Sid: 'WriteToAmazonKinesisDataFirehose',
    Effect: 'Allow',
    Action: ['firehose:PutRecord'],
    Resource: ['arn:aws:firehose:*:*:deliverystream/aws-fsx-*'],
  },
  {
    Sid: 'CreateTags',
    Effect: 'Allow',
    Action: ['ec2:CreateTags'],
    Resource: ['arn:aws:ec2:*:*:route-table/*'],
    Condition: {
      StringEquals: { 'aws:RequestTag/AmazonFSx': 'ManagedByAmazonFSx' },
      'ForAnyValue:StringEquals': { 'aws:CalledVia': ['fsx.amazonaws.com'] },
    },
  },
  {
    Sid: 'DescribeEC2VpcResources',
    Effect: 'Allow',
    Action: [
      'ec2:DescribeSecurityGroups', 'ec2:GetSecurityGroupsForVpc', 'ec2:DescribeSubnets', 'ec2:DescribeVpcs',
      'ec2:DescribeRouteTables',
    ],
    Resource: '*',
    Condition: { 'ForAnyValue:StringEquals': { 'aws:CalledVia': ['fsx.amazonaws.com'] } },
  },
  {
    Sid: 'ManageCrossAccountDataReplication',
    Effect: 'Allow',
    Action: ['fsx:PutResourcePolicy', 'fsx:GetResourcePolicy', 'fsx:DeleteResourcePolicy'],
    Resource: '*',
    Condition: { 'ForAnyValue:StringEquals': { 'aws:CalledVia': ['ram.amazonaws.com'] } },
  },
];

