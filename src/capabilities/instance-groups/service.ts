import { InputError, PreconditionError } from '../../domain/errors.js';
import { diffInstanceGroup, throwIfRefused, type InstanceGroupSpec } from '../../domain/instance-groups.js';
import type {
  AddInstanceGroupRequest as AddRequest,
  InstanceGroupView,
  ScalePreflightResult,
  UpdateInstanceGroupRequest,
} from '../../domain/schemas/instance-groups.js';
import type { OperationView } from '../../domain/schemas/operations.js';
import { catalog } from '../catalog/index.js';
import type { ServiceDeps } from '../capability.js';
import { clusters } from '../clusters/index.js';
import { nodes } from '../nodes/index.js';
import { checkScale, scaleRefusal } from './scale-preflight.js';
import type { InstanceGroupPlan } from '../../domain/schemas/plans.js';
import { addInstanceGroupWorkflow } from './workflows/add-instance-group/index.js';
import {
  addGroupCost,
  addGroupPlanFacts,
  plannedGroupMutations,
  scaleCost,
} from './workflows/add-instance-group/plan.js';

type Started = { operation: OperationView; existing: boolean };
type GroupRef = { cluster: string; region: string; name: string };
type AddInstanceGroupRequest = Omit<AddRequest, 'region'>;

/** The rules of instance groups: one name per cluster, checks before adding, and which operation a change needs. */
export class InstanceGroupService {
  constructor(private readonly deps: ServiceDeps) {}

  /** The groups as HyperPod describes them, each short one with its shortfall (from the node views' shared snapshot). */
  async list(region: string, cluster: string): Promise<InstanceGroupView[]> {
    const groups = await this.views().instanceGroups(region, cluster);
    if (!groups.some((g) => g.targetCount > g.currentCount)) return groups;
    // A failed node read leaves the groups as HyperPod describes them: the counts still show the gap.
    const shortfalls = await this.deps
      .service(nodes)
      .views.shortfalls(region, cluster)
      .catch(() => []);
    return groups.map((g) => {
      const shortfall = shortfalls.find((s) => s.instanceGroupName === g.name);
      return shortfall ? { ...g, shortfall } : g;
    });
  }

  /**
   * A repeat of the same request while the group's add runs gets its operation back (a repeat under
   * the same Idempotency-Key is answered before this, src/api/idempotency.ts); a name the cluster already has is
   * refused; otherwise the zone, EFA, spot, quotas and plan are
   * checked (422 naming the field) before the operation starts — which is a 409 naming the running
   * operation when another change of the cluster (or its create or delete) is under way.
   */
  async add(
    region: string,
    cluster: string,
    group: AddInstanceGroupRequest,
    idempotencyKey?: string,
  ): Promise<Started> {
    const existing = (await this.list(region, cluster)).find((g) => g.name === group.name);
    const repeat = existing?.activeOperation;
    if (existing && !repeat)
      throw InputError.field('name', `cluster ${cluster} already has an instance group '${group.name}'`);
    if (!repeat) await this.preflight(region, group);
    return this.deps.operations.start('add-instance-group', { ...group, cluster, region }, { idempotencyKey });
  }

  /**
   * What adding the group would make (add-instance-group's phases: the zone's compute subnet when it has none,
   * the group) and what it adds per hour (docs/PLAN.md). The add's checks first (400/422 naming the field); reads only.
   */
  async plan(region: string, cluster: string, group: AddInstanceGroupRequest): Promise<InstanceGroupPlan> {
    const existing = (await this.list(region, cluster)).find((g) => g.name === group.name);
    if (existing) throw InputError.field('name', `cluster ${cluster} already has an instance group '${group.name}'`);
    await this.preflight(region, group);
    const input = { ...group, cluster, region };
    const { phases } = addInstanceGroupWorkflow(this.deps);
    const [facts, cost] = await Promise.all([
      addGroupPlanFacts(this.deps, input),
      addGroupCost(this.deps.cloud.pricing, input),
    ]);
    return { cluster, region, instanceGroup: group.name, mutations: plannedGroupMutations(phases, facts), cost };
  }

  /**
   * Before a failed scale (or count-changing update) is retried: the count it sends must still fit the
   * quotas and the plan, or the retry would only repeat what AWS refused (422, nothing retried).
   */
  async checkRetry(operation: OperationView): Promise<void> {
    const input = operation.input as { cluster?: unknown; region?: unknown; name?: unknown; instanceCount?: unknown };
    if (
      typeof input.cluster !== 'string' ||
      typeof input.region !== 'string' ||
      typeof input.name !== 'string' ||
      typeof input.instanceCount !== 'number'
    )
      return;
    const check = await this.checkScale(
      { cluster: input.cluster, region: input.region, name: input.name },
      input.instanceCount,
    );
    if (!check.ok) throw scaleRefusal(input.name, check);
  }

  /**
   * Would scaling the group to `instanceCount` pass the create's checks (quotas, training plan), and what would it
   * change per hour? Read-only.
   */
  async checkScale(ref: GroupRef, instanceCount: number): Promise<ScalePreflightResult> {
    const groups = await this.list(ref.region, ref.cluster);
    const check = await checkScale(this.deps.service(catalog), ref.region, groups, ref.name, instanceCount);
    const group = groups.find((g) => g.name === ref.name);
    if (!group || instanceCount === group.targetCount) return check;
    const costChange = await scaleCost(this.deps.cloud.pricing, ref.region, group, instanceCount);
    return { ...check, costChange };
  }

  /**
   * Compares the request with the group as HyperPod describes it: fixed fields are refused, and only
   * the fields that really differ are sent. A count alone is a scale (a no-op when it already holds).
   * Growth runs the scale preflight first (422 naming the quota and the fix, before anything is sent);
   * a lower count
   * terminates nodes, so it is refused without `confirm: true` (before AWS is called).
   */
  async update(ref: GroupRef, request: UpdateInstanceGroupRequest, idempotencyKey?: string): Promise<Started> {
    const current = await this.views().groupSpec(ref.region, ref.cluster, ref.name);
    if (!current) throw InputError.field('group', `cluster ${ref.cluster} has no instance group '${ref.name}'`);
    const { region: _region, confirm, ...wanted } = request;
    // The same instant written two ways is no change: compare ISO forms.
    if (wanted.autoPatch?.nextPatchDate)
      wanted.autoPatch = { ...wanted.autoPatch, nextPatchDate: new Date(wanted.autoPatch.nextPatchDate).toISOString() };
    const diff = diffInstanceGroup(current, wanted as Partial<InstanceGroupSpec>);
    throwIfRefused(diff);
    if (request.instanceCount !== undefined && request.instanceCount > current.instanceCount) {
      const check = await this.checkScale(ref, request.instanceCount);
      if (!check.ok) throw scaleRefusal(ref.name, check);
    }
    const { instanceCount, ...settings } = diff.changes;
    if (instanceCount !== undefined && instanceCount < current.instanceCount && confirm !== true) {
      throw new PreconditionError({
        message: `Scaling ${ref.name} from ${current.instanceCount} to ${instanceCount} instances terminates ${current.instanceCount - instanceCount} node(s) and the jobs on them; send confirm: true once the user agreed.`,
        problems: [
          {
            path: 'confirm',
            message: `must be true to shrink ${ref.name} from ${current.instanceCount} to ${instanceCount} instances (nodes are terminated)`,
          },
        ],
      });
    }
    if (Object.keys(settings).length === 0) {
      return this.deps.operations.start(
        'scale-instance-group',
        { ...ref, instanceCount: instanceCount ?? current.instanceCount },
        { idempotencyKey },
      );
    }
    return this.deps.operations.start(
      'update-instance-group',
      { ...ref, changes: settings, ...(instanceCount !== undefined ? { instanceCount } : {}) },
      { idempotencyKey },
    );
  }

  delete(ref: GroupRef, idempotencyKey?: string): Started {
    return this.deps.operations.start('delete-instance-group', ref, { idempotencyKey });
  }

  /** Zone offers the type, EFA only for EFA types, spot only for spot types, quotas and plan fit. */
  private async preflight(region: string, group: AddInstanceGroupRequest): Promise<void> {
    const preflight = this.deps.service(catalog);
    const types = await preflight.instanceTypes(region, group.availabilityZone);
    const type = types.find((t) => t.instanceType === group.instanceType);
    const problems: Array<{ path: string; message: string }> = [];
    if (!type)
      problems.push({
        path: 'instanceType',
        message: `${group.instanceType} is not offered for HyperPod in ${group.availabilityZone}`,
      });
    if (type && group.networkInterface && !type.efaSupported)
      problems.push({
        path: 'networkInterface',
        message: `${group.instanceType} does not support EFA, so '${group.networkInterface}' is not available`,
      });
    if (type && group.capacityType === 'spot' && !type.spotSupported)
      problems.push({ path: 'capacityType', message: `${group.instanceType} is not offered as spot capacity` });
    if (group.instanceCount > 0 && problems.length === 0) {
      const quota = await preflight.checkQuotas({
        region,
        instanceType: group.instanceType,
        instanceCount: group.instanceCount,
        capacityType: group.capacityType,
        ...(group.trainingPlanArn ? { trainingPlanArn: group.trainingPlanArn } : {}),
        availabilityZone: group.availabilityZone,
      });
      for (const p of quota.problems)
        problems.push({ path: p.field, message: `${p.message}${p.remedy ? ` ${p.remedy}` : ''}` });
    }
    if (problems.length)
      throw new PreconditionError({
        message: `The instance group cannot be added as asked: ${problems.map((p) => `${p.path}: ${p.message}`).join(' ')}`,
        problems,
      });
  }

  private views() {
    return this.deps.service(clusters).views;
  }
}
