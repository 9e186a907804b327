import type { SandboxRuntime } from '../../sandbox/core/service.js';
import { emptyState, type SandboxState } from '../../sandbox/core/store.js';
import { makeMemoryKubeCluster, type KubeCluster } from '../../sandbox/kube/cluster.js';
import { bootstrapCluster, runControllers } from '../../sandbox/kube/controllers/index.js';
import { T } from '../../sandbox/kube/controllers/util.js';
import type { KubeObject } from '../../sandbox/kube/types.js';

/** An in-memory cluster whose sandbox clock the test moves, with the controllers run on every step. */
export interface World {
  cluster: KubeCluster;
  now(): number;
  /** One pass of the controllers, a second of sandbox time later. */
  tick(): void;
  /** Moves the clock `seconds` forward in steps of `step` seconds, running the controllers after each. */
  advance(seconds: number, step?: number): void;
}

export const START = Date.parse('2026-06-01T12:00:00Z');

/** `state`: the sandbox's AWS side the controllers see (e.g. S3 buckets a volume mounts); empty by default. */
export function world(options: { state?: SandboxState } = {}): World {
  let now = START;
  const cluster = makeMemoryKubeCluster({ now: () => now });
  const ctx = () => ({ state: options.state ?? emptyState(), now, runtime: undefined as unknown as SandboxRuntime });
  bootstrapCluster(cluster, ctx());
  const run = () => runControllers(cluster, ctx());
  return {
    cluster,
    now: () => now,
    tick() {
      now += 1000;
      run();
    },
    advance(seconds, step = 1) {
      for (let s = 0; s < seconds; s += step) {
        now += step * 1000;
        run();
      }
    },
  };
}

export function node(
  name: string,
  allocatable: Record<string, string>,
  extra: { labels?: Record<string, string>; taints?: unknown[]; ip?: string } = {},
): KubeObject {
  return {
    apiVersion: 'v1',
    kind: 'Node',
    metadata: { name, labels: { 'kubernetes.io/hostname': name, ...(extra.labels ?? {}) } },
    spec: extra.taints ? { taints: extra.taints } : {},
    status: {
      allocatable: { pods: '110', ...allocatable },
      capacity: { pods: '110', ...allocatable },
      conditions: [
        { type: 'Ready', status: 'True', reason: 'KubeletReady', lastTransitionTime: new Date(START).toISOString() },
      ],
      addresses: [{ type: 'InternalIP', address: extra.ip ?? '10.1.64.10' }],
    },
  };
}

export function deployment(
  name: string,
  replicas: number,
  podSpec: Record<string, unknown>,
  extra: Record<string, unknown> = {},
): KubeObject {
  return {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { name, namespace: 'default' },
    spec: {
      replicas,
      selector: { matchLabels: { app: name } },
      template: { metadata: { labels: { app: name } }, spec: podSpec },
      ...extra,
    },
  };
}

export const pod = (name: string, spec: Record<string, unknown>, annotations?: Record<string, string>): KubeObject => ({
  apiVersion: 'v1',
  kind: 'Pod',
  metadata: { name, namespace: 'default', ...(annotations ? { annotations } : {}) },
  spec,
});

export const get = (w: World, type: keyof typeof T, name: string, namespace: string | undefined = 'default'): any =>
  w.cluster.objects.get(T[type], T[type].namespaced ? namespace : undefined, name);
export const list = (w: World, type: keyof typeof T, namespace?: string): any[] =>
  w.cluster.objects.list(T[type], namespace);
export const podsOf = (w: World, app: string): any[] =>
  list(w, 'pods', 'default').filter((p) => p.metadata.labels?.app === app);
export const eventsFor = (w: World, name: string): any[] =>
  list(w, 'events').filter((e) => e.involvedObject.name === name);
export const phase = (p: KubeObject) => (p.status as { phase?: string } | undefined)?.phase;
