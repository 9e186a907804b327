import {
  DescribeTrainingPlanCommand,
  paginateListTrainingPlans,
  type DescribeTrainingPlanResponse,
  type TrainingPlanSummary,
} from '@aws-sdk/client-sagemaker';
import type { TrainingPlanFacts } from '../../../domain/preflight-facts.js';
import { parseTrainingPlanArn } from '../../../domain/preflight-training-plan.js';
import type { AwsClients } from '../clients.js';
import { awsCall, hasCode } from '../errors.js';
import { collectPages } from './paginate.js';

/** SageMaker training plans (reserved accelerated capacity), as TrainingPlanFacts. */

/** Every training plan of the account in `region`, newest start first (SageMaker's default order). */
export async function listTrainingPlanFacts(clients: AwsClients, region: string): Promise<TrainingPlanFacts[]> {
  const client = clients.sagemaker(region);
  const plans = await collectPages(
    'sagemaker',
    'ListTrainingPlans',
    () => paginateListTrainingPlans({ client, pageSize: 100 }, {}),
    (p) => p.TrainingPlanSummaries,
  );
  return plans.map(toFacts);
}

/**
 * One plan by ARN, or undefined when it does not exist in `region`. DescribeTrainingPlan takes the
 * plan's name, so the name comes from the ARN and the answer's ARN must be the one asked for (a plan
 * of the same name in another account or Region is another plan).
 */
export async function describeTrainingPlanFacts(
  clients: AwsClients,
  region: string,
  arn: string,
): Promise<TrainingPlanFacts | undefined> {
  const parsed = parseTrainingPlanArn(arn);
  if (!parsed || parsed.region !== region) return undefined;
  try {
    const plan = await awsCall('sagemaker', 'DescribeTrainingPlan', () =>
      clients.sagemaker(region).send(new DescribeTrainingPlanCommand({ TrainingPlanName: parsed.name })),
    );
    return plan.TrainingPlanArn === arn ? toFacts(plan) : undefined;
  } catch (err) {
    if (hasCode(err, 'ResourceNotFound', 'ResourceNotFoundException')) return undefined;
    throw err;
  }
}

/** The one value all entries share, or undefined when they differ or there are none. */
function only<T>(values: Array<T | undefined>): T | undefined {
  const set = new Set(values.filter((v): v is T => v !== undefined));
  return set.size === 1 ? [...set][0] : undefined;
}

function toFacts(p: TrainingPlanSummary | DescribeTrainingPlanResponse): TrainingPlanFacts {
  const capacities = (p.ReservedCapacitySummaries ?? []).map((c) => ({
    instanceType: String(c.InstanceType),
    instanceCount: c.TotalInstanceCount ?? 0,
    ...(c.AvailabilityZone ? { availabilityZone: c.AvailabilityZone } : {}),
    ...(c.Status ? { status: String(c.Status) } : {}),
  }));
  const instanceType = only(capacities.map((c) => c.instanceType));
  const availabilityZone = only(capacities.map((c) => c.availabilityZone));
  return {
    arn: p.TrainingPlanArn ?? '',
    name: p.TrainingPlanName ?? '',
    status: String(p.Status ?? 'Unknown'),
    ...(instanceType ? { instanceType } : {}),
    ...(p.TotalInstanceCount !== undefined ? { totalInstanceCount: p.TotalInstanceCount } : {}),
    ...(p.AvailableInstanceCount !== undefined ? { availableInstanceCount: p.AvailableInstanceCount } : {}),
    ...(p.InUseInstanceCount !== undefined ? { inUseInstanceCount: p.InUseInstanceCount } : {}),
    ...(availabilityZone ? { availabilityZone } : {}),
    ...(p.StartTime ? { startTime: p.StartTime.toISOString() } : {}),
    ...(p.EndTime ? { endTime: p.EndTime.toISOString() } : {}),
    targetResources: (p.TargetResources ?? []).map(String),
    reservedCapacities: capacities,
  };
}
