import type { KubeObject } from './kube-object.js';
import { installOrder } from './features/graph.js';
import { kuberayOperatorManifests } from './features/install-pieces.js';
import { devicePluginManifests, healthMonitoringAgentManifests } from './features/node-agents.js';
import { addonNameOf, createClusterFeatures, HYPERPOD_NAMESPACE } from './features/registry.js';
import type { ManifestSetId } from './features/types.js';
import type { FeatureId } from './schemas/features.js';

/**
 * What a HyperPod-on-EKS cluster needs installed before HyperPod creates nodes (SPEC → dependency
 * reconciliation): the features create-cluster turns on (features/registry.ts → createClusterFeatures),
 * set by the features reconciler in create's dependencies phase, and the Kubernetes objects of the
 * manifest sets InstantStart pins (HyperPod's dependency chart; KubeRay's from install-pieces.ts).
 */

/** Add-ons every EKS cluster of ours gets in the eks phase, as AWS's HyperPod setup stack does (the last is the pod-identity-agent feature). */
export const BASE_EKS_ADDONS = ['vpc-cni', 'kube-proxy', 'coredns', addonNameOf('pod-identity-agent')!] as const;

export { HYPERPOD_NAMESPACE };
/**
 * The Kubernetes objects of a manifest set, in the order they are applied (removed in reverse). The
 * health-monitoring agent's image is per Region: a Region its chart lacks throws an InputError on `region`.
 */
export function featureManifests(set: ManifestSetId, region: string): KubeObject[] {
  switch (set) {
    case 'health-monitoring-agent':
      return healthMonitoringAgentManifests(HYPERPOD_NAMESPACE, region);
    case 'device-plugins':
      return devicePluginManifests();
    case 'kuberay-operator':
      return kuberayOperatorManifests();
  }
}

/**
 * The features create's dependencies phase sets, in install order: what create turns on but the pod
 * identity agent, which the eks-addons phase installs with EKS's base add-ons.
 */
export function createClusterDependencyFeatures(storage: { s3: boolean; fsx: boolean }): FeatureId[] {
  return installOrder(createClusterFeatures(storage).filter((id) => id !== 'pod-identity-agent'));
}
