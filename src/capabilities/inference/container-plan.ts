import type { HyperPodCluster, KubePort } from '../../cloud/ports.js';
import { REQUEST_ANNOTATION } from '../../domain/kube/kind.js';
import { containerEndpointManifests, type ContainerEndpointFacts } from '../../domain/inference/container-endpoint.js';
import { DEFAULT_SERVING_IMAGES } from '../../domain/inference/serving-command.js';
import { ENDPOINT_LABEL, poolDeploymentName, routerName, serverName } from '../../domain/inference/names.js';
import { DEPLOYMENT } from '../../domain/kube/deployment.js';
import { KubeKindNotServed } from '../../domain/kube/errors.js';
import type { KubeKind, KubeResource } from '../../domain/kube/kind.js';
import type { KubeObject } from '../../domain/kube-object.js';
import { ROLE } from '../../domain/kube/role.js';
import { ROLE_BINDING } from '../../domain/kube/role-binding.js';
import { SCALED_OBJECT } from '../../domain/kube/scaled-object.js';
import { SERVICE } from '../../domain/kube/service.js';
import { SERVICE_ACCOUNT } from '../../domain/kube/service-account.js';
import {
  DeployContainerEndpointRequestSchema,
  type DeployContainerEndpointRequest,
} from '../../domain/schemas/inference.js';
import type { FoundEndpoint } from './endpoints.js';
import { checkGpus, checkSecret, groupFacts, nameTaken, refuse, storageFacts } from './facts.js';
import type { InferenceServiceDeps } from './ports.js';

/**
 * A container endpoint's objects, decided on the facts read now: the group and its GPUs, the storage, the token
 * Secret (exists; never read), the pool, and names free of other endpoints' and other writers' objects. The domain
 * builds the objects (src/domain/inference); this file reads what it needs and lists them in the order they are
 * applied. The request is kept on the Deployment (as a training job keeps its own), so a later change of the
 * router or of autoscaling re-plans from what was deployed.
 */

export type ContainerSettings = DeployContainerEndpointRequest;

/** The deploy request as kept on the endpoint's model-server Deployment (or its Service, for a pool endpoint). */
const withRequest = (m: KubeObject, req: DeployContainerEndpointRequest): KubeObject => {
  const { region: _region, ...kept } = req;
  return {
    ...m,
    metadata: { ...m.metadata, annotations: { ...m.metadata.annotations, [REQUEST_ANNOTATION]: JSON.stringify(kept) } },
  };
};

/** The request an endpoint was deployed with, or undefined when it carries none (or one this version cannot read). */
export function containerSettingsOf(
  found: Extract<FoundEndpoint, { kind: 'container' }>,
): ContainerSettings | undefined {
  const text = (found.parts.deployment ?? found.parts.service)?.metadata.annotations[REQUEST_ANNOTATION];
  if (!text) return undefined;
  try {
    const parsed = DeployContainerEndpointRequestSchema.safeParse(JSON.parse(text));
    return parsed.success ? parsed.data : undefined;
  } catch {
    return undefined;
  }
}

/** 409 naming `name` when an object of this kind and name exists and is not endpoint `endpoint`'s. */
async function requireFree(
  kube: KubePort,
  kind: KubeKind,
  what: string,
  name: string,
  namespace: string,
  endpoint: string,
): Promise<void> {
  const current = await kube.find(kind, name, namespace);
  if (current && current.metadata.labels[ENDPOINT_LABEL] !== endpoint) throw nameTaken(what, namespace, name);
}

/**
 * Every object of the endpoint, in apply order, after every check (422/409 naming the field; nothing applied).
 * `preview`: the objects only, for showing (the names are not checked against what exists).
 */
export async function containerPlan(
  deps: InferenceServiceDeps,
  region: string,
  hp: HyperPodCluster,
  kube: KubePort,
  req: DeployContainerEndpointRequest,
  existing: FoundEndpoint | undefined,
  options: { preview?: boolean } = {},
): Promise<KubeObject[]> {
  if (existing && existing.kind !== 'container')
    throw nameTaken(`a ${existing.kind} endpoint`, req.namespace, req.name);
  const group = await groupFacts(deps, region, hp, req.instanceGroup);
  checkGpus(group, req.gpus);
  const storage = req.storage ? await storageFacts(kube, req.storage, req.namespace) : undefined;
  if (req.hfTokenSecret) await checkSecret(kube, req.hfTokenSecret.name, req.namespace, 'hfTokenSecret.name');
  if (req.service.variant === 'pool' && req.service.pool) {
    const pool = await kube.find(DEPLOYMENT, poolDeploymentName(req.service.pool), req.namespace);
    if (!pool)
      throw refuse(
        'service.pool',
        `there is no model pool ${req.namespace}/${req.service.pool} (list_model_pool shows the pools; create one first).`,
      );
  }
  if (!options.preview && !existing) {
    await requireFree(kube, DEPLOYMENT, 'a Deployment', serverName(req.name), req.namespace, req.name);
    await requireFree(kube, SERVICE, 'a Service', serverName(req.name), req.namespace, req.name);
    if (req.router) await requireFree(kube, DEPLOYMENT, 'a Deployment', routerName(req.name), req.namespace, req.name);
  }
  const facts: ContainerEndpointFacts = {
    instanceType: group.instanceType,
    gpusPerNode: group.gpus,
    taints: group.taints,
    image: servingImage(req),
    ...(storage ? { storageClaim: storage.claim } : {}),
  };
  const built = containerEndpointManifests(req, facts);
  const router = built.router
    ? [
        built.router.serviceAccount,
        built.router.role,
        built.router.roleBinding,
        built.router.deployment,
        built.router.service,
      ]
    : [];
  return [
    ...(built.deployment ? [withRequest(built.deployment, req)] : []),
    built.deployment ? built.service : withRequest(built.service, req),
    ...router,
    ...(built.scaledObject ? [built.scaledObject] : []),
  ];
}

/** The image a request runs: its own, else the pinned default of its engine (custom requires one: the schema says so). */
export const servingImage = (req: { engine: DeployContainerEndpointRequest['engine']; image?: string | undefined }) =>
  req.image ?? (req.engine === 'custom' ? '' : DEFAULT_SERVING_IMAGES[req.engine]);

/** Kinds a container endpoint is made of, by the kind name its view lists. */
const KINDS: Readonly<Record<string, KubeKind>> = {
  Deployment: DEPLOYMENT,
  Service: SERVICE,
  ScaledObject: SCALED_OBJECT,
  ServiceAccount: SERVICE_ACCOUNT,
  Role: ROLE,
  RoleBinding: ROLE_BINDING,
};

/**
 * Deletes exactly the objects of a container endpoint: each one by kind and name, and only when it carries the
 * endpoint's label (an object of that name someone else made stays). The ScaledObject goes first, so KEDA does not
 * scale a Deployment that is going away.
 */
export async function deleteContainerObjects(
  kube: KubePort,
  found: Extract<FoundEndpoint, { kind: 'container' }>,
  objects: ReadonlyArray<{ kind: string; name: string }>,
): Promise<void> {
  const ordered = [...objects].sort((a, b) => Number(b.kind === 'ScaledObject') - Number(a.kind === 'ScaledObject'));
  for (const o of ordered) {
    const kind = Object.hasOwn(KINDS, o.kind) ? KINDS[o.kind] : undefined;
    if (!kind) continue;
    const current: KubeResource | undefined = await kube.find(kind, o.name, found.namespace).catch((err: unknown) => {
      // A kind the cluster no longer serves (KEDA removed) has nothing left to delete.
      if (err instanceof KubeKindNotServed) return undefined;
      throw err;
    });
    if (current?.metadata.labels[ENDPOINT_LABEL] !== found.name) continue;
    await kube.delete(kind, o.name, found.namespace);
  }
}
