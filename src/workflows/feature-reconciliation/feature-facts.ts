import type { EksCluster, HyperPodCluster } from '../../cloud/ports.js';
import { CloudError } from '../../domain/errors.js';
import { resourceNames, type ClusterResourceNames } from '../../domain/naming.js';
import { describeHyperPod, eksClusterOf } from '../cluster-access.js';
import type { WorkflowDeps } from '../context.js';
import type { FeatureClusterFacts } from '../feature-identities.js';

/**
 * The facts of one cluster its features are installed with: names (roles, buckets), the EKS cluster
 * and what add-on versions must fit (Kubernetes version, authentication mode), the HyperPod ARN.
 */
export interface FeatureFacts extends FeatureClusterFacts {
  accountId: string;
  kubernetesVersion: string;
  authenticationMode?: string;
  /** The inference operator's TLS certificate bucket: its name, whether made yet or not. */
  tlsBucket: string;
}

/** The bucket the inference operator keeps endpoints' TLS certificates in: the shared bucket's name + `-tls` (≤ 53 characters). */
export const tlsBucketName = (names: ClusterResourceNames): string => `${names.bucket}-tls`;

/**
 * Facts from the clusters as they are. `hyperpodClusterArn` is empty while the HyperPod cluster is
 * not made yet (create's dependencies come before it); no feature create installs needs it.
 */
export async function featureFacts(
  deps: WorkflowDeps,
  p: {
    region: string;
    cluster: string;
    accountId?: string;
    eks: EksCluster;
    hyperpodClusterArn?: string;
    sharedBucket?: string;
  },
): Promise<FeatureFacts> {
  const accountId = p.accountId ?? (await deps.cloud.accountId());
  const names = resourceNames(p.cluster, accountId, p.region);
  if (!p.eks.version)
    throw new CloudError({
      service: 'eks',
      operation: 'DescribeCluster',
      code: 'NoVersion',
      message: `EKS cluster ${p.eks.name} reports no Kubernetes version yet.`,
    });
  return {
    clusterName: p.cluster,
    region: p.region,
    accountId,
    eksClusterName: p.eks.name ?? names.eksCluster,
    hyperpodClusterArn: p.hyperpodClusterArn ?? '',
    kubernetesVersion: p.eks.version,
    ...(p.eks.accessConfig?.authenticationMode ? { authenticationMode: p.eks.accessConfig.authenticationMode } : {}),
    ...(p.sharedBucket ? { sharedBucket: p.sharedBucket } : {}),
    tlsBucket: tlsBucketName(names),
  };
}

/** The facts of an existing HyperPod cluster (404 naming it when it does not exist), with the HyperPod cluster as read. */
export async function existingClusterFacts(
  deps: WorkflowDeps,
  region: string,
  cluster: string,
): Promise<{ facts: FeatureFacts; hyperpod: HyperPodCluster }> {
  const hyperpod = await describeHyperPod(deps.cloud, region, cluster);
  const eksName = eksClusterOf(hyperpod);
  if (!eksName)
    throw new CloudError({
      service: 'sagemaker',
      operation: 'DescribeCluster',
      code: 'NotEksOrchestrated',
      message: `HyperPod cluster '${cluster}' is not orchestrated by EKS; its features cannot be managed.`,
    });
  const accountId = await deps.cloud.accountId();
  const names = resourceNames(cluster, accountId, region);
  const [eks, hasBucket] = await Promise.all([
    deps.cloud.eks.describeCluster(region, eksName),
    deps.cloud.storage.bucketExists(region, names.bucket),
  ]);
  if (!eks)
    throw new CloudError({
      service: 'eks',
      operation: 'DescribeCluster',
      code: 'ResourceNotFoundException',
      message: `EKS cluster ${eksName} of '${cluster}' does not exist.`,
    });
  const facts = await featureFacts(deps, {
    region,
    cluster,
    accountId,
    eks,
    hyperpodClusterArn: hyperpod.ClusterArn ?? '',
    ...(hasBucket ? { sharedBucket: names.bucket } : {}),
  });
  return { facts, hyperpod };
}
