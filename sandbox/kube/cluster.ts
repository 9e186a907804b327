import { ClusterObjects, emptyClusterKubeState, type ClusterKubeState } from './objects.js';
import { BUILTIN_RESOURCES, CRD_TYPE, typesOfCrd } from './resources.js';
import type { KubeObject, ResourceType } from './types.js';

/**
 * One sandbox EKS cluster's Kubernetes side: its objects and the resource types it serves
 * (built-ins plus the custom resources of its established CRDs). The API layer, the controllers
 * and the tests all work through this.
 */
export interface KubeCluster {
  /** The EKS cluster's ARN (its identity in the sandbox state). */
  arn: string;
  name: string;
  region: string;
  /** The EKS cluster's Kubernetes version (`1.35`), reported by `/version`; '1.35' when unset. */
  kubernetesVersion?: string;
  objects: ClusterObjects;
  /** Sandbox time, epoch ms. */
  now(): number;
  /** Built-in types and every served version of every established CRD. */
  types(): ResourceType[];
  findType(group: string, version: string, resource: string): ResourceType | undefined;
  /** By apiVersion + kind (for ownerReferences and `kubectl apply` of mixed documents). */
  findTypeByKind(apiVersion: string, kind: string): ResourceType | undefined;
  /**
   * Mutating admission EKS runs on the control plane (the pod identity webhook): every new object,
   * whether the API or a simulated controller creates it, passes here before it is stored. Mutates
   * in place and returns the object.
   */
  admit(type: ResourceType, obj: KubeObject): KubeObject;
  /** What containers reach outside the cluster; absent for memory-only clusters (no network). */
  world?: ContainerWorld;
}

/**
 * The sandbox beyond a cluster, as the processes of its containers see it: the Hugging Face Hub
 * simulation (by the endpoint a container must name to reach it), S3 (what a Mountpoint volume
 * writes lands in its bucket), and a memory of what each run of a container learned when it
 * started (its resolved secrets' verdicts, its plan), kept with the cluster's state so its logs and
 * its effects stay the same after the Secret is gone or the sandbox restarts.
 */
export interface ContainerWorld {
  /** `HF_ENDPOINT` of the sandbox's Hub simulation (`<sandbox>/_huggingface`). */
  hubEndpoint(): string;
  /** Writes an object into a sandbox S3 bucket; false when the bucket does not exist. */
  putObject(bucket: string, key: string, body: Buffer): boolean;
  memory: ProcessMemory;
}

export interface ProcessMemory {
  get(key: string): unknown;
  set(key: string, value: unknown): void;
  delete(key: string): void;
  keys(): string[];
}

export function makeKubeCluster(
  identity: { arn: string; name: string; region: string; kubernetesVersion?: string },
  data: ClusterKubeState,
  hooks: {
    now(): number;
    changed(): void;
    admit?(cluster: KubeCluster, type: ResourceType, obj: KubeObject): void;
    world?: ContainerWorld;
  },
): KubeCluster {
  const objects = new ClusterObjects(data, hooks);
  // Every request and every controller looks its types up (findType) many times a tick, and a CRD
  // carries its whole OpenAPI schema: the types are built again only when a CRD changed (its uid and
  // resourceVersion, read in place without copying), not copied out of the store on each lookup.
  let cached: { fingerprint: string; types: ResourceType[] } | undefined;
  const types = (): ResourceType[] => {
    let fingerprint = '';
    objects.scan(CRD_TYPE, undefined, (crd) => {
      fingerprint += `${crd.metadata.uid}@${crd.metadata.resourceVersion};`;
    });
    if (cached?.fingerprint !== fingerprint) {
      cached = {
        fingerprint,
        types: [
          ...BUILTIN_RESOURCES,
          ...objects
            .list(CRD_TYPE)
            .filter(isEstablished)
            .flatMap((crd) => typesOfCrd(crd)),
        ],
      };
    }
    return [...cached.types];
  };
  const cluster: KubeCluster = {
    ...identity,
    objects,
    now: () => hooks.now(),
    types,
    findType: (group, version, resource) =>
      types().find((t) => t.group === group && t.version === version && t.resource === resource),
    findTypeByKind: (apiVersion, kind) => {
      const [group, version] = apiVersion.includes('/') ? apiVersion.split('/') : ['', apiVersion];
      return types().find((t) => t.group === group && t.version === version && t.kind === kind);
    },
    admit: (type, obj) => {
      hooks.admit?.(cluster, type, obj);
      return obj;
    },
    ...(hooks.world ? { world: hooks.world } : {}),
  };
  return cluster;
}

/** A cluster that lives only in memory, on a clock the caller controls (unit tests of the API and controllers). */
export function makeMemoryKubeCluster(
  options: { name?: string; region?: string; now?: () => number } = {},
): KubeCluster {
  const name = options.name ?? 'unit';
  const region = options.region ?? 'us-west-2';
  let t = Date.parse('2026-01-01T00:00:00Z');
  return makeKubeCluster(
    { arn: `arn:aws:eks:${region}:000000000000:cluster/${name}`, name, region },
    emptyClusterKubeState(),
    { now: options.now ?? (() => (t += 1)), changed: () => {} },
  );
}

export function isEstablished(crd: KubeObject): boolean {
  const conditions =
    (crd.status as { conditions?: Array<{ type: string; status: string }> } | undefined)?.conditions ?? [];
  return conditions.some((c) => c.type === 'Established' && c.status === 'True');
}
