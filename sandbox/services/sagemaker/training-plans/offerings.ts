import { createHash } from 'node:crypto';
import { unitHash } from '../../../core/ids.js';
import { zonesOffering } from '../../../catalog/instance-types.js';
import type { StoredOffering } from './state.js';

/**
 * Training-plan offerings the sandbox "has": a deterministic function of region, zone, instance
 * type and day, so a search answers the same way every time and capacity is patchy across zones and
 * days, as it is on AWS. Reserved capacity starts at 11:30 UTC, as SageMaker's plans do.
 */
const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const START_MINUTE_OF_DAY = 11 * 60 + 30;
/** How far ahead the sandbox looks for capacity (SageMaker searches up to eight weeks out). */
const SEARCH_DAYS = 56;
/** Offerings per zone a search returns at most. */
const PER_ZONE = 2;

/** Illustrative upfront prices per instance-hour in USD (not AWS's price list). */
const HOURLY_USD: Record<string, number> = {
  'p4d.24xlarge': 12.4,
  'p4de.24xlarge': 15.1,
  'p5.48xlarge': 31.5,
  'p5e.48xlarge': 35.2,
  'p5en.48xlarge': 37.8,
  'p6-b200.48xlarge': 54.9,
  'trn1.32xlarge': 10.9,
  'trn2.48xlarge': 23.6,
};

/** Instances already sold in a zone over a window (they come out of that day's capacity). */
export type Booked = (zone: string, instanceType: string, start: number, end: number) => number;

export function freeCapacity(
  region: string,
  zone: string,
  instanceType: string,
  start: number,
  end: number,
  booked: Booked,
): number {
  return capacityOn(region, zone, instanceType, Math.floor(start / DAY)) - booked(zone, instanceType, start, end);
}

export interface OfferingSearch {
  region: string;
  instanceType: string; // ml.*
  instanceCount: number;
  startTimeAfter: number;
  endTimeBefore?: number;
  durationHours: number;
  targetResources: string[];
}

/** The first 11:30 UTC at least 30 minutes after `t`. */
function firstSlotAfter(t: number): number {
  const minimum = t + 30 * 60_000;
  const dayStart = Math.floor(minimum / DAY) * DAY;
  const slot = dayStart + START_MINUTE_OF_DAY * 60_000;
  return slot >= minimum ? slot : slot + DAY;
}

/** Instances of a type a zone has for plans starting on a day; 0 on days with no capacity. */
function capacityOn(region: string, zone: string, instanceType: string, day: number): number {
  const key = `${region}|${zone}|${instanceType.replace(/^ml\./, '')}|${day}`;
  if (unitHash(`avail|${key}`) < 0.35) return 0;
  return 4 + Math.floor(unitHash(`count|${key}`) * 61);
}

function offeringId(parts: unknown[]): string {
  return `tpo-${createHash('sha256').update(JSON.stringify(parts)).digest('hex').slice(0, 40)}`;
}

export function searchOfferings(search: OfferingSearch, booked: Booked): StoredOffering[] {
  const baseType = search.instanceType.replace(/^ml\./, '');
  const rate = HOURLY_USD[baseType];
  if (rate === undefined) return [];
  const durationMs = search.durationHours * HOUR;
  const first = firstSlotAfter(search.startTimeAfter);
  const found: StoredOffering[] = [];
  for (const zone of zonesOffering(search.region, search.instanceType)) {
    let inZone = 0;
    for (let d = 0; d < SEARCH_DAYS && inZone < PER_ZONE; d++) {
      const start = first + d * DAY;
      const end = start + durationMs;
      if (search.endTimeBefore !== undefined && end > search.endTimeBefore) break;
      if (freeCapacity(search.region, zone, search.instanceType, start, end, booked) < search.instanceCount) continue;
      inZone++;
      found.push({
        id: offeringId([
          search.region,
          zone,
          search.instanceType,
          search.instanceCount,
          start,
          search.durationHours,
          search.targetResources,
        ]),
        targetResources: [...search.targetResources],
        requestedStartTimeAfter: search.startTimeAfter,
        requestedEndTimeBefore: search.endTimeBefore,
        durationHours: search.durationHours,
        upfrontFee: (rate * search.instanceCount * search.durationHours).toFixed(2),
        currencyCode: 'USD',
        capacity: [
          {
            instanceType: search.instanceType,
            instanceCount: search.instanceCount,
            availabilityZone: zone,
            startTime: start,
            endTime: end,
            durationHours: search.durationHours,
          },
        ],
      });
    }
  }
  return found.sort((a, b) => a.capacity[0]!.startTime - b.capacity[0]!.startTime || (a.id < b.id ? -1 : 1));
}
