import { daemonSetManifest } from './kube/daemon-set.js';
import { namespaceManifest } from './kube/namespace.js';
import { serviceAccountManifest } from './kube/service-account.js';
import type { KubeObject } from './kube-object.js';

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

/** Add-ons every EKS cluster of ours gets in the eks phase, as AWS's HyperPod setup stack does. */
export const BASE_EKS_ADDONS = ['vpc-cni', 'kube-proxy', 'coredns', 'eks-pod-identity-agent'] as const;

export const HYPERPOD_NAMESPACE = 'aws-hyperpod';
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

/** The items for a cluster, given what storage it asked for. */
export function clusterDependencies(options: { region: string; s3: boolean; fsx: boolean }): DependencyItem[] {
  const items: DependencyItem[] = [
    { id: 'cert-manager', title: 'cert-manager', kind: 'eks-addon', addonName: 'cert-manager' },
    { id: 'health-monitoring-agent', title: 'HyperPod health-monitoring agent', kind: 'manifests', objects: healthMonitoringAgent(options.region) },
    { id: 'device-plugins', title: 'Device plugins (NVIDIA GPU, Neuron, EFA)', kind: 'manifests', objects: devicePlugins() },
    {
      id: 'training-operator',
      title: 'HyperPod training operator',
      kind: 'eks-addon',
      addonName: 'amazon-sagemaker-hyperpod-training-operator',
      podIdentity: { serviceAccount: 'hp-training-operator-controller-manager', role: 'training-operator' },
    },
  ];
  if (options.s3) {
    items.push({
      id: 's3-csi-driver',
      title: 'Mountpoint for Amazon S3 CSI driver',
      kind: 'eks-addon',
      addonName: 'aws-mountpoint-s3-csi-driver',
      podIdentity: { serviceAccount: 's3-csi-driver-sa', role: 's3-csi' },
    });
  }
  if (options.fsx) items.push({ id: 'fsx-csi-driver', title: 'Amazon FSx for Lustre CSI driver', kind: 'eks-addon', addonName: 'aws-fsx-csi-driver' });
  return items;
}
