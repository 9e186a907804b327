import { sameJson } from '../../core/clone-json.js';
import type { SandboxState } from '../../core/store.js';
import { deleteObject } from '../api/deletion.js';
import type { KubeCluster } from '../cluster.js';
import type { KubeObject, ResourceType } from '../types.js';
import { recordEvent } from './events.js';
import { endpointStatus, podFailure, type Failure } from './inference-endpoint-status.js';
import {
  ingress,
  modelDeployment,
  modelService,
  modelStorage,
  names,
  OWNER_UID,
  routerObjects,
} from './inference-objects.js';
import { planOfEndpointConfig, planOfJumpStartModel, type EndpointPlan } from './inference-plan.js';
import { scaledObject } from './inference-scaling.js';
import { dependentsOf, save, T, type Any } from './util.js';

/**
 * The HyperPod inference operator's endpoints: each InferenceEndpointConfig and JumpStartModel
 * (v1) becomes its model Deployment and Service, its model volume (S3 or FSx static volume, or a
 * Hugging Face download), the router's Deployment and Service with intelligent routing, the KEDA
 * ScaledObject(s) of its autoscaling specs and the Ingress of its load balancer (inference-objects.ts,
 * inference-scaling.ts); their status follows the model Deployment (inference-endpoint-status.ts).
 * Objects the spec no longer asks for go; what the spec changes is written over them, except a
 * Deployment's replicas while a ScaledObject scales it. The Ingress's ALB is the AWS Load Balancer
 * Controller's (load-balancers.ts).
 * An endpoint naming a SageMaker endpoint (`endpointName`, `sageMakerEndpoint.name`) needs the
 * operator to pass its execution role to SageMaker: a refusal fails the deployment with AWS's error
 * (as a SageMakerEndpointRegistration fails); an allowed one reports the SageMaker endpoint
 * `CreationInProgress` (the sandbox hosts no SageMaker endpoints). Reconciled only while the
 * add-on runs (`operatorRole`).
 */

const REPORTER = 'hyperpod-inference-operator';
const GROUP = 'inference.sagemaker.aws.amazon.com';

export interface OperatorAccess {
  /** Why SageMaker refuses the operator's CreateModel for this endpoint, or undefined when IAM allows it. */
  sageMakerRefusal(endpointName: string): string | undefined;
  /** The FSx file system's DNS and mount names (fsx:DescribeFileSystems), or why it cannot be described. */
  fileSystem(fileSystemId: string): { dnsName: string; mountName: string } | { error: string };
}

export function runInferenceEndpoints(cluster: KubeCluster, access: OperatorAccess): void {
  const kinds: Array<[string, (o: KubeObject) => ReturnType<typeof planOfEndpointConfig>]> = [
    ['inferenceendpointconfigs', planOfEndpointConfig],
    ['jumpstartmodels', (o) => planOfJumpStartModel(o, cluster.region)],
  ];
  for (const [resource, planOf] of kinds) {
    const type = cluster.findType(GROUP, 'v1', resource);
    if (!type) continue;
    for (const owner of cluster.objects.list(type)) {
      if (owner.metadata.deletionTimestamp) continue;
      reconcile(cluster, type, owner, planOf(owner), access);
    }
  }
  releaseVolumes(cluster);
}

function reconcile(
  cluster: KubeCluster,
  type: ResourceType,
  owner: KubeObject,
  planned: ReturnType<typeof planOfEndpointConfig>,
  access: OperatorAccess,
): void {
  const now = cluster.now();
  if ('failure' in planned) return fail(cluster, type, owner, planned.failure, now);
  const plan = planned.plan;
  const fsx = plan.model.fsx;
  // The CSI driver needs both names; the operator looks up those the spec leaves out (its managed policy's FSxAccess).
  if (plan.model.source === 'fsx' && fsx && (!fsx.dnsName || !fsx.mountName)) {
    const found = access.fileSystem(fsx.fileSystemId);
    if ('error' in found)
      return fail(cluster, type, owner, { reason: 'FileSystemNotFound', message: found.error }, now);
    plan.model.fsx = { ...fsx, dnsName: fsx.dnsName || found.dnsName, mountName: fsx.mountName || found.mountName };
  }
  // Pods reach only the sandbox's Hugging Face Hub simulation: the download container is pointed at it.
  if (plan.model.huggingFace && cluster.world) plan.model.huggingFace.endpoint = cluster.world.hubEndpoint();
  let sagemaker: Any | undefined;
  if (plan.endpointName) {
    const refused = access.sageMakerRefusal(plan.endpointName);
    if (refused)
      return fail(cluster, type, owner, { reason: 'SageMakerEndpointCreationFailed', message: refused }, now);
    sagemaker = { state: 'CreationInProgress' };
  }
  const deployment = applyObjects(cluster, owner, plan);
  const router = plan.routing ? cluster.objects.get(T.deployments, plan.namespace, names(plan.name).router) : undefined;
  const routerReady = !plan.routing || Number((router?.status as Any | undefined)?.readyReplicas ?? 0) >= 1;
  const failure = deployment ? podFailure(cluster, plan.namespace, plan.name, now) : undefined;
  // A ScaledObject with minReplicaCount 0 may take the model Deployment to zero: that is not a deployment in progress.
  const scaledToZero =
    Number(plan.autoscaling?.minReplicaCount ?? 1) === 0 &&
    Number((deployment?.spec as Any | undefined)?.replicas ?? 1) === 0 &&
    !!scaledObjectOf(cluster, plan.namespace, names(plan.name).scaledObject);
  const status = endpointStatus({
    owner,
    ...(deployment ? { deployment } : {}),
    routerReady,
    scaledToZero,
    ...(failure ? { failure } : {}),
    maxDeployTimeInSeconds: plan.maxDeployTimeInSeconds,
    ...(sagemaker ? { sagemaker } : {}),
    now,
  });
  writeStatus(cluster, type, owner, status);
}

function scaledObjectOf(cluster: KubeCluster, namespace: string, name: string): KubeObject | undefined {
  const type = cluster.findType('keda.sh', 'v1alpha1', 'scaledobjects');
  return type ? cluster.objects.get(type, namespace, name) : undefined;
}

function fail(cluster: KubeCluster, type: ResourceType, owner: KubeObject, failure: Failure, now: number): void {
  writeStatus(
    cluster,
    type,
    owner,
    endpointStatus({ owner, routerReady: true, scaledToZero: false, failure, maxDeployTimeInSeconds: 0, now }),
  );
}

function writeStatus(cluster: KubeCluster, type: ResourceType, owner: KubeObject, status: Any): void {
  const before = (owner.status ?? {}) as Any;
  if (sameJson(before, status)) return;
  save(cluster, type, owner, { ...owner, status });
  if (before.state === status.state) return;
  const failed = status.state === 'DeploymentFailed';
  if (failed || status.state === 'DeploymentComplete')
    recordEvent(
      cluster,
      owner,
      failed ? 'Warning' : 'Normal',
      failed ? status.deploymentStatus.reason : 'DeploymentComplete',
      failed ? status.deploymentStatus.message : `${status.deploymentStatus.message}: the endpoint is ready`,
      REPORTER,
    );
}

/** Creates, updates or removes the endpoint's objects; returns the stored model Deployment once it exists. */
function applyObjects(cluster: KubeCluster, owner: KubeObject, plan: EndpointPlan): KubeObject | undefined {
  const n = names(plan.name);
  const scaling = plan.autoscaling
    ? scaledObject(owner, {
        name: n.scaledObject,
        namespace: plan.namespace,
        endpoint: plan.name,
        target: n.deployment,
        spec: plan.autoscaling,
        region: cluster.region,
      })
    : undefined;
  const routerScaling = plan.routing?.autoscaling
    ? scaledObject(owner, {
        name: n.routerScaledObject,
        namespace: plan.namespace,
        endpoint: plan.name,
        target: n.router,
        spec: plan.routing.autoscaling,
        region: cluster.region,
      })
    : undefined;
  const existing = cluster.objects.get(T.deployments, plan.namespace, n.deployment);
  // A ScaledObject (through its HPA) owns the replica count once it exists; before, the spec's count, within the autoscaling bounds.
  const min = Number(plan.autoscaling?.minReplicaCount ?? 1);
  const replicas =
    scaling && existing
      ? Number((existing.spec as Any).replicas ?? 1)
      : scaling
        ? Math.max(plan.replicas, min)
        : plan.replicas;
  const storage = modelStorage(owner, plan);
  const lb = ingress(owner, plan);
  const desired: KubeObject[] = [
    ...(storage.pvc ? [storage.pvc] : []),
    modelDeployment(owner, plan, replicas),
    modelService(owner, plan),
    ...routerObjects(owner, plan),
    ...(scaling ? [scaling] : []),
    ...(routerScaling ? [routerScaling] : []),
    ...(lb ? [lb] : []),
  ];
  if (storage.pv && !cluster.objects.get(T.persistentvolumes, undefined, storage.pv.metadata.name!))
    cluster.objects.create(T.persistentvolumes, storage.pv);
  const scaledType = cluster.findType('keda.sh', 'v1alpha1', 'scaledobjects');
  const managed: ResourceType[] = [T.persistentvolumeclaims, T.deployments, T.services, T.ingresses];
  if (scaledType) managed.push(scaledType);
  for (const type of managed) {
    const wanted = desired.filter((o) => o.kind === type.kind);
    for (const o of wanted) upsert(cluster, type, o, owner);
    for (const stale of dependentsOf(cluster, type, owner))
      if (!wanted.some((o) => o.metadata.name === stale.metadata.name))
        deleteObject(cluster, type, stale, 'Background');
  }
  return cluster.objects.get(T.deployments, plan.namespace, n.deployment);
}

/** Creates the object, or writes the operator's fields over a stored one it owns (a Deployment's replicas stay the autoscaler's). */
function upsert(cluster: KubeCluster, type: ResourceType, desired: KubeObject, owner: KubeObject): void {
  const current = cluster.objects.get(type, desired.metadata.namespace, desired.metadata.name!);
  if (!current) {
    cluster.objects.create(type, desired);
    return;
  }
  if (!(current.metadata.ownerReferences ?? []).some((r) => r.uid === owner.metadata.uid)) return;
  const spec = { ...(current.spec as Any), ...(desired.spec as Any) };
  // Fields the API allocated (a Service's cluster IP, a claim's binding) stay as they are.
  if (type === T.services)
    Object.assign(spec, pick(current.spec as Any, ['clusterIP', 'clusterIPs', 'ipFamilies', 'ipFamilyPolicy']));
  const next = {
    ...current,
    metadata: {
      ...current.metadata,
      labels: { ...current.metadata.labels, ...desired.metadata.labels },
      ...(desired.metadata.annotations
        ? { annotations: { ...current.metadata.annotations, ...desired.metadata.annotations } }
        : {}),
    },
    spec: type === T.persistentvolumeclaims ? current.spec : spec,
  };
  save(cluster, type, current, next);
}

const pick = (o: Any, keys: string[]) =>
  Object.fromEntries(keys.filter((k) => o[k] !== undefined).map((k) => [k, o[k]]));

/** The model volumes of endpoints that are gone: a cluster-scoped volume has no owner reference to collect it. */
function releaseVolumes(cluster: KubeCluster): void {
  const volumes = cluster.objects.select(
    T.persistentvolumes,
    undefined,
    (pv) => !!pv.metadata.annotations?.[OWNER_UID],
  ).items;
  if (volumes.length === 0) return;
  const live = new Set<string>();
  for (const resource of ['inferenceendpointconfigs', 'jumpstartmodels']) {
    const type = cluster.findType(GROUP, 'v1', resource);
    if (type) for (const o of cluster.objects.list(type)) if (!o.metadata.deletionTimestamp) live.add(o.metadata.uid!);
  }
  for (const pv of volumes)
    if (!live.has(pv.metadata.annotations![OWNER_UID]!) && !pv.metadata.deletionTimestamp)
      deleteObject(cluster, T.persistentvolumes, pv, 'Background');
}
