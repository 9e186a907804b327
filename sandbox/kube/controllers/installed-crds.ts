import type { KubeObject } from '../types.js';
import { ADDON_MANIFESTS } from './addon-manifests.js';
import { KARPENTER_CRDS } from './karpenter-crds.js';

/**
 * Every CustomResourceDefinition the sandbox installs by itself — its EKS add-ons' (each at a
 * current version: some add-ons bring CRDs only from a major version on) and HyperPod-managed
 * Karpenter's — so a checker can hold custom resources to them without running a cluster. CRDs the
 * product applies (KubeRay's) are not among them: those come from the product.
 */
export function sandboxInstalledCrds(): KubeObject[] {
  const params = {
    version: 'v2.0.0-eksbuild.1',
    namespace: 'kube-system',
    region: 'us-west-2',
    clusterDns: '10.100.0.10',
    configuration: {},
  };
  const all = [...Object.values(ADDON_MANIFESTS).flatMap((manifests) => manifests(params)), ...KARPENTER_CRDS];
  return all.filter((o) => o.kind === 'CustomResourceDefinition');
}
