import type { WorkflowDeps } from './context.js';

/**
 * Checks, before any call that changes the cluster, that an add-on version works with the
 * cluster's Kubernetes version and authentication mode (DescribeAddonVersions), and picks the
 * version: the one asked for, else the default EKS marks for that Kubernetes version.
 *
 * CONTRACT STUB (issue 16): the signature is fixed; the body is being built.
 * Throws InputError naming `<feature>.version` when the asked version is not offered for the
 * cluster; CloudError when the add-on has no version for the cluster's Kubernetes version.
 */
export async function resolveAddonVersion(
  _deps: WorkflowDeps,
  _p: { region: string; feature: string; addonName: string; version?: string; kubernetesVersion: string; authenticationMode?: string },
): Promise<string> {
  throw new Error('resolveAddonVersion is not built yet (issue 16)');
}
