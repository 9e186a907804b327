import { daemonSetManifest } from './kube/daemon-set.js';
import { namespaceManifest } from './kube/namespace.js';
import { serviceAccountManifest } from './kube/service-account.js';
import type { KubeObject } from './kube-object.js';
import { addonNameOf, featureDefinition, HYPERPOD_NAMESPACE } from './features/registry.js';
import type { FeatureId } from './schemas/features.js';

/**
 * What a HyperPod-on-EKS cluster needs installed before HyperPod creates nodes, in dependency order
 * (SPEC → dependency reconciliation). EKS add-ons come from EKS itself (their versions from
 * DescribeAddonVersions); the health-monitoring agent and device plugins are the Kubernetes objects
 * of HyperPod's dependency chart, applied with server-side apply.
 */
export type DependencyItem =
  | {
      id: string;
      title: string;
      kind: 'eks-addon';
      addonName: string;
      /** Pod identity: the role is created by us from `role` (see cluster-roles.ts). */
      podIdentity?: { serviceAccount: string; role: 'training-operator' | 's3-csi' };
    }
  | { id: string; title: string; kind: 'manifests'; objects: KubeObject[] };

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

/** The role builder (cluster-roles.ts) of each feature whose add-on create binds through pod identity. */
const POD_IDENTITY_ROLES: ReadonlyMap<FeatureId, 'training-operator' | 's3-csi'> = new Map([
  ['training-operator', 'training-operator'],
  ['s3-csi-driver', 's3-csi'],
]);

/** The create-cluster item of an add-on feature: its add-on and its pod identity, as the feature registry states them. */
function addonItem(id: FeatureId): DependencyItem {
  const feature = featureDefinition(id);
  const install = feature.installs.find((i) => i.kind === 'eks-addon');
  if (!install || install.kind !== 'eks-addon') throw new Error(`feature ${id} is not an EKS add-on`);
  const binding = feature.identities.flatMap((i) => (install.podIdentityAssociations?.includes(i.id) ? i.bindings : [])).find((b) => b.kind === 'pod-identity');
  const role = POD_IDENTITY_ROLES.get(id);
  if (Boolean(binding) !== Boolean(role)) throw new Error(`feature ${id}: its pod identity and its role builder disagree`);
  return {
    id,
    title: feature.title,
    kind: 'eks-addon',
    addonName: install.addonName,
    ...(binding && role ? { podIdentity: { serviceAccount: binding.serviceAccount, role } } : {}),
  };
}

const manifestsItem = (id: FeatureId, objects: KubeObject[]): DependencyItem => ({ id, title: featureDefinition(id).title, kind: 'manifests', objects });

/**
 * The items for a cluster, given what storage it asked for: the features create turns on
 * (features/registry.ts → createClusterFeatures) but the pod identity agent, which the eks-addons
 * phase installs with EKS's base add-ons. Kept in the order create has always installed them.
 */
export function clusterDependencies(options: { region: string; s3: boolean; fsx: boolean }): DependencyItem[] {
  const items: DependencyItem[] = [
    addonItem('cert-manager'),
    manifestsItem('health-monitoring-agent', healthMonitoringAgent(options.region)),
    manifestsItem('device-plugins', devicePlugins()),
    addonItem('training-operator'),
  ];
  if (options.s3) items.push(addonItem('s3-csi-driver'));
  if (options.fsx) items.push(addonItem('fsx-csi-driver'));
  return items;
}
