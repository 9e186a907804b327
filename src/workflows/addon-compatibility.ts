import { chooseAddonVersion, checkAddonAuthenticationMode } from '../domain/features/addon-version.js';
import type { WorkflowDeps } from './context.js';

/**
 * Checks, before any call that changes the cluster, that an add-on version works with the
 * cluster's Kubernetes version and authentication mode (DescribeAddonVersions), and picks the
 * version: the one asked for, else the default EKS marks for that Kubernetes version. The rules are
 * pure (src/domain/features/addon-version.ts); this reads what EKS offers.
 *
 * Throws InputError naming `<feature>.version` when the asked version is not offered for the
 * cluster; PreconditionError naming `<feature>` when the cluster's authentication mode cannot carry
 * the add-on; CloudError when the add-on has no version for the cluster's Kubernetes version.
 *
 * @example
 * const version = await resolveAddonVersion(deps, { region, feature: 'cert-manager', addonName: 'cert-manager',
 *   kubernetesVersion: cluster.version!, authenticationMode: cluster.accessConfig?.authenticationMode });
 */
export async function resolveAddonVersion(
  deps: WorkflowDeps,
  p: {
    region: string;
    feature: string;
    addonName: string;
    version?: string;
    kubernetesVersion: string;
    authenticationMode?: string;
  },
): Promise<string> {
  // The cluster's access configuration is known without a call: refuse before asking EKS anything.
  checkAddonAuthenticationMode({
    feature: p.feature,
    addonName: p.addonName,
    authenticationMode: p.authenticationMode,
  });
  const offered = await deps.cloud.eks.addonVersions(p.region, p.addonName, p.kubernetesVersion);
  return chooseAddonVersion({
    feature: p.feature,
    addonName: p.addonName,
    kubernetesVersion: p.kubernetesVersion,
    asked: p.version,
    offered,
  });
}
