import type { KubeCluster } from '../cluster.js';

/**
 * A sandbox device, not a copy of anything real: the metric values a cluster's KEDA triggers read.
 * The sandbox runs no Prometheus and no CloudWatch, so a test (or a user trying autoscaling) sets
 * values through the admin API — `POST /_sandbox/kube/<cluster>/metrics {query | name, value}` — and
 * KEDA's `prometheus` trigger reads the value set for its exact query, else for a metric name its
 * query mentions; its `aws-cloudwatch` trigger reads the value set for its `metricName`. Kept with the
 * cluster's state (its ContainerWorld memory) when it has one, so they survive a sandbox restart.
 */

const PREFIX = 'sandbox-metric|';
const local = new WeakMap<KubeCluster, Map<string, number>>();

function store(cluster: KubeCluster): {
  get(k: string): number | undefined;
  set(k: string, v: number): void;
  keys(): string[];
} {
  const memory = cluster.world?.memory;
  if (memory)
    return {
      get: (k) => {
        const v = memory.get(k);
        return typeof v === 'number' ? v : undefined;
      },
      set: (k, v) => memory.set(k, v),
      keys: () => memory.keys().filter((k) => k.startsWith(PREFIX)),
    };
  let m = local.get(cluster);
  if (!m) local.set(cluster, (m = new Map()));
  const map = m;
  return { get: (k) => map.get(k), set: (k, v) => void map.set(k, v), keys: () => [...map.keys()] };
}

export interface MetricKey {
  query?: string | undefined;
  name?: string | undefined;
}

export function setSandboxMetric(cluster: KubeCluster, key: MetricKey, value: number): void {
  const s = store(cluster);
  if (key.query !== undefined) s.set(`${PREFIX}query|${key.query}`, value);
  if (key.name !== undefined) s.set(`${PREFIX}name|${key.name}`, value);
}

const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** The value a PromQL query evaluates to in the sandbox, undefined when nothing was set for it. */
export function promQueryValue(cluster: KubeCluster, query: string): number | undefined {
  const s = store(cluster);
  const exact = s.get(`${PREFIX}query|${query}`);
  if (exact !== undefined) return exact;
  const named = s
    .keys()
    .filter((k) => k.startsWith(`${PREFIX}name|`))
    .sort()
    .find((k) =>
      new RegExp(`(^|[^A-Za-z0-9_:])${escape(k.slice(`${PREFIX}name|`.length))}([^A-Za-z0-9_:]|$)`).test(query),
    );
  return named ? s.get(named) : undefined;
}

/** The value of a CloudWatch metric in the sandbox, undefined when nothing was set for it. */
export function cloudWatchValue(cluster: KubeCluster, metricName: string): number | undefined {
  return store(cluster).get(`${PREFIX}name|${metricName}`);
}
