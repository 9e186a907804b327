import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { followLogs, readLogs } from '../../sandbox/kube/controllers/logs.js';
import { T } from '../../sandbox/kube/controllers/util.js';
import { KubeError } from '../../sandbox/kube/errors.js';
import { get, node, pod, world, type World } from './controllers-fixtures.js';

function started(
  spec: Record<string, unknown>,
  annotations?: Record<string, string>,
  seconds = 10,
): { w: World; read: (o?: Parameters<typeof readLogs>[2]) => string } {
  const w = world();
  w.cluster.objects.create(T.nodes, node('n1', { cpu: '8', memory: '32Gi', 'nvidia.com/gpu': '8' }));
  w.cluster.objects.create(T.pods, pod('p', spec, annotations));
  w.advance(seconds);
  return { w, read: (o = {}) => readLogs(w.cluster, get(w, 'pods', 'p'), o) };
}
const badRequest = (message: string) => (e: unknown) =>
  e instanceof KubeError && e.code === 400 && e.message === message;

describe('controllers: pod logs', () => {
  it('training: a banner, steps with a falling loss and a throughput, then completion with exit 0', () => {
    const { w, read } = started(
      {
        restartPolicy: 'Never',
        containers: [
          {
            name: 'trainer',
            image: 'nvcr.io/nvidia/pytorch:24.09-py3',
            resources: { limits: { 'nvidia.com/gpu': '8' } },
          },
        ],
      },
      { 'sandbox.instantstart.dev/steps': '20', 'sandbox.instantstart.dev/step-seconds': '5' },
      200,
    );
    const lines = read().trim().split('\n');
    assert.match(lines[0]!, /world_size=8 steps=20/);
    const steps = lines.filter((l) => l.startsWith('step='));
    assert.equal(steps.length, 20);
    assert.match(steps[0]!, /^step=1 loss=\d\.\d{4} tokens\/s=\d+ lr=3\.0e-04$/);
    const loss = steps.map((l) => Number(/loss=([\d.]+)/.exec(l)![1]));
    assert.ok(loss[19]! < loss[0]! - 0.3, `loss falls: ${loss[0]} → ${loss[19]}`);
    assert.match(lines.at(-1)!, /^Training complete: 20 steps/);
    const p = get(w, 'pods', 'p');
    assert.equal(p.status.phase, 'Succeeded');
    assert.equal(p.status.containerStatuses[0].state.terminated.exitCode, 0);
    assert.equal(
      read(),
      lines.join('\n') + '\n',
      'the same text after the container ended: logs are computed, not stored',
    );
  });

  it("a finished container's last lines are kept, also those of its last second (finishedAt has whole seconds)", () => {
    const { read } = started(
      {
        restartPolicy: 'Never',
        containers: [{ name: 'c', image: 'busybox', command: ['sh', '-c', 'echo one; sleep 1.5; echo last'] }],
      },
      undefined,
      30,
    );
    assert.deepEqual(read().trim().split('\n'), ['one', 'last']);
    assert.deepEqual(read({ tailLines: 1 }).trim().split('\n'), ['last']);
  });

  it('server: start-up lines, then a request line every 5 s, running on', () => {
    const { w, read } = started(
      { containers: [{ name: 'web', image: 'nginx:1.27', ports: [{ containerPort: 80 }] }] },
      undefined,
      60,
    );
    const lines = read().trim().split('\n');
    assert.match(lines[1]!, /listening on 0\.0\.0\.0:80/);
    assert.ok(lines.filter((l) => /"GET \/\S* HTTP\/1\.1" 200/.test(l)).length >= 9);
    assert.equal(get(w, 'pods', 'p').status.phase, 'Running');
  });

  it('failing: an error and exit 1, restarts, and `previous` reads the run before', () => {
    const { w, read } = started(
      { containers: [{ name: 'main', image: 'busybox' }] },
      { 'sandbox.instantstart.dev/program': 'failing' },
      30,
    );
    const status = get(w, 'pods', 'p').status.containerStatuses[0];
    assert.ok(status.restartCount >= 1);
    assert.match(read({ previous: true }), /^starting busybox\nTraceback[\s\S]*RuntimeError: CUDA error[^\n]*\n$/);
  });

  it('command: echo prints and exits, a while loop repeats, no command prints one line', () => {
    assert.equal(
      started({
        restartPolicy: 'Never',
        containers: [{ name: 'c', image: 'busybox', command: ['echo', 'hello'] }],
      }).read(),
      'hello\n',
    );
    const loop = started(
      {
        containers: [{ name: 'c', image: 'busybox', command: ['sh', '-c', 'while true; do echo tick; sleep 5; done'] }],
      },
      undefined,
      30,
    ).read();
    assert.ok(loop.split('\n').filter((l) => l === 'tick').length >= 4);
    assert.match(
      started({ containers: [{ name: 'c', image: 'registry.k8s.io/pause:3.10' }] }).read(),
      /^\[sandbox\] registry\.k8s\.io\/pause:3\.10 started/,
    );
  });

  it('tailLines, sinceSeconds, sinceTime, timestamps and limitBytes', () => {
    const { w, read } = started(
      {
        containers: [{ name: 'c', image: 'busybox', command: ['sh', '-c', 'while true; do echo line; sleep 1; done'] }],
      },
      undefined,
      30,
    );
    const all = read().trim().split('\n');
    assert.deepEqual(read({ tailLines: 3 }).trim().split('\n'), all.slice(-3));
    assert.equal(read({ tailLines: 0 }), '');
    assert.equal(read({ sinceSeconds: 5 }).trim().split('\n').length, 6);
    assert.equal(
      read({ sinceTime: new Date(w.now() - 2000).toISOString() })
        .trim()
        .split('\n').length,
      3,
    );
    assert.match(read({ tailLines: 1, timestamps: true }), /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{9}Z line\n$/);
    assert.equal(read({ limitBytes: 7 }), 'line\nli');
  });

  it('answers as the API server does for an ambiguous, unknown or not yet started container', () => {
    const w = world();
    w.cluster.objects.create(
      T.pods,
      pod('two', {
        containers: [
          { name: 'a', image: 'busybox' },
          { name: 'b', image: 'busybox' },
        ],
      }),
    );
    const two = get(w, 'pods', 'two');
    assert.throws(
      () => readLogs(w.cluster, two, {}),
      badRequest('a container name must be specified for pod two, choose one of: [a b]'),
    );
    assert.throws(
      () => readLogs(w.cluster, two, { container: 'x' }),
      badRequest('container x is not valid for pod two'),
    );
    w.cluster.objects.create(T.nodes, node('n1', { cpu: '8', memory: '32Gi' }));
    w.advance(1);
    assert.throws(
      () => readLogs(w.cluster, get(w, 'pods', 'two'), { container: 'a' }),
      badRequest('container "a" in pod "two" is waiting to start: ContainerCreating'),
    );
    w.advance(10);
    assert.throws(
      () => readLogs(w.cluster, get(w, 'pods', 'two'), { container: 'a', previous: true }),
      badRequest('previous terminated container "a" in pod "two" not found'),
    );
  });

  it('follow streams new lines as sandbox time passes and ends when the container does', async () => {
    const { w } = started(
      {
        restartPolicy: 'Never',
        containers: [
          { name: 'c', image: 'busybox', command: ['sh', '-c', 'echo one; sleep 10; echo two; sleep 10; echo three'] },
        ],
      },
      undefined,
      8,
    );
    const chunks: string[] = [];
    let ended = false;
    const stop = followLogs(
      w.cluster,
      get(w, 'pods', 'p'),
      {},
      (t) => chunks.push(t),
      () => (ended = true),
    );
    try {
      w.advance(12);
      await sleep(250);
      assert.deepEqual(chunks, ['two\n']);
      assert.equal(ended, false);
      w.advance(20);
      await sleep(250);
      assert.deepEqual(chunks, ['two\n', 'three\n']);
      assert.equal(ended, true, 'the stream ends with the container');
    } finally {
      stop();
    }
  });

  it('a tail of a long, fast run is its last lines (read from a window, not the whole run), and the same as the end of the whole log', () => {
    const trainer = {
      restartPolicy: 'Never',
      containers: [{ name: 'trainer', image: 'nvcr.io/nvidia/pytorch:24.09-py3' }],
    };
    const { read } = started(
      trainer,
      { 'sandbox.instantstart.dev/steps': '0', 'sandbox.instantstart.dev/step-seconds': '0.001' },
      120,
    );
    const tail = read({ tailLines: 5 }).trim().split('\n');
    assert.equal(tail.length, 5);
    const steps = tail.map((l) => Number(/step=(\d+)/.exec(l)![1]));
    assert.deepEqual(
      steps,
      steps.map((_, i) => steps[0]! + i),
      'consecutive steps, a step a millisecond',
    );
    assert.ok(steps[0]! > 100_000, `the newest steps (${steps[0]}), not the first ones`);
    const whole = read({ sinceSeconds: 2 }).trim().split('\n');
    assert.deepEqual(whole.slice(-5), tail);
  });

  it('follow holds lines back while the reader is not ready, then sends them all, in pieces, none lost', async () => {
    const { w } = started(
      {
        containers: [{ name: 'c', image: 'busybox', command: ['sh', '-c', 'while true; do echo tick; sleep 1; done'] }],
      },
      undefined,
      60,
    );
    const chunks: string[] = [];
    let ready = false;
    const stop = followLogs(
      w.cluster,
      get(w, 'pods', 'p'),
      {},
      (t) => chunks.push(t),
      () => undefined,
      () => ready,
    );
    try {
      w.advance(30);
      await sleep(250);
      assert.deepEqual(chunks, [], 'a reader that is behind is sent nothing more');
      ready = true;
      await sleep(250);
      assert.ok(chunks.length >= 3, `sent in pieces of at most 10 s of log: ${chunks.length}`);
      assert.equal(
        chunks
          .join('')
          .split('\n')
          .filter((l) => l === 'tick').length,
        30,
        'every line of the 30 s, once',
      );
    } finally {
      stop();
    }
  });
});
