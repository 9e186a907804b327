import { z } from 'zod';
import type { NodeAction } from '../../domain/instance-groups.js';
import { ClusterRefSchema, RegionSchema } from '../../domain/schemas/common.js';
import {
  ClusterEventsSchema,
  DeleteNodesRequestSchema,
  ListClusterEventsQuerySchema,
  ListNodesQuerySchema,
  NodeDetailSchema,
  NodeIdSchema,
  NodeListSchema,
  RebootNodesRequestSchema,
  ReplaceNodesRequestSchema,
  StartDeepHealthCheckRequestSchema,
} from '../../domain/schemas/nodes.js';
import { AcceptedSchema } from '../../domain/schemas/operations.js';
import { accepted, idempotencyKey } from '../../api/accepted.js';
import type { RouteContext } from '../capability.js';
import type { NodeService } from './service.js';
import { NODE_PATHS } from './paths.js';

const ClusterParams = z.object({ name: ClusterRefSchema });
const NodeParams = z.object({ name: ClusterRefSchema, nodeId: NodeIdSchema });
const RegionQuery = z.object({ region: RegionSchema.optional() }).strict();

const ESCALATION = 'Escalate in order: investigate (node detail, events) → reboot → replace.';
const AS_OPERATION =
  'The answer is an operation (202): it ends when every node reached a terminal state for the action, and its result has one entry per node (succeeded, or failed with code and message). ' +
  'An entry of nodeIds that is not a node id is refused for that node alone; the others go ahead.';

const ACTIONS: Array<{ action: NodeAction; body: z.ZodType; summary: string; description: string }> = [
  {
    action: 'reboot',
    body: RebootNodesRequestSchema,
    summary: 'Reboot nodes (BatchRebootClusterNodes, 25 per call): an operation with per-node results',
    description: `The first remedy after investigating: the instance and its volumes stay. Each node ends Running again (succeeded) or failed. ${ESCALATION} ${AS_OPERATION}`,
  },
  {
    action: 'replace',
    body: ReplaceNodesRequestSchema,
    summary:
      'Replace nodes with new hardware (BatchReplaceClusterNodes): an operation; destructive, needs confirm: true',
    description: `Terminates each instance and launches a new one in its place; local data on its volumes is lost. Each node ends with its replacement Running (its result names the new instance id) or failed. Refused without "confirm": true. ${ESCALATION} ${AS_OPERATION}`,
  },
  {
    action: 'delete',
    body: DeleteNodesRequestSchema,
    summary:
      'Delete nodes and shrink their groups (BatchDeleteClusterNodes): an operation; destructive, needs confirm: true',
    description: `Terminates the instances and gives the capacity back; each node ends gone (succeeded) or failed. Refused without "confirm": true. To heal a node, reboot or replace it instead. ${ESCALATION} ${AS_OPERATION}`,
  },
];

/** What a browser names to watch a cluster's nodes over the WebSocket. */
const NodesTopicParams = z.object({ cluster: ClusterRefSchema, region: RegionSchema.optional() }).strict();

export function registerNodeRoutes({ app, routes, service, region, live }: RouteContext<NodeService>): void {
  // Node changes reach an open cluster page at once (a fault at 20× sandbox speed is healed before a 10 s refresh).
  live.define('nodes', {
    params: NodesTopicParams,
    watch: (p, changed) => service().views.watches.watch(region(p.region), p.cluster, changed),
  });

  routes.define(
    app,
    {
      method: 'GET',
      url: NODE_PATHS.list,
      operationId: 'listNodes',
      tags: ['nodes'],
      summary: 'Nodes of a cluster with one health verdict each, filtered and paged on the server',
      description:
        "SageMaker's ListClusterNodes joined with the Kubernetes Nodes (health labels, conditions, allocatable GPUs/EFA, pods). `counts` gives the health states of the nodes matching group and zone, so a UI can show them next to the health filter.",
      params: ClusterParams,
      query: ListNodesQuerySchema,
      responses: { 200: { description: 'One page of nodes', schema: NodeListSchema } },
    },
    async ({ params, query }) => service().views.list(region(query.region), params.name, query),
  );

  routes.define(
    app,
    {
      method: 'GET',
      url: NODE_PATHS.one,
      operationId: 'getNode',
      tags: ['nodes'],
      summary: "One node: SageMaker's and Kubernetes' view, health verdict, conditions, pods and recent events",
      params: NodeParams,
      query: RegionQuery,
      responses: { 200: { description: 'The node', schema: NodeDetailSchema } },
    },
    async ({ params, query }) => service().views.get(region(query.region), params.name, params.nodeId),
  );

  for (const a of ACTIONS) {
    routes.define(
      app,
      {
        method: 'POST',
        url: NODE_PATHS[a.action],
        operationId: `${a.action}Nodes`,
        tags: ['nodes'],
        summary: a.summary,
        description: a.description,
        params: ClusterParams,
        body: a.body,
        // Reboot interrupts the node's work, replace loses its local data, delete gives it back: admin tokens only.
        destructive: true,
        responses: {
          202: { description: 'Operation accepted; its result has the per-node results', schema: AcceptedSchema },
        },
      },
      async ({ params, body, request }) => {
        const b = body as { region?: string; nodeIds: string[] };
        return accepted(
          await service().act(region(b.region), params.name, a.action, b.nodeIds, idempotencyKey(request)),
        );
      },
    );
  }

  routes.define(
    app,
    {
      method: 'POST',
      url: NODE_PATHS.deepHealthCheck,
      operationId: 'startDeepHealthCheck',
      tags: ['nodes'],
      summary:
        'Run deep health checks (GPU/Neuron stress, EFA connectivity) on chosen nodes of a group: an operation with per-node results',
      description: `StartClusterHealthCheck. The nodes take no new work until the checks end; each node ends Running again (passed) or failed. A node that is not a Running node of the group is refused for itself alone. ${AS_OPERATION}`,
      params: ClusterParams,
      body: StartDeepHealthCheckRequestSchema,
      responses: {
        202: { description: 'Operation accepted; its result has the per-node results', schema: AcceptedSchema },
      },
    },
    async ({ params, body, request }) =>
      accepted(await service().deepHealthCheck(region(body.region), params.name, body, idempotencyKey(request))),
  );

  routes.define(
    app,
    {
      method: 'GET',
      url: NODE_PATHS.events,
      operationId: 'listClusterEvents',
      tags: ['nodes'],
      summary: "The cluster's event timeline: HyperPod cluster events and Kubernetes node events, newest first",
      params: ClusterParams,
      query: ListClusterEventsQuerySchema,
      responses: { 200: { description: 'Events, newest first', schema: ClusterEventsSchema } },
    },
    async ({ params, query }) => service().views.events(region(query.region), params.name, query),
  );
}
