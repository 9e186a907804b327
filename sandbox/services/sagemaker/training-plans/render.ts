import { findZone } from '../../../catalog/regions.js';
import { capacityStatusAt, statusAt } from './tick.js';
import { totalInstances, type StoredOffering, type StoredPlan } from './state.js';

/** Wire shapes (Dates, which the JSON protocol renders as epoch seconds). */
export function renderOffering(o: StoredOffering) {
  return {
    TrainingPlanOfferingId: o.id,
    TargetResources: o.targetResources,
    RequestedStartTimeAfter: o.requestedStartTimeAfter !== undefined ? new Date(o.requestedStartTimeAfter) : undefined,
    RequestedEndTimeBefore: o.requestedEndTimeBefore !== undefined ? new Date(o.requestedEndTimeBefore) : undefined,
    DurationHours: o.durationHours,
    DurationMinutes: 0,
    UpfrontFee: o.upfrontFee,
    CurrencyCode: o.currencyCode,
    ReservedCapacityOfferings: o.capacity.map((c) => ({
      ReservedCapacityType: 'Instance',
      InstanceType: c.instanceType,
      InstanceCount: c.instanceCount,
      AvailabilityZone: c.availabilityZone,
      DurationHours: c.durationHours,
      DurationMinutes: 0,
      StartTime: new Date(c.startTime),
      EndTime: new Date(c.endTime),
    })),
  };
}

/** DescribeTrainingPlan's response; ListTrainingPlans' summaries are the same members. */
export function renderPlan(plan: StoredPlan, region: string, now: number) {
  const total = totalInstances(plan);
  const status = statusAt(plan, now);
  const inUse = status === 'Expired' ? 0 : Math.min(plan.inUse, total);
  return {
    TrainingPlanArn: plan.arn,
    TrainingPlanName: plan.name,
    Status: status,
    StatusMessage: plan.statusMessage,
    DurationHours: plan.durationHours,
    DurationMinutes: 0,
    StartTime: new Date(plan.startTime),
    EndTime: new Date(plan.endTime),
    UpfrontFee: plan.upfrontFee,
    CurrencyCode: plan.currencyCode,
    TotalInstanceCount: total,
    AvailableInstanceCount: status === 'Expired' || status === 'Failed' ? 0 : total - inUse,
    InUseInstanceCount: inUse,
    TargetResources: plan.targetResources,
    ReservedCapacitySummaries: plan.capacity.map((c) => ({
      ReservedCapacityArn: c.reservedCapacityArn,
      ReservedCapacityType: 'Instance',
      InstanceType: c.instanceType,
      TotalInstanceCount: c.instanceCount,
      Status: capacityStatusAt(plan, c, now),
      AvailabilityZone: c.availabilityZone,
      AvailabilityZoneId: findZone(region, c.availabilityZone)?.zoneId,
      DurationHours: c.durationHours,
      DurationMinutes: 0,
      StartTime: new Date(c.startTime),
      EndTime: new Date(c.endTime),
    })),
  };
}
