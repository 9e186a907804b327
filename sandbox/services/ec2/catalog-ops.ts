import { z } from 'zod';
import { AwsError } from '../../core/errors.js';
import type { OperationHandler } from '../../core/service.js';
import { findRegion, REGIONS } from '../../catalog/regions.js';
import { listInstanceTypes, zonesOffering, type InstanceTypeInfo } from '../../catalog/instance-types.js';
import { applyFilters, filtersSchema, page, pagingSchema, qBool, validate } from './wire.js';

/** Regions, zones and instance types: what AWS tells a caller about where capacity exists. */
function renderInstanceType(t: InstanceTypeInfo) {
  const architecture = 'x86_64';
  return {
    instanceType: t.instanceType,
    currentGeneration: true,
    freeTierEligible: t.instanceType === 't3.micro',
    supportedUsageClasses:
      t.instanceType.startsWith('p') || t.instanceType.startsWith('trn')
        ? ['on-demand', 'capacity-block']
        : ['on-demand', 'spot'],
    supportedRootDeviceTypes: ['ebs'],
    supportedVirtualizationTypes: ['hvm'],
    bareMetal: false,
    hypervisor: 'nitro',
    processorInfo: {
      supportedArchitectures: [architecture],
      manufacturer:
        t.instanceType.startsWith('g5') || t.instanceType.startsWith('p5') || t.instanceType.startsWith('p6')
          ? 'AMD'
          : 'Intel',
    },
    vCpuInfo: {
      defaultVCpus: t.vcpus,
      defaultCores: t.defaultCores,
      defaultThreadsPerCore: t.defaultThreadsPerCore,
      validThreadsPerCore: t.validThreadsPerCore,
    },
    memoryInfo: { sizeInMiB: t.memoryMiB },
    instanceStorageSupported: false,
    ebsInfo: { ebsOptimizedSupport: 'default', encryptionSupport: 'supported', nvmeSupport: 'required' },
    networkInfo: {
      networkPerformance: t.networkPerformance,
      maximumNetworkInterfaces: t.maxNetworkInterfaces,
      maximumNetworkCards: Math.max(1, t.maxEfaInterfaces),
      defaultNetworkCardIndex: 0,
      ipv4AddressesPerInterface: t.vcpus >= 32 ? 50 : t.vcpus >= 8 ? 15 : 6,
      ipv6AddressesPerInterface: t.vcpus >= 32 ? 50 : t.vcpus >= 8 ? 15 : 6,
      ipv6Supported: true,
      enaSupport: 'required',
      efaSupported: t.efaSupported,
      efaInfo: t.efaSupported ? { maximumEfaInterfaces: t.maxEfaInterfaces } : undefined,
      encryptionInTransitSupported: true,
      enaSrdSupported: t.efaSupported,
    },
    gpuInfo: t.gpus
      ? {
          gpus: [
            {
              name: t.gpus.name,
              manufacturer: t.gpus.manufacturer,
              count: t.gpus.count,
              memoryInfo: { sizeInMiB: t.gpus.memoryMiB },
            },
          ],
          totalGpuMemoryInMiB: t.gpus.count * t.gpus.memoryMiB,
        }
      : undefined,
    neuronInfo: t.accelerators
      ? {
          neuronDevices: [
            {
              count: t.accelerators.count,
              name: t.accelerators.name,
              coreInfo: { count: 2, version: t.accelerators.name === 'Trainium2' ? 3 : 2 },
              memoryInfo: { sizeInMiB: t.accelerators.memoryMiB },
            },
          ],
          totalNeuronDeviceMemoryInMiB: t.accelerators.count * t.accelerators.memoryMiB,
        }
      : undefined,
    placementGroupInfo: { supportedStrategies: ['cluster', 'partition', 'spread'] },
    hibernationSupported: false,
    burstablePerformanceSupported: t.instanceType.startsWith('t3'),
    dedicatedHostsSupported: true,
    autoRecoverySupported: true,
    supportedBootModes: ['legacy-bios', 'uefi'],
  };
}

/** The values a DescribeInstanceTypes filter compares against. */
function instanceTypeField(t: InstanceTypeInfo, name: string): Array<string | undefined> | undefined {
  switch (name) {
    case 'instance-type':
      return [t.instanceType];
    case 'current-generation':
      return ['true'];
    case 'vcpu-info.default-vcpus':
      return [String(t.vcpus)];
    case 'memory-info.size-in-mib':
      return [String(t.memoryMiB)];
    case 'network-info.efa-supported':
      return [String(t.efaSupported)];
    case 'network-info.efa-info.maximum-efa-interfaces':
      return [String(t.maxEfaInterfaces)];
    case 'processor-info.supported-architecture':
      return ['x86_64'];
    case 'gpu-info.gpus.manufacturer':
    case 'gpu-info.manufacturer':
      return [t.gpus?.manufacturer];
    case 'gpu-info.gpus.name':
    case 'gpu-info.name':
      return [t.gpus?.name];
    case 'gpu-info.gpus.count':
    case 'gpu-info.count':
      return [t.gpus ? String(t.gpus.count) : undefined];
    case 'supported-usage-class':
      return renderInstanceType(t).supportedUsageClasses;
    default:
      return undefined;
  }
}

/**
 * EC2 DescribeAccountAttributes (EC2 API Reference 2016-11-15): the account's attributes of a Region. The sandbox
 * answers the documented defaults (assumed for a fresh account: EC2 User Guide, "Elastic IP address quota" — five
 * per Region; no default VPC, as the sandbox's Regions have none); it does not enforce the Elastic IP limit on
 * AllocateAddress.
 */
const ACCOUNT_ATTRIBUTES: Record<string, string> = {
  'supported-platforms': 'VPC',
  'default-vpc': 'none',
  'max-instances': '20',
  'vpc-max-security-groups-per-interface': '5',
  'max-elastic-ips': '5',
  'vpc-max-elastic-ips': '5',
};

export const catalogOperations: Record<string, OperationHandler> = {
  DescribeAccountAttributes(input) {
    const req = validate(z.object({ AttributeName: z.array(z.string()).optional(), DryRun: qBool.optional() }), input);
    for (const name of req.AttributeName ?? [])
      if (!(name in ACCOUNT_ATTRIBUTES))
        throw new AwsError('InvalidParameterValue', `Value (${name}) for parameter attributeName is invalid.`);
    const names = req.AttributeName?.length ? req.AttributeName : Object.keys(ACCOUNT_ATTRIBUTES);
    return {
      accountAttributeSet: names.map((name) => ({
        attributeName: name,
        attributeValueSet: [{ attributeValue: ACCOUNT_ATTRIBUTES[name] }],
      })),
    };
  },

  DescribeRegions(input) {
    const req = validate(
      z.object({
        RegionName: z.array(z.string()).optional(),
        AllRegions: qBool.optional(),
        Filter: filtersSchema,
        DryRun: qBool.optional(),
      }),
      input,
    );
    for (const name of req.RegionName ?? []) {
      if (!findRegion(name)) throw new AwsError('InvalidParameterValue', `Invalid region: ${name}`);
    }
    const chosen = req.RegionName?.length ? REGIONS.filter((r) => req.RegionName!.includes(r.regionName)) : REGIONS;
    const filtered = applyFilters(
      chosen,
      req.Filter,
      (r, name) =>
        ({
          'region-name': [r.regionName],
          endpoint: [`ec2.${r.regionName}.amazonaws.com`],
          'opt-in-status': [r.optInStatus],
        })[name],
    );
    return {
      regionInfo: filtered.map((r) => ({
        regionName: r.regionName,
        regionEndpoint: `ec2.${r.regionName}.amazonaws.com`,
        optInStatus: r.optInStatus,
      })),
    };
  },

  DescribeAvailabilityZones(input, ctx) {
    const req = validate(
      z.object({
        ZoneName: z.array(z.string()).optional(),
        ZoneId: z.array(z.string()).optional(),
        AllAvailabilityZones: qBool.optional(),
        Filter: filtersSchema,
        DryRun: qBool.optional(),
      }),
      input,
    );
    const zones = findRegion(ctx.region)!.zones;
    for (const name of req.ZoneName ?? []) {
      if (!zones.some((z) => z.zoneName === name))
        throw new AwsError('InvalidParameterValue', `The zone '${name}' does not exist.`);
    }
    for (const id of req.ZoneId ?? []) {
      if (!zones.some((z) => z.zoneId === id))
        throw new AwsError('InvalidParameterValue', `The zone id '${id}' does not exist.`);
    }
    let chosen = zones;
    if (req.ZoneName?.length || req.ZoneId?.length) {
      chosen = zones.filter((z) => req.ZoneName?.includes(z.zoneName) || req.ZoneId?.includes(z.zoneId));
    }
    const filtered = applyFilters(
      chosen,
      req.Filter,
      (z, name) =>
        ({
          'zone-name': [z.zoneName],
          'zone-id': [z.zoneId],
          state: ['available'],
          'region-name': [ctx.region],
          'zone-type': ['availability-zone'],
          'group-name': [ctx.region],
          'opt-in-status': ['opt-in-not-required'],
        })[name],
    );
    return {
      availabilityZoneInfo: filtered.map((z) => ({
        optInStatus: 'opt-in-not-required',
        messageSet: [],
        regionName: ctx.region,
        zoneName: z.zoneName,
        zoneId: z.zoneId,
        groupName: ctx.region,
        networkBorderGroup: ctx.region,
        zoneType: 'availability-zone',
        zoneState: 'available',
      })),
    };
  },

  DescribeInstanceTypeOfferings(input, ctx) {
    const req = validate(
      z.object({
        LocationType: z.enum(['region', 'availability-zone', 'availability-zone-id', 'outpost']).optional(),
        Filter: filtersSchema,
        ...pagingSchema,
      }),
      input,
    );
    const locationType = req.LocationType ?? 'region';
    const zones = findRegion(ctx.region)!.zones;
    const offerings: Array<{ instanceType: string; locationType: string; location: string }> = [];
    for (const t of listInstanceTypes()) {
      const offered = zonesOffering(ctx.region, t.instanceType);
      if (offered.length === 0) continue;
      if (locationType === 'region')
        offerings.push({ instanceType: t.instanceType, locationType, location: ctx.region });
      else if (locationType === 'outpost') continue;
      else {
        for (const zoneName of offered) {
          const location =
            locationType === 'availability-zone' ? zoneName : zones.find((z) => z.zoneName === zoneName)!.zoneId;
          offerings.push({ instanceType: t.instanceType, locationType, location });
        }
      }
    }
    const filtered = applyFilters(
      offerings,
      req.Filter,
      (o, name) => ({ 'instance-type': [o.instanceType], location: [o.location] })[name],
    );
    const p = page(filtered, req.MaxResults, req.NextToken);
    return { instanceTypeOfferingSet: p.items, nextToken: p.nextToken };
  },

  DescribeInstanceTypes(input, ctx) {
    const req = validate(
      z.object({ InstanceType: z.array(z.string()).optional(), Filter: filtersSchema, ...pagingSchema }),
      input,
    );
    const inRegion = listInstanceTypes().filter((t) => zonesOffering(ctx.region, t.instanceType).length > 0);
    const missing = (req.InstanceType ?? []).filter((name) => !inRegion.some((t) => t.instanceType === name));
    if (missing.length)
      throw new AwsError(
        'InvalidInstanceType',
        `The following supplied instance types do not exist: [${missing.join(', ')}]`,
      );
    const chosen = req.InstanceType?.length
      ? inRegion.filter((t) => req.InstanceType!.includes(t.instanceType))
      : inRegion;
    const filtered = applyFilters(chosen, req.Filter, instanceTypeField);
    const p = page(filtered, req.MaxResults, req.NextToken, { min: 5, max: 100 });
    return { instanceTypeSet: p.items.map(renderInstanceType), nextToken: p.nextToken };
  },
};
