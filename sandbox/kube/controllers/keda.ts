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
 * KEDA itself takes a Deployment from 0 to 1 when a trigger turns active, and back to 0 when
 * `minReplicaCount` is 0 and no trigger was active for `cooldownPeriod` (for `initialCooldownPeriod`
 * after creation when none ever was) — executor `scale_scaledobjects.go`. A trigger whose scaler cannot
 * be built (required metadata missing) fails the controller's check: Ready=False
 * ScaledObjectCheckFailed, a KEDAScalerFailed event, no HPA, no scaling. A scaler that fails when read
 * (a trigger type the sandbox cannot evaluate; an `aws-cloudwatch` trigger with `identityOwner:
 * operator` while `keda-operator`'s service account has no IRSA role) marks its health Failing and
 * Ready=False TriggerError (Unknown PartialTriggerError while another trigger is active), and nothing
 * is scaled on a guess. The pause annotations as v1alpha1 `NeedToBePausedByAnnotation`: `paused` is read
 * with strconv.ParseBool (a value it cannot parse pauses; `false` does not), `paused-replicas` first
 * sets the count and `status.pausedReplicaCount` (a count that is not an integer: Ready=False, no
 * scaling); paused, the HPA is removed. Status fields and conditions as §9.2–9.3 (no HPAActive: not in
 * released KEDA). Assumed: recommendations are kept in memory (a sandbox restart forgets the
 * stabilization window), the Paused=False condition's reason and message, the scaler-error messages,
 * and that a failing trigger stops the HPA's part too (a real HPA may still scale up on the others).
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

type Reading = { value: number; target: number; activation: number } | { error: string };

/**
 * Why KEDA cannot build a trigger's scaler (its metadata parse, kedacore/keda v2.17
 * `pkg/scalers/prometheus_scaler.go`, `aws_cloudwatch_scaler.go`: the parameters without which
 * each refuses to start); undefined when it can. Assumed: the message wording.
 */
function scalerProblem(t: Any): string | undefined {
  const m = (t.metadata ?? {}) as Record<string, unknown>;
  const need = (names: string[]) => names.find((n) => m[n] === undefined || m[n] === '');
  const missing =
    t.type === 'prometheus'
      ? need(['serverAddress', 'query', 'threshold'])
      : t.type === 'aws-cloudwatch'
        ? need(
            m.expression
              ? ['awsRegion', 'targetMetricValue']
              : ['namespace', 'metricName', 'targetMetricValue', 'awsRegion'],
          )
        : undefined;
  if (!missing) return undefined;
  return `error parsing ${t.type} metadata: missing required parameter "${missing}" in [triggerMetadata]`;
}

/** Whether the KEDA operator has an AWS identity (the add-on's IRSA role on its service account) for `identityOwner: operator`. */
function kedaHasAwsIdentity(cluster: KubeCluster): boolean {
  return cluster.objects
    .select(T.serviceaccounts, undefined, (sa) => sa.metadata.name === 'keda-operator')
    .items.some((sa) => !!sa.metadata.annotations?.['eks.amazonaws.com/role-arn']);
}

/**
 * What one trigger reads now, its target, and whether it is active; or why its scaler failed.
 * The sandbox evaluates only `prometheus` and `aws-cloudwatch` (from its metric store); any other
 * type's scaler fails each poll (assumed: the sandbox cannot reach what it would query), which KEDA
 * reports as a trigger error and never scales on.
 */
function readTrigger(cluster: KubeCluster, t: Any): Reading {
  const m = (t.metadata ?? {}) as Record<string, string>;
  if (t.type === 'aws-cloudwatch') {
    // With no TriggerAuthentication the scaler signs as the pod (identityOwner pod, the default) or as KEDA itself.
    if (!t.authenticationRef && m.identityOwner === 'operator' && !kedaHasAwsIdentity(cluster))
      return {
        error:
          'operation error CloudWatch: GetMetricData, get identity: get credentials: failed to refresh cached credentials, no EC2 IMDS role found',
      };
    // An empty answer is minMetricValue (KEDA's default for a metric with no data points).
    const value = cloudWatchValue(cluster, m.metricName ?? '') ?? Number(m.minMetricValue ?? 0);
    return { value, target: Number(m.targetMetricValue ?? 0), activation: Number(m.activationTargetMetricValue ?? 0) };
  }
  if (t.type === 'prometheus') {
    // No result is 0 with ignoreNullValues (its default).
    const value = promQueryValue(cluster, m.query ?? '') ?? 0;
    return { value, target: Number(m.threshold ?? 0), activation: Number(m.activationThreshold ?? 0) };
  }
  return {
    error: `[sandbox] the sandbox's KEDA cannot evaluate a ${String(t.type)} trigger (only prometheus and aws-cloudwatch)`,
  };
}

/** The target a trigger's HPA metric has (its threshold), whether or not it can be read. */
function targetOf(t: Any): number {
  const m = (t.metadata ?? {}) as Record<string, string>;
  return Number(m.threshold ?? m.targetMetricValue ?? m.value ?? 0) || 0;
}

/** strconv.ParseBool: what KEDA reads the pause annotation with (a value it cannot parse pauses). */
function parseBool(v: string): boolean | undefined {
  if (['1', 't', 'T', 'TRUE', 'true', 'True'].includes(v)) return true;
  if (['0', 'f', 'F', 'FALSE', 'false', 'False'].includes(v)) return false;
  return undefined;
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
  // The controller's checks (scaledobject_controller.go): a failure is Ready=False ScaledObjectCheckFailed, no HPA, no scaling.
  const checkFailed = (message: string, event?: { reason: string; message: string }) => {
    const status = {
      ...base,
      conditions: merge(previous, [
        cond('Ready', 'False', 'ScaledObjectCheckFailed', message),
        cond('Active', 'Unknown', 'UnknownState', 'ScaledObject check failed'),
      ]),
    };
    if (event)
      recordEvent(cluster, so, 'Warning', event.reason, event.message, 'keda-operator', { minIntervalMs: 60_000 });
    save(cluster, type, so, { ...so, status });
  };
  if (!target || (spec.scaleTargetRef?.kind && spec.scaleTargetRef.kind !== 'Deployment'))
    return checkFailed("ScaledObject doesn't have correct scaleTargetRef specification");
  const problem = triggers.map(scalerProblem).find(Boolean);
  if (problem) {
    removeHpa(cluster, ns, hpaName);
    return checkFailed('Failed to ensure HPA is correctly created for ScaledObject', {
      reason: 'KEDAScalerFailed',
      message: problem,
    });
  }
  const replicas = Number((target.spec as Any).replicas ?? 1);
  base.originalReplicaCount ??= replicas;

  // Pausing (v1alpha1 scaledobject_types.go NeedToBePausedByAnnotation, executor RequestScale).
  const annotations = so.metadata.annotations ?? {};
  const pausedReplicas = annotations[PAUSED_REPLICAS];
  if (pausedReplicas !== undefined) {
    const count = /^[+-]?\d+$/.test(pausedReplicas.trim()) ? Number(pausedReplicas) : Number.NaN;
    if (!Number.isInteger(count) || count < 0 || count > 2 ** 31 - 1) {
      // KEDA cannot parse the count: Ready turns False (with its success reason, as its executor writes it) and nothing scales.
      const status = {
        ...base,
        conditions: merge(previous, [
          cond('Ready', 'False', 'ScaledObjectReady', 'ScaledObject is defined correctly and is ready for scaling'),
        ]),
      };
      save(cluster, type, so, { ...so, status });
      return;
    }
    if (count !== replicas) scale(cluster, target, count);
    return pause(cluster, type, so, hpaName, { ...base, pausedReplicaCount: count }, previous);
  }
  const pausedValue = annotations[PAUSED];
  if (pausedValue !== undefined && parseBool(pausedValue) !== false) {
    const status = { ...base };
    delete status.pausedReplicaCount;
    return pause(cluster, type, so, hpaName, status, previous);
  }
  delete base.pausedReplicaCount;

  const min = num(spec.minReplicaCount, 0);
  const max = num(spec.maxReplicaCount, 100);
  const behavior = (spec.advanced?.horizontalPodAutoscalerConfig?.behavior ?? {}) as Any;
  const upWindow = num(behavior.scaleUp?.stabilizationWindowSeconds, 0) * 1000;
  const downWindow = num(behavior.scaleDown?.stabilizationWindowSeconds, 300) * 1000;
  const readings = triggers.map((t) => ({ t, reading: readTrigger(cluster, t) }));
  const good = readings.flatMap((r, i) => ('error' in r.reading ? [] : [{ t: r.t, i, ...r.reading }]));
  const errors = readings.flatMap((r, i) => ('error' in r.reading ? [{ i, t: r.t, error: r.reading.error }] : []));
  const isError = errors.length > 0;
  const entries = readings.map((r, i) =>
    'error' in r.reading
      ? { t: r.t, i, target: targetOf(r.t), error: r.reading.error }
      : { t: r.t, i, target: r.reading.target, value: r.reading.value },
  );
  ensureHpa(cluster, so, hpaName, target, { min, max, behavior, entries, replicas });

  let mem = memories.get(so.metadata.uid!);
  if (!mem) memories.set(so.metadata.uid!, (mem = { lastPoll: -Infinity, recommendations: [] }));
  const due = now - mem.lastPoll >= num(spec.pollingInterval, 30) * 1000;
  const active = good.some((r) => r.value > r.activation);
  if (active) base.lastActiveTime = rfc3339(now);
  // KEDA's own step to zero (scaleToZeroOrIdle): no trigger active for cooldownPeriod since one last was,
  // or for initialCooldownPeriod since the ScaledObject was made when none ever was.
  const idleUntil = base.lastActiveTime
    ? Date.parse(base.lastActiveTime) + num(spec.cooldownPeriod, 300) * 1000
    : Date.parse(so.metadata.creationTimestamp ?? '') + num(spec.initialCooldownPeriod, 0) * 1000;
  const idle = min === 0 && !active && !isError && replicas > 0;
  const cooling = idle && now <= idleUntil;
  if (due) {
    mem.lastPoll = now;
    for (const e of errors)
      recordEvent(cluster, so, 'Warning', 'KEDAScalerFailed', e.error, 'keda-operator', { minIntervalMs: 60_000 });
    let next = replicas;
    if (replicas === 0) {
      if (active) next = Math.max(1, min);
    } else if (!isError) {
      // The HPA's part; with a trigger failing the sandbox does not scale (it never guesses a metric).
      const wanted = Math.max(
        0,
        ...good.map((r) =>
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
      if (idle && now > idleUntil) next = 0;
    }
    if (next !== replicas) rescale(cluster, so, hpaName, next, replicas, good[0]?.t);
  }
  const failures = (name: string) => Number(st.health?.[name]?.numberOfFailures ?? 0);
  const status = {
    ...base,
    health: Object.fromEntries(
      triggers.map((t, i) => {
        const name = metricName(i, t);
        const failing = errors.some((e) => e.i === i);
        return [
          name,
          failing
            ? { numberOfFailures: failures(name) + (due ? 1 : 0), status: 'Failing' }
            : { numberOfFailures: 0, status: 'Happy' },
        ];
      }),
    ),
    conditions: merge(previous, [
      !isError
        ? cond('Ready', 'True', 'ScaledObjectReady', 'ScaledObject is defined correctly and is ready for scaling')
        : active
          ? cond(
              'Ready',
              'Unknown',
              'PartialTriggerError',
              'Some triggers defined in ScaledObject are not working correctly',
            )
          : cond('Ready', 'False', 'TriggerError', 'Triggers defined in ScaledObject are not working correctly'),
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

/** Paused: no HPA, no scaling, the Paused condition (the pause reconcile of scaledobject_controller.go). */
function pause(
  cluster: KubeCluster,
  type: ResourceType,
  so: KubeObject,
  hpaName: string,
  status: Any,
  previous: Any[],
) {
  removeHpa(cluster, so.metadata.namespace!, hpaName);
  status.conditions = merge(previous, [cond('Paused', 'True', 'ScaledObjectPaused', 'ScaledObject is paused')]);
  save(cluster, type, so, { ...so, status });
}

/** Scales the target as the HPA (or KEDA, to and from zero) does, with the HPA's event and status. */
function rescale(cluster: KubeCluster, so: KubeObject, hpaName: string, next: number, replicas: number, top?: Any) {
  const ns = so.metadata.namespace!;
  const target = cluster.objects.get(T.deployments, ns, String((so.spec as Any).scaleTargetRef?.name ?? ''));
  if (!target) return;
  scale(cluster, target, next);
  const hpa = cluster.objects.get(T.hpas, ns, hpaName);
  if (hpa)
    recordEvent(
      cluster,
      hpa,
      'Normal',
      'SuccessfulRescale',
      `New size: ${next}; reason: ${next > replicas ? 'external metric' : 'All metrics below target'}${next > replicas && top ? ` ${metricName(0, top)}(&LabelSelector{MatchLabels:map[string]string{scaledobject.keda.sh/name: ${so.metadata.name},},MatchExpressions:[]LabelSelectorRequirement{},}) above target` : ''}`,
      'horizontal-pod-autoscaler',
    );
  const hpaNow = cluster.objects.get(T.hpas, ns, hpaName);
  if (hpaNow)
    save(cluster, T.hpas, hpaNow, {
      ...hpaNow,
      status: { ...(hpaNow.status as Any), desiredReplicas: next, lastScaleTime: rfc3339(cluster.now()) },
    });
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
    entries: Array<{ t: Any; i: number; target: number; value?: number; error?: string }>;
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
    metrics: o.entries.map((r) => ({
      type: 'External',
      external: {
        metric: { name: metricName(r.i, r.t), selector },
        target: average(r.t)
          ? { type: 'AverageValue', averageValue: quantity(r.target) }
          : { type: 'Value', value: quantity(r.target) },
      },
    })),
    ...(Object.keys(o.behavior).length ? { behavior: o.behavior } : {}),
  };
  const currentMetrics = o.entries.flatMap((r) =>
    r.value === undefined
      ? []
      : [
          {
            type: 'External',
            external: {
              metric: { name: metricName(r.i, r.t), selector },
              current: average(r.t)
                ? { averageValue: quantity(o.replicas > 0 ? r.value / o.replicas : r.value) }
                : { value: quantity(r.value) },
            },
          },
        ],
  );
  const failed = o.entries.find((r) => r.error !== undefined);
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
      failed
        ? {
            type: 'ScalingActive',
            status: 'False',
            reason: 'FailedGetExternalMetric',
            message: `the HPA was unable to compute the replica count: unable to get external metric ${ns}/${metricName(failed.i, failed.t)}/&LabelSelector{MatchLabels:map[string]string{scaledobject.keda.sh/name: ${so.metadata.name},},MatchExpressions:[]LabelSelectorRequirement{},}: unable to fetch metrics from external metrics API: ${failed.error}`,
          }
        : {
            type: 'ScalingActive',
            status: 'True',
            reason: 'ValidMetricFound',
            message: 'the HPA was able to successfully calculate a replica count from external metric',
          },
    ].map((c) => ({
      ...c,
      lastTransitionTime:
        ((existing?.status as Any | undefined)?.conditions ?? []).find(
          (p: Any) => p.type === c.type && p.status === c.status,
        )?.lastTransitionTime ?? rfc3339(cluster.now()),
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
