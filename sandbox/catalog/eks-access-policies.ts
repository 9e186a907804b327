/**
 * EKS access policies (ListAccessPolicies): AWS-managed Kubernetes permission sets that access
 * entries of type STANDARD can be associated with. ARNs are global: `arn:aws:eks::aws:cluster-access-policy/<name>`.
 */
const NAMES = [
  'AmazonEKSAdminPolicy',
  'AmazonEKSAdminViewPolicy',
  'AmazonEKSAutoNodePolicy',
  'AmazonEKSBlockStorageClusterPolicy',
  'AmazonEKSClusterAdminPolicy',
  'AmazonEKSComputeClusterPolicy',
  'AmazonEKSEditPolicy',
  'AmazonEKSHybridPolicy',
  'AmazonEKSLoadBalancingClusterPolicy',
  'AmazonEKSNetworkingClusterPolicy',
  'AmazonEKSSecretReaderPolicy',
  'AmazonEKSViewPolicy',
] as const;

export const accessPolicyArn = (name: string) => `arn:aws:eks::aws:cluster-access-policy/${name}`;

export const EKS_ACCESS_POLICIES: { name: string; arn: string }[] = NAMES.map((name) => ({
  name,
  arn: accessPolicyArn(name),
}));

export const CLUSTER_ADMIN_POLICY_ARN = accessPolicyArn('AmazonEKSClusterAdminPolicy');

export function findAccessPolicy(policyArn: string): { name: string; arn: string } | undefined {
  return EKS_ACCESS_POLICIES.find((p) => p.arn === policyArn);
}
