import type { HyperPodGroupSpecification } from './hyperpod.js';

/** A HyperPod cluster's instance groups: UpdateCluster with whole group specifications, and BatchAddClusterNodes. */
export interface HyperPodGroupsPort {
  /** Creates or updates the given groups (full specifications); other groups are left alone. */
  putGroups(region: string, cluster: string, groups: HyperPodGroupSpecification[]): Promise<void>;
  deleteGroups(region: string, cluster: string, groupNames: string[]): Promise<void>;
  /** BatchAddClusterNodes (Continuous provisioning only); the client token makes a repeat harmless. */
  addNodes(
    region: string,
    cluster: string,
    groupName: string,
    count: number,
    clientToken: string,
  ): Promise<{ Failed?: Array<{ ErrorCode?: string; Message?: string }> }>;
}
