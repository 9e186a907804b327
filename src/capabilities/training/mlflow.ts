import { mapLimited } from '../../cloud/aws/catalog/paginate.js';
import type {
  HyperPodCluster,
  KubePort,
  MlflowTrackingServer,
  MlflowTrackingServerSummary,
} from '../../cloud/ports.js';
import { PreconditionError } from '../../domain/errors.js';
import { SERVICE_ACCOUNT } from '../../domain/kube/service-account.js';
import { MANAGED_BY } from '../../domain/kube/kind.js';
import {
  MLFLOW_READY_STATUSES,
  type CreateMlflowServerRequest,
  type DeleteMlflowServerAnswer,
  type MlflowTrackingServerView,
} from '../../domain/schemas/mlflow.js';
import type { TrainingJobView, TrainingMetricsAnswer } from '../../domain/schemas/training.js';
import { metricNames, thinPoints } from '../../domain/training/metrics.js';
import {
  clusterOwnerTags,
  mlflowIdentity,
  mlflowServerRole,
  TAG_MLFLOW_SERVER,
} from '../../domain/training/mlflow-identity.js';
import { MANAGED_BY_VALUE, TAG_CLUSTER, TAG_MANAGED_BY } from '../../domain/naming.js';
import { eksClusterOf } from '../../workflows/cluster-access.js';
import { ensureOwnedRole } from '../../workflows/feature-identities.js';
import type { TrainingServiceDeps } from './ports.js';
import { submitKeyDigest } from './submit-key.js';

/**
 * SageMaker managed MLflow for training: the Region's tracking servers, the identity a job logs
 * with, and a job's metric series read back from its run.
 *
 * Creating a server is ONE AWS call, after which AWS itself tracks the server (Creating for up to
 * 25 minutes, then Created). It is not a durable operation: there is nothing of ours to resume or
 * compensate — a crash after the call loses nothing, since the list and get read the server's status
 * live from SageMaker, exactly as jobs are read live from Kubernetes. (The role a server without a
 * roleArn needs is made idempotently before the call, so a repeat is harmless.)
 */

/** DescribeMlflowTrackingServer calls at once when listing (a Region has a handful of servers). */
const DESCRIBES_AT_ONCE = 4;

/** On a server created under an Idempotency-Key: a digest of the key (keys are the client's; tags are readable by anyone who lists them). */
export const TAG_IDEMPOTENCY_KEY = 'instantstart.io/idempotency-key';

const ARN_NAME = /:mlflow-tracking-server\/(.+)$/;
export const serverNameOfArn = (arn: string): string => ARN_NAME.exec(arn)?.[1] ?? arn;
export const regionOfArn = (arn: string): string | undefined => arn.split(':')[3] || undefined;

const iso = (d: Date | undefined) => (d ? new Date(d).toISOString() : undefined);

export function serverView(s: MlflowTrackingServer | MlflowTrackingServerSummary): MlflowTrackingServerView {
  const full = s as Partial<MlflowTrackingServer>;
  const createdAt = iso(s.createdAt);
  const lastModifiedAt = iso(s.lastModifiedAt);
  return {
    name: s.name,
    arn: s.arn,
    status: s.status,
    ready: s.active && (MLFLOW_READY_STATUSES as readonly string[]).includes(s.status),
    isActive: s.active ? 'Active' : 'Inactive',
    ...(full.size ? { size: full.size } : {}),
    ...(s.mlflowVersion ? { mlflowVersion: s.mlflowVersion } : {}),
    ...(full.artifactStoreUri ? { artifactStoreUri: full.artifactStoreUri } : {}),
    ...(full.roleArn ? { roleArn: full.roleArn } : {}),
    ...(full.url ? { url: full.url } : {}),
    ...(createdAt ? { createdAt } : {}),
    ...(lastModifiedAt ? { lastModifiedAt } : {}),
  };
}

export class MlflowServers {
  constructor(private readonly deps: TrainingServiceDeps) {}

  /**
   * The Region's servers, each described (ListMlflowTrackingServers leaves out size, artifact store
   * and role, which the table and an agent choosing a server want); a server gone meanwhile keeps its row.
   */
  async list(region: string): Promise<{ region: string; servers: MlflowTrackingServerView[] }> {
    const summaries = await this.deps.cloud.mlflow.listTrackingServers(region);
    const described = await mapLimited(summaries, DESCRIBES_AT_ONCE, (s) =>
      this.deps.cloud.mlflow.describeTrackingServer(region, s.name),
    );
    return { region, servers: summaries.map((s, i) => serverView(described[i] ?? s)) };
  }

  async get(region: string, name: string): Promise<MlflowTrackingServerView | undefined> {
    const s = await this.deps.cloud.mlflow.describeTrackingServer(region, name);
    return s ? serverView(s) : undefined;
  }

  /**
   * CreateMlflowTrackingServer; answered at once with the server as SageMaker describes it (Creating).
   * Under an Idempotency-Key the server carries a digest of the key as a tag: a retry after a crash
   * between the create and the recorded answer finds the server it made and answers it, instead of
   * SageMaker's "name in use".
   */
  async create(
    region: string,
    req: CreateMlflowServerRequest,
    idempotencyKey?: string,
  ): Promise<MlflowTrackingServerView> {
    if (req.cluster && !(await this.deps.cloud.hyperpod.describe(region, req.cluster))) {
      throw new PreconditionError({
        message: `cluster: there is no HyperPod cluster ${req.cluster} in ${region}.`,
        problems: [
          {
            path: 'cluster',
            message: `there is no HyperPod cluster ${req.cluster} in ${region} (list_clusters shows them)`,
          },
        ],
      });
    }
    // A server made for a cluster carries its tag (in the create request itself, as its role does): the cluster's
    // delete finds and deletes both.
    const clusterTag: Record<string, string> = req.cluster ? { [TAG_CLUSTER]: req.cluster } : {};
    const keyTag: Record<string, string> =
      idempotencyKey === undefined ? {} : { [TAG_IDEMPOTENCY_KEY]: submitKeyDigest(idempotencyKey) };
    const made =
      idempotencyKey === undefined ? undefined : await this.madeUnder(region, req.name, keyTag[TAG_IDEMPOTENCY_KEY]!);
    if (made) return serverView(made);
    const roleArn = req.roleArn ?? (await this.ensureServerRole(req.name, req.artifactStoreUri, clusterTag));
    await this.deps.cloud.mlflow.createTrackingServer(region, {
      name: req.name,
      artifactStoreUri: req.artifactStoreUri,
      roleArn,
      size: req.size,
      ...(req.mlflowVersion ? { mlflowVersion: req.mlflowVersion } : {}),
      automaticModelRegistration: req.automaticModelRegistration,
      ...(req.weeklyMaintenanceWindowStart ? { weeklyMaintenanceWindowStart: req.weeklyMaintenanceWindowStart } : {}),
      tags: { [TAG_MANAGED_BY]: MANAGED_BY_VALUE, ...clusterTag, ...keyTag },
    });
    const created = await this.deps.cloud.mlflow.describeTrackingServer(region, req.name);
    return created ? serverView(created) : { name: req.name, arn: '', status: 'Creating', ready: false };
  }

  /** The server of that name when it carries this key digest (made by an earlier run of the same request). */
  private async madeUnder(region: string, name: string, digest: string): Promise<MlflowTrackingServer | undefined> {
    const s = await this.deps.cloud.mlflow.describeTrackingServer(region, name);
    if (!s) return undefined;
    return (await this.deps.cloud.mlflow.trackingServerTags(region, s.arn))?.[TAG_IDEMPOTENCY_KEY] === digest
      ? s
      : undefined;
  }

  /**
   * DeleteMlflowTrackingServer (SageMaker then deletes it over a few minutes). Clusters that had it
   * as their default are unlinked, and the role InstantStart made for it is deleted — only when its
   * tags say so and the server used it (a role the caller passed as roleArn is theirs and stays).
   */
  async delete(region: string, name: string): Promise<DeleteMlflowServerAnswer> {
    const server = await this.deps.cloud.mlflow.describeTrackingServer(region, name);
    if (!server) return { server: name, region, deleted: false, unlinkedClusters: [] };
    await this.deps.cloud.mlflow.deleteTrackingServer(region, name);
    const unlinkedClusters = this.deps.training.unlinkServer(server.arn).map((l) => l.cluster);
    const deletedRole = await this.deleteOwnRole(name, server.roleArn);
    const now = await this.deps.cloud.mlflow.describeTrackingServer(region, name);
    return {
      server: name,
      region,
      deleted: true,
      ...(now ? { status: now.status } : {}),
      unlinkedClusters,
      ...(deletedRole ? { deletedRole } : {}),
    };
  }

  private async deleteOwnRole(serverName: string, usedRoleArn: string | undefined): Promise<string | undefined> {
    const spec = mlflowServerRole(serverName, '');
    const facts = await this.deps.cloud.iam.describeRole(spec.roleName);
    if (!facts || facts.arn !== usedRoleArn) return undefined;
    if (
      facts.tags[TAG_MANAGED_BY] !== MANAGED_BY_VALUE ||
      facts.tags[TAG_MLFLOW_SERVER] !== spec.tags[TAG_MLFLOW_SERVER]
    )
      return undefined;
    await this.deps.cloud.iam.delete(spec.roleName, () => {});
    return spec.roleName;
  }

  /** The role SageMaker assumes to reach the artifact store, when the request names none. */
  private ensureServerRole(
    name: string,
    artifactStoreUri: string,
    clusterTag: Record<string, string>,
  ): Promise<string> {
    const spec = mlflowServerRole(name, artifactStoreUri);
    return ensureOwnedRole(
      this.deps.cloud.iam,
      {
        ...spec,
        tags: { ...spec.tags, ...clusterTag },
        managedPolicyArns: [],
        inlinePolicyName: 'instantstart-mlflow-artifacts',
      },
      { [TAG_MANAGED_BY]: MANAGED_BY_VALUE, [TAG_MLFLOW_SERVER]: spec.tags[TAG_MLFLOW_SERVER]! },
      'roleArn',
      () => {},
    );
  }

  /** The server an ARN names, or a 422 naming `field` when SageMaker does not know it. */
  async requireByArn(arn: string, field: string): Promise<MlflowTrackingServer> {
    const region = regionOfArn(arn) ?? this.deps.defaultRegion;
    const server = await this.deps.cloud.mlflow.describeTrackingServer(region, serverNameOfArn(arn));
    if (!server || server.arn !== arn) {
      throw new PreconditionError({
        message: `${field}: there is no MLflow tracking server ${arn}.`,
        problems: [
          {
            path: field,
            message: `there is no MLflow tracking server ${arn}; list them with list_mlflow_servers or create one with create_mlflow_server.`,
          },
        ],
      });
    }
    return server;
  }

  /**
   * The pod identity a job in `namespace` logs to the server with, made idempotently before the
   * job is applied: the IAM role (trusting EKS Pod Identity; sagemaker-mlflow:* on that server only),
   * the service account, and its pod identity association. Answers the service account's name.
   */
  async ensureJobIdentity(
    region: string,
    cluster: string,
    hp: HyperPodCluster,
    kube: KubePort,
    namespace: string,
    trackingServerArn: string,
  ): Promise<string> {
    const eksName = eksClusterOf(hp);
    if (!eksName)
      throw new PreconditionError({
        message: 'mlflow: the cluster is not EKS-orchestrated, so its pods cannot get a pod identity.',
        problems: [{ path: 'mlflow', message: 'needs an EKS-orchestrated cluster (pod identity)' }],
      });
    const id = mlflowIdentity(cluster, namespace, trackingServerArn);
    const roleArn = await ensureOwnedRole(
      this.deps.cloud.iam,
      {
        roleName: id.roleName,
        description: id.description,
        trustPolicy: id.trustPolicy,
        managedPolicyArns: [],
        inlinePolicy: id.inlinePolicy,
        inlinePolicyName: id.inlinePolicyName,
        tags: id.tags,
      },
      clusterOwnerTags(cluster),
      'mlflow',
      () => {},
    );
    await kube.apply(SERVICE_ACCOUNT, {
      apiVersion: 'v1',
      kind: 'ServiceAccount',
      metadata: { name: id.serviceAccount, namespace, labels: { ...MANAGED_BY } },
    });
    const existing = await this.deps.cloud.eks.podIdentityAssociation(region, eksName, namespace, id.serviceAccount);
    if (!existing)
      await this.deps.cloud.eks.createPodIdentityAssociation(region, eksName, {
        namespace,
        serviceAccount: id.serviceAccount,
        roleArn,
        tags: { ...clusterOwnerTags(cluster) },
      });
    // The service account is ours (named for this server and namespace): an association pointing it at
    // another role would leave the job's pods without permission to log, so it is pointed back.
    else if (existing.roleArn !== roleArn)
      await this.deps.cloud.eks.updatePodIdentityAssociationRole(region, eksName, existing.associationId, roleArn);
    return id.serviceAccount;
  }

  /** A job's metric series from its MLflow run (named after the job), each thinned to maxPoints. */
  async metrics(job: TrainingJobView, query: { metrics?: string; maxPoints: number }): Promise<TrainingMetricsAnswer> {
    if (!job.mlflow) return { job: job.name, source: 'none', series: [] };
    const { trackingServerArn, experimentName, runName } = job.mlflow;
    const run = await this.deps.cloud.mlflow.findRun({ trackingServerArn, experimentName, runName });
    const base = { job: job.name, source: 'mlflow' as const, trackingServerArn };
    if (!run) return { ...base, series: [] };
    const logged = new Set(run.latestMetrics.map((m) => m.key));
    const series = await Promise.all(
      metricNames(query.metrics).map(async (metric) => {
        if (!logged.has(metric)) return { metric, points: [] };
        const history = await this.deps.cloud.mlflow.metricHistory({
          trackingServerArn,
          runId: run.id,
          metricKey: metric,
        });
        return {
          metric,
          points: thinPoints(
            history.points.map((p) => ({ step: p.step, value: p.value, timestamp: p.timestamp })),
            query.maxPoints,
          ),
        };
      }),
    );
    return { ...base, runId: run.id, series };
  }
}
