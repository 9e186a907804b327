import {
  CreateClusterCommand,
  DeleteClusterCommand,
  DescribeClusterCommand,
  ListClustersCommand,
  ListTagsCommand,
  UpdateClusterCommand,
} from '@aws-sdk/client-sagemaker';
import type { HyperPodCluster, HyperPodClusterSpec, HyperPodPort } from '../ports.js';
import type { AwsClients } from './clients.js';
import { sagemakerGroupSpec } from './hyperpod-group-spec.js';
import { awsCall, hasCode } from './errors.js';

const NOT_FOUND = ['ResourceNotFound', 'ResourceNotFoundException'];

/** SageMaker HyperPod clusters orchestrated by EKS. */
export class HyperPodAdapter implements HyperPodPort {
  constructor(private readonly clients: AwsClients) {}

  async describe(region: string, name: string): Promise<HyperPodCluster | undefined> {
    try {
      return await awsCall('sagemaker', 'DescribeCluster', () =>
        this.clients.sagemaker(region).send(new DescribeClusterCommand({ ClusterName: name })),
      );
    } catch (err) {
      if (
        hasCode(err, ...NOT_FOUND) ||
        (hasCode(err, 'ValidationException') && /not (be )?found|does not exist/i.test((err as Error).message))
      )
        return undefined;
      throw err;
    }
  }

  /**
   * Automatic node recovery and Continuous provisioning always: recovery is the point of HyperPod,
   * and Continuous provisioning is what spot capacity and managed autoscaling require.
   */
  async create(region: string, spec: HyperPodClusterSpec): Promise<string> {
    const r = await awsCall('sagemaker', 'CreateCluster', () =>
      this.clients.sagemaker(region).send(
        new CreateClusterCommand({
          ClusterName: spec.name,
          Orchestrator: { Eks: { ClusterArn: spec.eksClusterArn } },
          InstanceGroups: spec.instanceGroups.map(sagemakerGroupSpec),
          VpcConfig: { Subnets: spec.subnetIds, SecurityGroupIds: spec.securityGroupIds },
          NodeRecovery: 'Automatic',
          NodeProvisioningMode: 'Continuous',
          Tags: Object.entries(spec.tags).map(([Key, Value]) => ({ Key, Value })),
        }),
      ),
    );
    return r.ClusterArn!;
  }

  async delete(region: string, name: string): Promise<void> {
    try {
      await awsCall('sagemaker', 'DeleteCluster', () =>
        this.clients.sagemaker(region).send(new DeleteClusterCommand({ ClusterName: name })),
      );
    } catch (err) {
      if (!hasCode(err, ...NOT_FOUND)) throw err;
    }
  }

  /** Every HyperPod cluster in the Region (all pages). */
  async list(region: string): Promise<Array<{ name: string; arn: string; status: string; createdAt?: Date }>> {
    const out: Array<{ name: string; arn: string; status: string; createdAt?: Date }> = [];
    let NextToken: string | undefined;
    do {
      const r = await awsCall('sagemaker', 'ListClusters', () =>
        this.clients.sagemaker(region).send(new ListClustersCommand({ NextToken, MaxResults: 100 })),
      );
      for (const c of r.ClusterSummaries ?? [])
        out.push({ name: c.ClusterName!, arn: c.ClusterArn!, status: c.ClusterStatus!, createdAt: c.CreationTime });
      NextToken = r.NextToken;
    } while (NextToken);
    return out;
  }

  async tags(region: string, arn: string): Promise<Record<string, string>> {
    const r = await awsCall('sagemaker', 'ListTags', () =>
      this.clients.sagemaker(region).send(new ListTagsCommand({ ResourceArn: arn })),
    );
    return Object.fromEntries((r.Tags ?? []).map((t) => [t.Key!, t.Value ?? '']));
  }

  /**
   * The ClusterRole goes with Enable only: HyperPod refuses to change it while autoscaling is on,
   * and Disable needs none.
   */
  async setAutoScaling(
    region: string,
    name: string,
    setting: { mode: 'Enable'; clusterRoleArn: string } | { mode: 'Disable' },
  ): Promise<void> {
    await awsCall('sagemaker', 'UpdateCluster', () =>
      this.clients.sagemaker(region).send(
        new UpdateClusterCommand({
          ClusterName: name,
          AutoScaling: {
            Mode: setting.mode,
            ...(setting.mode === 'Enable' ? { AutoScalerType: 'Karpenter' as const } : {}),
          },
          ...(setting.mode === 'Enable' ? { ClusterRole: setting.clusterRoleArn } : {}),
        }),
      ),
    );
  }

  /** Disable needs no percentage; Enable without one leaves HyperPod's default. */
  async setTieredStorage(
    region: string,
    name: string,
    setting: { mode: 'Enable'; instanceMemoryAllocationPercentage?: number } | { mode: 'Disable' },
  ): Promise<void> {
    await awsCall('sagemaker', 'UpdateCluster', () =>
      this.clients.sagemaker(region).send(
        new UpdateClusterCommand({
          ClusterName: name,
          TieredStorageConfig: {
            Mode: setting.mode,
            ...(setting.mode === 'Enable' && setting.instanceMemoryAllocationPercentage !== undefined
              ? { InstanceMemoryAllocationPercentage: setting.instanceMemoryAllocationPercentage }
              : {}),
          },
        }),
      ),
    );
  }
}
