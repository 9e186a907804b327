import { z } from 'zod';
import type { NodeAction } from '../../domain/instance-groups.js';
import { ClusterRefSchema, RegionSchema } from '../../domain/schemas/common.js';
import {
  ClusterEventsSchema,
  DeleteNodesRequestSchema,
  ListClusterEventsQuerySchema,
  ListNodesQuerySchema,
  NodeActionResultsSchema,
  NodeDetailSchema,
  NodeIdSchema,
  NodeListSchema,
  RebootNodesRequestSchema,
  ReplaceNodesRequestSchema,
  StartDeepHealthCheckRequestSchema,
} from '../../domain/schemas/nodes.js';
import type { RouteContext } from '../capability.js';
import type { NodeViews } from './views.js';
import { NODE_PATHS } from './paths.js';

const ClusterParams = z.object({ name: ClusterRefSchema });
const NodeParams = z.object({ name: ClusterRefSchema, nodeId: NodeIdSchema });
const RegionQuery = z.object({ region: RegionSchema.optional() }).strict();

const ESCALATION = 'Escalate in order: investigate (node detail, events) → reboot → replace.';

const ACTIONS: Array<{ action: NodeAction; body: z.ZodType; summary: string; description: string }> = [
  {
    action: 'reboot',
    body: RebootNodesRequestSchema,
    summary: 'Reboot nodes (BatchRebootClusterNodes, 25 per call); per-node results',
    description: `The first remedy after investigating: the instance and its volumes stay. ${ESCALATION}`,
  },
  {
    action: 'replace',
    body: ReplaceNodesRequestSchema,
    summary: 'Replace nodes with new hardware (BatchReplaceClusterNodes); destructive, needs confirm: true',
    description: `Terminates each instance and launches a new one in its place; local data on its volumes is lost. Refused without "confirm": true. ${ESCALATION}`,
  },
  {
    action: 'delete',
    body: DeleteNodesRequestSchema,
    summary: 'Delete nodes and shrink their groups (BatchDeleteClusterNodes); destructive, needs confirm: true',
    description: `Terminates the instances and gives the capacity back. Refused without "confirm": true. To heal a node, reboot or replace it instead. ${ESCALATION}`,
  },
];

/** What a browser names to watch a cluster's nodes over the WebSocket. */
const NodesTopicParams = z.object({ cluster: ClusterRefSchema, region: RegionSchema.optional() }).strict();

export function registerNodeRoutes({ app, routes, service, region, live }: RouteContext<NodeViews>): void {
  // Node changes reach an open cluster page at once (a fault at 20× sandbox speed is healed before a 10 s refresh).
  live.define('nodes', { params: NodesTopicParams, watch: (p, changed) => service().watches.watch(region(p.region), p.cluster, changed) });

  routes.define(
    app,
    {
      method: 'GET', url: NODE_PATHS.list, operationId: 'listNodes', tags: ['nodes'],
      summary: 'Nodes of a cluster with one health verdict each, filtered and paged on the server',
      description: 'SageMaker\'s ListClusterNodes joined with the Kubernetes Nodes (health labels, conditions, allocatable GPUs/EFA, pods). `counts` gives the health states of the nodes matching group and zone, so a UI can show them next to the health filter.',
      params: ClusterParams, query: ListNodesQuerySchema,
      responses: { 200: { description: 'One page of nodes', schema: NodeListSchema } },
    },
    async ({ params, query }) => service().list(region(query.region), params.name, query),
  );

  routes.define(
    app,
    {
      method: 'GET', url: NODE_PATHS.one, operationId: 'getNode', tags: ['nodes'],
      summary: 'One node: SageMaker\'s and Kubernetes\' view, health verdict, conditions, pods and recent events',
      params: NodeParams, query: RegionQuery,
      responses: { 200: { description: 'The node', schema: NodeDetailSchema } },
    },
    async ({ params, query }) => service().get(region(query.region), params.name, params.nodeId),
  );

  for (const a of ACTIONS) {
    routes.define(
      app,
      {
        method: 'POST', url: NODE_PATHS[a.action], operationId: `${a.action}Nodes`, tags: ['nodes'],
        summary: a.summary, description: a.description,
        params: ClusterParams, body: a.body,
        responses: { 200: { description: 'Per-node results', schema: NodeActionResultsSchema } },
      },
      async ({ params, body }) => {
        const b = body as { region?: string; nodeIds: string[] };
        return service().act(region(b.region), params.name, a.action, b.nodeIds);
      },
    );
  }

  routes.define(
    app,
    {
      method: 'POST', url: NODE_PATHS.deepHealthCheck, operationId: 'startDeepHealthCheck', tags: ['nodes'],
      summary: 'Run deep health checks (GPU/Neuron stress, EFA connectivity) on chosen nodes of a group',
      description: 'StartClusterHealthCheck. The nodes take no new work until the checks end; follow their health (transitional, then healthy or failed).',
      params: ClusterParams, body: StartDeepHealthCheckRequestSchema,
      responses: { 200: { description: 'The nodes the checks started on', schema: NodeActionResultsSchema } },
    },
    async ({ params, body }) => service().deepHealthCheck(region(body.region), params.name, body),
  );

  routes.define(
    app,
    {
      method: 'GET', url: NODE_PATHS.events, operationId: 'listClusterEvents', tags: ['nodes'],
      summary: 'The cluster\'s event timeline: HyperPod cluster events and Kubernetes node events, newest first',
      params: ClusterParams, query: ListClusterEventsQuerySchema,
      responses: { 200: { description: 'Events, newest first', schema: ClusterEventsSchema } },
    },
    async ({ params, query }) => service().events(region(query.region), params.name, query),
  );
}
