/**
 * What SageMaker HyperPod requires of the EKS cluster it is to orchestrate, beyond the API checks of
 * services/sagemaker/checks.ts. This is the sandbox playing HyperPod: product code never sees it.
 */

/**
 * Kubernetes versions HyperPod supports. AWS documents them (no API reports them): "Getting started
 * with Amazon EKS support in SageMaker HyperPod" → Requirements → Kubernetes version support, 1.28 to
 * 1.34 on the newest copy of the page, read 2026-12-07
 * (https://docs.aws.amazon.com/sagemaker/latest/dg/sagemaker-hyperpod-eks-prerequisites.html).
 */
export const HYPERPOD_KUBERNETES_VERSIONS: readonly string[] = ['1.28', '1.29', '1.30', '1.31', '1.32', '1.33', '1.34'];

/**
 * The Kubernetes objects of HyperPod's dependencies Helm chart whose absence makes CreateCluster fail.
 * AWS's docs call the chart required ("Failure to configure your Amazon EKS cluster using the provided
 * Helm chart might result in … the creation process failing entirely", "Installing packages on the
 * Amazon EKS cluster using Helm"), and practitioners report the failure as "missing one or more
 * required dependencies"; which objects HyperPod looks for is not published. Assumed: the
 * health-monitoring agent (DaemonSet, its ServiceAccount and its ClusterRoleBinding, fixed names in the chart's
 * charts/health-monitoring-agent at aws/sagemaker-hyperpod-cli 011ca92) and one DaemonSet per device
 * plugin. The chart names the NVIDIA and EFA plugins after the Helm release
 * (`<release>-nvidia-device-plugin`, `<release>-aws-efa-k8s-device-plugin`), so a plugin is found by
 * that part of its name, in any namespace; only presence is checked, never the objects' contents.
 */
export interface RequiredDependency {
  /** How the refusal names it. */
  label: string;
  group: string;
  resource: string;
  kind: string;
  namespace?: string;
  /** The exact name, or a part every release's name contains. */
  name: { exact: string } | { contains: string };
}

export const HYPERPOD_REQUIRED_DEPENDENCIES: readonly RequiredDependency[] = [
  {
    label: 'DaemonSet aws-hyperpod/health-monitoring-agent',
    group: 'apps',
    resource: 'daemonsets',
    kind: 'DaemonSet',
    namespace: 'aws-hyperpod',
    name: { exact: 'health-monitoring-agent' },
  },
  {
    label: 'ServiceAccount aws-hyperpod/health-monitoring-agent',
    group: '',
    resource: 'serviceaccounts',
    kind: 'ServiceAccount',
    namespace: 'aws-hyperpod',
    name: { exact: 'health-monitoring-agent' },
  },
  {
    label: 'ClusterRoleBinding health-monitoring-agent',
    group: 'rbac.authorization.k8s.io',
    resource: 'clusterrolebindings',
    kind: 'ClusterRoleBinding',
    name: { exact: 'health-monitoring-agent' },
  },
  {
    label: 'the NVIDIA device plugin DaemonSet (*nvidia-device-plugin*)',
    group: 'apps',
    resource: 'daemonsets',
    kind: 'DaemonSet',
    name: { contains: 'nvidia-device-plugin' },
  },
  {
    label: 'the EFA device plugin DaemonSet (*aws-efa-k8s-device-plugin*)',
    group: 'apps',
    resource: 'daemonsets',
    kind: 'DaemonSet',
    name: { contains: 'aws-efa-k8s-device-plugin' },
  },
  {
    label: 'the Neuron device plugin DaemonSet (*neuron-device-plugin*)',
    group: 'apps',
    resource: 'daemonsets',
    kind: 'DaemonSet',
    name: { contains: 'neuron-device-plugin' },
  },
];
