import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { InputError, PreconditionError } from '../../domain/errors.js';
import { diffInstanceGroup, isImmutableGroupField, throwIfRefused, type InstanceGroupSpec } from '../../domain/instance-groups.js';
import { ClusterRefSchema, RegionSchema } from '../../domain/schemas/common.js';
import {
  AddInstanceGroupRequestSchema,
  InstanceGroupNameSchema,
  InstanceGroupViewSchema,
  UpdateInstanceGroupRequestSchema,
} from '../../domain/schemas/instance-groups.js';
import { AcceptedSchema } from '../../domain/schemas/operations.js';
import { accepted, idempotencyKey } from '../accepted.js';
import type { ApiContext } from '../context.js';
import { parseOrThrow } from '../problem.js';
import type { RouteRegistry } from '../route.js';

const ClusterParams = z.object({ name: ClusterRefSchema });
const GroupParams = z.object({ name: ClusterRefSchema, group: InstanceGroupNameSchema });
const RegionQuery = z.object({ region: RegionSchema.optional() }).strict();
const DeleteQuery = z
  .object({
    region: RegionSchema.optional(),
    confirm: z.literal('true', 'must be true: deleting an instance group terminates its nodes').describe('Must be "true": the group\'s nodes are terminated.'),
  })
  .strict();

export function registerInstanceGroupRoutes(app: FastifyInstance, routes: RouteRegistry, ctx: ApiContext): void {
  const region = (r?: string) => r ?? ctx.config.region;

  routes.define(
    app,
    {
      method: 'GET', url: '/api/v1/clusters/{name}/instance-groups', operationId: 'listInstanceGroups', tags: ['instance-groups'],
      summary: 'Instance groups of a cluster with capacity type, EFA mode, subnets and counts',
      params: ClusterParams, query: RegionQuery,
      responses: { 200: { description: 'Instance groups', schema: z.object({ cluster: z.string(), region: z.string(), instanceGroups: z.array(InstanceGroupViewSchema) }) } },
    },
    async ({ params, query }) => ({ cluster: params.name, region: region(query.region), instanceGroups: await ctx.clusters.instanceGroups(region(query.region), params.name) }),
  );

  routes.define(
    app,
    {
      method: 'POST', url: '/api/v1/clusters/{name}/instance-groups', operationId: 'addInstanceGroup', tags: ['instance-groups'], idempotent: true,
      summary: 'Add an instance group: capacity type, network interface mode and placement (/20 compute subnet of the zone) in one create',
      description: 'Checked first (type offered in the zone, EFA support, spot support, quotas, training plan): any problem answers 422 naming the field. Capacity type, EFA mode, instance type and zone are then fixed for the group\'s lifetime.',
      params: ClusterParams, body: AddInstanceGroupRequestSchema,
      responses: { 202: { description: 'Operation accepted', schema: AcceptedSchema } },
    },
    async ({ params, body, request }) => {
      const r = region(body.region);
      const key = idempotencyKey(request);
      const existing = (await ctx.clusters.instanceGroups(r, params.name)).find((g) => g.name === body.name);
      const repeat = (key && ctx.operations.byIdempotencyKey(key)) || existing?.activeOperation;
      if (existing && !repeat) throw InputError.field('name', `cluster ${params.name} already has an instance group '${body.name}'`);
      if (!repeat) await preflightGroup(ctx, r, body);
      const { region: _r, ...group } = body;
      return accepted(ctx.operations.start('add-instance-group', { ...group, cluster: params.name, region: r }, { idempotencyKey: key }));
    },
  );

  routes.define(
    app,
    {
      method: 'PATCH', url: '/api/v1/clusters/{name}/instance-groups/{group}', operationId: 'updateInstanceGroup', tags: ['instance-groups'], idempotent: true,
      summary: 'Change a group (send only what changes): count, labels, taints, deep health checks, lifecycle scripts, scheduled and automatic patching',
      description: 'The request is compared with the group as HyperPod describes it: fixed fields are refused (422, naming the field and why) before AWS is called; only fields that really differ are sent (one UpdateCluster restating the rest as described); when nothing differs the operation succeeds without any AWS mutation (diff contract).',
      params: GroupParams, body: UpdateInstanceGroupRequestSchema, parseBody: parseUpdate,
      responses: { 202: { description: 'Operation accepted', schema: AcceptedSchema } },
    },
    async ({ params, body, request }) => {
      const r = region(body.region);
      const current = await ctx.clusters.groupSpec(r, params.name, params.group);
      if (!current) throw InputError.field('group', `cluster ${params.name} has no instance group '${params.group}'`);
      const { region: _r, ...requested } = body;
      // The same instant written two ways is no change: compare ISO forms.
      if (requested.autoPatch?.nextPatchDate) requested.autoPatch = { ...requested.autoPatch, nextPatchDate: new Date(requested.autoPatch.nextPatchDate).toISOString() };
      const diff = diffInstanceGroup(current, requested as Partial<InstanceGroupSpec>);
      throwIfRefused(diff);
      const { instanceCount, ...settings } = diff.changes;
      const key = idempotencyKey(request);
      const group = { cluster: params.name, region: r, name: params.group };
      if (Object.keys(settings).length === 0) {
        // Only the count (or nothing) differs: the scale operation no-ops when the count already holds.
        return accepted(ctx.operations.start('scale-instance-group', { ...group, instanceCount: instanceCount ?? current.instanceCount }, { idempotencyKey: key }));
      }
      return accepted(ctx.operations.start('update-instance-group', { ...group, changes: settings, ...(instanceCount !== undefined ? { instanceCount } : {}) }, { idempotencyKey: key }));
    },
  );

  routes.define(
    app,
    {
      method: 'DELETE', url: '/api/v1/clusters/{name}/instance-groups/{group}', operationId: 'deleteInstanceGroup', tags: ['instance-groups'], idempotent: true,
      summary: 'Delete an instance group and terminate its nodes (confirm=true required)',
      params: GroupParams, query: DeleteQuery,
      responses: { 202: { description: 'Operation accepted', schema: AcceptedSchema } },
    },
    async ({ params, query, request }) =>
      accepted(ctx.operations.start('delete-instance-group', { cluster: params.name, region: region(query.region), name: params.group }, { idempotencyKey: idempotencyKey(request) })),
  );
}

/** Immutable fields are a precondition of the group's life (422), other mistakes plain bad input (400). */
function parseUpdate(body: unknown) {
  try {
    return parseOrThrow(UpdateInstanceGroupRequestSchema, body, 'body');
  } catch (err) {
    if (err instanceof InputError && err.problems.some((p) => isImmutableGroupField(p.path))) {
      throw new PreconditionError(`These fields are fixed for the group's lifetime: ${err.problems.map((p) => `${p.path} (${p.message})`).join('; ')}.`, err.problems);
    }
    throw err;
  }
}

/** Zone offers the type, EFA only for EFA types, spot only for spot types, quotas and plan fit. */
async function preflightGroup(ctx: ApiContext, region: string, body: z.output<typeof AddInstanceGroupRequestSchema>): Promise<void> {
  const types = await ctx.preflight.instanceTypes(region, body.availabilityZone);
  const type = types.find((t) => t.instanceType === body.instanceType);
  const problems: Array<{ path: string; message: string }> = [];
  if (!type) problems.push({ path: 'instanceType', message: `${body.instanceType} is not offered for HyperPod in ${body.availabilityZone}` });
  if (type && body.networkInterface && !type.efaSupported) problems.push({ path: 'networkInterface', message: `${body.instanceType} does not support EFA, so '${body.networkInterface}' is not available` });
  if (type && body.capacityType === 'spot' && !type.spotSupported) problems.push({ path: 'capacityType', message: `${body.instanceType} is not offered as spot capacity` });
  if (body.instanceCount > 0 && problems.length === 0) {
    const quota = await ctx.preflight.checkQuotas({
      region,
      instanceType: body.instanceType,
      instanceCount: body.instanceCount,
      capacityType: body.capacityType,
      ...(body.trainingPlanArn ? { trainingPlanArn: body.trainingPlanArn } : {}),
      availabilityZone: body.availabilityZone,
    });
    for (const p of quota.problems) problems.push({ path: p.field, message: `${p.message}${p.remedy ? ` ${p.remedy}` : ''}` });
  }
  if (problems.length) throw new PreconditionError(`The instance group cannot be added as asked: ${problems.map((p) => `${p.path}: ${p.message}`).join(' ')}`, problems);
}
