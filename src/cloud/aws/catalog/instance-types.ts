import {
  DescribeInstanceTypesCommand,
  paginateDescribeInstanceTypeOfferings,
  type _InstanceType,
  type InstanceTypeInfo,
} from '@aws-sdk/client-ec2';
import { instanceTypeFromClusterUsageQuota } from '../../../domain/preflight-quotas.js';
import type { InstanceTypeView } from '../../../domain/schemas/preflight.js';
import type { AwsClients } from '../clients.js';
import { awsCall } from '../errors.js';
import { chunks, collectPages } from './paginate.js';
import { listedValue, type QuotaIndex } from './quotas.js';

/** DescribeInstanceTypes takes at most 100 names per call. */
const DESCRIBE_BATCH = 100;

/**
 * The HyperPod instance types of a Region, assembled from what AWS says:
 * - which types HyperPod supports: the SageMaker quotas named `ml.<type> for cluster usage`
 *   (one per supported type, and it carries the account's limit for it);
 * - where each is offered: EC2 DescribeInstanceTypeOfferings by Availability Zone (HyperPod places
 *   `ml.<type>` on EC2 `<type>` capacity, so a zone without the EC2 type cannot host the ml. type);
 * - what each is: EC2 DescribeInstanceTypes (vCPUs, memory, GPUs or Neuron devices, EFA, spot).
 * Types EC2 does not offer anywhere in the Region are left out. Sorted by name.
 */
export async function loadHyperPodInstanceTypes(
  clients: AwsClients,
  region: string,
  quotas: QuotaIndex,
): Promise<InstanceTypeView[]> {
  const quotaByType = new Map<string, number | undefined>();
  for (const entry of quotas.values()) {
    const type = instanceTypeFromClusterUsageQuota(entry.quotaName);
    if (type) quotaByType.set(type, listedValue(entry));
  }
  if (quotaByType.size === 0) return [];

  const zonesByEc2Type = await offeringsByZone(clients, region);
  const offered = [...quotaByType.keys()].filter((t) => zonesByEc2Type.has(ec2Name(t))).sort();
  const specs = await describeTypes(clients, region, offered.map(ec2Name));

  return offered.map((type) => {
    const info = specs.get(ec2Name(type));
    const quota = quotaByType.get(type);
    return {
      instanceType: type,
      availabilityZones: [...zonesByEc2Type.get(ec2Name(type))!].sort(),
      ...specView(info),
      ...(quota !== undefined ? { clusterUsageQuota: quota } : {}),
    };
  });
}

/** `ml.p5.48xlarge` → `p5.48xlarge`. */
const ec2Name = (mlType: string) => mlType.replace(/^ml\./, '');

async function offeringsByZone(clients: AwsClients, region: string): Promise<Map<string, Set<string>>> {
  const client = clients.ec2(region);
  const offerings = await collectPages(
    'ec2',
    'DescribeInstanceTypeOfferings',
    () => paginateDescribeInstanceTypeOfferings({ client, pageSize: 1000 }, { LocationType: 'availability-zone' }),
    (p) => p.InstanceTypeOfferings,
  );
  const byType = new Map<string, Set<string>>();
  for (const o of offerings) {
    if (!o.InstanceType || !o.Location) continue;
    const zones = byType.get(o.InstanceType) ?? new Set<string>();
    zones.add(o.Location);
    byType.set(o.InstanceType, zones);
  }
  return byType;
}

async function describeTypes(
  clients: AwsClients,
  region: string,
  names: string[],
): Promise<Map<string, InstanceTypeInfo>> {
  const out = new Map<string, InstanceTypeInfo>();
  for (const batch of chunks(names, DESCRIBE_BATCH)) {
    let NextToken: string | undefined;
    do {
      const page = await awsCall('ec2', 'DescribeInstanceTypes', () =>
        // The SDK types names as its enum of the day; names here come from AWS itself, so newer ones are fine.
        clients
          .ec2(region)
          .send(new DescribeInstanceTypesCommand({ InstanceTypes: batch as _InstanceType[], NextToken })),
      );
      for (const t of page.InstanceTypes ?? []) if (t.InstanceType) out.set(t.InstanceType, t);
      NextToken = page.NextToken;
    } while (NextToken);
  }
  return out;
}

/** The spec fields of the view; a type EC2 did not describe still shows, with what is known. */
function specView(
  t: InstanceTypeInfo | undefined,
): Omit<InstanceTypeView, 'instanceType' | 'availabilityZones' | 'clusterUsageQuota'> {
  const gpus = t?.GpuInfo?.Gpus ?? [];
  const neuron = t?.NeuronInfo?.NeuronDevices ?? [];
  const accelerators = gpus.length > 0 ? gpus : neuron;
  const acceleratorName = accelerators.map((a) => a.Name).find((n) => n !== undefined);
  const acceleratorCount = accelerators.reduce((n, a) => n + (a.Count ?? 0), 0);
  const efaSupported = t?.NetworkInfo?.EfaSupported ?? false;
  const maxEfa = t?.NetworkInfo?.EfaInfo?.MaximumEfaInterfaces;
  return {
    ...(t?.VCpuInfo?.DefaultVCpus !== undefined ? { vcpus: t.VCpuInfo.DefaultVCpus } : {}),
    ...(t?.MemoryInfo?.SizeInMiB !== undefined
      ? { memoryGiB: Math.round((t.MemoryInfo.SizeInMiB / 1024) * 100) / 100 }
      : {}),
    ...(acceleratorName ? { acceleratorName } : {}),
    ...(acceleratorCount > 0 ? { acceleratorCount } : {}),
    efaSupported,
    ...(efaSupported && maxEfa !== undefined ? { maximumEfaInterfaces: maxEfa } : {}),
    spotSupported: (t?.SupportedUsageClasses ?? []).includes('spot'),
  };
}
