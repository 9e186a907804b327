import type { HyperPodCluster, KubePort } from '../../cloud/ports.js';
import { ConflictError, PreconditionError } from '../../domain/errors.js';
import { HYPERPOD_PYTORCH_JOB } from '../../domain/kube/hyperpod-pytorch-job.js';
import { KubeKindNotServed } from '../../domain/kube/errors.js';
import { RAY_JOB } from '../../domain/kube/ray-job.js';
import type { SubmitTrainingJobRequest, TrainingKind } from '../../domain/schemas/training.js';
import { placementFor, type Placement } from '../../domain/training/placement.js';
import type { SubmitFacts } from '../../domain/training/submit.js';
import { groupSpecOf } from '../../workflows/instance-group-spec.js';
import { resolveStorage } from '../../workflows/storage-volumes.js';
import type { TrainingServiceDeps } from './ports.js';

/**
 * What a submit is decided on, read from where it is true now: the instance group and its type's
 * facts (HyperPod DescribeCluster, the catalog's EC2 facts → placement), the group's capacity type,
 * whether managed tiered checkpointing is on (DescribeCluster TieredStorageConfig), the storage's
 * claim in the job's namespace, and which training kinds the cluster serves. Every refusal here is a
 * 422 naming the field; nothing is created while these are read.
 */

/** The managed feature that makes a cluster serve each kind (docs/FEATURES.md). */
export const FEATURE_OF_KIND: Readonly<Record<TrainingKind, string>> = {
  HyperPodPyTorchJob: 'training-operator',
  RayJob: 'kuberay-operator',
};

const refuse = (path: string, message: string, remedy?: string) =>
  new PreconditionError({ message: `${path}: ${message}`, problems: [{ path, message }], remedy });

/** The group's placement and capacity type; 422 naming instanceGroup when the cluster has no such group. */
export async function groupFacts(
  deps: TrainingServiceDeps,
  region: string,
  hp: HyperPodCluster,
  groupName: string,
): Promise<{ placement: Placement; capacityType: string }> {
  const groups = hp.InstanceGroups ?? [];
  const group = groups.find((g) => g.InstanceGroupName === groupName);
  if (!group) {
    const names = groups.map((g) => g.InstanceGroupName).filter(Boolean);
    throw refuse(
      'instanceGroup',
      `cluster ${hp.ClusterName} has no instance group '${groupName}'${names.length ? ` (its groups: ${names.join(', ')})` : ''}.`,
    );
  }
  const spec = groupSpecOf(group);
  const types = await deps.catalog.listHyperPodInstanceTypes(region);
  const facts = types.find((t) => t.instanceType === spec.instanceType);
  if (!facts)
    throw refuse(
      'instanceGroup',
      `the catalog has no facts about ${spec.instanceType} in ${region} (accelerators, EFA), so the pods cannot be sized.`,
    );
  return {
    placement: placementFor({ name: spec.name, instanceType: spec.instanceType, taints: spec.taints ?? [] }, facts),
    capacityType: spec.capacityType,
  };
}

/** The storage's claim in the job's namespace; 422 naming storage otherwise (listing the storages there are). */
export async function claimOf(kube: KubePort, storage: string, namespace: string): Promise<string> {
  const found = await resolveStorage(kube, storage, namespace);
  if (found) return found.claim;
  throw refuse(
    'storage',
    `the cluster has no storage '${storage}' in namespace ${namespace} (no PersistentVolumeClaim ${namespace}/${storage}); list them with list_storage and give one of its names, or submit into its namespace.`,
  );
}

/**
 * Whether the name is free in the namespace across both kinds, and the request's kind is served.
 * 409 naming `name` when a job of either kind has it (a submit never overwrites a job); 422 naming
 * the operator feature when the kind is not served.
 */
export async function checkNameAndKind(
  kube: KubePort,
  cluster: string,
  kind: TrainingKind,
  name: string,
  namespace: string,
): Promise<void> {
  const finders = {
    HyperPodPyTorchJob: () => kube.find(HYPERPOD_PYTORCH_JOB, name, namespace),
    RayJob: () => kube.find(RAY_JOB, name, namespace),
  } as const;
  for (const k of ['HyperPodPyTorchJob', 'RayJob'] as const) {
    try {
      const existing = await finders[k]();
      if (existing) {
        const why =
          k === kind
            ? `a ${k} named ${name} already exists in namespace ${namespace}`
            : `a ${k} named ${name} exists in namespace ${namespace}, and a name is one job across both kinds`;
        throw new ConflictError({
          message: `name: ${why}; choose another name, or delete that job first (delete_job).`,
          field: 'name',
        });
      }
    } catch (err) {
      if (!(err instanceof KubeKindNotServed)) throw err;
      if (k === kind) {
        const feature = FEATURE_OF_KIND[k];
        throw refuse(
          feature,
          `cluster ${cluster} does not serve ${k}: the ${feature} feature is off.`,
          `Turn it on with PATCH /api/v1/clusters/${cluster}/features {"${feature}": true} (set_features), wait for the operation, then submit again.`,
        );
      }
    }
  }
}

/** Every fact trainingManifest needs, read for one request. */
export async function submitFacts(
  deps: TrainingServiceDeps,
  region: string,
  hp: HyperPodCluster,
  kube: KubePort,
  req: SubmitTrainingJobRequest,
  serviceAccountName?: string,
): Promise<SubmitFacts> {
  const [group, claimName] = await Promise.all([
    groupFacts(deps, region, hp, req.instanceGroup),
    claimOf(kube, req.storage, req.namespace),
  ]);
  return {
    claimName,
    placement: group.placement,
    capacityType: group.capacityType,
    tieredCheckpointing: hp.TieredStorageConfig?.Mode === 'Enable',
    ...(serviceAccountName ? { serviceAccountName } : {}),
  };
}
