import type { ProductPolicyStatement } from './product-policy.js';

/**
 * From what the product sends to the IAM actions AWS authorizes it with, and whether a policy's statements
 * name an action. Used by the proof over the product's calls (test/conformance/product-policy-calls.test.ts)
 * and by `instantstart doctor`.
 *
 * Only actions are matched: a statement's resources and conditions are not evaluated here (the proof shows
 * every call is granted by *some* statement; its scoping is reviewed by hand and simulated by IAM in doctor).
 */

/** The SDK client names the product's observer reports (src/cloud/aws/clients.ts) → the IAM service prefix. */
const SERVICE_PREFIX: Readonly<Record<string, string>> = {
  ec2: 'ec2',
  eks: 'eks',
  fsx: 'fsx',
  iam: 'iam',
  quotas: 'servicequotas',
  s3: 's3',
  sagemaker: 'sagemaker',
  'sagemaker-mlflow': 'sagemaker-mlflow',
  sts: 'sts',
  pricing: 'pricing',
};

/**
 * The operations whose IAM action is not `<prefix>:<Operation>` (AWS Service Authorization Reference,
 * "Actions, resources, and condition keys for Amazon S3": the API-operation-to-action table). Every other
 * operation the product calls is authorized by the action of its own name.
 */
export const ACTION_EXCEPTIONS: Readonly<Record<string, string>> = {
  's3:HeadBucket': 's3:ListBucket',
  's3:ListObjectsV2': 's3:ListBucket',
  's3:ListBuckets': 's3:ListAllMyBuckets',
  's3:DeleteObjects': 's3:DeleteObject',
  's3:HeadObject': 's3:GetObject',
  's3:DeleteBucketTagging': 's3:PutBucketTagging',
};

/** The IAM action one SDK operation needs: `iamActionOf('s3', 'HeadBucket')` → `s3:ListBucket`. */
export function iamActionOf(service: string, operation: string): string {
  const prefix = SERVICE_PREFIX[service];
  if (!prefix) throw new Error(`no IAM service prefix is known for the SDK client '${service}'`);
  const action = `${prefix}:${operation}`;
  return ACTION_EXCEPTIONS[action] ?? action;
}

/**
 * The actions AWS checks on a call besides its own (the Service Authorization Reference's "dependent
 * actions" and each service's tagging-on-create and PassRole rules): they are never a request of their own,
 * so no recording shows them; they are needed whenever the call that needs them is made.
 */
export const DEPENDENT_ACTIONS: Readonly<Record<string, readonly string[]>> = {
  // EC2 authorizes TagSpecifications as ec2:CreateTags (ec2:CreateAction = the create).
  'ec2:AllocateAddress': ['ec2:CreateTags'],
  'ec2:CreateInternetGateway': ['ec2:CreateTags'],
  'ec2:CreateNatGateway': ['ec2:CreateTags'],
  'ec2:CreateRouteTable': ['ec2:CreateTags'],
  'ec2:CreateSecurityGroup': ['ec2:CreateTags'],
  'ec2:CreateSubnet': ['ec2:CreateTags'],
  'ec2:CreateVpc': ['ec2:CreateTags'],
  'ec2:CreateVpcEndpoint': ['ec2:CreateTags'],
  // EKS: tags of a create need eks:TagResource; the cluster role is passed, the EKS service-linked role made once.
  'eks:CreateCluster': ['eks:TagResource', 'iam:PassRole', 'iam:CreateServiceLinkedRole'],
  'eks:CreateAddon': ['eks:TagResource', 'iam:PassRole'],
  'eks:CreatePodIdentityAssociation': ['eks:TagResource', 'iam:PassRole'],
  'eks:UpdatePodIdentityAssociation': ['iam:PassRole'],
  // SageMaker: Tags need sagemaker:AddTags; execution/autoscaling/server roles are passed; HyperPod makes its
  // service-linked role and the EKS access entries of its roles on the caller's behalf (assumed: ClusterMetadata).
  'sagemaker:CreateCluster': [
    'sagemaker:AddTags',
    'iam:PassRole',
    'iam:CreateServiceLinkedRole',
    'eks:CreateAccessEntry',
    'eks:DescribeAccessEntry',
    'eks:AssociateAccessPolicy',
  ],
  'sagemaker:UpdateCluster': ['iam:PassRole'],
  'sagemaker:DeleteCluster': ['eks:DeleteAccessEntry'],
  'sagemaker:CreateMlflowTrackingServer': ['sagemaker:AddTags', 'iam:PassRole'],
  // IAM: Tags of a create need the resource's tag action.
  'iam:CreateRole': ['iam:TagRole'],
  'iam:CreateOpenIDConnectProvider': ['iam:TagOpenIDConnectProvider'],
  // FSx: Tags need fsx:TagResource; FSx makes its service-linked role once.
  'fsx:CreateFileSystem': ['fsx:TagResource', 'iam:CreateServiceLinkedRole'],
};

/** Whether an action pattern (IAM's `*` and `?`, case-insensitive) matches an action. */
export function actionMatches(pattern: string, action: string): boolean {
  const re = new RegExp(
    `^${pattern
      .split('')
      .map((c) => (c === '*' ? '.*' : c === '?' ? '.' : c.replace(/[.+^${}()|[\]\\]/g, '\\$&')))
      .join('')}$`,
    'i',
  );
  return re.test(action);
}

/** The statements that name `action` (by action only; see the file's note). */
export function statementsGranting(
  statements: readonly ProductPolicyStatement[],
  action: string,
): ProductPolicyStatement[] {
  return statements.filter((s) => s.actions.some((p) => actionMatches(p, action)));
}

/** Every action the statements name, once, sorted. */
export function policyActions(statements: readonly ProductPolicyStatement[]): string[] {
  return [...new Set(statements.flatMap((s) => s.actions))].sort();
}
