import { findInstanceType, type InstanceTypeInfo } from '../../catalog/instance-types.js';
import type { DeviceKind } from './device-plugins.js';
import { hexHash } from './util.js';

/**
 * What a node of an instance type reports, as the EKS AMI's kubelet computes it: capacity (cpu,
 * memory the OS sees, pods from the ENI limits, the GPUs / Neuron devices / EFA interfaces of the
 * device plugins registered on it — device-plugins.ts) and allocatable after EKS's kube-reserved cpu
 * and memory and the eviction threshold.
 */

/** The EKS AMI's eni-max-pods values for the accelerated types whose limits are not the size rule's. */
const MAX_PODS: Record<string, number> = {
  'p4d.24xlarge': 737,
  'p4de.24xlarge': 737,
  'p5.48xlarge': 100,
  'p5e.48xlarge': 100,
  'p5en.48xlarge': 198,
  'p6-b200.48xlarge': 198,
  'g5.12xlarge': 737,
  'g5.16xlarge': 234,
  'g5.24xlarge': 737,
  'g5.48xlarge': 345,
  'g6.16xlarge': 737,
  'g6.24xlarge': 737,
  'g6.48xlarge': 737,
  'g6e.12xlarge': 292,
  'g6e.16xlarge': 737,
  'g6e.24xlarge': 492,
  'g6e.48xlarge': 492,
  'trn1.32xlarge': 247,
  'trn2.48xlarge': 100,
  't3.medium': 17,
  't3.large': 35,
};

/** IPv4 addresses per ENI by size, EC2's usual rule for the general-purpose families. */
function ipsPerEni(size: string): number {
  if (size === 'medium') return 6;
  if (size === 'large') return 10;
  if (size === 'xlarge' || size === '2xlarge') return 15;
  const n = Number.parseInt(size, 10);
  return n >= 16 ? 50 : 30;
}

/** `ENIs × (IPv4 per ENI − 1) + 2`, the formula behind eni-max-pods.txt. */
export function maxPods(type: InstanceTypeInfo): number {
  const known = MAX_PODS[type.instanceType];
  if (known) return known;
  const size = type.instanceType.split('.')[1] ?? 'xlarge';
  const enis = Math.min(type.maxNetworkInterfaces, Number.parseInt(size, 10) >= 16 ? 15 : type.maxNetworkInterfaces);
  return enis * (ipsPerEni(size) - 1) + 2;
}

/** EKS kube-reserved cpu: 6% of the first core, 1% of the second, 0.5% of the next two, 0.25% of the rest (millicores). */
function reservedMillicores(vcpus: number): number {
  const bands: Array<[number, number]> = [
    [1, 60],
    [1, 10],
    [2, 5],
    [Infinity, 2.5],
  ];
  let left = vcpus;
  let total = 0;
  for (const [cores, per] of bands) {
    const n = Math.min(left, cores);
    total += n * per;
    left -= n;
    if (left <= 0) break;
  }
  return Math.round(total);
}

export interface NodeResources {
  capacity: Record<string, string>;
  allocatable: Record<string, string>;
}

const ROOT_VOLUME_KI = 104_845_292;

/**
 * `devices`: the plugins registered on the node (a real node's extended resources), or `all` for
 * what the instance type can offer once they are (Karpenter's model of a node it would launch).
 */
export function nodeResources(instanceType: string, devices: ReadonlySet<DeviceKind> | 'all'): NodeResources {
  const has = (kind: DeviceKind) => devices === 'all' || devices.has(kind);
  const type = findInstanceType(instanceType) ?? findInstanceType('ml.m5.xlarge')!;
  const pods = maxPods(type);
  // The OS keeps ~5% of the nominal memory for the kernel and firmware.
  const memoryKi = Math.floor(type.memoryMiB * 1024 * 0.95);
  const extended: Record<string, string> = {};
  if (has('nvidia') && type.gpus && type.gpus.manufacturer === 'NVIDIA')
    extended['nvidia.com/gpu'] = String(type.gpus.count);
  if (has('neuron') && type.accelerators && type.accelerators.manufacturer === 'AWS') {
    const coresPerDevice = /Trainium2/.test(type.accelerators.name) ? 4 : 2;
    extended['aws.amazon.com/neuron'] = String(type.accelerators.count);
    extended['aws.amazon.com/neurondevice'] = String(type.accelerators.count);
    extended['aws.amazon.com/neuroncore'] = String(type.accelerators.count * coresPerDevice);
  }
  if (has('efa') && type.efaSupported) extended['vpc.amazonaws.com/efa'] = String(type.maxEfaInterfaces);
  const capacity = {
    cpu: String(type.vcpus),
    'ephemeral-storage': `${ROOT_VOLUME_KI}Ki`,
    'hugepages-1Gi': '0',
    'hugepages-2Mi': '0',
    memory: `${memoryKi}Ki`,
    pods: String(pods),
    ...extended,
  };
  const reservedMemoryKi = (255 + 11 * pods + 100) * 1024;
  const allocatable = {
    ...capacity,
    cpu: `${type.vcpus * 1000 - reservedMillicores(type.vcpus)}m`,
    'ephemeral-storage': String(Math.floor(ROOT_VOLUME_KI * 1024 * 0.9) - 1024 ** 3),
    memory: `${memoryKi - reservedMemoryKi}Ki`,
  };
  return { capacity, allocatable };
}

/** The node's system info as the EKS AMI (Amazon Linux 2023, containerd) reports it. */
export function nodeInfo(instanceId: string, kubernetesVersion: string): Record<string, string> {
  const id = hexHash(instanceId, 32);
  return {
    architecture: 'amd64',
    bootID: `${hexHash(`${instanceId}|boot`, 8)}-${hexHash(`${instanceId}|b2`, 4)}-4${hexHash(`${instanceId}|b3`, 3)}-a${hexHash(`${instanceId}|b4`, 3)}-${hexHash(`${instanceId}|b5`, 12)}`,
    containerRuntimeVersion: 'containerd://1.7.27',
    kernelVersion: '6.1.141-155.222.amzn2023.x86_64',
    kubeProxyVersion: '',
    kubeletVersion: `v${kubernetesVersion}.0-eks-${hexHash(`kubelet|${kubernetesVersion}`, 7)}`,
    machineID: id,
    operatingSystem: 'linux',
    osImage: 'Amazon Linux 2023.7.20250623',
    systemUUID: `ec2${id.slice(3, 8)}-${id.slice(8, 12)}-${id.slice(12, 16)}-${id.slice(16, 20)}-${id.slice(20, 32)}`,
  };
}
