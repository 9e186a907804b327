import assert from 'node:assert/strict';
import { Readable } from 'node:stream';
import { describe, it } from 'node:test';
import type { KubePort } from '../../src/cloud/ports.js';
import type { FoundJob } from '../../src/capabilities/training/jobs.js';
import { followedRanks, type LogTarget } from '../../src/capabilities/training/logs/job-logs.js';
import { FollowSession } from '../../src/workflows/pod-logs/follow.js';
import { parsePod } from '../../src/domain/kube/pod.js';
import { parseRayJob } from '../../src/domain/kube/ray-job.js';
import type { LogStreamMessage } from '../../src/domain/schemas/training.js';

const rayJob = (status: Record<string, unknown>) =>
  parseRayJob({
    apiVersion: 'ray.io/v1',
    kind: 'RayJob',
    metadata: { name: 'grpo', namespace: 'default' },
    spec: {
      entrypoint: 'python3 -m verl.trainer.main_ppo',
      submissionMode: 'HTTPMode',
      rayClusterSpec: { headGroupSpec: { template: {} }, workerGroupSpecs: [] },
    },
    status,
  });

const head = parsePod({
  apiVersion: 'v1',
  kind: 'Pod',
  metadata: {
    name: 'grpo-c1-head-x',
    namespace: 'default',
    uid: 'u-head',
    labels: { 'ray.io/cluster': 'grpo-c1', 'ray.io/node-type': 'head' },
  },
  spec: { nodeName: 'hyperpod-i-0123456789abcdef0', containers: [{ name: 'ray-head' }] },
  status: {
    phase: 'Running',
    containerStatuses: [
      { name: 'ray-head', ready: true, restartCount: 0, state: { running: { startedAt: '2026-06-01T12:00:01Z' } } },
    ],
  },
});

/** Yields the events, then waits until aborted (a watch stays open). */
async function* watchOf<T>(events: T[], signal: AbortSignal | undefined): AsyncGenerator<T> {
  for (const e of events) yield e;
  await new Promise((resolve) => signal?.addEventListener('abort', resolve, { once: true }));
}

describe('following a RayJob opened before KubeRay made its Ray cluster', () => {
  it("watches the job until it names its cluster, then follows the cluster's pods (rank-started, their lines)", async () => {
    const watched: string[] = [];
    const kube = {
      watch: (kind: { kind: string }, o: { labelSelector?: string; fieldSelector?: string; signal?: AbortSignal }) => {
        watched.push(`${kind.kind} ${o.labelSelector ?? o.fieldSelector}`);
        if (kind.kind === 'RayJob')
          return watchOf(
            [
              { type: 'MODIFIED', object: rayJob({ jobDeploymentStatus: 'Initializing' }) },
              { type: 'MODIFIED', object: rayJob({ jobDeploymentStatus: 'Initializing', rayClusterName: 'grpo-c1' }) },
            ],
            o.signal,
          );
        return watchOf(o.labelSelector === 'ray.io/cluster=grpo-c1' ? [{ type: 'ADDED', object: head }] : [], o.signal);
      },
      logs: async () => Readable.from(['2026-06-01T12:00:02.000000000Z Ray runtime started.\n']),
      find: async () => head,
    } as unknown as KubePort;
    const found: FoundJob = { kind: 'RayJob', job: rayJob({ jobDeploymentStatus: 'Initializing' }) };
    const target: LogTarget = { cluster: 'demo', kube, found, ranks: [], missing: [0] };
    const got: LogStreamMessage[] = [];
    const session = new FollowSession(
      async () => [],
      followedRanks(target, { rank: 'all' }),
      {},
      { send: (m) => (got.push(m), true), drop: () => {}, fail: () => {} },
    );
    const done = session.start();
    for (let i = 0; i < 100 && !got.some((m) => m.type === 'line'); i++) await new Promise((r) => setTimeout(r, 10));
    session.stop();
    await done;
    assert.deepEqual(
      watched,
      ['RayJob metadata.name=grpo', 'Pod ray.io/cluster=grpo-c1'],
      'no pod selector until the job named its cluster (HTTPMode: no submitter)',
    );
    assert.deepEqual(
      got
        .slice(0, 3)
        .map((m) => (m.type === 'line' ? `${m.type} ${m.rank} ${m.text}` : `${m.type} ${'rank' in m ? m.rank : ''}`)),
      ['tail-end ', 'rank-started 0', 'line 0 Ray runtime started.'],
    );
  });
});
