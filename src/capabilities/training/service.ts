import type { HyperPodCluster, KubePort } from '../../cloud/ports.js';
import { NotFoundError } from '../../domain/errors.js';
import type { KeyedCall } from '../../domain/keyed-call.js';
import { clusterOfTarget } from '../../domain/naming.js';
import { HYPERPOD_PYTORCH_JOB, type KubeHyperPodPyTorchJob } from '../../domain/kube/hyperpod-pytorch-job.js';
import { RAY_JOB, type KubeRayJob } from '../../domain/kube/ray-job.js';
import type {
  CreateMlflowServerRequest,
  DeleteMlflowServerAnswer,
  MlflowTrackingServerView,
} from '../../domain/schemas/mlflow.js';
import {
  SubmitTrainingJobRequestSchema,
  type RecipeView,
  type SubmitTrainingJobRequest,
  type TrainingJobList,
  type TrainingJobView,
  type TrainingMetricsAnswer,
} from '../../domain/schemas/training.js';
import { hyperpodJobView, rayJobView } from '../../domain/training/job-view.js';
import { mlflowIdentity } from '../../domain/training/mlflow-identity.js';
import { RECIPES, recipeById, recipeView } from '../../domain/training/recipes/index.js';
import { savedRequest, savedRequestOf, withSavedRequest } from '../../domain/training/resubmit.js';
import { kindOfRequest, trainingManifest } from '../../domain/training/submit.js';
import { describeHyperPod, kubeOfHyperPod } from '../../workflows/cluster-access.js';
import { ReadCache } from '../../workflows/read-cache.js';
import { deleteJob, findJob, jobDetail, jobNotFound, listJobs, requireJob } from './jobs.js';
import { JobLogs } from './logs/job-logs.js';
import { MlflowServers } from './mlflow.js';
import type { TrainingServiceDeps } from './ports.js';
import { checkNameAndKind, submitFacts } from './submit-facts.js';
import { submittedUnder, withSubmitKey } from './submit-key.js';
import { TrainingTemplates } from './templates.js';

/**
 * The training capability's rules (docs/TRAINING.md). Jobs are Kubernetes objects, not operations:
 * a submit reads the facts, lets the domain decide (trainingManifest refuses before anything is
 * created), makes the MLflow identity when the job reports to MLflow, and applies the one object —
 * answered at once with the job as created. Everything after is read live.
 *
 * Other parts hang off this class as fields (templates, mlflow, logs), so routes reach each through
 * `service()`.
 */
/** What a job delete answers. */
type DeletedJob = { job: string; namespace: string; kind: TrainingJobView['kind']; deleted: boolean };

export class TrainingService {
  readonly templates: TrainingTemplates;
  readonly mlflow: MlflowServers;
  readonly logs: JobLogs;
  /** Job lists polled by pages and agents: one Kubernetes read serves them all for a moment; our own changes drop it. */
  private readonly lists = new ReadCache<TrainingJobList>({ ttlMs: 2_000 });

  constructor(readonly deps: TrainingServiceDeps) {
    this.templates = new TrainingTemplates(deps.training);
    this.mlflow = new MlflowServers(deps);
    this.logs = new JobLogs(deps);
    // An operation on a cluster (a feature turned on, a group added) may change which kinds it
    // serves: the next list reads Kubernetes again, never a list from before the user's change.
    deps.operations.on('operation', (op) => {
      const cluster = clusterOfTarget(op.target);
      if (cluster) this.lists.invalidate(`${cluster.region}/${cluster.name}`);
    });
  }

  recipes(): { recipes: RecipeView[] } {
    return { recipes: RECIPES.map(recipeView) };
  }

  recipe(id: string): RecipeView {
    const recipe = recipeById(id);
    if (!recipe)
      throw new NotFoundError({
        resource: 'recipe',
        id,
        message: `There is no recipe '${id}' (list them with list_recipes).`,
      });
    return recipeView(recipe);
  }

  /** The HyperPod cluster and its Kubernetes API (404 naming the cluster; 503 while it has no API). */
  async access(region: string, cluster: string): Promise<{ hp: HyperPodCluster; kube: KubePort }> {
    const hp = await describeHyperPod(this.deps.cloud, region, cluster);
    return { hp, kube: await kubeOfHyperPod(this.deps.cloud, hp, region, { required: true }) };
  }

  /**
   * Submits a job: every refusal first (400/409/422 naming the field; nothing created), then the
   * MLflow identity (idempotent), then one server-side apply. A request without `mlflow` reports to
   * the cluster's default tracking server when one is linked. Under an Idempotency-Key the job is
   * annotated with it, and a job of that name already made under that key is the answer (a retry
   * after a crash between the apply and the recorded answer: submit-key.ts).
   */
  async submit(
    region: string,
    cluster: string,
    request: SubmitTrainingJobRequest,
    idempotencyKey?: string,
  ): Promise<{ job: TrainingJobView; template?: string }> {
    const kind = kindOfRequest(request);
    const linked = request.mlflow ? undefined : this.deps.training.clusterMlflow(region, cluster);
    const req: SubmitTrainingJobRequest = linked ? { ...request, mlflow: { trackingServerArn: linked } } : request;
    const { hp, kube } = await this.access(region, cluster);
    const made = idempotencyKey === undefined ? undefined : await findJob(kube, req.namespace, req.name);
    if (submittedUnder(made, idempotencyKey))
      return this.submitted(
        region,
        cluster,
        request,
        made.kind === 'HyperPodPyTorchJob' ? hyperpodJobView(made.job) : rayJobView(made.job),
      );
    await checkNameAndKind(kube, cluster, kind, req.name, req.namespace);
    const identity = req.mlflow ? mlflowIdentity(cluster, req.namespace, req.mlflow.trackingServerArn) : undefined;
    const facts = await submitFacts(this.deps, region, hp, kube, req, identity?.serviceAccount);
    // The domain decides (and refuses) before anything exists.
    const manifest = withSubmitKey(withSavedRequest(trainingManifest(req, facts), req), idempotencyKey);
    if (req.mlflow) {
      await this.mlflow.requireByArn(
        req.mlflow.trackingServerArn,
        request.mlflow ? 'mlflow.trackingServerArn' : 'mlflow',
      );
      await this.mlflow.ensureJobIdentity(region, cluster, hp, kube, req.namespace, req.mlflow.trackingServerArn);
    }
    const view =
      kind === 'HyperPodPyTorchJob'
        ? hyperpodJobView(await kube.apply<KubeHyperPodPyTorchJob>(HYPERPOD_PYTORCH_JOB, manifest))
        : rayJobView(await kube.apply<KubeRayJob>(RAY_JOB, manifest));
    return this.submitted(region, cluster, request, view);
  }

  /** The answer of a submit whose job exists: the template saved when asked (a put: a retry saves the same). */
  private submitted(
    region: string,
    cluster: string,
    request: SubmitTrainingJobRequest,
    job: TrainingJobView,
  ): { job: TrainingJobView; template?: string } {
    this.lists.invalidate(`${region}/${cluster}`);
    if (!request.saveAsTemplate) return { job };
    this.templates.save(
      region,
      cluster,
      request.saveAsTemplate.name,
      savedRequest(request),
      request.saveAsTemplate.description,
    );
    return { job, template: request.saveAsTemplate.name };
  }

  /** Runs a job again under a new name, from the request kept on it (422 naming job when it has none). */
  async resubmit(
    region: string,
    cluster: string,
    namespace: string,
    job: string,
    name: string,
    idempotencyKey?: string,
  ): Promise<{ job: TrainingJobView }> {
    const { kube } = await this.access(region, cluster);
    const found = await requireJob(kube, cluster, namespace, job);
    const saved = savedRequestOf(job, found.job.metadata.annotations);
    return this.submit(region, cluster, SubmitTrainingJobRequestSchema.parse({ ...saved, name }), idempotencyKey);
  }

  async list(region: string, cluster: string, namespace?: string): Promise<TrainingJobList> {
    const all = await this.lists.get(`${region}/${cluster}`, async () => {
      const { kube } = await this.access(region, cluster);
      return listJobs(kube, cluster, region);
    });
    return namespace ? { ...all, jobs: all.jobs.filter((j) => j.namespace === namespace) } : all;
  }

  async get(region: string, cluster: string, namespace: string, job: string): Promise<TrainingJobView> {
    const { kube } = await this.access(region, cluster);
    return jobDetail(kube, await requireJob(kube, cluster, namespace, job));
  }

  /**
   * Deletes the job. A deleted job leaves nothing to find it by, so under an Idempotency-Key the answer
   * is promised before the delete: a retry after a crash between the delete and the recorded answer
   * finds the job gone and answers what the first run would have, never 404.
   */
  async delete(
    region: string,
    cluster: string,
    namespace: string,
    job: string,
    keyed?: KeyedCall,
  ): Promise<DeletedJob> {
    const { kube } = await this.access(region, cluster);
    const found = await findJob(kube, namespace, job);
    if (!found && keyed?.interrupted && keyed.promised !== undefined) return JSON.parse(keyed.promised) as DeletedJob;
    if (!found) throw jobNotFound(cluster, namespace, job);
    const answer: DeletedJob = { job, namespace, kind: found.kind, deleted: true };
    keyed?.promise(answer);
    const deleted = await deleteJob(kube, found);
    this.lists.invalidate(`${region}/${cluster}`);
    return { ...answer, deleted };
  }

  async metrics(
    region: string,
    cluster: string,
    namespace: string,
    job: string,
    query: { metrics?: string; maxPoints: number },
  ): Promise<TrainingMetricsAnswer> {
    const { kube } = await this.access(region, cluster);
    const found = await requireJob(kube, cluster, namespace, job);
    const view = found.kind === 'HyperPodPyTorchJob' ? hyperpodJobView(found.job) : rayJobView(found.job);
    return this.mlflow.metrics(view, query);
  }

  // ── MLflow: the Region's servers and a cluster's default ─────────────────────────────────────────
  listMlflowServers(region: string): Promise<{ region: string; servers: MlflowTrackingServerView[] }> {
    return this.mlflow.list(region);
  }

  async getMlflowServer(region: string, name: string): Promise<MlflowTrackingServerView> {
    const s = await this.mlflow.get(region, name);
    if (!s)
      throw new NotFoundError({
        resource: 'MLflow tracking server',
        id: name,
        message: `There is no MLflow tracking server '${name}' in ${region} (list them with list_mlflow_servers).`,
      });
    return s;
  }

  createMlflowServer(
    region: string,
    req: CreateMlflowServerRequest,
    idempotencyKey?: string,
  ): Promise<MlflowTrackingServerView> {
    return this.mlflow.create(region, req, idempotencyKey);
  }

  deleteMlflowServer(region: string, name: string): Promise<DeleteMlflowServerAnswer> {
    return this.mlflow.delete(region, name);
  }

  async clusterMlflow(
    region: string,
    cluster: string,
  ): Promise<{ cluster: string; region: string; trackingServerArn: string | null }> {
    await describeHyperPod(this.deps.cloud, region, cluster);
    return { cluster, region, trackingServerArn: this.deps.training.clusterMlflow(region, cluster) ?? null };
  }

  /** Links (or with null unlinks) the cluster's default server; a server SageMaker does not know is a 422 naming trackingServerArn. */
  async linkMlflow(
    region: string,
    cluster: string,
    trackingServerArn: string | null,
  ): Promise<{ cluster: string; region: string; trackingServerArn: string | null }> {
    await describeHyperPod(this.deps.cloud, region, cluster);
    if (trackingServerArn !== null) await this.mlflow.requireByArn(trackingServerArn, 'trackingServerArn');
    this.deps.training.setClusterMlflow(region, cluster, trackingServerArn ?? undefined);
    return { cluster, region, trackingServerArn };
  }
}
