import { CloudError, InputError, PreconditionError } from '../errors.js';

/**
 * Which version of an EKS add-on a feature installs, and whether the cluster can take it: pure rules
 * over what DescribeAddonVersions offers for the cluster's Kubernetes version (the workflow,
 * src/workflows/addon-compatibility.ts, reads that), so a refusal comes before any call that
 * changes the cluster.
 */

/** One version DescribeAddonVersions offers for a Kubernetes version, newest first as EKS lists them. */
export interface OfferedAddonVersion {
  version: string;
  /** EKS's `compatibilities[].defaultVersion` for that Kubernetes version. */
  isDefault: boolean;
}

/**
 * The version asked for, when EKS offers it for the cluster's Kubernetes version; else the one EKS
 * marks default (the newest offered when EKS marks none).
 *
 * @throws InputError on `<feature>.version` when the asked version is not offered (the message lists those that are).
 * @throws CloudError when EKS offers no version of the add-on for that Kubernetes version at all.
 */
export function chooseAddonVersion(p: {
  feature: string;
  addonName: string;
  kubernetesVersion: string;
  asked?: string;
  offered: readonly OfferedAddonVersion[];
}): string {
  if (!p.offered.length) {
    throw new CloudError({
      service: 'eks',
      operation: 'DescribeAddonVersions',
      code: 'AddonVersionNotFound',
      message: `EKS offers no version of the ${p.addonName} add-on for Kubernetes ${p.kubernetesVersion}; the feature ${p.feature} cannot be installed on this cluster until EKS does (or the cluster is upgraded).`,
    });
  }
  if (p.asked !== undefined) {
    if (p.offered.some((o) => o.version === p.asked)) return p.asked;
    throw InputError.field(
      `${p.feature}.version`,
      `${p.asked} is not offered for ${p.addonName} on Kubernetes ${p.kubernetesVersion}; offered: ${p.offered.map((o) => `${o.version}${o.isDefault ? ' (default)' : ''}`).join(', ')}. Leave version out for the default.`,
    );
  }
  return (p.offered.find((o) => o.isDefault) ?? p.offered[0]!).version;
}

/** Authentication modes that carry EKS access entries. */
const ACCESS_ENTRY_MODES = new Set(['API', 'API_AND_CONFIG_MAP']);

/**
 * HyperPod's own add-ons (training operator, inference operator, observability, task governance)
 * run only on a cluster HyperPod can orchestrate, and HyperPod requires the EKS authentication mode
 * `API` or `API_AND_CONFIG_MAP`: its nodes join through `HYPERPOD_LINUX` access entries (AWS's
 * "EKS prerequisites for HyperPod"). DescribeAddonVersions does not say this, so it is written here.
 */
const needsAccessEntries = (addonName: string): boolean => addonName.startsWith('amazon-sagemaker-hyperpod-');

/**
 * Refuses an add-on whose needs the cluster's access configuration lacks. `authenticationMode`
 * absent (not read) is not judged.
 *
 * @throws PreconditionError naming the feature, with the command that fixes it.
 */
export function checkAddonAuthenticationMode(p: {
  feature: string;
  addonName: string;
  clusterName?: string;
  authenticationMode?: string;
}): void {
  if (
    p.authenticationMode === undefined ||
    !needsAccessEntries(p.addonName) ||
    ACCESS_ENTRY_MODES.has(p.authenticationMode)
  )
    return;
  const cluster = p.clusterName ?? '<eks-cluster>';
  throw new PreconditionError({
    message: `${p.feature}: the ${p.addonName} add-on needs the EKS cluster's authentication mode to be API or API_AND_CONFIG_MAP (HyperPod registers its nodes through access entries); it is ${p.authenticationMode}.`,
    problems: [
      {
        path: p.feature,
        message: `needs EKS authentication mode API or API_AND_CONFIG_MAP, not ${p.authenticationMode}`,
      },
    ],
    remedy: `aws eks update-cluster-config --name ${cluster} --access-config authenticationMode=API_AND_CONFIG_MAP (one way: it cannot be switched back to CONFIG_MAP)`,
  });
}
