import { canonicalJson } from '../../domain/canonical-json.js';
import { NotFoundError, PreconditionError } from '../../domain/errors.js';
import { clusterTarget } from '../../domain/naming.js';
import { kubernetesVersionRangeProblem } from '../../domain/preflight-kubernetes.js';
import type { PreflightProblem } from '../../domain/schemas/preflight.js';
import { settledAnswer } from '../../domain/settled-answer.js';
import {
  CreateClusterInputSchema,
  type ClusterDetail,
  type ClusterSummary,
  type CreateClusterRequest,
  type DeleteClusterInput,
  type DeletePlan,
} from '../../domain/schemas/clusters.js';
import { deletePlan } from './delete-plan.js';
import type { ClusterCost, ClusterPlan } from '../../domain/schemas/plans.js';
import { hourlyCost } from '../../domain/hourly-cost.js';
import { createClusterWorkflow } from './workflows/create-cluster/index.js';
import { createCost, createPlanFacts, plannedMutations } from './workflows/create-cluster/plan.js';
import type { OperationView } from '../../domain/schemas/operations.js';
import { mapLimited } from '../../cloud/aws/catalog/paginate.js';
import type { ClusterHealth } from '../../domain/cluster-health.js';
import { catalog } from '../catalog/index.js';
import { nodes } from '../nodes/index.js';
import type { ClusterServiceDeps } from './ports.js';
import { ClusterViews, operationsLookup } from './views.js';

type Started = { operation: OperationView; existing: boolean };

/** A 422 naming each problem's field, with its fix. */
function preconditionFailed(problems: readonly PreflightProblem[]): PreconditionError {
  return new PreconditionError({
    message: `The cluster cannot be created as asked: ${problems.map((p) => p.message).join(' ')}`,
    problems: problems.map((p) => ({ path: p.field, message: `${p.message}${p.remedy ? ` ${p.remedy}` : ''}` })),
    remedy:
      problems
        .map((p) => p.remedy)
        .filter(Boolean)
        .join(' ') || undefined,
  });
}

/** Cluster statuses whose nodes are worth a health read (Creating/Deleting/Failed say it all). */
const NODES_READABLE = new Set(['InService', 'Updating', 'SystemUpdating', 'RollingBack']);
/** Node snapshots read at once for the list: each is one cluster's DescribeCluster, ListClusterNodes and Node list. */
const HEALTH_READS_AT_ONCE = 4;
/** How long a cluster whose nodes could not be read is listed without health before it is tried again. */
const UNREADABLE_HEALTH_MS = 30_000;

/** The rules of clusters: what a create must pass before anything is made, and the active cluster. */
export class ClusterService {
  readonly views: ClusterViews;
  /** Clusters whose node read failed, until when their health is not asked again (see `health`). */
  private readonly unreadable = new Map<string, number>();
  /** The last list answer per Region and what it was made of: the same parts give the same (settled) answer. */
  private readonly lists = new Map<
    string,
    { clusters: ClusterSummary[]; healths: Array<ClusterHealth | undefined>; out: ClusterSummary[] }
  >();

  constructor(private readonly deps: ClusterServiceDeps) {
    this.views = new ClusterViews(deps.cloud, operationsLookup(deps.operations), deps.activeCluster);
  }

  /** Each cluster with its health rolled up (from the node views' shared snapshot; a few clusters at once). */
  async list(region: string): Promise<ClusterSummary[]> {
    const clusters = await this.views.list(region);
    const healths = await mapLimited(clusters, HEALTH_READS_AT_ONCE, (c) => this.health(region, c));
    const last = this.lists.get(region);
    if (last && last.clusters === clusters && healths.every((h, i) => h === last.healths[i])) return last.out;
    const out = settledAnswer(clusters.map((c, i) => (healths[i] ? { ...c, health: healths[i] } : c)));
    this.lists.set(region, { clusters, healths, out });
    return out;
  }

  async get(region: string, name: string): Promise<ClusterDetail> {
    const detail = await this.views.get(region, name);
    const health = await this.health(region, detail);
    return health ? { ...detail, health } : detail;
  }

  /**
   * The cluster's health from the node views' snapshot — the very read the nodes page and list_nodes
   * use, kept a few seconds and shared by every caller — so the list costs no AWS read per viewer.
   * Only a cluster with nodes to read gets one; a failed read leaves it out (the status still shows).
   */
  private async health(region: string, c: ClusterSummary): Promise<ClusterHealth | undefined> {
    if (!NODES_READABLE.has(c.status)) return undefined;
    const key = `${region}/${c.name}`;
    // A cluster whose nodes cannot be read (its Kubernetes API refuses us, say) is not asked again on every
    // list request: the node views keep no failed read, so without this each list would wait on it anew.
    if ((this.unreadable.get(key) ?? 0) > Date.now()) return undefined;
    try {
      return await this.deps.service(nodes).views.health(region, c.name);
    } catch {
      this.unreadable.set(key, Date.now() + UNREADABLE_HEALTH_MS);
      return undefined;
    }
  }

  /**
   * A repeat (the same request while the cluster's create runs, or as the succeeded create that made
   * the cluster) gets the existing operation, without a preflight that would trip over the half-made
   * cluster; a repeat under the same Idempotency-Key was answered before (src/api/idempotency.ts).
   * Another request while an operation works on the cluster is a 409 naming it (the engine's locks). Otherwise the
   * preflight runs
   * first and any problem is a 422 naming the field and the fix, before anything is created.
   */
  async create(input: CreateClusterRequest & { region: string }, idempotencyKey?: string): Promise<Started> {
    const { operations } = this.deps;
    const repeat = operations.activeFor(clusterTarget(input.region, input.name));
    if (!repeat) {
      // HyperPod's Kubernetes range is documented data: refused before any AWS call.
      const outOfRange = kubernetesVersionRangeProblem(input);
      if (outOfRange) throw preconditionFailed([outOfRange]);
      const made = await this.madeBySameRequest(input);
      if (made) return { operation: made, existing: true };
      const check = await this.deps.service(catalog).checkCreateCluster(input);
      if (!check.ok) throw preconditionFailed(check.problems);
    }
    return operations.start('create-cluster', input, { idempotencyKey });
  }

  /**
   * The succeeded create-cluster that made this very cluster from this very request, while that
   * cluster still stands: an agent retrying after a lost answer (without a key) must get that
   * operation back, not "name taken, quota exceeded". The newest create or delete of the cluster must
   * be that create (a later delete means the name is free again), and HyperPod must still have the
   * cluster (it may have been deleted outside InstantStart). A different request for the name is not
   * a repeat: it goes on to the preflight, which refuses the taken name.
   */
  private async madeBySameRequest(
    input: CreateClusterRequest & { region: string },
  ): Promise<OperationView | undefined> {
    const [newest] = this.deps.operations.list({ target: clusterTarget(input.region, input.name), limit: 1 });
    if (newest?.kind !== 'create-cluster' || newest.status !== 'succeeded') return undefined;
    const asked = CreateClusterInputSchema.safeParse(input);
    if (!asked.success || canonicalJson(asked.data) !== canonicalJson(newest.input)) return undefined;
    const stands = await this.views.get(input.region, input.name).then(
      () => true,
      (err: unknown) => (err instanceof NotFoundError ? false : Promise.reject(err)),
    );
    return stands ? newest : undefined;
  }

  /**
   * What a create with this request would make, phase by phase in the workflow's order, and its hourly cost
   * (docs/PLAN.md). The same checks as the create answer 422 first; nothing is changed (reads only).
   */
  async plan(input: CreateClusterRequest & { region: string }): Promise<ClusterPlan> {
    const outOfRange = kubernetesVersionRangeProblem(input);
    if (outOfRange) throw preconditionFailed([outOfRange]);
    const asked = CreateClusterInputSchema.parse(input);
    const { phases } = createClusterWorkflow(this.deps);
    const [facts, cost] = await Promise.all([
      createPlanFacts(this.deps, asked),
      createCost(this.deps.cloud.pricing, asked),
    ]);
    return {
      cluster: asked.name,
      region: asked.region,
      mutations: plannedMutations(phases, facts),
      cost,
      notes: [
        'Phases that need nothing of each other run side by side (network and IAM; add-ons, features and storage once EKS is active), so AWS sees their calls interleaved.',
        "Each phase looks first and makes only what is missing: a retry, or a name someone already made, makes less. The default features' add-on versions are chosen when they are installed.",
      ],
    };
  }

  /** What the cluster costs per hour now: each instance group's type × current count, the EKS cluster, its NAT gateway. */
  async cost(region: string, name: string): Promise<ClusterCost> {
    const detail = await this.views.get(region, name);
    const pricing = this.deps.cloud.pricing;
    const groups = await Promise.all(
      detail.instanceGroups.map(async (g) => ({
        item: 'hyperpod-instance' as const,
        description: `${g.name}: ${g.currentCount} × ${g.instanceType} (${g.capacityType})`,
        quantity: g.currentCount,
        price:
          g.capacityType === 'training-plan'
            ? undefined
            : await pricing.price(region, { kind: 'hyperpod-instance', instanceType: g.instanceType }),
        ...(g.capacityType === 'training-plan' ? { missing: 'paid up front with the training plan' } : {}),
      })),
    );
    const [eks, nat] = await Promise.all([
      pricing.price(region, { kind: 'eks-cluster' }),
      pricing.price(region, { kind: 'nat-gateway' }),
    ]);
    return {
      cluster: name,
      region,
      cost: hourlyCost([
        ...groups,
        ...(detail.eks
          ? [{ item: 'eks-cluster' as const, description: 'EKS cluster (standard support)', quantity: 1, price: eks }]
          : []),
        {
          item: 'nat-gateway',
          description: 'NAT gateway (hours; data processed billed apart)',
          quantity: 1,
          price: nat,
        },
      ]),
    };
  }

  /** What deleting the cluster removes and keeps, by name; 404 when nothing of it is left to delete. */
  deletePlan(region: string, name: string, keepStorage: boolean): Promise<DeletePlan> {
    return deletePlan(this.deps, { region, name, keepStorage });
  }

  /**
   * Starts delete-cluster with what its plan keeps (the operation keeps exactly that, and its verify
   * allows exactly that); answers the plan with the operation. A repeat (same key, or the delete
   * already running) answers that operation with the plan it was started with.
   */
  async delete(
    input: { name: string; region: string; keepStorage: boolean },
    idempotencyKey?: string,
  ): Promise<Started & { plan: DeletePlan }> {
    const { operations } = this.deps;
    const earlier =
      (idempotencyKey && operations.byIdempotencyKey(idempotencyKey)) ||
      operations.activeFor(clusterTarget(input.region, input.name));
    if (earlier?.kind === 'delete-cluster') {
      // The request as first asked, with the plan it was started with: the engine answers that operation
      // (or 409 when this request is another: another cluster, another keepStorage).
      const first = earlier.input as DeleteClusterInput;
      const again = {
        ...input,
        ...(first.deletes ? { deletes: first.deletes } : {}),
        ...(first.keeps ? { keeps: first.keeps } : {}),
      };
      const started = operations.start('delete-cluster', again, { idempotencyKey });
      return {
        ...started,
        plan: {
          cluster: input.name,
          region: input.region,
          keepStorage: input.keepStorage,
          deletes: first.deletes ?? [],
          keeps: first.keeps ?? [],
        },
      };
    }
    const plan = await this.deletePlan(input.region, input.name, input.keepStorage);
    return {
      ...operations.start('delete-cluster', { ...input, deletes: plan.deletes, keeps: plan.keeps }, { idempotencyKey }),
      plan,
    };
  }

  activeCluster(): { name: string | null; region: string | null } {
    const a = this.deps.activeCluster.get();
    return { name: a?.name ?? null, region: a?.region ?? null };
  }

  /** Only an existing cluster can be the active one (404 otherwise). */
  async setActive(region: string, name: string): Promise<{ name: string; region: string }> {
    await this.views.get(region, name);
    this.deps.activeCluster.set({ name, region });
    return { name, region };
  }
}
