import { daemonSetManifest } from './kube/daemon-set.js';
import { namespaceManifest } from './kube/namespace.js';
import { serviceAccountManifest } from './kube/service-account.js';
import type { KubeObject } from './kube-object.js';
import { installOrder } from './features/graph.js';
import { kuberayOperatorManifests } from './features/install-pieces.js';
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
const HYPERPOD_NODES = { 'sagemaker.amazonaws.com/compute-type': 'HyperPod' };

const daemonSet = (namespace: string, name: string, image: string, extra: { serviceAccountName?: string; args?: string[] } = {}): KubeObject =>
  daemonSetManifest({ namespace, name, image, nodeSelector: HYPERPOD_NODES, ...extra });

function healthMonitoringAgent(region: string): KubeObject[] {
  return [
    namespaceManifest(HYPERPOD_NAMESPACE),
    serviceAccountManifest(HYPERPOD_NAMESPACE, 'health-monitoring-agent'),
    daemonSet(HYPERPOD_NAMESPACE, 'health-monitoring-agent', `905418368575.dkr.ecr.${region}.amazonaws.com/hyperpod-health-monitoring-agent:1.0.674.0_1.0.199.0`, {
      serviceAccountName: 'health-monitoring-agent',
      args: ['--enable-k8s-exporter=false', '--config.monitor=/config/system-message-monitor.json'],
    }),
  ];
}

function devicePlugins(): KubeObject[] {
  return [
    daemonSet('kube-system', 'nvidia-device-plugin-daemonset', 'nvcr.io/nvidia/k8s-device-plugin:v0.17.1'),
    daemonSet('kube-system', 'neuron-device-plugin', 'public.ecr.aws/neuron/neuron-device-plugin:2.23.30.0'),
    daemonSet('kube-system', 'aws-efa-k8s-device-plugin', '602401143452.dkr.ecr.us-west-2.amazonaws.com/eks/aws-efa-k8s-device-plugin:v0.5.6'),
  ];
}

/** The Kubernetes objects of a manifest set, in the order they are applied (removed in reverse). */
export function featureManifests(set: ManifestSetId, region: string): KubeObject[] {
  switch (set) {
    case 'health-monitoring-agent':
      return healthMonitoringAgent(region);
    case 'device-plugins':
      return devicePlugins();
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
