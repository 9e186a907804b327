import type { HyperPodCluster, KubePort } from '../../cloud/ports.js';
import { REQUEST_ANNOTATION } from '../../domain/kube/kind.js';
import { ConflictError, NotFoundError } from '../../domain/errors.js';
import {
  ENGINE_LABEL,
  MANAGED_BY_LABEL,
  MANAGED_BY_VALUE,
  MODEL_LABEL,
  POOL_LABEL,
  poolDeploymentName,
  SERVED_MODEL_ANNOTATION,
} from '../../domain/inference/names.js';
import { assignWorkerPatch, poolManifests } from '../../domain/inference/model-pool.js';
import { servingImage } from './container-plan.js';
import { DEPLOYMENT, type KubeDeployment } from '../../domain/kube/deployment.js';
import { POD } from '../../domain/kube/pod.js';
import { SERVICE, type KubeService } from '../../domain/kube/service.js';
import {
  SERVING_ENGINES,
  type CreateModelPoolRequest,
  type ModelPoolList,
  type ModelPoolView,
} from '../../domain/schemas/inference.js';
import { deployedUnder, withDeployKey } from './deploy-key.js';
import { checkGpus, groupFacts, nameTaken, refuse, storageFacts } from './facts.js';
import type { InferenceServiceDeps } from './ports.js';

/** The pool's request as kept on its Deployment (its record; the view reads the served-model annotation). */

type Access = (region: string, cluster: string) => Promise<{ hp: HyperPodCluster; kube: KubePort }>;

const poolSelector = (pool?: string) =>
  `${MANAGED_BY_LABEL}=${MANAGED_BY_VALUE},${POOL_LABEL}${pool ? `=${pool}` : ''}`;

/** The pool endpoints: our Services whose selector picks this pool's workers. */
const selectsPool = (svc: KubeService, pool: string) =>
  (svc.spec.selector as Record<string, string> | undefined)?.[POOL_LABEL] === pool;

/**
 * Model pools (docs/INFERENCE.md → Pools): a Deployment `pool-P` of warm workers, each pod labelled with the pool
 * and with the endpoint it serves (`instantstart.io/model`); a pool endpoint is a Service selecting
 * `{pool: P, model: E}`, so reassigning a worker is one change of that one pod's label — traffic moves with it.
 */
export class ModelPools {
  constructor(
    private readonly deps: InferenceServiceDeps,
    private readonly access: Access,
    /** Told of each change, so the endpoint list kept for a moment is read again (a pool endpoint's replicas). */
    private readonly changed: (region: string, cluster: string) => void,
  ) {}

  private async view(kube: KubePort, d: KubeDeployment, services?: KubeService[]): Promise<ModelPoolView> {
    const namespace = d.metadata.namespace ?? 'default';
    const pool = d.metadata.labels[POOL_LABEL] ?? d.metadata.name;
    const [pods, svcs] = await Promise.all([
      kube.list(POD, { namespace, labelSelector: `${POOL_LABEL}=${pool}` }),
      services ?? kube.list(SERVICE, { namespace, labelSelector: `${MANAGED_BY_LABEL}=${MANAGED_BY_VALUE}` }),
    ]);
    const model = d.metadata.annotations[SERVED_MODEL_ANNOTATION] ?? '';
    const engineLabel = d.metadata.labels[ENGINE_LABEL];
    const engine = SERVING_ENGINES.find((e) => e === engineLabel) ?? 'custom';
    return {
      name: pool,
      namespace,
      engine,
      model,
      workers: pods
        .filter((p) => !p.metadata.deletionTimestamp)
        .map((p) => ({
          pod: p.metadata.name,
          ...(p.spec.nodeName ? { node: p.spec.nodeName } : {}),
          ready: p.status.conditions.some((c) => c.type === 'Ready' && c.status === 'True'),
          ...(p.metadata.labels[MODEL_LABEL] ? { endpoint: p.metadata.labels[MODEL_LABEL] } : {}),
        }))
        .sort((a, b) => a.pod.localeCompare(b.pod)),
      endpoints: svcs
        .filter((s) => (s.metadata.namespace ?? 'default') === namespace && selectsPool(s, pool))
        .map((s) => s.metadata.name)
        .sort(),
    };
  }

  async list(region: string, cluster: string, namespace?: string): Promise<ModelPoolList> {
    const { kube } = await this.access(region, cluster);
    const ns = namespace ? { namespace } : {};
    const [deployments, services] = await Promise.all([
      kube.list(DEPLOYMENT, { ...ns, labelSelector: poolSelector() }),
      kube.list(SERVICE, { ...ns, labelSelector: `${MANAGED_BY_LABEL}=${MANAGED_BY_VALUE}` }),
    ]);
    const pools = await Promise.all(deployments.map((d) => this.view(kube, d, services)));
    return { pools: pools.sort((a, b) => a.namespace.localeCompare(b.namespace) || a.name.localeCompare(b.name)) };
  }

  private async requirePool(kube: KubePort, cluster: string, namespace: string, pool: string): Promise<KubeDeployment> {
    const d = await kube.find(DEPLOYMENT, poolDeploymentName(pool), namespace);
    if (!d || d.metadata.labels[POOL_LABEL] !== pool)
      throw new NotFoundError({
        resource: 'Model pool',
        id: `${namespace}/${pool}`,
        message: `Cluster ${cluster} has no model pool ${namespace}/${pool} (list_model_pool shows its pools).`,
      });
    return d;
  }

  async get(region: string, cluster: string, namespace: string, pool: string): Promise<ModelPoolView> {
    const { kube } = await this.access(region, cluster);
    return this.view(kube, await this.requirePool(kube, cluster, namespace, pool));
  }

  /** Creates the pool's warm workers: the group, its GPUs and the storage checked first (422 naming the field). */
  async create(
    region: string,
    cluster: string,
    req: CreateModelPoolRequest,
    idempotencyKey?: string,
  ): Promise<ModelPoolView> {
    const { hp, kube } = await this.access(region, cluster);
    const current = await kube.find(DEPLOYMENT, poolDeploymentName(req.name), req.namespace);
    if (current && deployedUnder(current, idempotencyKey)) return this.view(kube, current);
    if (current) throw nameTaken('a Deployment', req.namespace, poolDeploymentName(req.name));
    const group = await groupFacts(this.deps, region, hp, req.instanceGroup);
    checkGpus(group, req.gpus);
    const storage = req.storage ? await storageFacts(kube, req.storage, req.namespace) : undefined;
    const { region: _region, ...kept } = req;
    const built = poolManifests(req, {
      instanceType: group.instanceType,
      gpusPerNode: group.gpus,
      taints: group.taints,
      image: servingImage(req),
      ...(storage ? { storageClaim: storage.claim } : {}),
    });
    const deployment = withDeployKey(
      {
        ...built.deployment,
        metadata: {
          ...built.deployment.metadata,
          annotations: { ...built.deployment.metadata.annotations, [REQUEST_ANNOTATION]: JSON.stringify(kept) },
        },
      },
      idempotencyKey,
    );
    const applied = await kube.apply(DEPLOYMENT, deployment);
    this.changed(region, cluster);
    return this.view(kube, applied);
  }

  /** Deletes the pool's Deployment (its workers go with it); 409 while a pool endpoint still selects it. */
  async delete(
    region: string,
    cluster: string,
    namespace: string,
    pool: string,
  ): Promise<{ pool: string; namespace: string; deleted: boolean }> {
    const { kube } = await this.access(region, cluster);
    const view = this.view(kube, await this.requirePool(kube, cluster, namespace, pool));
    const endpoints = (await view).endpoints;
    if (endpoints.length)
      throw new ConflictError({
        message: `pool: endpoints ${endpoints.join(', ')} still select the workers of ${namespace}/${pool}; delete them first (delete_endpoint).`,
        field: 'pool',
      });
    const deleted = await kube.delete(DEPLOYMENT, poolDeploymentName(pool), namespace);
    this.changed(region, cluster);
    return { pool, namespace, deleted };
  }

  /**
   * Reassigns one worker: the pod must be a worker of the pool (404 otherwise) and the endpoint a pool endpoint of
   * this pool (422 naming endpoint); then one merge patch of the pod's model label. The Deployment's selector is the
   * pool label alone, so the pod stays its worker; the endpoints' Services follow the label.
   */
  async assign(
    region: string,
    cluster: string,
    namespace: string,
    pool: string,
    pod: string,
    endpoint: string,
  ): Promise<ModelPoolView> {
    const { kube } = await this.access(region, cluster);
    const d = await this.requirePool(kube, cluster, namespace, pool);
    const worker = await kube.find(POD, pod, namespace);
    if (!worker || worker.metadata.labels[POOL_LABEL] !== pool)
      throw new NotFoundError({
        resource: 'Pool worker',
        id: `${namespace}/${pod}`,
        message: `${pod} is not a worker of model pool ${namespace}/${pool} (get the pool to see its workers).`,
      });
    const svc = await kube.find(SERVICE, endpoint, namespace);
    if (!svc || !selectsPool(svc, pool) || svc.metadata.labels[MANAGED_BY_LABEL] !== MANAGED_BY_VALUE)
      throw refuse(
        'endpoint',
        `${endpoint} is not an endpoint of pool ${namespace}/${pool}; deploy one first (deploy_container_endpoint with service.variant pool and service.pool ${pool}).`,
      );
    await kube.mergePatch(POD, pod, namespace, assignWorkerPatch(endpoint));
    this.changed(region, cluster);
    return this.view(kube, d);
  }
}
