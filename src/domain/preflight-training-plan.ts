import type { PreflightRequest, TrainingPlanFacts } from './preflight-facts.js';
import type { PreflightProblem, TrainingPlanView } from './schemas/preflight.js';

// The preflight rules about a training plan (capacityType training-plan): the plan named, in the request's
// Region, usable, and reserving enough of the requested type in the requested zone.

/** `arn:aws:sagemaker:us-west-2:123456789012:training-plan/h100-week` → its Region and name. */
export function parseTrainingPlanArn(arn: string): { region: string; name: string } | undefined {
  const m = /^arn:aws[a-z-]*:sagemaker:([a-z0-9-]+):\d{12}:training-plan\/(.+)$/.exec(arn);
  return m ? { region: m[1]!, name: m[2]! } : undefined;
}

/** Plans HyperPod can place instances on: paid for and not yet over. */
const USABLE_PLAN_STATUSES = ['Scheduled', 'Active'];

export function trainingPlanProblems(req: PreflightRequest, plan: TrainingPlanFacts | undefined): PreflightProblem[] {
  const field = 'trainingPlanArn';
  const plans = `list_training_plans / GET /api/v1/training-plans?region=${req.region}`;
  if (req.capacityType !== 'training-plan') {
    return req.trainingPlanArn
      ? [
          {
            field,
            code: 'InvalidParameterCombination',
            message: `A training plan is only used with capacityType training-plan (got ${req.capacityType}).`,
            remedy: 'Set capacityType to training-plan, or leave trainingPlanArn out.',
          },
        ]
      : [];
  }
  if (!req.trainingPlanArn) {
    return [
      {
        field,
        code: 'MissingParameter',
        message: 'capacityType training-plan needs the ARN of the training plan to use.',
        remedy: `Pick a plan from ${plans}.`,
      },
    ];
  }
  const planRegion = parseTrainingPlanArn(req.trainingPlanArn)?.region;
  if (planRegion && planRegion !== req.region) {
    return [
      {
        field,
        code: 'TrainingPlanMismatch',
        message: `The training plan ${req.trainingPlanArn} is in ${planRegion}; a cluster in ${req.region} can only use plans of ${req.region}.`,
        remedy: `Create the cluster in ${planRegion}, or use a plan of ${req.region} (${plans}).`,
      },
    ];
  }
  if (!plan) {
    return [
      {
        field,
        code: 'TrainingPlanNotFound',
        message: `The training plan ${req.trainingPlanArn} does not exist in ${req.region}.`,
        remedy: `Pick a plan from ${plans}.`,
      },
    ];
  }
  const out: PreflightProblem[] = [];
  const mismatch = (message: string, remedy: string) =>
    out.push({ field, code: 'TrainingPlanMismatch', message: `Training plan '${plan.name}' ${message}`, remedy });
  if (!USABLE_PLAN_STATUSES.includes(plan.status)) {
    out.push({
      field,
      code: 'TrainingPlanNotUsable',
      message: `Training plan '${plan.name}' is ${plan.status}; HyperPod can only use a plan that is ${USABLE_PLAN_STATUSES.join(' or ')}.`,
      remedy:
        plan.status === 'Pending'
          ? 'Wait until the plan is Scheduled (payment takes a few minutes), then check again.'
          : `Buy a new plan (SearchTrainingPlanOfferings, CreateTrainingPlan) or use on-demand capacity.`,
    });
  }
  if (!plan.targetResources.includes('hyperpod-cluster')) {
    mismatch(
      `reserves capacity for ${plan.targetResources.join(', ') || 'no target'}, not for hyperpod-cluster.`,
      'Use a plan bought with TargetResources hyperpod-cluster.',
    );
  }
  const ofType = plan.reservedCapacities.filter((c) => c.instanceType === req.instanceType);
  if (ofType.length === 0) {
    const types = [...new Set(plan.reservedCapacities.map((c) => c.instanceType))];
    mismatch(
      `reserves ${types.join(', ') || 'no instances'}, not ${req.instanceType}.`,
      `Use instanceType ${types.join(' or ')} with this plan, or a plan that reserves ${req.instanceType}.`,
    );
  } else {
    const zones = [...new Set(ofType.map((c) => c.availabilityZone).filter((z): z is string => z !== undefined))];
    if (req.availabilityZone && zones.length > 0 && !zones.includes(req.availabilityZone)) {
      mismatch(
        `reserves ${req.instanceType} in ${zones.join(', ')}, not in ${req.availabilityZone}.`,
        `Use availabilityZone ${zones.join(' or ')}.`,
      );
    }
  }
  const available = plan.availableInstanceCount ?? 0;
  // An Expired or Failed plan has nothing left to give; its status problem already says so.
  if (!['Expired', 'Failed'].includes(plan.status) && available < req.instanceCount) {
    out.push({
      field: 'instanceCount',
      code: 'TrainingPlanCapacityExceeded',
      message: `Training plan '${plan.name}' has ${available} of ${plan.totalInstanceCount ?? available} instances available (${plan.inUseInstanceCount ?? 0} in use); this request needs ${req.instanceCount}.`,
      remedy: `Ask for at most ${available} instances, or buy more reserved capacity (${plans}).`,
    });
  }
  return out;
}

/** The TrainingPlanView subset of a plan's facts (what the REST API and MCP tools show). */
export function trainingPlanView(plan: TrainingPlanFacts): TrainingPlanView {
  const { reservedCapacities: _omit, ...view } = plan;
  return view;
}
