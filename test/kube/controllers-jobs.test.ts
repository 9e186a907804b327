import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { T } from '../../sandbox/kube/controllers/util.js';
import type { KubeObject } from '../../sandbox/kube/types.js';
import { eventsFor, get, list, node, pod, world } from './controllers-fixtures.js';

const job = (name: string, command: string[], spec: Record<string, unknown> = {}, policy = 'Never'): KubeObject => ({
  apiVersion: 'batch/v1',
  kind: 'Job',
  metadata: { name, namespace: 'default' },
  spec: {
    ...spec,
    template: { spec: { restartPolicy: policy, containers: [{ name: 'main', image: 'busybox:1.36', command }] } },
  },
});
const jobPods = (w: ReturnType<typeof world>, name: string) =>
  list(w, 'pods', 'default').filter((p) => p.metadata.labels['batch.kubernetes.io/job-name'] === name);
const conditionTypes = (o: { status: { conditions?: Array<{ type: string; reason: string }> } }) =>
  (o.status.conditions ?? []).map((c) => `${c.type}:${c.reason}`);

describe('controllers: Jobs and the pod lifecycle', () => {
  it('runs a Job to completion with parallelism, labelling its pods', () => {
    const w = world();
    w.cluster.objects.create(T.nodes, node('n1', { cpu: '8', memory: '32Gi' }));
    w.cluster.objects.create(
      T.jobs,
      job('batch', ['sh', '-c', 'echo working; sleep 5; echo done'], { completions: 3, parallelism: 2 }),
    );
    w.advance(2);
    assert.equal(jobPods(w, 'batch').length, 2, 'parallelism 2');
    const first = jobPods(w, 'batch')[0];
    assert.equal(first.metadata.labels['batch.kubernetes.io/controller-uid'], get(w, 'jobs', 'batch').metadata.uid);
    assert.equal(first.metadata.labels['job-name'], 'batch');
    assert.equal(get(w, 'jobs', 'batch').status.active, 2);
    w.advance(60);
    const done = get(w, 'jobs', 'batch');
    assert.deepEqual(conditionTypes(done), ['SuccessCriteriaMet:CompletionsReached', 'Complete:CompletionsReached']);
    assert.equal(done.status.succeeded, 3);
    assert.equal(done.status.active, undefined);
    assert.ok(done.status.startTime && done.status.completionTime);
    assert.equal(jobPods(w, 'batch').filter((p) => p.status.phase === 'Succeeded').length, 3);
    const terminated = jobPods(w, 'batch')[0].status.containerStatuses[0].state.terminated;
    assert.deepEqual([terminated.exitCode, terminated.reason], [0, 'Completed']);
    assert.ok(eventsFor(w, 'batch').some((e) => e.reason === 'Completed' && e.message === 'Job completed'));
  });

  it('fails a Job whose pods keep failing once it passes backoffLimit', () => {
    const w = world();
    w.cluster.objects.create(T.nodes, node('n1', { cpu: '8', memory: '32Gi' }));
    w.cluster.objects.create(T.jobs, job('broken', ['sh', '-c', 'echo boom; exit 3'], { backoffLimit: 2 }));
    w.advance(200, 2);
    const broken = get(w, 'jobs', 'broken');
    assert.deepEqual(conditionTypes(broken), ['FailureTarget:BackoffLimitExceeded', 'Failed:BackoffLimitExceeded']);
    assert.equal(broken.status.failed, 3);
    const failed = jobPods(w, 'broken');
    assert.equal(failed.length, 3);
    assert.ok(
      failed.every((p) => p.status.phase === 'Failed' && p.status.containerStatuses[0].state.terminated.exitCode === 3),
    );
    assert.ok(eventsFor(w, 'broken').some((e) => e.type === 'Warning' && e.reason === 'BackoffLimitExceeded'));
  });

  it('gives Indexed job pods their completion index and deletes a finished job after ttlSecondsAfterFinished', () => {
    const w = world();
    w.cluster.objects.create(T.nodes, node('n1', { cpu: '8', memory: '32Gi' }));
    w.cluster.objects.create(
      T.jobs,
      job('idx', ['echo', 'hi'], {
        completions: 3,
        parallelism: 3,
        completionMode: 'Indexed',
        ttlSecondsAfterFinished: 30,
      }),
    );
    w.advance(2);
    assert.deepEqual(
      jobPods(w, 'idx')
        .map((p) => p.metadata.annotations['batch.kubernetes.io/job-completion-index'])
        .sort(),
      ['0', '1', '2'],
    );
    assert.ok(
      jobPods(w, 'idx').every((p) =>
        p.metadata.name.startsWith(`idx-${p.metadata.labels['batch.kubernetes.io/job-completion-index']}-`),
      ),
    );
    w.advance(20);
    assert.equal(get(w, 'jobs', 'idx').status.completedIndexes, '0-2');
    w.advance(40);
    assert.equal(get(w, 'jobs', 'idx'), undefined, 'the TTL controller deleted it');
    w.advance(2);
    assert.equal(jobPods(w, 'idx').length, 0, 'and the garbage collector its pods');
  });

  it('restarts a crashing container with a doubling back-off into CrashLoopBackOff', () => {
    const w = world();
    w.cluster.objects.create(T.nodes, node('n1', { cpu: '8', memory: '32Gi' }));
    w.cluster.objects.create(
      T.pods,
      pod('crasher', { containers: [{ name: 'main', image: 'example.com/team/crash:1' }] }),
    );
    w.advance(12);
    let status = get(w, 'pods', 'crasher').status.containerStatuses[0];
    assert.equal(status.restartCount, 1);
    assert.equal(status.state.waiting.reason, 'CrashLoopBackOff');
    assert.match(status.state.waiting.message, /^back-off 10s restarting failed container=main pod=crasher_default\(/);
    assert.deepEqual([status.lastState.terminated.exitCode, status.lastState.terminated.reason], [1, 'Error']);
    w.advance(120);
    status = get(w, 'pods', 'crasher').status.containerStatuses[0];
    // Runs of 5 s with back-offs of 10, 20, 40 s: the 4th restart lands at ~100 s, the 5th waits 80 s more.
    assert.equal(status.restartCount, 4);
    assert.equal(get(w, 'pods', 'crasher').status.phase, 'Running');
    const backoff = eventsFor(w, 'crasher').find((e) => e.reason === 'BackOff');
    assert.equal(backoff.type, 'Warning');
    assert.ok(backoff.count >= 3, 'repeats are counted on one event');
  });

  it('runs init containers first, then the app; activeDeadlineSeconds fails a pod that runs too long', () => {
    const w = world();
    w.cluster.objects.create(T.nodes, node('n1', { cpu: '8', memory: '32Gi' }));
    w.cluster.objects.create(
      T.pods,
      pod('staged', {
        initContainers: [{ name: 'setup', image: 'busybox', command: ['sh', '-c', 'echo preparing; sleep 10'] }],
        containers: [{ name: 'app', image: 'nginx:1.27' }],
      }),
    );
    w.cluster.objects.create(
      T.pods,
      pod('slow', {
        activeDeadlineSeconds: 20,
        restartPolicy: 'Never',
        containers: [{ name: 'app', image: 'busybox', command: ['sleep', '600'] }],
      }),
    );
    w.advance(8);
    let staged = get(w, 'pods', 'staged');
    assert.equal(staged.status.phase, 'Pending');
    assert.equal(staged.status.initContainerStatuses[0].state.running !== undefined, true);
    assert.equal(staged.status.containerStatuses[0].state.waiting.reason, 'PodInitializing');
    assert.equal(staged.status.conditions.find((c: { type: string }) => c.type === 'Initialized').status, 'False');
    w.advance(20);
    staged = get(w, 'pods', 'staged');
    assert.equal(staged.status.phase, 'Running');
    assert.equal(staged.status.initContainerStatuses[0].state.terminated.reason, 'Completed');
    const slow = get(w, 'pods', 'slow');
    assert.deepEqual([slow.status.phase, slow.status.reason], ['Failed', 'DeadlineExceeded']);
  });
});
