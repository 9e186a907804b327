import { findRegion } from './regions.js';

/**
 * Instance types as EC2's DescribeInstanceTypes would describe them, and whether SageMaker
 * HyperPod offers each as `ml.<type>`. This is the sandbox playing AWS: product code only ever sees
 * it through the EC2 and SageMaker APIs.
 */
export interface InstanceTypeInfo {
  instanceType: string;
  vcpus: number;
  defaultCores: number;
  defaultThreadsPerCore: number;
  validThreadsPerCore: number[];
  memoryMiB: number;
  gpus?: { count: number; manufacturer: string; name: string; memoryMiB: number };
  accelerators?: { count: number; manufacturer: string; name: string; memoryMiB: number };
  efaSupported: boolean;
  maxEfaInterfaces: number;
  maxNetworkInterfaces: number;
  networkPerformance: string;
  hyperpod: boolean;
}

const GiB = 1024;

interface Shape {
  vcpus: number;
  memGiB: number;
  maxEni: number;
  net: string;
  efa?: number;
  gpus?: number;
  threads?: 1 | 2;
}

function family(
  prefix: string,
  sizes: Record<string, Shape>,
  extra: {
    gpu?: { manufacturer: string; name: string; memoryMiB: number };
    accel?: { manufacturer: string; name: string; memoryMiB: number };
    hyperpod: boolean;
  },
): InstanceTypeInfo[] {
  return Object.entries(sizes).map(([size, s]) => {
    const threads = s.threads ?? 2;
    return {
      instanceType: `${prefix}.${size}`,
      vcpus: s.vcpus,
      defaultCores: s.vcpus / threads,
      defaultThreadsPerCore: threads,
      validThreadsPerCore: threads === 2 ? [1, 2] : [1],
      memoryMiB: s.memGiB * GiB,
      ...(extra.gpu && s.gpus ? { gpus: { count: s.gpus, ...extra.gpu } } : {}),
      ...(extra.accel && s.gpus ? { accelerators: { count: s.gpus, ...extra.accel } } : {}),
      efaSupported: (s.efa ?? 0) > 0,
      maxEfaInterfaces: s.efa ?? 0,
      maxNetworkInterfaces: s.maxEni,
      networkPerformance: s.net,
      hyperpod: extra.hyperpod,
    };
  });
}

const NVIDIA = 'NVIDIA';

const TYPES: InstanceTypeInfo[] = [
  ...family(
    'p4d',
    { '24xlarge': { vcpus: 96, memGiB: 1152, maxEni: 60, net: '4x 100 Gigabit', efa: 4, gpus: 8 } },
    { gpu: { manufacturer: NVIDIA, name: 'A100', memoryMiB: 40960 }, hyperpod: true },
  ),
  ...family(
    'p4de',
    { '24xlarge': { vcpus: 96, memGiB: 1152, maxEni: 60, net: '4x 100 Gigabit', efa: 4, gpus: 8 } },
    { gpu: { manufacturer: NVIDIA, name: 'A100', memoryMiB: 81920 }, hyperpod: true },
  ),
  ...family(
    'p5',
    { '48xlarge': { vcpus: 192, memGiB: 2048, maxEni: 64, net: '3200 Gigabit', efa: 32, gpus: 8 } },
    { gpu: { manufacturer: NVIDIA, name: 'H100', memoryMiB: 81920 }, hyperpod: true },
  ),
  ...family(
    'p5e',
    { '48xlarge': { vcpus: 192, memGiB: 2048, maxEni: 64, net: '3200 Gigabit', efa: 32, gpus: 8 } },
    { gpu: { manufacturer: NVIDIA, name: 'H200', memoryMiB: 144384 }, hyperpod: true },
  ),
  ...family(
    'p5en',
    { '48xlarge': { vcpus: 192, memGiB: 2048, maxEni: 32, net: '3200 Gigabit', efa: 16, gpus: 8 } },
    { gpu: { manufacturer: NVIDIA, name: 'H200', memoryMiB: 144384 }, hyperpod: true },
  ),
  ...family(
    'p6-b200',
    { '48xlarge': { vcpus: 192, memGiB: 2048, maxEni: 16, net: '3200 Gigabit', efa: 8, gpus: 8 } },
    { gpu: { manufacturer: NVIDIA, name: 'B200', memoryMiB: 184320 }, hyperpod: true },
  ),
  ...family(
    'g5',
    {
      xlarge: { vcpus: 4, memGiB: 16, maxEni: 4, net: 'Up to 10 Gigabit', gpus: 1 },
      '2xlarge': { vcpus: 8, memGiB: 32, maxEni: 4, net: 'Up to 10 Gigabit', gpus: 1 },
      '4xlarge': { vcpus: 16, memGiB: 64, maxEni: 8, net: 'Up to 25 Gigabit', gpus: 1 },
      '8xlarge': { vcpus: 32, memGiB: 128, maxEni: 8, net: '25 Gigabit', efa: 1, gpus: 1 },
      '12xlarge': { vcpus: 48, memGiB: 192, maxEni: 15, net: '40 Gigabit', efa: 1, gpus: 4 },
      '16xlarge': { vcpus: 64, memGiB: 256, maxEni: 8, net: '25 Gigabit', efa: 1, gpus: 1 },
      '24xlarge': { vcpus: 96, memGiB: 384, maxEni: 15, net: '50 Gigabit', efa: 1, gpus: 4 },
      '48xlarge': { vcpus: 192, memGiB: 768, maxEni: 7, net: '100 Gigabit', efa: 1, gpus: 8 },
    },
    { gpu: { manufacturer: NVIDIA, name: 'A10G', memoryMiB: 24576 }, hyperpod: true },
  ),
  ...family(
    'g6',
    {
      xlarge: { vcpus: 4, memGiB: 16, maxEni: 4, net: 'Up to 10 Gigabit', gpus: 1 },
      '2xlarge': { vcpus: 8, memGiB: 32, maxEni: 4, net: 'Up to 10 Gigabit', gpus: 1 },
      '4xlarge': { vcpus: 16, memGiB: 64, maxEni: 8, net: 'Up to 25 Gigabit', gpus: 1 },
      '8xlarge': { vcpus: 32, memGiB: 128, maxEni: 8, net: '25 Gigabit', efa: 1, gpus: 1 },
      '12xlarge': { vcpus: 48, memGiB: 192, maxEni: 8, net: '40 Gigabit', efa: 1, gpus: 4 },
      '16xlarge': { vcpus: 64, memGiB: 256, maxEni: 15, net: '25 Gigabit', efa: 1, gpus: 1 },
      '24xlarge': { vcpus: 96, memGiB: 384, maxEni: 15, net: '50 Gigabit', efa: 1, gpus: 4 },
      '48xlarge': { vcpus: 192, memGiB: 768, maxEni: 15, net: '100 Gigabit', efa: 1, gpus: 8 },
    },
    { gpu: { manufacturer: NVIDIA, name: 'L4', memoryMiB: 22888 }, hyperpod: true },
  ),
  ...family(
    'g6e',
    {
      xlarge: { vcpus: 4, memGiB: 32, maxEni: 4, net: 'Up to 20 Gigabit', gpus: 1 },
      '2xlarge': { vcpus: 8, memGiB: 64, maxEni: 4, net: 'Up to 20 Gigabit', gpus: 1 },
      '4xlarge': { vcpus: 16, memGiB: 128, maxEni: 8, net: '20 Gigabit', gpus: 1 },
      '8xlarge': { vcpus: 32, memGiB: 256, maxEni: 8, net: '25 Gigabit', efa: 1, gpus: 1 },
      '12xlarge': { vcpus: 48, memGiB: 384, maxEni: 10, net: '100 Gigabit', efa: 1, gpus: 4 },
      '16xlarge': { vcpus: 64, memGiB: 512, maxEni: 15, net: '35 Gigabit', efa: 1, gpus: 1 },
      '24xlarge': { vcpus: 96, memGiB: 768, maxEni: 20, net: '200 Gigabit', efa: 2, gpus: 4 },
      '48xlarge': { vcpus: 192, memGiB: 1536, maxEni: 40, net: '400 Gigabit', efa: 4, gpus: 8 },
    },
    { gpu: { manufacturer: NVIDIA, name: 'L40S', memoryMiB: 45776 }, hyperpod: true },
  ),
  ...family(
    'trn1',
    { '32xlarge': { vcpus: 128, memGiB: 512, maxEni: 40, net: '800 Gigabit', efa: 8, gpus: 16 } },
    { accel: { manufacturer: 'AWS', name: 'Trainium', memoryMiB: 32768 }, hyperpod: true },
  ),
  ...family(
    'trn2',
    { '48xlarge': { vcpus: 192, memGiB: 2048, maxEni: 32, net: '3200 Gigabit', efa: 16, gpus: 16 } },
    { accel: { manufacturer: 'AWS', name: 'Trainium2', memoryMiB: 98304 }, hyperpod: true },
  ),
  ...family(
    'c5',
    {
      large: { vcpus: 2, memGiB: 4, maxEni: 3, net: 'Up to 10 Gigabit' },
      xlarge: { vcpus: 4, memGiB: 8, maxEni: 4, net: 'Up to 10 Gigabit' },
      '2xlarge': { vcpus: 8, memGiB: 16, maxEni: 4, net: 'Up to 10 Gigabit' },
      '4xlarge': { vcpus: 16, memGiB: 32, maxEni: 8, net: 'Up to 10 Gigabit' },
      '9xlarge': { vcpus: 36, memGiB: 72, maxEni: 8, net: '12 Gigabit' },
      '12xlarge': { vcpus: 48, memGiB: 96, maxEni: 8, net: '12 Gigabit' },
      '18xlarge': { vcpus: 72, memGiB: 144, maxEni: 15, net: '25 Gigabit' },
      '24xlarge': { vcpus: 96, memGiB: 192, maxEni: 15, net: '25 Gigabit' },
    },
    { hyperpod: true },
  ),
  ...family(
    'm5',
    {
      large: { vcpus: 2, memGiB: 8, maxEni: 3, net: 'Up to 10 Gigabit' },
      xlarge: { vcpus: 4, memGiB: 16, maxEni: 4, net: 'Up to 10 Gigabit' },
      '2xlarge': { vcpus: 8, memGiB: 32, maxEni: 4, net: 'Up to 10 Gigabit' },
      '4xlarge': { vcpus: 16, memGiB: 64, maxEni: 8, net: 'Up to 10 Gigabit' },
      '8xlarge': { vcpus: 32, memGiB: 128, maxEni: 8, net: '10 Gigabit' },
      '12xlarge': { vcpus: 48, memGiB: 192, maxEni: 8, net: '12 Gigabit' },
      '16xlarge': { vcpus: 64, memGiB: 256, maxEni: 15, net: '20 Gigabit' },
      '24xlarge': { vcpus: 96, memGiB: 384, maxEni: 15, net: '25 Gigabit' },
    },
    { hyperpod: true },
  ),
  ...family(
    't3',
    {
      medium: { vcpus: 2, memGiB: 4, maxEni: 3, net: 'Up to 5 Gigabit' },
      large: { vcpus: 2, memGiB: 8, maxEni: 3, net: 'Up to 5 Gigabit' },
      xlarge: { vcpus: 4, memGiB: 16, maxEni: 4, net: 'Up to 5 Gigabit' },
      '2xlarge': { vcpus: 8, memGiB: 32, maxEni: 4, net: 'Up to 5 Gigabit' },
    },
    { hyperpod: true },
  ),
  // EC2 types HyperPod does not offer: they exist so "is it a HyperPod type?" is a real question.
  ...family('t3', { micro: { vcpus: 2, memGiB: 1, maxEni: 2, net: 'Up to 5 Gigabit' } }, { hyperpod: false }),
  ...family(
    'r5',
    {
      large: { vcpus: 2, memGiB: 16, maxEni: 3, net: 'Up to 10 Gigabit' },
      '4xlarge': { vcpus: 16, memGiB: 128, maxEni: 8, net: 'Up to 10 Gigabit' },
    },
    { hyperpod: false },
  ),
];

const BY_NAME = new Map(TYPES.map((t) => [t.instanceType, t]));

const baseName = (name: string) => name.replace(/^ml\./, '');

/** Finds a type by EC2 name or by its HyperPod `ml.` name (only HyperPod types have one). */
export function findInstanceType(name: string): InstanceTypeInfo | undefined {
  const info = BY_NAME.get(baseName(name));
  if (!info) return undefined;
  if (name.startsWith('ml.') && !info.hyperpod) return undefined;
  return info;
}

export function listInstanceTypes(): InstanceTypeInfo[] {
  return [...TYPES];
}

/**
 * Where scarce types are offered: region → zone letters. Types not listed here (CPU, g5, g6) are
 * offered in every zone. Accelerated capacity is deliberately patchy, as on AWS, so "which zone
 * has p5?" is a question the product must ask rather than assume.
 */
const SCARCE_OFFERINGS: Record<string, Record<string, string>> = {
  g6e: {
    'us-east-1': 'abcd',
    'us-east-2': 'ab',
    'us-west-2': 'abc',
    'eu-west-1': 'ab',
    'eu-north-1': 'ab',
    'ap-northeast-1': 'ac',
    'ap-southeast-2': 'ab',
  },
  p4d: { 'us-east-1': 'ac', 'us-west-2': 'ab', 'eu-west-1': 'a', 'ap-northeast-1': 'a' },
  p4de: { 'us-east-1': 'a', 'us-west-2': 'b' },
  p5: {
    'us-east-1': 'bd',
    'us-east-2': 'ac',
    'us-west-2': 'bd',
    'eu-north-1': 'b',
    'ap-northeast-1': 'c',
    'ap-southeast-2': 'a',
  },
  p5e: { 'us-east-2': 'c', 'us-west-2': 'd' },
  p5en: { 'us-east-1': 'af', 'us-east-2': 'b', 'us-west-2': 'bc', 'ap-northeast-1': 'd' },
  'p6-b200': { 'us-east-1': 'c', 'us-west-2': 'd' },
  trn1: { 'us-east-1': 'ad', 'us-east-2': 'c', 'us-west-2': 'd' },
  trn2: { 'us-east-2': 'c', 'us-west-2': 'd' },
};

/** Zone names of a region that offer the type (EC2 name or `ml.` name). */
export function zonesOffering(region: string, instanceType: string): string[] {
  const info = findInstanceType(instanceType);
  const regionInfo = findRegion(region);
  if (!info || !regionInfo) return [];
  const familyName = info.instanceType.split('.')[0]!;
  const letters = SCARCE_OFFERINGS[familyName];
  if (!letters) return regionInfo.zones.map((z) => z.zoneName);
  const here = letters[region] ?? '';
  return regionInfo.zones.filter((z) => here.includes(z.zoneName.slice(-1))).map((z) => z.zoneName);
}

export function isOfferedInZone(region: string, zoneName: string, instanceType: string): boolean {
  return zonesOffering(region, instanceType).includes(zoneName);
}
