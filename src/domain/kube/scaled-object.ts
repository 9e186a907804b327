import type { KubeObject } from '../kube-object.js';
import {
  conditionOf,
  health,
  kubeKind,
  list,
  num,
  parseBase,
  parseConditions,
  rec,
  str,
  strings,
  time,
  type Condition,
  type KubeHealth,
  type KubeResource,
  type Loose,
} from './kind.js';

/**
 * KEDA's ScaledObject (`keda.sh/v1alpha1`, plural `scaledobjects`): scales a Deployment from triggers
 * (here one prometheus trigger). Typed from kedacore/keda `config/crd/bases/keda.sh_scaledobjects.yaml`
 * at v2.17 (the KEDA the inference operator's chart bundles, 2.17.1): `scaleTargetRef.name` and
 * `triggers[].{type, metadata}` are required and trigger metadata is a string map (so a threshold is
 * the string "5"). KEDA creates and owns an HPA named `keda-hpa-<name>`; status conditions are
 * Ready, Active, Fallback and Paused (apis/keda/v1alpha1/condition_types.go).
 */

export const SCALED_OBJECT_API = 'keda.sh/v1alpha1';

export type ScaledObjectTrigger = {
  type: string;
  name?: string;
  metadata: Record<string, string>;
  metricType?: 'AverageValue' | 'Value' | 'Utilization';
  authenticationRef?: { name: string; kind?: string };
  useCachedMetrics?: boolean;
};

export type ScaledObjectSpec = {
  scaleTargetRef: { name: string; apiVersion?: string; kind?: string; envSourceContainerName?: string };
  pollingInterval?: number;
  initialCooldownPeriod?: number;
  cooldownPeriod?: number;
  idleReplicaCount?: number;
  minReplicaCount?: number;
  maxReplicaCount?: number;
  triggers: ScaledObjectTrigger[];
  fallback?: { failureThreshold: number; replicas: number; behavior?: string };
  advanced?: Loose;
};

export type ScaledObjectManifest = KubeObject & {
  apiVersion: typeof SCALED_OBJECT_API;
  kind: 'ScaledObject';
  metadata: { name: string; namespace: string; labels: Record<string, string>; annotations?: Record<string, string> };
  spec: ScaledObjectSpec;
};

export type KubeScaledObject = KubeResource & {
  kind: 'ScaledObject';
  spec: ScaledObjectSpec;
  status: Loose & {
    conditions: Condition[];
    hpaName?: string;
    lastActiveTime?: string;
    originalReplicaCount?: number;
    externalMetricNames: string[];
  };
};

export function parseScaledObject(raw: unknown): KubeScaledObject {
  const base = parseBase(raw, { apiVersion: SCALED_OBJECT_API, kind: 'ScaledObject' });
  const spec = rec(base.spec);
  const status = rec(base.status);
  const target = rec(spec.scaleTargetRef);
  return {
    ...base,
    kind: 'ScaledObject',
    spec: {
      ...spec,
      scaleTargetRef: { ...target, name: str(target.name) ?? '' },
      minReplicaCount: num(spec.minReplicaCount),
      maxReplicaCount: num(spec.maxReplicaCount),
      cooldownPeriod: num(spec.cooldownPeriod),
      pollingInterval: num(spec.pollingInterval),
      triggers: list(spec.triggers)
        .map(rec)
        .filter((t) => typeof t.type === 'string')
        .map((t) => ({ ...t, type: t.type as string, metadata: strings(t.metadata) })),
    },
    status: {
      ...status,
      conditions: parseConditions(status.conditions),
      ...(str(status.hpaName) ? { hpaName: str(status.hpaName) } : {}),
      ...(time(status.lastActiveTime) ? { lastActiveTime: time(status.lastActiveTime) } : {}),
      ...(num(status.originalReplicaCount) !== undefined
        ? { originalReplicaCount: num(status.originalReplicaCount) }
        : {}),
      externalMetricNames: list(status.externalMetricNames).filter((x): x is string => typeof x === 'string'),
    },
  };
}

/** Where a ScaledObject stands: ready (KEDA accepted it), active (a trigger is above its activation), paused. */
export type ScaledObjectStatus = {
  ready: boolean | undefined;
  active: boolean | undefined;
  paused: boolean;
  reason?: string;
};

const truth = (c: Condition | undefined): boolean | undefined =>
  c?.status === 'True' ? true : c?.status === 'False' ? false : undefined;

export function scaledObjectStatus(so: KubeScaledObject): ScaledObjectStatus {
  const ready = conditionOf(so.status.conditions, 'Ready');
  const paused =
    truth(conditionOf(so.status.conditions, 'Paused')) === true ||
    so.metadata.annotations['autoscaling.keda.sh/paused'] === 'true';
  const why = ready?.status === 'False' ? ready.message || ready.reason : undefined;
  return {
    ready: truth(ready),
    active: truth(conditionOf(so.status.conditions, 'Active')),
    paused,
    ...(why ? { reason: why } : {}),
  };
}

/** Ready False fails (KEDA cannot scale: a bad trigger, a missing target); no verdict yet is transitional. */
export function scaledObjectHealth(so: KubeScaledObject): KubeHealth {
  const what = `ScaledObject ${so.metadata.namespace ?? ''}/${so.metadata.name}`;
  const s = scaledObjectStatus(so);
  if (s.ready === false)
    return health('failed', 'not-ready', `${what} cannot scale: ${s.reason ?? 'no reason given'}.`);
  if (s.ready === undefined) return health('transitional', 'pending', `${what} has not been checked by KEDA yet.`);
  if (s.paused) return health('degraded', 'paused', `${what} is paused.`);
  return health('healthy', 'ready', `${what} is ready${s.active ? ' and scaling' : ''}.`);
}

export const SCALED_OBJECT = kubeKind<KubeScaledObject>(
  {
    apiVersion: SCALED_OBJECT_API,
    kind: 'ScaledObject',
    plural: 'scaledobjects',
    namespaced: true,
    crd: 'scaledobjects.keda.sh',
    installedBy: 'KEDA (installed with the inference-operator feature)',
    health: scaledObjectHealth,
  },
  parseScaledObject,
);

/** A ScaledObject of a Deployment in the same namespace. */
export function scaledObjectManifest(p: {
  name: string;
  namespace: string;
  labels: Record<string, string>;
  deployment: string;
  spec: Omit<ScaledObjectSpec, 'scaleTargetRef'>;
}): ScaledObjectManifest {
  return {
    apiVersion: SCALED_OBJECT_API,
    kind: 'ScaledObject',
    metadata: { name: p.name, namespace: p.namespace, labels: { ...p.labels } },
    spec: {
      scaleTargetRef: { apiVersion: 'apps/v1', kind: 'Deployment', name: p.deployment },
      ...structuredClone(p.spec),
    },
  };
}
