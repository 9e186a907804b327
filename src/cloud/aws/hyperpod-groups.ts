import { BatchAddClusterNodesCommand, UpdateClusterCommand } from '@aws-sdk/client-sagemaker';
import type { HyperPodGroupSpecification, HyperPodGroupsPort } from '../ports.js';
import type { AwsClients } from './clients.js';
import { sagemakerGroupSpec } from './hyperpod-group-spec.js';
import { awsCall } from './errors.js';

/**
 * Instance-group changes through UpdateCluster: HyperPod takes the full specification of each group
 * it should create or change (unlisted groups are left alone) and the names of groups to delete.
 * BatchAddClusterNodes adds nodes to a group of a Continuous-mode cluster without restating it.
 */
export class HyperPodGroupsAdapter implements HyperPodGroupsPort {
  constructor(private readonly clients: AwsClients) {}

  /** Creates or updates the given groups (full specifications). */
  async putGroups(region: string, cluster: string, groups: HyperPodGroupSpecification[]): Promise<void> {
    await awsCall('sagemaker', 'UpdateCluster', () =>
      this.clients
        .sagemaker(region)
        .send(new UpdateClusterCommand({ ClusterName: cluster, InstanceGroups: groups.map(sagemakerGroupSpec) })),
    );
  }

  async deleteGroups(region: string, cluster: string, groupNames: string[]): Promise<void> {
    await awsCall('sagemaker', 'UpdateCluster', () =>
      this.clients
        .sagemaker(region)
        .send(new UpdateClusterCommand({ ClusterName: cluster, InstanceGroupsToDelete: groupNames })),
    );
  }

  /**
   * Adds `count` nodes to one group (Continuous provisioning only). The client token makes a repeat
   * of the same request within HyperPod's 8-hour window a no-op.
   */
  async addNodes(
    region: string,
    cluster: string,
    groupName: string,
    count: number,
    clientToken: string,
  ): ReturnType<HyperPodGroupsPort['addNodes']> {
    return awsCall('sagemaker', 'BatchAddClusterNodes', () =>
      this.clients.sagemaker(region).send(
        new BatchAddClusterNodesCommand({
          ClusterName: cluster,
          ClientToken: clientToken,
          NodesToAdd: [{ InstanceGroupName: groupName, IncrementTargetCountBy: count }],
        }),
      ),
    );
  }
}
