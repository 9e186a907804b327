import { autoscalingRefusals } from '../../domain/autoscaling.js';
import { PreconditionError } from '../../domain/errors.js';
import { clusterTarget } from '../../domain/naming.js';
import type { AutoscalingView } from '../../domain/schemas/autoscaling.js';
import type { OperationView } from '../../domain/schemas/operations.js';
import type { ServiceDeps } from '../capability.js';
import { clusters } from '../clusters/index.js';
import { readAutoscaling } from './view.js';

type Started = { operation: OperationView; existing: boolean };
const target = (region: string, cluster: string) => `${clusterTarget(region, cluster)}/autoscaling`;

/** The rules of managed autoscaling: which groups it may scale, checked before AWS is called. */
export class AutoscalingService {
  constructor(private readonly deps: ServiceDeps) {}

  /** HyperPod's and Karpenter's view, with the operation changing it (if one runs). */
  async get(
    region: string,
    cluster: string,
  ): Promise<AutoscalingView & { activeOperation?: { id: string; kind: string; status: string } }> {
    const view = await readAutoscaling(this.deps.cloud, region, cluster);
    const op = this.deps.operations.activeFor(target(region, cluster));
    return { ...view, ...(op ? { activeOperation: { id: op.id, kind: op.kind, status: op.status } } : {}) };
  }

  /** Enabling refuses unknown groups, groups on training plans and groups with deep health checks (422 naming instanceGroups). */
  async set(
    region: string,
    cluster: string,
    request: { enabled: boolean; instanceGroups?: string[] },
    idempotencyKey?: string,
  ): Promise<Started> {
    if (request.enabled) await this.checkGroups(region, cluster, request.instanceGroups!);
    const input = {
      cluster,
      region,
      enabled: request.enabled,
      ...(request.instanceGroups ? { instanceGroups: request.instanceGroups } : {}),
    };
    return this.deps.operations.start('set-autoscaling', input, { idempotencyKey });
  }

  /**
   * Refuses groups autoscaling cannot scale (422, each problem on `instanceGroups` or `enabled`;
   * `field` renames that path, e.g. `autoscaling.instanceGroups` for the features API).
   */
  async checkGroups(
    region: string,
    cluster: string,
    instanceGroups: string[],
    field?: (path: string) => string,
  ): Promise<void> {
    const [view, groups] = await Promise.all([
      readAutoscaling(this.deps.cloud, region, cluster),
      this.deps.service(clusters).views.instanceGroups(region, cluster),
    ]);
    const candidates = groups.map((g) => ({
      name: g.name,
      trainingPlan: g.capacityType === 'training-plan',
      deepHealthChecks: g.deepHealthChecks,
    }));
    const problems = autoscalingRefusals(cluster, view.continuous, candidates, instanceGroups).map((p) =>
      field ? { ...p, path: field(p.path) } : p,
    );
    if (problems.length)
      throw new PreconditionError({
        message: `Autoscaling cannot be enabled as asked: ${problems.map((p) => `${p.path}: ${p.message}`).join('; ')}.`,
        problems,
      });
  }
}
