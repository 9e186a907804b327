import type { HyperPodCluster, KubePort } from '../../cloud/ports.js';
import { InputError } from '../../domain/errors.js';
import { DAEMON_SET, daemonSetCoverage, type KubeDaemonSet } from '../../domain/kube/daemon-set.js';
import { NODE } from '../../domain/kube/node.js';
import type { KubeObject } from '../../domain/kube-object.js';
import { INSTANCE_GROUP_LABEL } from '../../domain/node-health-terms.js';
import { KARPENTER_OBJECT_NAME } from '../../domain/autoscaling.js';
import { featureManifests } from '../../domain/cluster-dependencies.js';
import { featureDefinition } from '../../domain/features/registry.js';
import type { FeatureInstall } from '../../domain/features/types.js';
import { KubeKindNotServed } from '../../domain/kube/errors.js';
import { HYPERPOD_NODE_CLASS } from '../../domain/kube/hyperpod-node-class.js';
import type { FeatureId } from '../../domain/schemas/features.js';
import type { WorkflowDeps } from '../context.js';
import { addonValuesDrift } from './addon-values.js';
import type { FeatureFacts } from './feature-facts.js';
import { providedByWords, readKubeRayInstall } from './kuberay-install.js';
import { KUBERAY } from '../../domain/features/kuberay.js';

/**
 * One feature as the cluster has it, read from AWS and Kubernetes (never our store): the EKS add-on
 * (DescribeAddon), the manifest set's objects, or the HyperPod cluster's setting (DescribeCluster).
 * The reconciler and the features API read through here, so they never disagree on what "on" is.
 */

export type FeatureReadState = 'on' | 'off' | 'installing' | 'removing' | 'failed';

export interface FeatureReading {
  state: FeatureReadState;
  /** The installed add-on version (EKS add-ons). */
  version?: string;
  /** What the state rests on, in words (the add-on's status and health issues, a missing object, the setting). */
  health: string;
  /** Its settings as read back: what a PATCH's settings are compared against. */
  config: Record<string, unknown>;
  /** Set when another install provides the feature (not InstantStart): who, in words. It is left in charge and never removed. */
  providedBy?: string;
  /** Set when InstantStart's own install lags what it pins now (why): turning the feature on upgrades it. */
  outdated?: string;
}

/** Where readings come from: the cluster's facts, and the HyperPod cluster and Kubernetes API when a feature needs them (read once per source). */
export interface ReadSource {
  deps: WorkflowDeps;
  facts: FeatureFacts;
  hyperpod(): Promise<HyperPodCluster>;
  kube(): Promise<KubePort>;
}

/** A source reading the HyperPod cluster at most once (`hyperpod` absent: a feature that needs it throws, e.g. during create before HyperPod exists). */
export function readSource(
  deps: WorkflowDeps,
  facts: FeatureFacts,
  hyperpod?: () => Promise<HyperPodCluster>,
): ReadSource {
  let hp: Promise<HyperPodCluster> | undefined;
  return {
    deps,
    facts,
    hyperpod: () =>
      (hp ??= hyperpod
        ? hyperpod()
        : Promise.reject(new Error(`the HyperPod cluster '${facts.clusterName}' is not made yet`))),
    kube: () => deps.cloud.kube(facts.region, facts.eksClusterName),
  };
}

/** What decides whether a feature is on: its add-on, else its manifests, else its cluster setting (registry order of installs). */
export function primaryInstall(id: FeatureId): Exclude<FeatureInstall, { kind: 's3-bucket' | 'subnet-tags' }> {
  const installs = featureDefinition(id).installs;
  const found =
    installs.find((i) => i.kind === 'eks-addon') ??
    installs.find((i) => i.kind === 'manifests') ??
    installs.find((i) => i.kind === 'cluster-setting');
  if (!found) throw new Error(`feature ${id} installs nothing the reconciler can read`);
  return found;
}

const issuesOf = (a: { health?: { issues?: Array<{ message?: string }> } }) =>
  (a.health?.issues ?? [])
    .map((i) => i.message)
    .filter(Boolean)
    .join('; ');

async function readAddon(
  src: ReadSource,
  id: FeatureId,
  install: Extract<FeatureInstall, { kind: 'eks-addon' }>,
): Promise<FeatureReading> {
  const addonName = install.addonName;
  const a = await src.deps.cloud.eks.describeAddon(src.facts.region, src.facts.eksClusterName, addonName);
  if (!a) return { state: 'off', health: `add-on ${addonName} not installed`, config: {} };
  const status = a.status ?? 'unknown';
  const issues = issuesOf(a);
  const version = a.addonVersion;
  const base = { ...(version ? { version } : {}), config: version ? { version } : {} };
  // DEGRADED is normal before nodes exist (the add-on's pods have nowhere to run yet): on, with why.
  if (status === 'ACTIVE' || status === 'DEGRADED') {
    // Configuration values InstantStart would not install now (an add-on still naming a renamed role): outdated.
    const outdated = install.configurationValues
      ? addonValuesDrift(install.configurationValues, src.facts, id, a.configurationValues)
      : undefined;
    const health = [issues ? `${status}: ${issues}` : status, outdated].filter(Boolean).join('; ');
    return { state: 'on', health, ...base, ...(outdated ? { outdated } : {}) };
  }
  if (status === 'CREATE_FAILED' || status === 'UPDATE_FAILED' || status === 'DELETE_FAILED')
    return { state: 'failed', health: issues || status, ...base };
  if (status === 'DELETING') return { state: 'removing', health: status, ...base };
  return { state: 'installing', health: status, ...base };
}

async function readManifests(
  src: ReadSource,
  id: FeatureId,
  set: Parameters<typeof featureManifests>[0],
): Promise<FeatureReading> {
  let objects: KubeObject[];
  try {
    objects = featureManifests(set, src.facts.region);
  } catch (err) {
    if (err instanceof InputError)
      return { state: 'failed', health: err.problems[0]?.message ?? err.message, config: {} };
    throw err;
  }
  const kube = await src.kube();
  const present = await Promise.all(objects.map((o) => kube.current(o)));
  const missing = objects.filter((_, i) => !present[i]).map((o) => `${o.kind}/${o.metadata.name}`);
  if (missing.length === objects.length)
    return { state: 'off', health: `${featureDefinition(id).title} not installed`, config: {} };
  if (missing.length > 0) return { state: 'failed', health: `missing ${missing.join(', ')}`, config: {} };
  const agents = present.filter((o) => o?.kind === 'DaemonSet').map((o) => DAEMON_SET.parse(o));
  const idle = agents.length ? await idleDaemonSets(kube, agents) : [];
  if (idle.length) return { state: 'failed', health: idle.join(' '), config: {} };
  return { state: 'on', health: `${objects.length} objects present`, config: {} };
}

/**
 * The node agents that run on none of the HyperPod nodes they are for (daemonSetCoverage), in words.
 * HyperPod nodes are found by their instance-group label, not by the label the agents select on, so a
 * selector that matches nothing shows.
 */
async function idleDaemonSets(kube: KubePort, agents: readonly KubeDaemonSet[]): Promise<string[]> {
  const nodes = (await kube.list(NODE, { labelSelector: INSTANCE_GROUP_LABEL })).map((n) => ({
    name: n.metadata.name,
    labels: n.metadata.labels,
  }));
  return agents
    .map((ds) => daemonSetCoverage(ds, nodes))
    .filter((h) => h.state === 'failed')
    .map((h) => h.reason);
}

/** KubeRay: someone else's install is on (provided by it); ours is read as the other manifest sets are, and may lag the pinned one. */
async function readKubeRay(src: ReadSource, id: FeatureId): Promise<FeatureReading> {
  const install = await readKubeRayInstall(await src.kube());
  if (install.owner === 'other') {
    const providedBy = providedByWords(install);
    return {
      state: 'on',
      ...(install.version ? { version: install.version } : {}),
      health: `provided by ${providedBy}; InstantStart leaves it in charge`,
      config: {},
      providedBy,
    };
  }
  const reading = await readManifests(src, id, 'kuberay-operator');
  if (install.owner !== 'instantstart') return reading;
  const version = install.version ? { version: install.version } : {};
  if (!install.outdated || reading.state === 'off') return { ...reading, ...version };
  // An older InstantStart's install (objects it did not make yet are missing too): on, and upgraded when turned on.
  const missing = reading.state === 'failed' ? `; ${reading.health}` : '';
  return {
    state: 'on',
    ...version,
    health: `InstantStart's KubeRay${install.version ? ` ${install.version}` : ''} is older than the pinned ${KUBERAY.version} (${install.outdated}${missing}); turning the feature on upgrades it`,
    config: {},
    outdated: install.outdated,
  };
}

async function readTieredStorage(src: ReadSource): Promise<FeatureReading> {
  const t = (await src.hyperpod()).TieredStorageConfig;
  if (t?.Mode !== 'Enable') return { state: 'off', health: 'TieredStorageConfig Mode Disable', config: {} };
  const pct = t.InstanceMemoryAllocationPercentage;
  return {
    state: 'on',
    health: `TieredStorageConfig Mode Enable${pct !== undefined ? `, ${pct}% of instance memory` : ''}`,
    config: pct !== undefined ? { instanceMemoryAllocationPercentage: pct } : {},
  };
}

async function readAutoscaling(src: ReadSource): Promise<FeatureReading> {
  const a = (await src.hyperpod()).AutoScaling;
  if (a?.Mode !== 'Enable') return { state: 'off', health: 'AutoScaling Mode Disable', config: {} };
  const groups = await src
    .kube()
    .then((kube) => kube.find(HYPERPOD_NODE_CLASS, KARPENTER_OBJECT_NAME))
    .catch((err: unknown) => {
      if (err instanceof KubeKindNotServed) return undefined;
      throw err;
    });
  const config = groups ? { instanceGroups: groups.spec.instanceGroups } : {};
  if (a.Status === 'Failed')
    return { state: 'failed', health: `AutoScaling Failed: ${a.FailureMessage ?? 'no reason given'}`, config };
  if (a.Status !== undefined && a.Status !== 'InService')
    return { state: 'installing', health: `AutoScaling ${a.Status}`, config };
  return {
    state: 'on',
    health: `AutoScaling ${a.Status ?? 'Enable'}${groups ? ` on ${groups.spec.instanceGroups.join(', ')}` : ''}`,
    config,
  };
}

/** Feature `id` as the cluster has it now. */
export async function readFeature(src: ReadSource, id: FeatureId): Promise<FeatureReading> {
  const install = primaryInstall(id);
  switch (install.kind) {
    case 'eks-addon':
      return readAddon(src, id, install);
    case 'manifests':
      return install.set === 'kuberay-operator' ? readKubeRay(src, id) : readManifests(src, id, install.set);
    case 'cluster-setting':
      return install.field === 'TieredStorageConfig' ? readTieredStorage(src) : readAutoscaling(src);
  }
}
