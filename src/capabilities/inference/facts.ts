import type { HyperPodCluster, KubePort } from '../../cloud/ports.js';
import { ConflictError, PreconditionError } from '../../domain/errors.js';
import { SECRET } from '../../domain/kube/secret.js';
import type { InstanceTypeView } from '../../domain/schemas/preflight.js';
import { groupSpecOf } from '../../workflows/instance-group-spec.js';
import { resolveStorage, type ResolvedStorage } from '../../workflows/storage-volumes.js';
import type { InferenceServiceDeps } from './ports.js';

/**
 * What a deploy is decided on, read from where it is true now: the cluster's instance groups (HyperPod
 * DescribeCluster) and their types' GPUs (the catalog's EC2 facts), a storage by name (its claim, bucket or file
 * system), whether a token Secret exists (never its value: the Secret parser drops `data`), and whether a name is
 * free. Every refusal is a 422 (409 for a taken name) naming the request's field; nothing is created while these
 * are read.
 */

export const refuse = (path: string, message: string, remedy?: string): PreconditionError =>
  new PreconditionError({
    message: `${path}: ${message}`,
    problems: [{ path, message }],
    ...(remedy ? { remedy } : {}),
  });

/** An instance group as a deploy needs it: where its nodes are and how many GPUs each has. */
export interface GroupFacts {
  group: string;
  instanceType: string;
  /** NVIDIA GPUs per node (0 without). */
  gpus: number;
  acceleratorName?: string;
  /** The group's taints: the pods tolerate exactly these. */
  taints: ReadonlyArray<{ key: string; value?: string; effect: string }>;
}

const groupNames = (hp: HyperPodCluster): string[] =>
  (hp.InstanceGroups ?? []).map((g) => g.InstanceGroupName).filter((n): n is string => Boolean(n));

/** The catalog's facts of one type; 422 naming `field` when the catalog does not know it. */
async function typeFacts(
  deps: InferenceServiceDeps,
  region: string,
  instanceType: string,
  field: string,
): Promise<InstanceTypeView> {
  const facts = (await deps.catalog.listHyperPodInstanceTypes(region)).find((t) => t.instanceType === instanceType);
  if (!facts)
    throw refuse(
      field,
      `the catalog has no facts about ${instanceType} in ${region} (GPUs), so replicas cannot be sized.`,
    );
  return facts;
}

/** A group of the cluster with its type's GPUs; 422 naming `field` when the cluster has no such group. */
export async function groupFacts(
  deps: InferenceServiceDeps,
  region: string,
  hp: HyperPodCluster,
  groupName: string,
  field = 'instanceGroup',
): Promise<GroupFacts> {
  const group = (hp.InstanceGroups ?? []).find((g) => g.InstanceGroupName === groupName);
  if (!group) {
    const names = groupNames(hp);
    throw refuse(
      field,
      `cluster ${hp.ClusterName} has no instance group '${groupName}'${names.length ? ` (its groups: ${names.join(', ')})` : ''}.`,
    );
  }
  const spec = groupSpecOf(group);
  const facts = await typeFacts(deps, region, spec.instanceType, field);
  const nvidia = facts.acceleratorCount !== undefined && !/trainium|inferentia/i.test(facts.acceleratorName ?? '');
  return {
    group: spec.name,
    instanceType: spec.instanceType,
    gpus: nvidia ? (facts.acceleratorCount ?? 0) : 0,
    ...(facts.acceleratorName ? { acceleratorName: facts.acceleratorName } : {}),
    taints: spec.taints ?? [],
  };
}

/** 422 naming `gpus` when a replica asks for more GPUs than one node of the group has. */
export function checkGpus(group: GroupFacts, gpus: number, field = 'gpus'): void {
  if (gpus <= group.gpus) return;
  throw refuse(
    field,
    group.gpus === 0
      ? `instance group ${group.group} (${group.instanceType}) has no NVIDIA GPUs; ask for 0 or choose a GPU group.`
      : `a replica asks for ${gpus} GPUs, and one ${group.instanceType} node of group ${group.group} has ${group.gpus}.`,
  );
}

/**
 * Each managed endpoint's instance type must be the type of an instance group of the cluster (the operator puts
 * replicas on nodes of that type): 422 naming `instanceTypes[i]` with the types the cluster has.
 */
export function checkInstanceTypes(hp: HyperPodCluster, instanceTypes: readonly string[]): void {
  const types = new Set((hp.InstanceGroups ?? []).map((g) => g.InstanceType).filter((t): t is string => Boolean(t)));
  const problems = instanceTypes.flatMap((t, i) =>
    types.has(t)
      ? []
      : [
          {
            path: `instanceTypes.${i}`,
            message: `cluster ${hp.ClusterName} has no instance group of type ${t} (its types: ${[...types].join(', ') || 'none'}).`,
          },
        ],
  );
  if (problems.length)
    throw new PreconditionError({
      message: `instanceTypes: ${problems.map((p) => p.message).join(' ')}`,
      problems,
      remedy: 'Give instance types of the cluster’s groups (list_instance_groups), or add a group of that type.',
    });
}

/** A storage of the cluster in the namespace; 422 naming `field` otherwise. */
export async function storageFacts(
  kube: KubePort,
  storage: string,
  namespace: string,
  field = 'storage',
): Promise<ResolvedStorage> {
  const found = await resolveStorage(kube, storage, namespace);
  if (found) return found;
  throw refuse(
    field,
    `the cluster has no storage '${storage}' in namespace ${namespace}; list them with list_storage and give one of its names, or deploy into its namespace.`,
  );
}

/** 422 naming `field` unless the Secret exists in the namespace (its value is never read: the parser drops it). */
export async function checkSecret(kube: KubePort, name: string, namespace: string, field: string): Promise<void> {
  if (await kube.find(SECRET, name, namespace)) return;
  throw refuse(
    field,
    `there is no Secret ${namespace}/${name}. Create it yourself (kubectl create secret generic ${name} -n ${namespace} --from-literal=token=…); InstantStart never takes the token itself.`,
  );
}

/** 409 naming `name`: a deploy never overwrites an object someone else (or another endpoint) has. */
export const nameTaken = (what: string, namespace: string, name: string, field = 'name'): ConflictError =>
  new ConflictError({
    message: `${field}: ${what} ${namespace}/${name} already exists and is not this endpoint's; choose another name, or delete it first (delete_endpoint).`,
    field,
  });
