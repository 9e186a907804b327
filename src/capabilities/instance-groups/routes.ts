import { z } from 'zod';
import { InputError, PreconditionError } from '../../domain/errors.js';
import { isImmutableGroupField } from '../../domain/instance-groups.js';
import { ClusterRefSchema, RegionSchema } from '../../domain/schemas/common.js';
import {
  AddInstanceGroupRequestSchema,
  InstanceGroupNameSchema,
  InstanceGroupViewSchema,
  ScaleInstanceGroupRequestSchema,
  ScalePreflightResultSchema,
  UpdateInstanceGroupRequestSchema,
} from '../../domain/schemas/instance-groups.js';
import { AcceptedSchema } from '../../domain/schemas/operations.js';
import { accepted, idempotencyKey } from '../../api/accepted.js';
import { parseOrThrow } from '../../api/problem.js';
import type { RouteContext } from '../capability.js';
import type { InstanceGroupService } from './service.js';
import { InstanceGroupPlanSchema } from '../../domain/schemas/plans.js';
import { GROUP_PATHS } from './paths.js';

const ClusterParams = z.object({ name: ClusterRefSchema });
const GroupParams = z.object({ name: ClusterRefSchema, group: InstanceGroupNameSchema });
const RegionQuery = z.object({ region: RegionSchema.optional() }).strict();
const DeleteQuery = z
  .object({
    region: RegionSchema.optional(),
    confirm: z
      .literal('true', 'must be true: deleting an instance group terminates its nodes')
      .describe('Must be "true": the group\'s nodes are terminated.'),
  })
  .strict();

export function registerInstanceGroupRoutes({
  app,
  routes,
  service,
  region,
}: RouteContext<InstanceGroupService>): void {
  routes.define(
    app,
    {
      method: 'GET',
      url: GROUP_PATHS.list,
      operationId: 'listInstanceGroups',
      tags: ['instance-groups'],
      summary: 'Instance groups of a cluster with capacity type, EFA mode, subnets and counts',
      params: ClusterParams,
      query: RegionQuery,
      responses: {
        200: {
          description: 'Instance groups',
          schema: z.object({
            cluster: z.string(),
            region: z.string(),
            instanceGroups: z.array(InstanceGroupViewSchema),
          }),
        },
      },
    },
    async ({ params, query }) => ({
      cluster: params.name,
      region: region(query.region),
      instanceGroups: await service().list(region(query.region), params.name),
    }),
  );

  routes.define(
    app,
    {
      method: 'POST',
      url: GROUP_PATHS.plan,
      operationId: 'planInstanceGroup',
      readOnly: true,
      tags: ['instance-groups'],
      summary: 'Plan adding an instance group: what it would make and what it adds per hour (changes nothing)',
      description:
        "Takes the add-instance-group request. The add's checks first (422 naming the field); then the compute subnet of the zone when the cluster has none there, the group, and its instances' hourly cost from the AWS Price List API with the price's source and date. Only reads.",
      params: ClusterParams,
      body: AddInstanceGroupRequestSchema,
      responses: { 200: { description: 'The plan', schema: InstanceGroupPlanSchema } },
    },
    async ({ params, body }) => {
      const { region: r, ...group } = body;
      return service().plan(region(r), params.name, group);
    },
  );

  routes.define(
    app,
    {
      method: 'POST',
      url: GROUP_PATHS.list,
      operationId: 'addInstanceGroup',
      tags: ['instance-groups'],
      summary:
        'Add an instance group: capacity type, network interface mode and placement (/20 compute subnet of the zone) in one create',
      description:
        "Checked first (type offered in the zone, EFA support, spot support, quotas, training plan): any problem answers 422 naming the field. Capacity type, EFA mode, instance type and zone are then fixed for the group's lifetime.",
      params: ClusterParams,
      body: AddInstanceGroupRequestSchema,
      responses: { 202: { description: 'Operation accepted', schema: AcceptedSchema } },
    },
    async ({ params, body, request }) => {
      const { region: r, ...group } = body;
      return accepted(await service().add(region(r), params.name, group, idempotencyKey(request)));
    },
  );

  routes.define(
    app,
    {
      method: 'PATCH',
      url: GROUP_PATHS.one,
      operationId: 'updateInstanceGroup',
      tags: ['instance-groups'],
      summary:
        'Change a group (send only what changes): count, labels, taints, deep health checks, lifecycle scripts, scheduled and automatic patching',
      description:
        "The request is compared with the group as HyperPod describes it: fixed fields are refused (422, naming the field and why) before AWS is called; only fields that really differ are sent (one UpdateCluster restating the rest as described); when nothing differs the operation succeeds without any AWS mutation (diff contract). A growing instanceCount runs the scale preflight (quotas, training plan; 422 naming the quota and the fix). A count lower than the group's terminates nodes: it needs confirm: true, else 422 naming confirm, before AWS is called.",
      params: GroupParams,
      body: UpdateInstanceGroupRequestSchema,
      parseBody: parseUpdate,
      responses: { 202: { description: 'Operation accepted', schema: AcceptedSchema } },
    },
    async ({ params, body, request }) =>
      accepted(
        await service().update(
          { cluster: params.name, region: region(body.region), name: params.group },
          body,
          idempotencyKey(request),
        ),
      ),
  );

  routes.define(
    app,
    {
      method: 'POST',
      url: GROUP_PATHS.scalePreflight,
      operationId: 'checkScaleInstanceGroup',
      readOnly: true,
      tags: ['instance-groups', 'preflight'],
      summary:
        "Check a scale without changing anything: the create's quota and training-plan checks, for what the new count adds",
      description:
        "Read-only. Growth from the group's target to instanceCount must fit the type's quota, the account's total, the per-cluster limit and the group's training plan; a shrink adds nothing and passes. PATCH runs the same check and refuses a failing growth with 422.",
      params: GroupParams,
      body: ScaleInstanceGroupRequestSchema,
      responses: {
        200: {
          description: 'Findings; problems name the field, the quota and how to raise it',
          schema: ScalePreflightResultSchema,
        },
      },
    },
    async ({ params, body }) =>
      service().checkScale(
        { cluster: params.name, region: region(body.region), name: params.group },
        body.instanceCount,
      ),
  );

  routes.define(
    app,
    {
      method: 'DELETE',
      url: GROUP_PATHS.one,
      operationId: 'deleteInstanceGroup',
      tags: ['instance-groups'],
      summary: 'Delete an instance group and terminate its nodes (confirm=true required)',
      params: GroupParams,
      query: DeleteQuery,
      responses: { 202: { description: 'Operation accepted', schema: AcceptedSchema } },
    },
    async ({ params, query, request }) =>
      accepted(
        service().delete(
          { cluster: params.name, region: region(query.region), name: params.group },
          idempotencyKey(request),
        ),
      ),
  );
}

/** Immutable fields are a precondition of the group's life (422), other mistakes plain bad input (400). */
function parseUpdate(body: unknown) {
  try {
    return parseOrThrow(UpdateInstanceGroupRequestSchema, body, 'body');
  } catch (err) {
    if (err instanceof InputError && err.problems.some((p) => isImmutableGroupField(p.path))) {
      throw new PreconditionError({
        message: `These fields are fixed for the group's lifetime: ${err.problems.map((p) => `${p.path} (${p.message})`).join('; ')}.`,
        problems: err.problems,
      });
    }
    throw err;
  }
}
