import type { HyperPodCluster, KubePort } from '../../cloud/ports.js';
import { InputError, PreconditionError } from '../../domain/errors.js';
import { scaledObjectPreview } from '../../domain/inference/endpoint-autoscaling.js';
import { scaledObjectName, serverName } from '../../domain/inference/names.js';
import { DEPLOYMENT } from '../../domain/kube/deployment.js';
import { INFERENCE_ENDPOINT_CONFIG } from '../../domain/kube/inference-endpoint-config.js';
import { JUMPSTART_MODEL } from '../../domain/kube/jumpstart-model.js';
import type { KubeObject } from '../../domain/kube-object.js';
import { SCALED_OBJECT } from '../../domain/kube/scaled-object.js';
import {
  ContainerAutoscalingSchema,
  type ContainerAutoscaling,
  type DeployContainerEndpointRequest,
  type EndpointView,
} from '../../domain/schemas/inference.js';
import { containerPlan, containerSettingsOf, type ContainerSettings } from './container-plan.js';
import { deployedUnder, withDeployKey } from './deploy-key.js';
import { requireEndpoint, viewOf, type FoundEndpoint } from './endpoints.js';
import { refuse } from './facts.js';
import type { InferenceServiceDeps } from './ports.js';

type Access = (region: string, cluster: string) => Promise<{ hp: HyperPodCluster; kube: KubePort }>;
/** The endpoint as it is right after our change (the service drops what its lists kept). */
type Answered = (
  region: string,
  cluster: string,
  kube: KubePort,
  namespace: string,
  name: string,
) => Promise<EndpointView>;

/**
 * What changes a deployed endpoint's size and routing (docs/INFERENCE.md): replicas by hand (a container endpoint's
 * Deployment scale subresource, a managed endpoint's `replicas`), KEDA scaling of a container endpoint (its
 * ScaledObject set, removed or previewed) and the SGLang router added in front of an sglang endpoint. Reached as
 * `service().scaling`, like the pools.
 */
export class EndpointScaling {
  constructor(
    private readonly deps: InferenceServiceDeps,
    private readonly access: Access,
    private readonly answered: Answered,
  ) {}

  /**
   * Sets the replicas: a container endpoint through its Deployment's scale subresource, a managed one through its
   * object's `replicas`. Refused (422 naming replicas) while KEDA scales it: KEDA would undo it.
   */
  async scale(
    region: string,
    cluster: string,
    namespace: string,
    name: string,
    replicas: number,
  ): Promise<EndpointView> {
    const { kube } = await this.access(region, cluster);
    const found = await requireEndpoint(kube, cluster, namespace, name);
    const view = viewOf(found);
    if (view.autoscaling)
      throw refuse(
        'replicas',
        `${namespace}/${name} is scaled by KEDA between ${view.autoscaling.min} and ${view.autoscaling.max} replicas; change its autoscaling (set_endpoint_autoscaling), or remove it first.`,
      );
    if (found.kind === 'container') {
      if (!found.parts.deployment)
        throw refuse(
          'replicas',
          `${namespace}/${name} is a pool endpoint: its workers belong to the pool (assign_pool_worker).`,
        );
      await kube.scale(DEPLOYMENT, serverName(name), namespace, replicas);
    } else if (found.kind === 'managed') {
      await kube.mergePatch(INFERENCE_ENDPOINT_CONFIG, name, namespace, { spec: { replicas } });
    } else {
      await kube.mergePatch(JUMPSTART_MODEL, name, namespace, { spec: { replicas } });
    }
    return this.answered(region, cluster, kube, namespace, name);
  }

  /** Sets (or with null removes) a container endpoint's ScaledObject (`E`, KEDA scales Deployment `E`). */
  async setAutoscaling(
    region: string,
    cluster: string,
    namespace: string,
    name: string,
    autoscaling: ContainerAutoscaling | null,
  ): Promise<EndpointView> {
    const { kube } = await this.access(region, cluster);
    const found = await this.requireContainer(kube, cluster, namespace, name, 'autoscaling');
    if (autoscaling === null) await kube.delete(SCALED_OBJECT, scaledObjectName(name), namespace);
    else await kube.apply(SCALED_OBJECT, this.scaledObjectOf(found, autoscaling));
    return this.answered(region, cluster, kube, namespace, name);
  }

  /** The ScaledObject a set would apply (nothing applied). */
  async previewAutoscaling(
    region: string,
    cluster: string,
    namespace: string,
    name: string,
    autoscaling: ContainerAutoscaling,
  ): Promise<{ scaledObject: KubeObject }> {
    const parsed = ContainerAutoscalingSchema.safeParse(autoscaling);
    if (!parsed.success) {
      const issue = parsed.error.issues[0]!;
      throw InputError.field(issue.path.join('.') || 'autoscaling', issue.message);
    }
    const { kube } = await this.access(region, cluster);
    const found = await this.requireContainer(kube, cluster, namespace, name, 'autoscaling');
    return { scaledObject: this.scaledObjectOf(found, parsed.data) };
  }

  /** The domain's ScaledObject for the endpoint (a custom engine is refused there, naming autoscaling). */
  private scaledObjectOf(found: Extract<FoundEndpoint, { kind: 'container' }>, autoscaling: ContainerAutoscaling) {
    const engine = viewOf(found).engine ?? 'custom';
    return scaledObjectPreview({ name: found.name, namespace: found.namespace, engine }, autoscaling);
  }

  /**
   * Adds (or re-applies) the SGLang router in front of an sglang endpoint: the endpoint re-planned from the request
   * it was deployed with, plus the router (its Service `E` then reaches the router), at the replicas it has now.
   */
  async deployRouter(
    region: string,
    cluster: string,
    namespace: string,
    name: string,
    policy: NonNullable<DeployContainerEndpointRequest['router']>['policy'],
    idempotencyKey?: string,
  ): Promise<EndpointView> {
    const { hp, kube } = await this.access(region, cluster);
    const found = await this.requireContainer(kube, cluster, namespace, name, 'router');
    if (found.parts.router?.deployment && deployedUnder(found.parts.router.deployment, idempotencyKey))
      return this.answered(region, cluster, kube, namespace, name);
    const settings = this.settingsOf(found);
    if (settings.engine !== 'sglang')
      throw refuse(
        'router',
        `${namespace}/${name} serves ${settings.engine}; the SGLang router is for sglang endpoints.`,
      );
    const replicas = found.parts.deployment?.spec.replicas ?? settings.replicas;
    const manifests = await containerPlan(
      this.deps,
      region,
      hp,
      kube,
      { ...settings, replicas, router: { policy }, ...(found.parts.scaledObject ? {} : { autoscaling: undefined }) },
      found,
    );
    for (const m of manifests) await kube.applyAll([withDeployKey(m, idempotencyKey)]);
    return this.answered(region, cluster, kube, namespace, name);
  }

  private async requireContainer(
    kube: KubePort,
    cluster: string,
    namespace: string,
    name: string,
    field: string,
  ): Promise<Extract<FoundEndpoint, { kind: 'container' }>> {
    const found = await requireEndpoint(kube, cluster, namespace, name);
    if (found.kind !== 'container' || !found.parts.deployment)
      throw refuse(
        field,
        found.kind === 'container'
          ? `${namespace}/${name} is a pool endpoint: its workers belong to the pool.`
          : `${namespace}/${name} is a ${found.kind} endpoint: the inference operator scales and routes it (deploy it again with autoscaling).`,
      );
    return found;
  }

  /** The request a container endpoint was deployed with (kept on its Deployment by the deploy). */
  private settingsOf(found: Extract<FoundEndpoint, { kind: 'container' }>): ContainerSettings {
    const settings = containerSettingsOf(found);
    if (!settings)
      throw new PreconditionError({
        message: `${found.namespace}/${found.name} carries no record of how it was deployed, so it cannot be changed here; deploy it again.`,
      });
    return settings;
  }
}
