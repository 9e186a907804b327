import type { KubeCluster } from '../cluster.js';
import type { KubeObject, ResourceType } from '../types.js';
import { recordEvent } from './events.js';
import { cloudWatchValue, promQueryValue } from './sandbox-metrics.js';
import { controllerRef, rfc3339, save, T, type Any } from './util.js';

/**
 * KEDA (the 2.17 the inference add-on bundles) with the HPA controller's part, while its
 * `keda-operator` runs: each ScaledObject (keda.sh/v1alpha1) gets its HPA `keda-hpa-<name>`
 * (autoscaling/v2; or `advanced.horizontalPodAutoscalerConfig.name`) with one External metric per
 * trigger, `s<i>-<type>` selected by `scaledobject.keda.sh/name` (kedacore/keda v2.20.2
 * controllers/keda/hpa.go, as next-capabilities.md §9.1 reads it). Every `pollingInterval` the
 * triggers are read from the sandbox's metric store (sandbox-metrics.ts: the sandbox has no
 * Prometheus or CloudWatch) and the target Deployment is scaled as the HPA would: desired =
 * ceil(value / threshold) for AverageValue (ceil(replicas × value / threshold) for Value), the most of
 * all triggers, within min (at least 1) and max; up at once (or after `behavior.scaleUp`'s window),
 * down only to the highest recommendation of the scale-down stabilization window (default 300 s).
 * KEDA itself takes a Deployment from 0 to 1 when a trigger turns active, and back to 0 after
 * `cooldownPeriod` without activity when `minReplicaCount` is 0. The pause annotations
 * (`autoscaling.keda.sh/paused`, `…/paused-replicas`) stop scaling (the latter first sets the count)
 * and remove the HPA. Status fields and conditions as §9.2–9.3 (no HPAActive: not in released KEDA).
 * Assumed: recommendations are kept in memory (a sandbox restart forgets the stabilization window),
 * and the Paused=False condition's reason and message.
 */

const PAUSED = 'autoscaling.keda.sh/paused';
const PAUSED_REPLICAS = 'autoscaling.keda.sh/paused-replicas';
const KEDA_VERSION = '2.17.1';

interface Memory {
  lastPoll: number;
  recommendations: Array<{ at: number; n: number }>;
}
const memories = new WeakMap<KubeCluster, Map<string, Memory>>();

function kedaRuns(cluster: KubeCluster): boolean {
  return cluster.objects
    .select(T.deployments, undefined, (d) => d.metadata.name === 'keda-operator' && !d.metadata.deletionTimestamp)
    .items.some((d) => Number((d.status as Any | undefined)?.readyReplicas ?? 0) > 0);
}

export function runKeda(cluster: KubeCluster): void {
  const type = cluster.findType('keda.sh', 'v1alpha1', 'scaledobjects');
  if (!type) return;
  const objects = cluster.objects.list(type);
  if (objects.length === 0 || !kedaRuns(cluster)) return;
  let memory = memories.get(cluster);
  if (!memory) memories.set(cluster, (memory = new Map()));
  for (const so of objects) if (!so.metadata.deletionTimestamp) reconcile(cluster, type, so, memory);
}

const cond = (type: string, status: string, reason: string, message: string) => ({ type, status, reason, message });
const num = (v: unknown, fallback: number) => (typeof v === 'number' && Number.isFinite(v) ? v : fallback);
const metricName = (i: number, t: Any) => `s${i}-${String(t.type).toLowerCase()}`;

/** A milli-quantity as Kubernetes prints it: `2`, `2500m`. */
function quantity(n: number): string {
  const milli = Math.round(n * 1000);
  return milli % 1000 === 0 ? String(milli / 1000) : `${milli}m`;
}

/** What one trigger reads now, its target, and whether it is active. */
function readTrigger(cluster: KubeCluster, t: Any): { value: number; target: number; activation: number } {
  const m = (t.metadata ?? {}) as Record<string, string>;
  if (t.type === 'aws-cloudwatch') {
    const value = cloudWatchValue(cluster, m.metricName ?? '') ?? Number(m.minMetricValue ?? 0);
    return { value, target: Number(m.targetMetricValue ?? 0), activation: Number(m.activationTargetMetricValue ?? 0) };
  }
  // prometheus: no result is 0 with ignoreNullValues (its default).
  const value = promQueryValue(cluster, m.query ?? '') ?? 0;
  return { value, target: Number(m.threshold ?? 0), activation: Number(m.activationThreshold ?? 0) };
}

function reconcile(cluster: KubeCluster, type: ResourceType, so: KubeObject, memories: Map<string, Memory>): void {
  const now = cluster.now();
  const spec = (so.spec ?? {}) as Any;
  const st = (so.status ?? {}) as Any;
  const ns = so.metadata.namespace!;
  const hpaName = String(spec.advanced?.horizontalPodAutoscalerConfig?.name ?? `keda-hpa-${so.metadata.name}`);
  const triggers = (Array.isArray(spec.triggers) ? spec.triggers : []) as Any[];
  const targetName = String(spec.scaleTargetRef?.name ?? '');
  const target = cluster.objects.get(T.deployments, ns, targetName);
  const previous = ((st.conditions ?? []) as Any[]).filter((c) => c.type !== 'HPAActive');
  const base: Any = {
    ...st,
    scaleTargetKind: 'apps/v1.Deployment',
    scaleTargetGVKR: { group: 'apps', kind: 'Deployment', resource: 'deployments', version: 'v1' },
    externalMetricNames: triggers.map((t, i) => metricName(i, t)),
    triggersTypes: triggers.map((t) => String(t.type)).join(','),
    hpaName,
  };
  const auth = triggers.map((t) => t.authenticationRef?.name).filter(Boolean);
  if (auth.length) base.authenticationsTypes = auth.join(',');
  if (!target || (spec.scaleTargetRef?.kind && spec.scaleTargetRef.kind !== 'Deployment')) {
    const status = {
      ...base,
      conditions: [
        cond(
          'Ready',
          'False',
          'ScaledObjectCheckFailed',
          "ScaledObject doesn't have correct scaleTargetRef specification",
        ),
        cond('Active', 'Unknown', 'UnknownState', 'ScaledObject check failed'),
        cond('Fallback', 'Unknown', '', ''),
        cond('Paused', 'False', '', ''),
      ],
    };
    save(cluster, type, so, { ...so, status });
    return;
  }
  const replicas = Number((target.spec as Any).replicas ?? 1);
  base.originalReplicaCount ??= replicas;

  const annotations = so.metadata.annotations ?? {};
  const pausedReplicas = annotations[PAUSED_REPLICAS];
  const paused = annotations[PAUSED] === 'true' || pausedReplicas !== undefined;
  if (paused) {
    removeHpa(cluster, ns, hpaName);
    const count = pausedReplicas !== undefined ? Number(pausedReplicas) : undefined;
    if (count !== undefined && Number.isInteger(count) && count >= 0 && count !== replicas)
      scale(cluster, target, count);
    const status: Any = { ...base, ...(count !== undefined ? { pausedReplicaCount: count } : {}) };
    if (count === undefined) delete status.pausedReplicaCount;
    status.conditions = merge(previous, [cond('Paused', 'True', 'ScaledObjectPaused', 'ScaledObject is paused')]);
    save(cluster, type, so, { ...so, status });
    return;
  }
  delete base.pausedReplicaCount;

  const min = num(spec.minReplicaCount, 0);
  const max = num(spec.maxReplicaCount, 100);
  const behavior = (spec.advanced?.horizontalPodAutoscalerConfig?.behavior ?? {}) as Any;
  const upWindow = num(behavior.scaleUp?.stabilizationWindowSeconds, 0) * 1000;
  const downWindow = num(behavior.scaleDown?.stabilizationWindowSeconds, 300) * 1000;
  const readings = triggers.map((t) => ({ t, ...readTrigger(cluster, t) }));
  ensureHpa(cluster, so, hpaName, target, { min, max, behavior, readings, replicas });

  let mem = memories.get(so.metadata.uid!);
  if (!mem) memories.set(so.metadata.uid!, (mem = { lastPoll: -Infinity, recommendations: [] }));
  const due = now - mem.lastPoll >= num(spec.pollingInterval, 30) * 1000;
  const active = readings.some((r) => r.value > r.activation);
  if (active) base.lastActiveTime = rfc3339(now);
  if (due) {
    mem.lastPoll = now;
    let next = replicas;
    if (replicas === 0) {
      if (active) next = Math.max(1, min);
    } else {
      const wanted = Math.max(
        0,
        ...readings.map((r) =>
          r.target > 0
            ? r.t.metricType === 'Value'
              ? Math.ceil((replicas * r.value) / r.target)
              : Math.ceil(r.value / r.target)
            : replicas,
        ),
      );
      const recommendation = Math.min(max, Math.max(Math.max(min, 1), wanted));
      mem.recommendations.push({ at: now, n: recommendation });
      const keep = Math.max(upWindow, downWindow);
      mem.recommendations = mem.recommendations.filter((r) => now - r.at <= keep);
      const within = (w: number) => mem!.recommendations.filter((r) => now - r.at <= w).map((r) => r.n);
      if (recommendation > replicas) next = Math.min(...within(upWindow), max);
      else if (recommendation < replicas) next = Math.min(replicas, Math.max(...within(downWindow)));
      // KEDA's own step to zero: no trigger active for a cooldown period.
      const lastActive = Date.parse(base.lastActiveTime ?? so.metadata.creationTimestamp ?? '');
      if (min === 0 && !active && now - lastActive >= num(spec.cooldownPeriod, 300) * 1000) next = 0;
    }
    if (next !== replicas) {
      scale(cluster, target, next);
      const hpa = cluster.objects.get(T.hpas, ns, hpaName);
      const top = readings[0];
      if (hpa)
        recordEvent(
          cluster,
          hpa,
          'Normal',
          'SuccessfulRescale',
          `New size: ${next}; reason: ${next > replicas ? 'external metric' : 'All metrics below target'}${next > replicas && top ? ` ${metricName(0, top.t)}(&LabelSelector{MatchLabels:map[string]string{scaledobject.keda.sh/name: ${so.metadata.name},},MatchExpressions:[]LabelSelectorRequirement{},}) above target` : ''}`,
          'horizontal-pod-autoscaler',
        );
      const hpaNow = cluster.objects.get(T.hpas, ns, hpaName);
      if (hpaNow)
        save(cluster, T.hpas, hpaNow, {
          ...hpaNow,
          status: { ...(hpaNow.status as Any), desiredReplicas: next, lastScaleTime: rfc3339(now) },
        });
    }
  }
  const cooling = !active && replicas > 0 && min === 0;
  const status = {
    ...base,
    health: Object.fromEntries(triggers.map((t, i) => [metricName(i, t), { numberOfFailures: 0, status: 'Happy' }])),
    conditions: merge(previous, [
      cond('Ready', 'True', 'ScaledObjectReady', 'ScaledObject is defined correctly and is ready for scaling'),
      active
        ? cond('Active', 'True', 'ScalerActive', 'Scaling is performed because triggers are active')
        : cooling
          ? cond('Active', 'False', 'ScalerCooldown', 'Scaler cooling down because triggers are not active')
          : cond('Active', 'False', 'ScalerNotActive', 'Scaling is not performed because triggers are not active'),
      cond('Fallback', 'False', 'NoFallbackFound', 'No fallbacks are active on this scaled object'),
      cond('Paused', 'False', 'ScaledObjectUnpaused', 'ScaledObject is not paused'),
    ]),
  };
  save(cluster, type, so, { ...so, status });
}

/** The four conditions in KEDA's order (Ready, Active, Fallback, Paused), each replaced by its new value. */
function merge(previous: Any[], next: Any[]): Any[] {
  const order = ['Ready', 'Active', 'Fallback', 'Paused'];
  const byType = new Map<string, Any>();
  for (const c of previous) byType.set(c.type, c);
  for (const c of next) byType.set(c.type, c);
  for (const t of order) if (!byType.has(t)) byType.set(t, cond(t, t === 'Paused' ? 'False' : 'Unknown', '', ''));
  return order.map((t) => byType.get(t)!);
}

function scale(cluster: KubeCluster, d: KubeObject, replicas: number): void {
  save(cluster, T.deployments, d, { ...d, spec: { ...(d.spec as Any), replicas } });
}

function removeHpa(cluster: KubeCluster, ns: string, name: string): void {
  if (cluster.objects.get(T.hpas, ns, name)) cluster.objects.remove(T.hpas, ns, name);
}

function ensureHpa(
  cluster: KubeCluster,
  so: KubeObject,
  name: string,
  target: KubeObject,
  o: {
    min: number;
    max: number;
    behavior: Any;
    readings: Array<{ t: Any; value: number; target: number }>;
    replicas: number;
  },
): void {
  const ns = so.metadata.namespace!;
  const selector = { matchLabels: { 'scaledobject.keda.sh/name': so.metadata.name! } };
  const average = (t: Any) => t.metricType !== 'Value';
  const spec = {
    scaleTargetRef: { apiVersion: 'apps/v1', kind: 'Deployment', name: target.metadata.name },
    minReplicas: Math.max(o.min, 1),
    maxReplicas: o.max,
    metrics: o.readings.map((r, i) => ({
      type: 'External',
      external: {
        metric: { name: metricName(i, r.t), selector },
        target: average(r.t)
          ? { type: 'AverageValue', averageValue: quantity(r.target) }
          : { type: 'Value', value: quantity(r.target) },
      },
    })),
    ...(Object.keys(o.behavior).length ? { behavior: o.behavior } : {}),
  };
  const currentMetrics = o.readings.map((r, i) => ({
    type: 'External',
    external: {
      metric: { name: metricName(i, r.t), selector },
      current: average(r.t)
        ? { averageValue: quantity(o.replicas > 0 ? r.value / o.replicas : r.value) }
        : { value: quantity(r.value) },
    },
  }));
  const existing = cluster.objects.get(T.hpas, ns, name);
  const status = {
    ...((existing?.status as Any | undefined) ?? {}),
    currentReplicas: o.replicas,
    desiredReplicas: (existing?.status as Any | undefined)?.desiredReplicas ?? o.replicas,
    currentMetrics,
    conditions: [
      {
        type: 'AbleToScale',
        status: 'True',
        reason: 'ReadyForNewScale',
        message: 'recommended size matches current size',
      },
      {
        type: 'ScalingActive',
        status: 'True',
        reason: 'ValidMetricFound',
        message: 'the HPA was able to successfully calculate a replica count from external metric',
      },
    ].map((c) => ({
      ...c,
      lastTransitionTime:
        ((existing?.status as Any | undefined)?.conditions ?? []).find((p: Any) => p.type === c.type)
          ?.lastTransitionTime ?? rfc3339(cluster.now()),
    })),
  };
  const hpa: KubeObject = {
    apiVersion: 'autoscaling/v2',
    kind: 'HorizontalPodAutoscaler',
    metadata: {
      ...(existing?.metadata ?? {}),
      name,
      namespace: ns,
      labels: {
        'app.kubernetes.io/managed-by': 'keda-operator',
        'app.kubernetes.io/name': name,
        'app.kubernetes.io/part-of': so.metadata.name!,
        'app.kubernetes.io/version': KEDA_VERSION,
        'scaledobject.keda.sh/name': so.metadata.name!,
      },
      ownerReferences: [controllerRef(so)],
    },
    spec,
    status,
  };
  if (!existing) cluster.objects.create(T.hpas, hpa);
  else save(cluster, T.hpas, existing, hpa);
}
