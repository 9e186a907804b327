/**
 * The regions and Availability Zones the sandbox plays, as AWS would answer DescribeRegions and
 * DescribeAvailabilityZones. Zone ids follow AWS's `<region-code>-az<N>` convention; as on AWS,
 * the letter→id mapping is not the identity (us-west-2a is usw2-az2 here).
 */
export interface ZoneInfo {
  zoneName: string;
  zoneId: string;
}

export interface RegionInfo {
  regionName: string;
  /** Prefix of the zone ids. */
  idPrefix: string;
  optInStatus: 'opt-in-not-required' | 'opted-in';
  zones: ZoneInfo[];
}

function zones(region: string, idPrefix: string, letters: string, idOrder: number[]): ZoneInfo[] {
  return [...letters].map((letter, i) => ({ zoneName: `${region}${letter}`, zoneId: `${idPrefix}-az${idOrder[i]}` }));
}

export const REGIONS: RegionInfo[] = [
  {
    regionName: 'us-east-1',
    idPrefix: 'use1',
    optInStatus: 'opt-in-not-required',
    zones: zones('us-east-1', 'use1', 'abcdef', [4, 6, 1, 2, 3, 5]),
  },
  {
    regionName: 'us-east-2',
    idPrefix: 'use2',
    optInStatus: 'opt-in-not-required',
    zones: zones('us-east-2', 'use2', 'abc', [1, 2, 3]),
  },
  {
    regionName: 'us-west-2',
    idPrefix: 'usw2',
    optInStatus: 'opt-in-not-required',
    zones: zones('us-west-2', 'usw2', 'abcd', [2, 1, 3, 4]),
  },
  {
    regionName: 'eu-west-1',
    idPrefix: 'euw1',
    optInStatus: 'opt-in-not-required',
    zones: zones('eu-west-1', 'euw1', 'abc', [3, 1, 2]),
  },
  {
    regionName: 'eu-north-1',
    idPrefix: 'eun1',
    optInStatus: 'opt-in-not-required',
    zones: zones('eu-north-1', 'eun1', 'abc', [1, 2, 3]),
  },
  {
    regionName: 'ap-northeast-1',
    idPrefix: 'apne1',
    optInStatus: 'opt-in-not-required',
    zones: zones('ap-northeast-1', 'apne1', 'acd', [4, 1, 2]),
  },
  {
    regionName: 'ap-southeast-2',
    idPrefix: 'apse2',
    optInStatus: 'opt-in-not-required',
    zones: zones('ap-southeast-2', 'apse2', 'abc', [3, 1, 2]),
  },
];

export function findRegion(regionName: string): RegionInfo | undefined {
  return REGIONS.find((r) => r.regionName === regionName);
}

/** Finds a zone by name (`us-west-2a`) or id (`usw2-az2`). */
export function findZone(regionName: string, nameOrId: string): ZoneInfo | undefined {
  return findRegion(regionName)?.zones.find((z) => z.zoneName === nameOrId || z.zoneId === nameOrId);
}
