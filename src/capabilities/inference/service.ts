import type { HyperPodCluster, KubePort } from '../../cloud/ports.js';
import { ConflictError, PreconditionError } from '../../domain/errors.js';
import { clusterOfTarget } from '../../domain/naming.js';
import type { KeyedCall } from '../../domain/keyed-call.js';
import { INFERENCE_ENDPOINT_CONFIG } from '../../domain/kube/inference-endpoint-config.js';
import { JUMPSTART_MODEL } from '../../domain/kube/jumpstart-model.js';
import type { KubeKind } from '../../domain/kube/kind.js';
import {
  type DeployContainerEndpointRequest,
  type DeployManagedEndpointRequest,
  type EndpointDetail,
  type EndpointList,
  type EndpointLogsAnswer,
  type EndpointLogsFollowQuery,
  type EndpointView,
  type InvokeEndpointAnswer,
  type InvokeEndpointRequest,
} from '../../domain/schemas/inference.js';
import { describeHyperPod, kubeOfHyperPod } from '../../workflows/cluster-access.js';
import { ReadCache } from '../../workflows/read-cache.js';
import { features } from '../features/index.js';
import { containerPlan, deleteContainerObjects } from './container-plan.js';
import { deployedUnder, withDeployKey } from './deploy-key.js';
import {
  endpointDetail,
  endpointNamespace,
  endpointNotFound,
  endpointPodSelectors,
  endpointPods,
  findEndpoint,
  listEndpoints,
  requireEndpoint,
  viewOf,
} from './endpoints.js';
import { checkInstanceTypes, checkSecret, refuse, storageFacts } from './facts.js';
import { invokeChat, invokeChatStream, type ChatStream, type InvokeTarget } from './invoke.js';
import { invokeTargetOf } from './invoke-target.js';
import { endpointLogs } from './logs.js';
import { followEndpointLogs, type EndpointLogTarget } from './log-follow.js';
import type { FollowSession, FollowSink } from '../../workflows/pod-logs/follow.js';
import { managedManifest, refuseRoutingChange } from './managed-plan.js';
import { ModelPools } from './pools.js';
import { EndpointScaling } from './endpoint-scaling.js';
import type { InferenceServiceDeps } from './ports.js';

/** The feature managed endpoints need (src/domain/features/registry.ts). */
export const INFERENCE_FEATURE = 'inference-operator';

/**
 * The inference capability's rules (docs/INFERENCE.md). Endpoints are Kubernetes objects, not operations: a deploy
 * reads the facts, lets the domain build (and refuse) the objects, and applies them in one go — answered at once
 * with the endpoint as applied; everything after is read live. A delete removes exactly the objects the deploy
 * made, found by name and label.
 */
export class InferenceService {
  readonly pools: ModelPools;
  /** Replicas by hand, KEDA scaling and the SGLang router of a deployed endpoint (endpoint-scaling.ts). */
  readonly scaling: EndpointScaling;
  /** Endpoint lists polled by pages and agents: one read serves them for a moment; our own changes drop it. */
  private readonly lists = new ReadCache<EndpointList>({ ttlMs: 2_000 });
  /**
   * Where each endpoint's invokes go (its cluster's Kubernetes API; Service, port, model name). Finding it takes a
   * DescribeCluster and some ten Kubernetes reads, which a chat of many turns would pay before every first token;
   * kept a moment instead, dropped on our own changes and when an invoke fails (it may have changed outside us).
   */
  private readonly targets = new ReadCache<{ kube: KubePort; target: InvokeTarget }>({ ttlMs: 10_000 });

  constructor(readonly deps: InferenceServiceDeps) {
    this.pools = new ModelPools(
      deps,
      (region, cluster) => this.access(region, cluster),
      (region, cluster) => this.changed(region, cluster),
    );
    this.scaling = new EndpointScaling(
      deps,
      (region, cluster) => this.access(region, cluster),
      (region, cluster, kube, namespace, name) => this.answered(region, cluster, kube, namespace, name),
    );
    deps.operations.on('operation', (op) => {
      const cluster = clusterOfTarget(op.target);
      if (cluster) this.changed(cluster.region, cluster.name);
    });
  }

  /** The HyperPod cluster and its Kubernetes API (404 naming the cluster; 503 while it has no API). */
  async access(region: string, cluster: string): Promise<{ hp: HyperPodCluster; kube: KubePort }> {
    const hp = await describeHyperPod(this.deps.cloud, region, cluster);
    return { hp, kube: await kubeOfHyperPod(this.deps.cloud, hp, region, { required: true }) };
  }

  private changed(region: string, cluster: string): void {
    this.lists.invalidate(`${region}/${cluster}`);
    this.targets.invalidate((key) => key.startsWith(`${region}/${cluster}/`));
  }

  async list(region: string, cluster: string, namespace?: string): Promise<EndpointList> {
    const all = await this.lists.get(`${region}/${cluster}`, async () => {
      const { kube } = await this.access(region, cluster);
      return listEndpoints(kube);
    });
    return namespace ? { ...all, endpoints: all.endpoints.filter((e) => e.namespace === namespace) } : all;
  }

  async get(region: string, cluster: string, namespace: string, name: string): Promise<EndpointDetail> {
    const { kube } = await this.access(region, cluster);
    return endpointDetail(kube, await requireEndpoint(kube, cluster, namespace, name));
  }

  /** 422 naming the feature (and the call that turns it on) unless the inference operator is on. */
  private async requireOperator(region: string, cluster: string): Promise<void> {
    const answer = await this.deps.service(features).get(region, cluster);
    const state = answer.features.find((f) => f.id === INFERENCE_FEATURE)?.state ?? 'off';
    if (state === 'on') return;
    throw new PreconditionError({
      message: `${INFERENCE_FEATURE}: managed endpoints need the HyperPod inference operator, and on cluster ${cluster} the ${INFERENCE_FEATURE} feature is ${state}.`,
      problems: [{ path: INFERENCE_FEATURE, message: `is ${state}; managed endpoints need it on` }],
      remedy: `Turn it on with PATCH /api/v1/clusters/${cluster}/features {"${INFERENCE_FEATURE}": true} (MCP: set_features), wait for the operation, then deploy again — or deploy a container endpoint, which needs no operator.`,
    });
  }

  /**
   * Deploys a managed endpoint: the feature, the instance types, the model's storage or token Secret checked; a
   * re-deploy may not change the routing strategy (422 naming routing.strategy, nothing applied); then one apply.
   */
  async deployManaged(
    region: string,
    cluster: string,
    req: DeployManagedEndpointRequest,
    idempotencyKey?: string,
  ): Promise<EndpointView> {
    await this.requireOperator(region, cluster);
    const { hp, kube } = await this.access(region, cluster);
    const jumpstart = req.model.source === 'jumpstart';
    const kind: KubeKind = jumpstart ? JUMPSTART_MODEL : INFERENCE_ENDPOINT_CONFIG;
    const current = jumpstart
      ? await kube.find(JUMPSTART_MODEL, req.name, req.namespace)
      : await kube.find(INFERENCE_ENDPOINT_CONFIG, req.name, req.namespace);
    if (current && deployedUnder(current, idempotencyKey))
      return this.answered(region, cluster, kube, req.namespace, req.name);
    const other = await findEndpoint(kube, req.namespace, req.name);
    if (other && other.kind !== (kind === JUMPSTART_MODEL ? 'jumpstart' : 'managed'))
      throw new ConflictError({
        message: `name: ${req.namespace}/${req.name} is already a ${other.kind} endpoint; choose another name, or delete it first (delete_endpoint).`,
        field: 'name',
      });
    checkInstanceTypes(hp, req.instanceTypes);
    const storage =
      req.model.source === 'storage'
        ? await storageFacts(kube, req.model.storage, req.namespace, 'model.storage')
        : undefined;
    if (req.model.source === 'huggingface' && req.model.tokenSecret)
      await checkSecret(kube, req.model.tokenSecret.name, req.namespace, 'model.tokenSecret.name');
    const manifest = managedManifest(req, { region, cluster: hp, storage });
    if (current) refuseRoutingChange(current, manifest);
    await kube.apply(kind, withDeployKey(manifest, idempotencyKey));
    return this.answered(region, cluster, kube, req.namespace, req.name);
  }

  /**
   * Deploys a container endpoint: group, GPUs, storage, token Secret, pool and free names checked (container-plan.ts),
   * then every object applied in order (Secrets are referenced, never written or read).
   */
  async deployContainer(
    region: string,
    cluster: string,
    req: DeployContainerEndpointRequest,
    idempotencyKey?: string,
  ): Promise<EndpointView> {
    const { hp, kube } = await this.access(region, cluster);
    const existing = await findEndpoint(kube, req.namespace, req.name);
    if (
      existing?.kind === 'container' &&
      deployedUnder(existing.parts.service ?? existing.parts.deployment, idempotencyKey)
    )
      return this.answered(region, cluster, kube, req.namespace, req.name);
    const manifests = await containerPlan(this.deps, region, hp, kube, req, existing);
    for (const m of manifests) await kube.applyAll([withDeployKey(m, idempotencyKey)]);
    return this.answered(region, cluster, kube, req.namespace, req.name);
  }

  /** The endpoint as it is right after our change (the list drops what it kept). */
  private async answered(
    region: string,
    cluster: string,
    kube: KubePort,
    namespace: string,
    name: string,
  ): Promise<EndpointView> {
    this.changed(region, cluster);
    return viewOf(await requireEndpoint(kube, cluster, namespace, name));
  }

  /**
   * Deletes exactly the objects the endpoint is made of (by name, each labelled for it). A managed endpoint is its
   * InferenceEndpointConfig or JumpStartModel: the operator's owner references remove what it made. Under an
   * Idempotency-Key the answer is promised before the delete, so a retry finds it gone and answers the same.
   */
  async delete(
    region: string,
    cluster: string,
    namespace: string,
    name: string,
    keyed?: KeyedCall,
  ): Promise<{ endpoint: string; namespace: string; deleted: Array<{ kind: string; name: string }> }> {
    const { kube } = await this.access(region, cluster);
    const found = await findEndpoint(kube, namespace, name);
    if (!found && keyed?.interrupted && keyed.promised !== undefined)
      return JSON.parse(keyed.promised) as { endpoint: string; namespace: string; deleted: [] };
    if (!found) throw endpointNotFound(cluster, namespace, name);
    const objects = viewOf(found).objects;
    const answer = { endpoint: name, namespace, deleted: objects };
    keyed?.promise(answer);
    if (found.kind === 'managed') await kube.delete(INFERENCE_ENDPOINT_CONFIG, name, namespace);
    else if (found.kind === 'jumpstart') await kube.delete(JUMPSTART_MODEL, name, namespace);
    else await deleteContainerObjects(kube, found, objects);
    this.changed(region, cluster);
    return answer;
  }

  async logs(
    region: string,
    cluster: string,
    namespace: string,
    name: string,
    query: { tailLines: number; pod?: string },
  ): Promise<EndpointLogsAnswer> {
    const { kube } = await this.access(region, cluster);
    const found = await requireEndpoint(kube, cluster, namespace, name);
    return endpointLogs(kube, name, namespace, await endpointPods(kube, found), query);
  }

  /** What a logs follow reads (404 naming the endpoint, or 422 naming pod, before any WebSocket opens). */
  async logTarget(
    region: string,
    cluster: string,
    namespace: string,
    name: string,
    pod?: string,
  ): Promise<EndpointLogTarget> {
    const { kube } = await this.access(region, cluster);
    const found = await requireEndpoint(kube, cluster, namespace, name);
    const pods = await endpointPods(kube, found);
    if (pod !== undefined && !pods.some((p) => p.metadata.name === pod))
      throw refuse('pod', `${pod} is not a pod of endpoint ${namespace}/${name} (get_endpoint lists its pods).`);
    return { kube, endpoint: name, namespace: endpointNamespace(found), selectors: endpointPodSelectors(found), pods };
  }

  /** Follows the endpoint's pods' logs live for one client (one session per WebSocket; log-follow.ts). */
  followLogs(target: EndpointLogTarget, query: EndpointLogsFollowQuery, sink: FollowSink): FollowSession {
    return followEndpointLogs(target, query, sink);
  }

  /** The endpoint's Service and the model its server answers to (invoke-target.ts). */
  private async invokeTarget(region: string, cluster: string, namespace: string, name: string) {
    const key = `${region}/${cluster}/${namespace}/${name}`;
    const { kube, target } = await this.targets.get(key, async () => {
      const { kube } = await this.access(region, cluster);
      return { kube, target: await invokeTargetOf(kube, await requireEndpoint(kube, cluster, namespace, name)) };
    });
    return { kube, target, forget: () => this.targets.invalidate(key) };
  }

  async invoke(
    region: string,
    cluster: string,
    namespace: string,
    name: string,
    req: InvokeEndpointRequest,
    maxChars?: number,
  ): Promise<InvokeEndpointAnswer> {
    const { kube, target, forget } = await this.invokeTarget(region, cluster, namespace, name);
    return invokeChat(kube, target, req, maxChars ? { maxChars } : {}).catch((err: unknown) => {
      forget();
      throw err;
    });
  }

  async invokeStream(
    region: string,
    cluster: string,
    namespace: string,
    name: string,
    req: InvokeEndpointRequest,
    signal?: AbortSignal,
  ): Promise<ChatStream> {
    const { kube, target, forget } = await this.invokeTarget(region, cluster, namespace, name);
    return invokeChatStream(kube, target, req, signal).catch((err: unknown) => {
      forget();
      throw err;
    });
  }
}
