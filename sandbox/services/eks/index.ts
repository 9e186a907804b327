import { keyed } from '../../core/keyed.js';
import { restJsonErrors } from '../../core/error-styles.js';
import type { ServiceModule } from '../../core/service.js';
import type { SandboxState } from '../../core/store.js';
import {
  associateAccessPolicy,
  createAccessEntry,
  deleteAccessEntry,
  describeAccessEntry,
  disassociateAccessPolicy,
  listAccessEntries,
  listAccessPolicies,
  listAssociatedAccessPolicies,
  updateAccessEntry,
} from './access-entries.js';
import { describeAddonConfiguration, describeAddonVersions } from './addon-catalog.js';
import { createAddon, deleteAddon, describeAddon, listAddons, updateAddon } from './addons.js';
import { createCluster } from './cluster-create.js';
import { describeUpdate, listUpdates, updateClusterConfig } from './cluster-updates.js';
import { deleteCluster, describeCluster, describeClusterVersions, listClusters } from './clusters.js';
import {
  createPodIdentityAssociation,
  deletePodIdentityAssociation,
  describePodIdentityAssociation,
  listPodIdentityAssociations,
  updatePodIdentityAssociation,
} from './pod-identity.js';
import { EKS_ROUTES } from './routes.js';
import { eksRegions } from './state.js';
import { listTagsForResource, tagResource, untagResource } from './tags.js';
import { eksTick } from './tick.js';

/** Amazon EKS (restJson1): clusters, add-ons, access entries, pod identity associations. */
export const eks: ServiceModule = {
  signingName: 'eks',
  protocol: 'restJson1',
  errors: restJsonErrors('InvalidParameterException'),
  routes: EKS_ROUTES,
  operations: {
    CreateCluster: createCluster,
    DescribeCluster: describeCluster,
    ListClusters: listClusters,
    DeleteCluster: deleteCluster,
    DescribeClusterVersions: describeClusterVersions,
    UpdateClusterConfig: updateClusterConfig,
    DescribeUpdate: describeUpdate,
    ListUpdates: listUpdates,
    DescribeAddonVersions: describeAddonVersions,
    DescribeAddonConfiguration: describeAddonConfiguration,
    CreateAddon: createAddon,
    DescribeAddon: describeAddon,
    ListAddons: listAddons,
    UpdateAddon: updateAddon,
    DeleteAddon: deleteAddon,
    CreateAccessEntry: createAccessEntry,
    DescribeAccessEntry: describeAccessEntry,
    ListAccessEntries: listAccessEntries,
    UpdateAccessEntry: updateAccessEntry,
    DeleteAccessEntry: deleteAccessEntry,
    AssociateAccessPolicy: associateAccessPolicy,
    DisassociateAccessPolicy: disassociateAccessPolicy,
    ListAssociatedAccessPolicies: listAssociatedAccessPolicies,
    ListAccessPolicies: listAccessPolicies,
    CreatePodIdentityAssociation: createPodIdentityAssociation,
    DescribePodIdentityAssociation: describePodIdentityAssociation,
    ListPodIdentityAssociations: listPodIdentityAssociations,
    UpdatePodIdentityAssociation: updatePodIdentityAssociation,
    DeletePodIdentityAssociation: deletePodIdentityAssociation,
    TagResource: tagResource,
    UntagResource: untagResource,
    ListTagsForResource: listTagsForResource,
  },
  tick: eksTick,
  inventory: eksInventory,
};

/** Sandbox times of the create and of its completion: what `bench/` reads as the service's own time. */
function lifecycle(createdAt: number, activeAt: number | undefined): { createdAt: string; activeAt?: string } {
  return {
    createdAt: new Date(createdAt).toISOString(),
    ...(activeAt !== undefined ? { activeAt: new Date(activeAt).toISOString() } : {}),
  };
}

function eksInventory(state: SandboxState): Record<string, unknown[]> {
  const clusters: unknown[] = [];
  const addons: unknown[] = [];
  const accessEntries: unknown[] = [];
  const podIdentityAssociations: unknown[] = [];
  for (const [region, rs] of eksRegions(state)) {
    for (const c of keyed.values(rs.clusters)) {
      clusters.push({
        region,
        name: c.name,
        arn: c.arn,
        status: c.status,
        version: c.version,
        authenticationMode: c.authenticationMode,
        tags: c.tags,
        ...lifecycle(c.createdAt, c.activeAt),
      });
      for (const a of keyed.values(c.addons)) {
        addons.push({
          region,
          cluster: c.name,
          addonName: a.addonName,
          addonVersion: a.addonVersion,
          status: a.status,
          ...lifecycle(a.createdAt, a.activeAt),
        });
      }
      for (const e of keyed.values(c.accessEntries))
        accessEntries.push({
          region,
          cluster: c.name,
          principalArn: e.principalArn,
          type: e.type,
          policies: e.policies.map((p) => p.policyArn),
        });
      for (const p of keyed.values(c.podIdentityAssociations)) {
        podIdentityAssociations.push({
          region,
          cluster: c.name,
          associationId: p.associationId,
          namespace: p.namespace,
          serviceAccount: p.serviceAccount,
          roleArn: p.roleArn,
        });
      }
    }
  }
  return { clusters, addons, accessEntries, podIdentityAssociations };
}
