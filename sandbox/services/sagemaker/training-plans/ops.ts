import { createHash } from 'node:crypto';
import { AwsError } from '../../../core/errors.js';
import { keyed } from '../../../core/keyed.js';
import { unitHash } from '../../../core/ids.js';
import type { OperationHandler, RequestContext } from '../../../core/service.js';
import { validateInput } from '../../../core/validation.js';
import { freeCapacity, searchOfferings, type Booked } from './offerings.js';
import { renderOffering, renderPlan } from './render.js';
import { page } from '../paging.js';
import { toMillis } from '../schemas.js';
import { createSchema, describeSchema, listSchema, SAGEMAKER_VALIDATION, searchSchema } from './schemas.js';
import { lookupPlan, peekPlanRegions, planRegion, plansIn, type StoredPlan } from './state.js';

const validation = (message: string) => new AwsError('ValidationException', message, 400);
/** SageMaker sells plans in whole days, from one day to 182 days. */
const MIN_HOURS = 24;
const MAX_HOURS = 182 * 24;

const searchTrainingPlanOfferings: OperationHandler = (input, ctx) => {
  const req = validateInput(searchSchema, input, SAGEMAKER_VALIDATION);
  if (req.TrainingPlanArn !== undefined)
    throw validation('Searching for training plan extension offerings is not supported by the sandbox.');
  if (req.UltraServerType !== undefined || req.UltraServerCount !== undefined) {
    throw validation('UltraServer offerings are not available in this Region.');
  }
  if (req.InstanceType === undefined)
    throw validation('InstanceType must be specified when UltraServerType is not specified.');
  if (req.InstanceCount === undefined) throw validation('InstanceCount must be specified together with InstanceType.');
  const durationHours = req.DurationHours ?? MIN_HOURS;
  if (durationHours < MIN_HOURS || durationHours > MAX_HOURS || durationHours % 24 !== 0) {
    throw validation(
      `DurationHours must be a multiple of 24 between ${MIN_HOURS} and ${MAX_HOURS}; got ${durationHours}.`,
    );
  }
  const now = ctx.now();
  const startTimeAfter = Math.max(now, toMillis(req.StartTimeAfter) ?? now);
  const endTimeBefore = toMillis(req.EndTimeBefore);
  if ([startTimeAfter, endTimeBefore].some((t) => t !== undefined && Number.isNaN(t)))
    throw validation('StartTimeAfter and EndTimeBefore must be valid timestamps.');
  if (endTimeBefore !== undefined && endTimeBefore <= startTimeAfter)
    throw validation('EndTimeBefore must be later than StartTimeAfter.');

  const booked = bookedInstances(ctx);
  const offerings = searchOfferings(
    {
      region: ctx.region,
      instanceType: req.InstanceType,
      instanceCount: req.InstanceCount,
      startTimeAfter,
      endTimeBefore,
      durationHours,
      targetResources: req.TargetResources,
    },
    booked,
  );

  // Remember what was offered so CreateTrainingPlan can buy it by id.
  const section = planRegion(ctx.state, ctx.region);
  for (const o of offerings) keyed.set(section.offerings, o.id, o);
  return { TrainingPlanOfferings: offerings.map(renderOffering) };
};

/** Instances already sold in a zone over a window: those days have that much less to offer. */
function bookedInstances(ctx: RequestContext): Booked {
  const plans = plansIn(ctx.state, ctx.region);
  return (zone, type, start, end) =>
    plans
      .flatMap((p) => (p.status === 'Expired' || p.status === 'Failed' ? [] : p.capacity))
      .filter((c) => c.availabilityZone === zone && c.instanceType === type && c.startTime < end && start < c.endTime)
      .reduce((n, c) => n + c.instanceCount, 0);
}

const createTrainingPlan: OperationHandler = (input, ctx) => {
  const req = validateInput(createSchema, input, SAGEMAKER_VALIDATION);
  const section = keyed.get(peekPlanRegions(ctx.state), ctx.region);
  if (keyed.has(section?.plans, req.TrainingPlanName)) {
    throw new AwsError('ResourceInUse', `Training plan with name '${req.TrainingPlanName}' already exists.`, 400);
  }
  const offering = keyed.get(section?.offerings, req.TrainingPlanOfferingId);
  if (!offering)
    throw new AwsError('ResourceNotFound', `Training plan offering '${req.TrainingPlanOfferingId}' not found.`, 400);
  const now = ctx.now();
  const startTime = Math.min(...offering.capacity.map((c) => c.startTime));
  if (startTime <= now)
    throw validation(
      `Training plan offering '${offering.id}' has expired: its reserved capacity was to start at ${new Date(startTime).toISOString()}. Search for offerings again.`,
    );
  const booked = bookedInstances(ctx);
  if (
    !offering.capacity.every(
      (c) =>
        freeCapacity(ctx.region, c.availabilityZone, c.instanceType, c.startTime, c.endTime, booked) >= c.instanceCount,
    )
  ) {
    throw validation(`Training plan offering '${offering.id}' is no longer available. Search for offerings again.`);
  }

  const arn = `arn:aws:sagemaker:${ctx.region}:${ctx.accountId}:training-plan/${req.TrainingPlanName}`;
  // Payment processing takes one to three minutes before the plan is Scheduled.
  const scheduledAt = now + Math.round((60 + unitHash(arn) * 120) * 1000);
  const plan: StoredPlan = {
    name: req.TrainingPlanName,
    arn,
    offeringId: offering.id,
    status: 'Pending',
    targetResources: [...offering.targetResources],
    upfrontFee: offering.upfrontFee,
    currencyCode: offering.currencyCode,
    durationHours: offering.durationHours,
    startTime,
    endTime: Math.max(...offering.capacity.map((c) => c.endTime)),
    capacity: offering.capacity.map((c, i) => ({
      ...c,
      reservedCapacityArn: `arn:aws:sagemaker:${ctx.region}:${ctx.accountId}:reserved-capacity/${createHash('sha256').update(`${arn}|${i}|${now}`).digest('hex').slice(0, 17)}`,
    })),
    inUse: 0,
    createdAt: now,
    scheduledAt,
    tags: req.Tags ?? [],
  };
  const mutable = planRegion(ctx.state, ctx.region);
  keyed.set(mutable.plans, plan.name, plan);
  keyed.delete(mutable.offerings, offering.id);
  return { TrainingPlanArn: arn };
};

const describeTrainingPlan: OperationHandler = (input, ctx) => {
  const req = validateInput(describeSchema, input, SAGEMAKER_VALIDATION);
  const plan = lookupPlan(ctx.state, ctx.region, req.TrainingPlanName);
  if (!plan)
    throw new AwsError('ResourceNotFound', `Training plan with name '${req.TrainingPlanName}' not found.`, 400);
  return renderPlan(plan, ctx.region, ctx.now());
};

const listTrainingPlans: OperationHandler = (input, ctx) => {
  const req = validateInput(listSchema, input, SAGEMAKER_VALIDATION);
  const after = toMillis(req.StartTimeAfter);
  const before = toMillis(req.StartTimeBefore);
  const statuses = (req.Filters ?? []).map((f) => f.Value);
  const now = ctx.now();
  const views = plansIn(ctx.state, ctx.region)
    .map((p) => renderPlan(p, ctx.region, now))
    .filter(
      (v) =>
        (after === undefined || v.StartTime.getTime() > after) &&
        (before === undefined || v.StartTime.getTime() < before),
    )
    .filter((v) => statuses.length === 0 || statuses.includes(v.Status));
  const by = req.SortBy ?? 'StartTime';
  const dir = (req.SortOrder ?? 'Descending') === 'Ascending' ? 1 : -1;
  const key = (v: (typeof views)[number]) =>
    by === 'StartTime' ? v.StartTime.getTime() : by === 'Status' ? v.Status : v.TrainingPlanName;
  views.sort((a, b) =>
    key(a) < key(b) ? -dir : key(a) > key(b) ? dir : a.TrainingPlanName < b.TrainingPlanName ? -1 : 1,
  );

  const { items, NextToken } = page(views, req, 100);
  return { TrainingPlanSummaries: items, NextToken };
};

export const trainingPlanOperations: Record<string, OperationHandler> = {
  SearchTrainingPlanOfferings: searchTrainingPlanOfferings,
  CreateTrainingPlan: createTrainingPlan,
  DescribeTrainingPlan: describeTrainingPlan,
  ListTrainingPlans: listTrainingPlans,
};
