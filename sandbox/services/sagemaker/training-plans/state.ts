import { keyed, type Keyed } from '../../../core/keyed.js';
import type { SandboxState } from '../../../core/store.js';

/**
 * Training plans' section of the sandbox state (`state['sagemaker-training-plans']`), per region:
 * the offerings a search returned (CreateTrainingPlan buys one by id) and the plans bought.
 */
export type PlanStatus = 'Pending' | 'Active' | 'Scheduled' | 'Expired' | 'Failed';

export interface StoredCapacity {
  instanceType: string;
  instanceCount: number;
  availabilityZone: string;
  startTime: number;
  endTime: number;
  durationHours: number;
}

export interface StoredOffering {
  id: string;
  targetResources: string[];
  requestedStartTimeAfter?: number;
  requestedEndTimeBefore?: number;
  durationHours: number;
  upfrontFee: string;
  currencyCode: string;
  capacity: StoredCapacity[];
}

export interface StoredPlan {
  name: string;
  arn: string;
  offeringId: string;
  status: PlanStatus;
  statusMessage?: string;
  targetResources: string[];
  upfrontFee: string;
  currencyCode: string;
  durationHours: number;
  /** Earliest start and latest end over its reserved capacities. */
  startTime: number;
  endTime: number;
  capacity: (StoredCapacity & { reservedCapacityArn: string })[];
  inUse: number;
  createdAt: number;
  /** When payment processing ends and the plan leaves Pending. */
  scheduledAt: number;
  tags: { Key: string; Value: string }[];
}

export interface PlanRegion {
  offerings: Keyed<StoredOffering>;
  plans: Keyed<StoredPlan>;
}

const SECTION = 'sagemaker-training-plans';
type Section = Keyed<PlanRegion>;

export function planRegions(state: SandboxState): Section {
  return (state[SECTION] ??= {}) as Section;
}

export function peekPlanRegions(state: SandboxState): Section | undefined {
  return state[SECTION] as Section | undefined;
}

export function planRegion(state: SandboxState, region: string): PlanRegion {
  return keyed.ensure(planRegions(state), region, () => ({ offerings: {}, plans: {} }));
}

/** A region's plans, without creating the section. */
export function plansIn(state: SandboxState, region: string): StoredPlan[] {
  return keyed.values(keyed.get(peekPlanRegions(state), region)?.plans);
}

/** A plan by name or ARN, without creating the section. */
export function lookupPlan(state: SandboxState, region: string, arnOrName: string): StoredPlan | undefined {
  const plans = keyed.get(peekPlanRegions(state), region)?.plans;
  if (arnOrName.startsWith('arn:')) return keyed.values(plans).find((p) => p.arn === arnOrName);
  return keyed.get(plans, arnOrName);
}

export const totalInstances = (plan: StoredPlan): number => plan.capacity.reduce((n, c) => n + c.instanceCount, 0);
