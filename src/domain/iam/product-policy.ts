/**
 * The IAM policy InstantStart's own identity needs (issue 30): the one source of the deployed role's permissions.
 * `deploy/cloudformation.yaml`'s policy, docs/SECURITY.md's permissions table and `instantstart doctor`'s simulation
 * are all generated from these statements; test/conformance proves every AWS operation the product calls is allowed
 * here, and that nothing here is never called.
 *
 * CONTRACT (issue 30, helpers "policy" and "deploy"): the shape below is fixed; the "policy" helper fills
 * PRODUCT_POLICY from the calls the product makes (src/cloud/aws), scoped by tags and name prefixes where the
 * service supports it.
 */

/** One statement: what the product calls and why, on which resources, under which conditions. */
export interface ProductPolicyStatement {
  /** IAM statement id: letters and digits only (IAM's rule). */
  sid: string;
  /** What the product does with these actions, for the docs' permissions table. */
  why: string;
  /** IAM actions, `service:Action` (no wildcards in the action part). */
  actions: readonly string[];
  /** Resource ARNs or patterns; `*` only where the service has no resource-level permissions for the action. */
  resources: readonly string[];
  /** IAM condition block, e.g. `{ StringEquals: { 'aws:ResourceTag/instantstart.io/managed': 'true' } }`. */
  conditions?: Readonly<Record<string, Readonly<Record<string, string | readonly string[]>>>>;
}

/*
 * Scoping (AWS Service Authorization Reference, "Actions, resources, and condition keys for <service>"):
 * - What InstantStart creates carries `instantstart.io/managed-by=instantstart` (src/domain/naming.ts), so a create
 *   is allowed only with that tag in the request (`aws:RequestTag`) and a delete or change only on what carries it
 *   (`aws:ResourceTag`), where the action supports the key.
 * - IAM roles and S3 buckets are scoped by the names InstantStart gives them (`instantstart-*`,
 *   `SageMakerHyperPodInference-*`; `sagemaker-*`): S3 bucket actions take no `aws:ResourceTag`, and a name prefix
 *   also holds for a role before its tags are read.
 * - `*` only where the action has no resource type (EC2 Describe and List calls, most services' List calls, STS, Service
 *   Quotas' reads) — each such statement says so.
 * - Partition `aws` (commercial Regions); the account is left `*`: a role acts in its own account.
 * Reads of HyperPod and EKS clusters are not tag-scoped: the product lists and shows clusters it did not create
 * (src/capabilities/clusters/views.ts, `managedByInstantStart`), and acts on their instance groups, nodes and add-ons.
 */

/** The tag every resource InstantStart makes carries (src/domain/naming.ts TAG_MANAGED_BY / MANAGED_BY_VALUE). */
const MANAGED = { 'instantstart.io/managed-by': 'instantstart' } as const;
const requestTagged = {
  StringEquals: { 'aws:RequestTag/instantstart.io/managed-by': MANAGED['instantstart.io/managed-by'] },
};
const resourceTagged = {
  StringEquals: { 'aws:ResourceTag/instantstart.io/managed-by': MANAGED['instantstart.io/managed-by'] },
};

/** The roles InstantStart creates (src/domain/naming.ts resourceNames, features/registry.ts featureRoleName, training/mlflow-identity.ts). */
export const PRODUCT_ROLE_ARNS = [
  'arn:aws:iam::*:role/instantstart-*',
  'arn:aws:iam::*:role/SageMakerHyperPodInference-*',
];
/** The buckets InstantStart creates (src/domain/naming.ts resourceNames.bucket, storageBucketName). */
const BUCKETS = ['arn:aws:s3:::sagemaker-*'];
/** The AWS managed policies the product attaches to its roles (naming/registry: cluster, execution and feature roles). */
export const ATTACHED_MANAGED_POLICIES = [
  'arn:aws:iam::aws:policy/AmazonEKSClusterPolicy',
  'arn:aws:iam::aws:policy/AmazonSageMakerClusterInstanceRolePolicy',
  'arn:aws:iam::aws:policy/AmazonSageMakerHyperPodTrainingOperatorAccess',
  'arn:aws:iam::aws:policy/AmazonSageMakerHyperPodInferenceAccess',
  'arn:aws:iam::aws:policy/AmazonSageMakerHyperPodGatedModelAccess',
];
/** The services the product passes its roles to: EKS (cluster role), SageMaker (HyperPod execution and autoscaling roles, MLflow servers), EKS Pod Identity. */
export const PASSED_TO_SERVICES = ['eks.amazonaws.com', 'sagemaker.amazonaws.com', 'pods.eks.amazonaws.com'];

export const PRODUCT_POLICY: readonly ProductPolicyStatement[] = [
  {
    sid: 'WhoAmI',
    why: 'Knows which account and principal it acts as (the server info, the workspace per account).',
    actions: ['sts:GetCallerIdentity'],
    resources: ['*'],
  },
  {
    sid: 'PriceListRead',
    why: "Reads HyperPod, EKS, NAT gateway and FSx prices for a plan's hourly cost (the Price List API has no resource-level permissions).",
    actions: ['pricing:GetProducts'],
    resources: ['*'],
  },
  {
    sid: 'Ec2Read',
    why: "Reads the Region's zones, instance types and offerings and its Elastic IP limit, and finds the network it made by its tags (EC2 Describe* take no resource).",
    actions: [
      'ec2:DescribeAccountAttributes',
      'ec2:DescribeAddresses',
      'ec2:DescribeAvailabilityZones',
      'ec2:DescribeInstanceTypeOfferings',
      'ec2:DescribeInstanceTypes',
      'ec2:DescribeInternetGateways',
      'ec2:DescribeNatGateways',
      'ec2:DescribeNetworkInterfaces',
      'ec2:DescribeRegions',
      'ec2:DescribeRouteTables',
      'ec2:DescribeSecurityGroups',
      'ec2:DescribeSubnets',
      'ec2:DescribeTags',
      'ec2:DescribeVpcAttribute',
      'ec2:DescribeVpcEndpoints',
      'ec2:DescribeVpcs',
    ],
    resources: ['*'],
  },
  {
    sid: 'Ec2CreateTaggedNetwork',
    why: "Creates a cluster's VPC, subnets, gateways, route tables, security group, Elastic IP and S3 endpoint, each tagged at creation.",
    actions: [
      'ec2:AllocateAddress',
      'ec2:CreateInternetGateway',
      'ec2:CreateNatGateway',
      'ec2:CreateRouteTable',
      'ec2:CreateSecurityGroup',
      'ec2:CreateSubnet',
      'ec2:CreateVpc',
      'ec2:CreateVpcEndpoint',
    ],
    // The request's tags are checked for every resource the create touches (the new one and its VPC/subnet):
    // each create sends TagSpecifications with the managed-by tag (src/cloud/aws/network.ts).
    resources: ['*'],
    conditions: requestTagged,
  },
  {
    sid: 'Ec2TagOnCreate',
    why: 'Tags what it creates in the same call (EC2 authorizes TagSpecifications as ec2:CreateTags with ec2:CreateAction).',
    actions: ['ec2:CreateTags'],
    resources: ['*'],
    conditions: {
      StringEquals: {
        'ec2:CreateAction': [
          'AllocateAddress',
          'CreateInternetGateway',
          'CreateNatGateway',
          'CreateRouteTable',
          'CreateSecurityGroup',
          'CreateSubnet',
          'CreateVpc',
          'CreateVpcEndpoint',
        ],
      },
    },
  },
  {
    sid: 'Ec2ChangeOwnNetwork',
    why: 'Wires and tears down the network it made (routes, gateways, attributes, load-balancer subnet tags), only on resources tagged as its own.',
    actions: [
      'ec2:AssociateRouteTable',
      'ec2:AttachInternetGateway',
      'ec2:AuthorizeSecurityGroupEgress',
      'ec2:AuthorizeSecurityGroupIngress',
      'ec2:CreateRoute',
      'ec2:CreateTags',
      'ec2:DeleteInternetGateway',
      'ec2:DeleteNatGateway',
      'ec2:DeleteRouteTable',
      'ec2:DeleteSecurityGroup',
      'ec2:DeleteSubnet',
      'ec2:DeleteVpc',
      'ec2:DeleteVpcEndpoints',
      'ec2:DetachInternetGateway',
      'ec2:DisassociateRouteTable',
      'ec2:ModifySubnetAttribute',
      'ec2:ModifyVpcAttribute',
      'ec2:ReleaseAddress',
    ],
    resources: ['*'],
    conditions: resourceTagged,
  },
  {
    sid: 'EksRead',
    why: 'Reads EKS clusters, Kubernetes versions, add-ons and pod identity associations (ListClusters, DescribeAddonVersions and DescribeClusterVersions take no resource).',
    actions: [
      'eks:DescribeAddon',
      'eks:DescribeAddonVersions',
      'eks:DescribeCluster',
      'eks:DescribeClusterVersions',
      'eks:DescribePodIdentityAssociation',
      'eks:ListClusters',
      'eks:ListPodIdentityAssociations',
    ],
    resources: ['*'],
  },
  {
    sid: 'EksCreateTaggedCluster',
    why: "Creates a cluster's EKS cluster, tagged at creation.",
    actions: ['eks:CreateCluster'],
    resources: ['arn:aws:eks:*:*:cluster/*'],
    conditions: requestTagged,
  },
  {
    sid: 'EksTagOnCreate',
    why: 'Tags the EKS clusters, add-ons and pod identity associations it creates (EKS checks eks:TagResource for the tags of a create).',
    actions: ['eks:TagResource'],
    resources: [
      'arn:aws:eks:*:*:cluster/*',
      'arn:aws:eks:*:*:addon/*/*/*',
      'arn:aws:eks:*:*:podidentityassociation/*/*',
    ],
    conditions: requestTagged,
  },
  {
    sid: 'EksDeleteOwnCluster',
    why: 'Deletes the EKS clusters it made, only those tagged as its own.',
    actions: ['eks:DeleteCluster'],
    resources: ['arn:aws:eks:*:*:cluster/*'],
    conditions: resourceTagged,
  },
  {
    sid: 'EksAddonsAndIdentities',
    why: 'Installs, updates and removes add-ons (CSI drivers, operators) and pod identity associations on the clusters it manages, its own or existing ones.',
    actions: [
      'eks:CreateAddon',
      'eks:CreatePodIdentityAssociation',
      'eks:DeleteAddon',
      'eks:UpdateAddon',
      'eks:UpdatePodIdentityAssociation',
    ],
    resources: [
      'arn:aws:eks:*:*:cluster/*',
      'arn:aws:eks:*:*:addon/*/*/*',
      'arn:aws:eks:*:*:podidentityassociation/*/*',
    ],
  },
  {
    sid: 'EksAccessForHyperPod',
    why: "HyperPod's CreateCluster makes EKS access entries for its roles on the caller's behalf (ClusterMetadata.EksRoleAccessEntries), which needs these on the caller (assumed).",
    actions: ['eks:AssociateAccessPolicy', 'eks:CreateAccessEntry', 'eks:DeleteAccessEntry', 'eks:DescribeAccessEntry'],
    resources: ['arn:aws:eks:*:*:cluster/*', 'arn:aws:eks:*:*:access-entry/*/*/*/*/*'],
  },
  {
    sid: 'HyperPodRead',
    why: 'Reads HyperPod clusters, their nodes and events, tags and training plans (ListClusters and ListTrainingPlans take no resource).',
    actions: [
      'sagemaker:DescribeCluster',
      'sagemaker:DescribeClusterNode',
      'sagemaker:DescribeTrainingPlan',
      'sagemaker:ListClusterEvents',
      'sagemaker:ListClusterNodes',
      'sagemaker:ListClusters',
      'sagemaker:ListTags',
      'sagemaker:ListTrainingPlans',
    ],
    resources: ['*'],
  },
  {
    sid: 'HyperPodCreateTagged',
    why: 'Creates HyperPod clusters and MLflow tracking servers tagged at creation (sagemaker:AddTags is what SageMaker checks for the Tags of a create).',
    actions: ['sagemaker:AddTags', 'sagemaker:CreateCluster', 'sagemaker:CreateMlflowTrackingServer'],
    resources: ['arn:aws:sagemaker:*:*:cluster/*', 'arn:aws:sagemaker:*:*:mlflow-tracking-server/*'],
    conditions: requestTagged,
  },
  {
    sid: 'HyperPodChangeClusters',
    why: 'Changes instance groups, autoscaling and nodes (add, delete, reboot, replace, deep health checks) of the clusters it shows.',
    actions: [
      'sagemaker:BatchAddClusterNodes',
      'sagemaker:BatchDeleteClusterNodes',
      'sagemaker:BatchRebootClusterNodes',
      'sagemaker:BatchReplaceClusterNodes',
      'sagemaker:StartClusterHealthCheck',
      'sagemaker:UpdateCluster',
    ],
    resources: ['arn:aws:sagemaker:*:*:cluster/*'],
  },
  {
    sid: 'HyperPodDeleteOwn',
    why: 'Deletes the HyperPod clusters and MLflow tracking servers it made, only those tagged as its own.',
    actions: ['sagemaker:DeleteCluster', 'sagemaker:DeleteMlflowTrackingServer'],
    resources: ['arn:aws:sagemaker:*:*:cluster/*', 'arn:aws:sagemaker:*:*:mlflow-tracking-server/*'],
    conditions: resourceTagged,
  },
  {
    sid: 'MlflowRead',
    why: 'Lists and describes MLflow tracking servers (ListMlflowTrackingServers takes no resource).',
    actions: ['sagemaker:DescribeMlflowTrackingServer', 'sagemaker:ListMlflowTrackingServers'],
    resources: ['*'],
  },
  {
    sid: 'MlflowMetrics',
    why: "Reads a training job's experiment, runs and metric history from its MLflow tracking server (signed REST calls, src/cloud/aws/mlflow.ts).",
    actions: [
      'sagemaker-mlflow:GetExperimentByName',
      'sagemaker-mlflow:GetMetricHistory',
      'sagemaker-mlflow:SearchRuns',
    ],
    resources: ['arn:aws:sagemaker:*:*:mlflow-tracking-server/*'],
  },
  {
    sid: 'IamReadRoles',
    why: 'Finds its roles and OIDC providers (ListRoles and ListOpenIDConnectProviders take no resource).',
    actions: ['iam:ListOpenIDConnectProviders', 'iam:ListRoles'],
    resources: ['*'],
  },
  {
    sid: 'IamSimulateOwnRoles',
    why: "`instantstart doctor` asks IAM's policy simulator whether its own role holds this policy (the deployed role is named `instantstart-*`: assumed, deploy/cloudformation.yaml names it).",
    actions: ['iam:SimulatePrincipalPolicy'],
    resources: PRODUCT_ROLE_ARNS,
  },
  {
    sid: 'IamOwnRoles',
    why: 'Creates, reads, changes and deletes the roles it makes for clusters, features and MLflow, only by their names.',
    actions: [
      'iam:CreateRole',
      'iam:DeleteRole',
      'iam:DeleteRolePolicy',
      'iam:GetRole',
      'iam:GetRolePolicy',
      'iam:ListAttachedRolePolicies',
      'iam:ListRolePolicies',
      'iam:ListRoleTags',
      'iam:PutRolePolicy',
      'iam:TagRole',
      'iam:UpdateAssumeRolePolicy',
    ],
    resources: PRODUCT_ROLE_ARNS,
  },
  {
    sid: 'IamAttachKnownPolicies',
    why: 'Attaches to and detaches from its roles only the AWS managed policies the product names.',
    actions: ['iam:AttachRolePolicy', 'iam:DetachRolePolicy'],
    resources: PRODUCT_ROLE_ARNS,
    conditions: { ArnEquals: { 'iam:PolicyARN': ATTACHED_MANAGED_POLICIES } },
  },
  {
    sid: 'IamPassOwnRoles',
    why: 'Passes only its own roles, only to EKS, SageMaker and EKS Pod Identity.',
    actions: ['iam:PassRole'],
    resources: PRODUCT_ROLE_ARNS,
    conditions: { StringEquals: { 'iam:PassedToService': PASSED_TO_SERVICES } },
  },
  {
    sid: 'IamOidcProviders',
    why: "Registers, reads and removes the cluster's OIDC provider for features that use IAM roles for service accounts.",
    actions: [
      'iam:CreateOpenIDConnectProvider',
      'iam:DeleteOpenIDConnectProvider',
      'iam:GetOpenIDConnectProvider',
      'iam:TagOpenIDConnectProvider',
    ],
    resources: ['arn:aws:iam::*:oidc-provider/oidc.eks.*.amazonaws.com/id/*'],
  },
  {
    sid: 'IamServiceLinkedRoles',
    why: 'Lets EKS, HyperPod and FSx create their service-linked roles the first time the account uses them.',
    actions: ['iam:CreateServiceLinkedRole'],
    resources: ['*'],
    conditions: {
      StringEquals: {
        'iam:AWSServiceName': ['eks.amazonaws.com', 'sagemaker.amazonaws.com', 'fsx.amazonaws.com'],
      },
    },
  },
  {
    sid: 'S3ListBuckets',
    why: 'Finds the buckets it made by their tags (ListAllMyBuckets takes no resource).',
    actions: ['s3:ListAllMyBuckets'],
    resources: ['*'],
  },
  {
    sid: 'S3OwnBuckets',
    why: "Creates, tags, empties and deletes the clusters' and storages' buckets, only by their `sagemaker-` names.",
    actions: ['s3:CreateBucket', 's3:DeleteBucket', 's3:GetBucketTagging', 's3:ListBucket', 's3:PutBucketTagging'],
    resources: BUCKETS,
  },
  {
    sid: 'S3EmptyOwnBuckets',
    why: 'Deletes the objects of a bucket it made before deleting the bucket.',
    actions: ['s3:DeleteObject'],
    resources: BUCKETS.map((b) => `${b}/*`),
  },
  {
    sid: 'FsxRead',
    why: 'Finds the file systems it made (DescribeFileSystems takes no resource-level scoping of the list).',
    actions: ['fsx:DescribeFileSystems'],
    resources: ['*'],
  },
  {
    sid: 'FsxCreateTagged',
    why: 'Creates FSx for Lustre file systems tagged at creation (fsx:TagResource is checked for the Tags of a create).',
    actions: ['fsx:CreateFileSystem', 'fsx:TagResource'],
    resources: ['arn:aws:fsx:*:*:file-system/*'],
    conditions: requestTagged,
  },
  {
    sid: 'FsxChangeOwn',
    why: 'Tags (kept storage), untags and deletes the file systems it made, only those tagged as its own.',
    actions: ['fsx:DeleteFileSystem', 'fsx:TagResource', 'fsx:UntagResource'],
    resources: ['arn:aws:fsx:*:*:file-system/*'],
    conditions: resourceTagged,
  },
  {
    sid: 'ServiceQuotas',
    why: "Reads the account's quotas for the instance types a cluster asks for (assumed: no resource-level scoping for these reads).",
    actions: [
      'servicequotas:GetServiceQuota',
      'servicequotas:ListAWSDefaultServiceQuotas',
      'servicequotas:ListServiceQuotas',
    ],
    resources: ['*'],
  },
];

/** An IAM policy document of the statements (what CloudFormation's `PolicyDocument` and IAM take). */
export interface PolicyDocument {
  Version: '2012-10-17';
  Statement: {
    Sid: string;
    Effect: 'Allow';
    Action: string[];
    Resource: string[];
    Condition?: Record<string, Record<string, string | string[]>>;
  }[];
}

export function productPolicyDocument(statements: readonly ProductPolicyStatement[] = PRODUCT_POLICY): PolicyDocument {
  return {
    Version: '2012-10-17',
    Statement: statements.map((s) => ({
      Sid: s.sid,
      Effect: 'Allow',
      Action: [...s.actions],
      Resource: [...s.resources],
      ...(s.conditions
        ? {
            Condition: Object.fromEntries(
              Object.entries(s.conditions).map(([op, kv]) => [
                op,
                Object.fromEntries(Object.entries(kv).map(([k, v]) => [k, typeof v === 'string' ? v : [...v]])),
              ]),
            ),
          }
        : {}),
    })),
  };
}
