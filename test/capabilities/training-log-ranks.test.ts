import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { FoundJob } from '../../src/capabilities/training/jobs.js';
import { rankPods } from '../../src/capabilities/training/logs/job-pods.js';
import { readableRun, unreadableReason } from '../../src/workflows/pod-logs/pod-runs.js';
import { parseHyperPodPyTorchJob } from '../../src/domain/kube/hyperpod-pytorch-job.js';
import { parsePod } from '../../src/domain/kube/pod.js';

const job: FoundJob = {
  kind: 'HyperPodPyTorchJob',
  job: parseHyperPodPyTorchJob({
    apiVersion: 'sagemaker.amazonaws.com/v1',
    kind: 'HyperPodPyTorchJob',
    metadata: { name: 'llama', namespace: 'default' },
    spec: { replicaSpecs: [{ name: 'pod', replicas: 2, template: {} }] },
  }),
};

function pod(
  index: number,
  o: {
    uid?: string;
    created?: string;
    deleting?: boolean;
    node?: boolean;
    state?: object;
    restartCount?: number;
    noStatus?: boolean;
  } = {},
) {
  return parsePod({
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: {
      name: `llama-pod-${index}`,
      namespace: 'default',
      uid: o.uid ?? `uid-${index}`,
      creationTimestamp: o.created ?? '2026-06-01T12:00:00Z',
      ...(o.deleting ? { deletionTimestamp: '2026-06-01T12:05:00Z' } : {}),
      labels: {
        HPJob: 'llama',
        'sagemaker.amazonaws.com/replica-name': 'pod',
        'sagemaker.amazonaws.com/replica-index': String(index),
      },
    },
    spec: {
      ...(o.node === false ? {} : { nodeName: 'hyperpod-i-0123456789abcdef0' }),
      containers: [{ name: 'pytorch' }],
    },
    status: {
      phase: 'Running',
      containerStatuses: o.noStatus
        ? []
        : [
            {
              name: 'pytorch',
              ready: true,
              restartCount: o.restartCount ?? 0,
              state: o.state ?? { running: { startedAt: '2026-06-01T12:00:01Z' } },
            },
          ],
    },
  });
}

describe('training job log ranks (which pod is a rank, and whether its log can be read)', () => {
  it("ranks the job's pods as the job view does; while a rank's pod is replaced the new one is the rank's", () => {
    assert.deepEqual(
      rankPods(job, [pod(1), pod(0)]).map((r) => [r.rank, r.pod.metadata.name]),
      [
        [0, 'llama-pod-0'],
        [1, 'llama-pod-1'],
      ],
    );
    const replaced = rankPods(job, [
      pod(0),
      pod(1, { uid: 'old', deleting: true }),
      pod(1, { uid: 'new', created: '2026-06-01T12:06:00Z' }),
    ]);
    assert.deepEqual(
      replaced.map((r) => [r.rank, r.pod.metadata.uid]),
      [
        [0, 'uid-0'],
        [1, 'new'],
      ],
    );
  });

  it('says why a rank cannot be read: not scheduled, not started, no previous run', () => {
    assert.match(unreadableReason(pod(0, { node: false }), false)!, /^not started yet: the pod is not scheduled/);
    assert.equal(
      unreadableReason(pod(0, { state: { waiting: { reason: 'ContainerCreating' } } }), false),
      'not started yet: ContainerCreating',
    );
    assert.equal(unreadableReason(pod(0, { noStatus: true }), false), 'not started yet: ContainerCreating');
    assert.equal(unreadableReason(pod(0), true), 'no previous run: the container has not restarted');
    assert.equal(unreadableReason(pod(0, { restartCount: 1 }), true), undefined);
    assert.equal(
      unreadableReason(pod(0, { restartCount: 2, state: { waiting: { reason: 'CrashLoopBackOff' } } }), false),
      undefined,
      'a crash-looping rank shows the run that just ended',
    );
  });

  it('tells which run a read shows, so a follow picks up each run once', () => {
    assert.equal(readableRun(pod(0)), 0);
    assert.equal(readableRun(pod(0, { restartCount: 3 })), 3);
    assert.equal(
      readableRun(pod(0, { restartCount: 3, state: { terminated: { exitCode: 0, reason: 'Completed' } } })),
      3,
    );
    assert.equal(
      readableRun(pod(0, { restartCount: 3, state: { waiting: { reason: 'CrashLoopBackOff' } } })),
      2,
      'waiting to restart: the run that just ended',
    );
    assert.equal(readableRun(pod(0, { state: { waiting: { reason: 'ContainerCreating' } } })), undefined);
    assert.equal(readableRun(pod(0, { node: false })), undefined);
  });
});
