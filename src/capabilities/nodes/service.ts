import { InputError } from '../../domain/errors.js';
import type { NodeAction } from '../../domain/instance-groups.js';
import { clusterOfTarget } from '../../domain/naming.js';
import { NODE_ACTION_KINDS, type StartDeepHealthCheckRequest } from '../../domain/schemas/nodes.js';
import type { OperationSnapshot, OperationView } from '../../domain/schemas/operations.js';
import { describeHyperPod } from '../../workflows/cluster-access.js';
import type { ServiceDeps } from '../capability.js';
import { NodeViews } from './views.js';

type Started = { operation: OperationView; existing: boolean };
const ACTION_KINDS = new Set<string>(Object.values(NODE_ACTION_KINDS));

/**
 * The nodes capability: its read models (`views`) and its actions, each a durable operation
 * (workflows/node-action.ts) that ends when every node reached a terminal state for the action.
 */
export class NodeService {
  readonly views: NodeViews;

  constructor(private readonly deps: ServiceDeps) {
    this.views = new NodeViews(deps.cloud);
    // A node action changes what the nodes look like: listings read afresh as it moves on and ends.
    deps.operations.on('operation', (op: OperationSnapshot) => {
      const c = ACTION_KINDS.has(op.kind) ? clusterOfTarget(op.target) : undefined;
      if (c) this.views.forget(c.region, c.name);
    });
  }

  /**
   * Reboot, replace or delete nodes: an operation (a repeat of the same request while it runs gets it
   * back; another action on one of its nodes is a 409 naming it).
   * An unknown cluster is a 404 before anything starts.
   */
  async act(
    region: string,
    cluster: string,
    action: NodeAction,
    nodeIds: string[],
    idempotencyKey?: string,
  ): Promise<Started> {
    await describeHyperPod(this.deps.cloud, region, cluster);
    return this.deps.operations.start(NODE_ACTION_KINDS[action], { cluster, region, nodeIds }, { idempotencyKey });
  }

  /** Deep health checks on named nodes of a group, or on every node of it: the operation names them. */
  async deepHealthCheck(
    region: string,
    cluster: string,
    req: StartDeepHealthCheckRequest,
    idempotencyKey?: string,
  ): Promise<Started> {
    const hp = await describeHyperPod(this.deps.cloud, region, cluster);
    if (!hp.InstanceGroups?.some((g) => g.InstanceGroupName === req.instanceGroupName)) {
      throw InputError.field(
        'instanceGroupName',
        `cluster ${cluster} has no instance group '${req.instanceGroupName}'`,
      );
    }
    const nodeIds =
      req.nodeIds ??
      (await this.deps.cloud.hyperpodNodes.listAll(region, cluster, req.instanceGroupName))
        .filter((n) => n.InstanceGroupName === req.instanceGroupName && n.InstanceId)
        .map((n) => n.InstanceId!);
    if (nodeIds.length === 0)
      throw InputError.field('instanceGroupName', `instance group '${req.instanceGroupName}' has no nodes to check`);
    return this.deps.operations.start(
      NODE_ACTION_KINDS['deep-health-check'],
      { cluster, region, instanceGroupName: req.instanceGroupName, nodeIds, checks: req.checks },
      { idempotencyKey },
    );
  }
}
