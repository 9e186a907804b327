import { keyed } from '../../../core/keyed.js';
import type { OperationHandler, TickContext } from '../../../core/service.js';
import type { SandboxState } from '../../../core/store.js';
import { trainingPlanOperations as operations } from './ops.js';
import { lookupPlan, peekPlanRegions, totalInstances } from './state.js';
import { trainingPlanTick as tick } from './tick.js';

/** What HyperPod needs to know about a training plan it runs instance groups on. */
export interface TrainingPlanView {
  trainingPlanArn: string;
  name: string;
  status: 'Pending' | 'Active' | 'Scheduled' | 'Expired' | 'Failed';
  instanceType: string;
  availabilityZone: string;
  totalInstanceCount: number;
  availableInstanceCount: number;
  inUseInstanceCount: number;
  startTime: number;
  endTime: number;
  targetResources: string[];
}

export function findTrainingPlan(state: SandboxState, region: string, arnOrName: string): TrainingPlanView | undefined {
  const plan = lookupPlan(state, region, arnOrName);
  if (!plan) return undefined;
  const total = totalInstances(plan);
  const inUse = Math.min(plan.inUse, total);
  const ended = plan.status === 'Expired' || plan.status === 'Failed';
  return {
    trainingPlanArn: plan.arn,
    name: plan.name,
    status: plan.status,
    instanceType: plan.capacity[0]!.instanceType,
    availabilityZone: plan.capacity[0]!.availabilityZone,
    totalInstanceCount: total,
    availableInstanceCount: ended ? 0 : total - inUse,
    inUseInstanceCount: ended ? 0 : inUse,
    startTime: plan.startTime,
    endTime: plan.endTime,
    targetResources: [...plan.targetResources],
  };
}

/**
 * Reserves (positive delta) or returns (negative delta) instances of a plan for HyperPod nodes.
 * Callers check availability first; the count stays within [0, total] whatever they send, because
 * this also runs from ticks, where throwing would wedge the controller.
 */
export function adjustTrainingPlanUsage(
  state: SandboxState,
  region: string,
  trainingPlanArn: string,
  delta: number,
): void {
  const plan = lookupPlan(state, region, trainingPlanArn);
  if (!plan) return;
  plan.inUse = Math.max(0, Math.min(totalInstances(plan), plan.inUse + delta));
}

export const trainingPlanOperations: Record<string, OperationHandler> = operations;

export function trainingPlanTick(ctx: TickContext): boolean {
  return tick(ctx);
}

export function trainingPlanInventory(state: SandboxState): Record<string, unknown[]> {
  const trainingPlans: unknown[] = [];
  for (const [region, section] of keyed.entries(peekPlanRegions(state))) {
    for (const p of keyed.values(section.plans)) {
      trainingPlans.push({
        region,
        name: p.name,
        arn: p.arn,
        status: p.status,
        instanceType: p.capacity[0]?.instanceType,
        availabilityZone: p.capacity[0]?.availabilityZone,
        totalInstanceCount: totalInstances(p),
        inUseInstanceCount: p.inUse,
        startTime: new Date(p.startTime).toISOString(),
        endTime: new Date(p.endTime).toISOString(),
      });
    }
  }
  return { trainingPlans };
}
