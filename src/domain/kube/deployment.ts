import type { KubeObject } from '../kube-object.js';
import {
  conditionOf,
  health,
  kubeKind,
  num,
  parseBase,
  parseConditions,
  rec,
  MANAGED_BY,
  type Condition,
  type KubeHealth,
  type KubeResource,
  type Loose,
} from './kind.js';

/**
 * Deployment: the controllers of the add-ons (cert-manager, the training operator, CSI
 * controllers, CoreDNS), installed by EKS; read to tell whether an add-on is really serving.
 */

export type KubeDeployment = KubeResource & {
  spec: Loose & { replicas: number };
  status: Loose & {
    replicas: number;
    ready: number;
    updated: number;
    available: number;
    observedGeneration?: number;
    conditions: Condition[];
  };
};

export function parseDeployment(raw: unknown): KubeDeployment {
  const base = parseBase(raw, { apiVersion: 'apps/v1', kind: 'Deployment' });
  const spec = rec(base.spec);
  const status = rec(base.status);
  return {
    ...base,
    // An absent replicas field means 1 (the API's default).
    spec: { ...spec, replicas: num(spec.replicas) ?? 1 },
    status: {
      ...status,
      replicas: num(status.replicas) ?? 0,
      ready: num(status.readyReplicas) ?? 0,
      updated: num(status.updatedReplicas) ?? 0,
      available: num(status.availableReplicas) ?? 0,
      observedGeneration: num(status.observedGeneration),
      conditions: parseConditions(status.conditions),
    },
  };
}

export const DEPLOYMENT = kubeKind<KubeDeployment>(
  { apiVersion: 'apps/v1', kind: 'Deployment', plural: 'deployments', namespaced: true, health: deploymentHealth },
  parseDeployment,
);

/** Progressing False with ProgressDeadlineExceeded fails; all replicas updated and available is healthy. */
export function deploymentHealth(d: KubeDeployment): KubeHealth {
  const what = `Deployment ${d.metadata.namespace ?? ''}/${d.metadata.name}`;
  const progressing = conditionOf(d.status.conditions, 'Progressing');
  if (progressing?.status === 'False' && progressing.reason === 'ProgressDeadlineExceeded') {
    return health(
      'failed',
      'ProgressDeadlineExceeded',
      `${what} stopped making progress: ${progressing.message ?? 'its new pods never became available'}.`,
    );
  }
  if (
    d.status.observedGeneration !== undefined &&
    d.metadata.generation !== undefined &&
    d.status.observedGeneration < d.metadata.generation
  ) {
    return health('transitional', 'rolling-out', `${what}: the controller has not seen the latest change yet.`);
  }
  const want = d.spec.replicas;
  if (d.status.updated < want)
    return health('transitional', 'rolling-out', `${what}: ${d.status.updated} of ${want} replicas updated.`);
  if (d.status.available < want)
    return health('transitional', 'starting', `${what}: ${d.status.available} of ${want} replicas available.`);
  if (d.status.replicas > want) return health('transitional', 'scaling-down', `${what}: old replicas are going away.`);
  return health('healthy', 'available', `${what}: ${want} of ${want} replicas available.`);
}

/** A container of a manifest: name and image, the rest as the API takes it (command, args, ports, resources, probes, securityContext). */
export type ContainerManifest = { name: string; image: string } & Loose;

/**
 * A Deployment of one controller: `labels` are its selector and its pods' labels (with ours added to
 * the Deployment itself). `Recreate` for a single-replica operator that must never run twice.
 */
export function deploymentManifest(p: {
  namespace: string;
  name: string;
  labels: Record<string, string>;
  containers: readonly ContainerManifest[];
  serviceAccountName?: string;
  replicas?: number;
  strategy?: 'Recreate' | 'RollingUpdate';
  podSecurityContext?: Loose;
  terminationGracePeriodSeconds?: number;
}): KubeObject {
  return {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { name: p.name, namespace: p.namespace, labels: { ...p.labels, ...MANAGED_BY } },
    spec: {
      replicas: p.replicas ?? 1,
      selector: { matchLabels: { ...p.labels } },
      ...(p.strategy ? { strategy: { type: p.strategy } } : {}),
      template: {
        metadata: { labels: { ...p.labels } },
        spec: {
          ...(p.serviceAccountName ? { serviceAccountName: p.serviceAccountName } : {}),
          ...(p.podSecurityContext ? { securityContext: p.podSecurityContext } : {}),
          containers: p.containers.map((c) => structuredClone(c)),
          ...(p.terminationGracePeriodSeconds !== undefined
            ? { terminationGracePeriodSeconds: p.terminationGracePeriodSeconds }
            : {}),
        },
      },
    },
  };
}

/** A Deployment as we send it (no status): what the inference builders answer, typed where callers read it. */
export type DeploymentManifest = KubeObject & {
  apiVersion: 'apps/v1';
  kind: 'Deployment';
  metadata: { name: string; namespace: string; labels: Record<string, string>; annotations?: Record<string, string> };
  spec: Loose & {
    replicas: number;
    selector: { matchLabels: Record<string, string> };
    template: {
      metadata: { labels: Record<string, string>; annotations?: Record<string, string> };
      spec: Loose & { containers: ContainerManifest[] };
    };
  };
};

/** The containers of a Deployment read from a cluster (tolerant: a container without a name or image is skipped). */
export function deploymentContainers(d: { spec: Loose }): ContainerManifest[] {
  const containers = rec(rec(rec(d.spec).template).spec).containers;
  return (Array.isArray(containers) ? containers : [])
    .map(rec)
    .filter((c) => typeof c.name === 'string' && typeof c.image === 'string') as ContainerManifest[];
}
