/**
 * Facts read from HyperPod's dependencies chart and the charts it pulls in, as data: the images, the
 * image account of each Region, and the instance types each node agent is scheduled on. Written from:
 *
 * - `aws/sagemaker-hyperpod-cli` · `helm_chart/HyperPodHelmChart` · 011ca92 (2026-06-22): `values.yaml`
 *   (the device plugins' affinity and tolerations), `charts/health-monitoring-agent/templates/`
 *   (`_helpers.tpl`: the Region → ECR account map and the default tag; the two DaemonSets' affinity),
 *   `charts/neuron-device-plugin/templates/` (image, affinity), `Chart.yaml` (the NVIDIA chart 0.16.1
 *   and the EFA chart 0.5.20 it depends on);
 * - `NVIDIA/k8s-device-plugin` · `deployments/helm/nvidia-device-plugin` · v0.16.1 (image tag = appVersion);
 * - `aws/eks-charts` · `stable/aws-efa-k8s-device-plugin` · chart 0.5.20 (de5fdc1, appVersion v0.5.13).
 */

/** Where the lists below come from, for comments and answers that name their source. */
export const HYPERPOD_CHART_SOURCE = 'aws/sagemaker-hyperpod-cli helm_chart/HyperPodHelmChart @ 011ca92';

/** The health-monitoring agent's image tag (charts/health-monitoring-agent/templates/_helpers.tpl, default imageTag). */
export const HEALTH_AGENT_TAG = '1.0.1892.0_1.0.424.0';

/**
 * The ECR account holding the health-monitoring agent's image in each Region (the chart's
 * `regionAccountMap`). The chart falls back to us-east-1 for a Region it lacks; we refuse instead
 * (a cross-Region pull from a guessed account is not something to find out on a real account).
 */
const HEALTH_AGENT_ACCOUNTS: ReadonlyMap<string, string> = new Map([
  ['us-east-1', '767398015722'],
  ['us-west-2', '905418368575'],
  ['us-east-2', '851725546812'],
  ['us-west-1', '011528288828'],
  ['eu-central-1', '211125453373'],
  ['eu-north-1', '654654141839'],
  ['eu-west-1', '533267293120'],
  ['eu-west-2', '011528288831'],
  ['eu-south-2', '626887787726'],
  ['ap-northeast-1', '533267052152'],
  ['ap-south-1', '011528288864'],
  ['ap-southeast-1', '905418428165'],
  ['ap-southeast-2', '851725636348'],
  ['ap-southeast-3', '971422672635'],
  ['ap-southeast-4', '084375568333'],
  ['ca-central-1', '843976229209'],
  ['sa-east-1', '025066253954'],
]);

/** The Regions the chart has an agent image for, in the chart's order. */
export const HEALTH_AGENT_REGIONS: readonly string[] = [...HEALTH_AGENT_ACCOUNTS.keys()];

/** The agent's image in `region`, or undefined when the chart names no account there. */
export function healthAgentImage(region: string): string | undefined {
  const account = HEALTH_AGENT_ACCOUNTS.get(region);
  return account
    ? `${account}.dkr.ecr.${region}.amazonaws.com/hyperpod-health-monitoring-agent:${HEALTH_AGENT_TAG}`
    : undefined;
}

/** NVIDIA chart 0.16.1: `nvcr.io/nvidia/k8s-device-plugin` tagged `v<appVersion>`. */
export const NVIDIA_DEVICE_PLUGIN_IMAGE = 'nvcr.io/nvidia/k8s-device-plugin:v0.16.1';
/** charts/neuron-device-plugin/templates/k8s-neuron-device-plugin.yaml. */
export const NEURON_DEVICE_PLUGIN_IMAGE = 'public.ecr.aws/neuron/neuron-device-plugin:2.19.16.0';
/**
 * EFA chart 0.5.20 (appVersion v0.5.13). The chart names EKS's us-west-2 registry whatever the
 * Region (it has no per-Region map); the image is pulled from there, as the chart does.
 */
export const EFA_DEVICE_PLUGIN_IMAGE =
  '602401143452.dkr.ecr.us-west-2.amazonaws.com/eks/aws-efa-k8s-device-plugin:v0.5.13';

/** values.yaml → nvidia-device-plugin.affinity: the NVIDIA GPU types. */
export const NVIDIA_PLUGIN_INSTANCE_TYPES: readonly string[] = [
  ...['xlarge', '2xlarge', '4xlarge', '8xlarge', '12xlarge', '16xlarge', '24xlarge', '48xlarge'].map(
    (s) => `ml.g5.${s}`,
  ),
  ...['xlarge', '2xlarge', '4xlarge', '8xlarge', '16xlarge', '12xlarge', '24xlarge', '48xlarge'].map(
    (s) => `ml.g6.${s}`,
  ),
  ...['xlarge', '2xlarge', '4xlarge', '8xlarge', '12xlarge', '16xlarge', '24xlarge', '48xlarge'].map(
    (s) => `ml.g6e.${s}`,
  ),
  ...['2xlarge', '4xlarge', '8xlarge', '12xlarge', '24xlarge', '48xlarge'].map((s) => `ml.g7e.${s}`),
  'ml.gr6.4xlarge',
  'ml.gr6.8xlarge',
  'ml.p4d.24xlarge',
  'ml.p4de.24xlarge',
  'ml.p5.4xlarge',
  'ml.p5.48xlarge',
  'ml.p5e.48xlarge',
  'ml.p5en.48xlarge',
  'ml.p6-b200.48xlarge',
  'ml.p6-b300.48xlarge',
  'ml.p6e-gb200.36xlarge',
];

/** charts/neuron-device-plugin: the Inferentia and Trainium types (the EC2 names are in the chart's list too). */
export const NEURON_PLUGIN_INSTANCE_TYPES: readonly string[] = [
  ...[
    'inf1.xlarge',
    'inf1.2xlarge',
    'inf1.6xlarge',
    'inf1.24xlarge',
    'inf2.xlarge',
    'inf2.8xlarge',
    'inf2.24xlarge',
    'inf2.48xlarge',
  ],
  ...['trn1.2xlarge', 'trn1.32xlarge', 'trn1n.32xlarge'],
  ...['ml.inf2.xlarge', 'ml.inf2.8xlarge', 'ml.inf2.24xlarge', 'ml.inf2.48xlarge'],
  ...['ml.trn1.2xlarge', 'ml.trn1.32xlarge', 'ml.trn1n.32xlarge', 'ml.trn2.48xlarge'],
];

/** values.yaml → aws-efa-k8s-device-plugin.supportedInstanceLabels: the EFA-capable HyperPod types. */
export const EFA_PLUGIN_INSTANCE_TYPES: readonly string[] = [
  'ml.c5n.9xlarge',
  'ml.c5n.18xlarge',
  ...['8xlarge', '12xlarge', '16xlarge', '24xlarge', '48xlarge'].map((s) => `ml.g5.${s}`),
  ...['8xlarge', '12xlarge', '16xlarge', '24xlarge', '48xlarge'].map((s) => `ml.g6.${s}`),
  ...['8xlarge', '12xlarge', '16xlarge', '24xlarge', '48xlarge'].map((s) => `ml.g6e.${s}`),
  ...['8xlarge', '12xlarge', '24xlarge', '48xlarge'].map((s) => `ml.g7e.${s}`),
  'ml.gr6.8xlarge',
  'ml.i3en.12xlarge',
  'ml.i3en.24xlarge',
  'ml.m7i.48xlarge',
  'ml.p4d.24xlarge',
  'ml.p4de.24xlarge',
  'ml.p5.4xlarge',
  'ml.p5.48xlarge',
  'ml.p5e.48xlarge',
  'ml.p5en.48xlarge',
  'ml.p6-b200.48xlarge',
  'ml.p6-b300.48xlarge',
  'ml.p6e-gb200.36xlarge',
  'ml.r7i.48xlarge',
  'ml.trn1.32xlarge',
  'ml.trn1n.32xlarge',
  'ml.trn2.3xlarge',
  'ml.trn2.48xlarge',
];

/** charts/health-monitoring-agent: DaemonSet `health-monitoring-agent` (NVIDIA types). */
export const HEALTH_AGENT_NVIDIA_INSTANCE_TYPES: readonly string[] = [
  'ml.p5en.48xlarge',
  'ml.p5e.48xlarge',
  'ml.p5.48xlarge',
  'ml.p5.4xlarge',
  'ml.p4d.24xlarge',
  'ml.p4de.24xlarge',
  ...['xlarge', '2xlarge', '4xlarge', '8xlarge', '12xlarge', '16xlarge', '24xlarge', '48xlarge'].map(
    (s) => `ml.g5.${s}`,
  ),
  ...['xlarge', '2xlarge', '4xlarge', '8xlarge', '16xlarge', '12xlarge', '24xlarge', '48xlarge'].map(
    (s) => `ml.g6.${s}`,
  ),
  'ml.gr6.4xlarge',
  'ml.gr6.8xlarge',
  ...['xlarge', '2xlarge', '4xlarge', '8xlarge', '16xlarge', '12xlarge', '24xlarge', '48xlarge'].map(
    (s) => `ml.g6e.${s}`,
  ),
  ...['2xlarge', '4xlarge', '8xlarge', '12xlarge', '24xlarge', '48xlarge'].map((s) => `ml.g7e.${s}`),
  'ml.p6-b200.48xlarge',
  'ml.p6-b300.48xlarge',
  'ml.p6e-gb200.36xlarge',
];

/** charts/health-monitoring-agent: DaemonSet `health-monitoring-agent-non-nvidia` (Inferentia and Trainium). */
export const HEALTH_AGENT_NEURON_INSTANCE_TYPES: readonly string[] = [
  ...['xlarge', '8xlarge', '24xlarge', '48xlarge'].map((s) => `ml.inf2.${s}`),
  'ml.trn1.32xlarge',
  'ml.trn1n.32xlarge',
  'ml.trn2.3xlarge',
  'ml.trn2.48xlarge',
];
