import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { problemFor } from '../../src/api/problem.js';
import { AwsClients, Cloud } from '../../src/cloud/index.js';
import type { KubePort, KubeWatchEvent } from '../../src/cloud/ports.js';
import { KubeError, KubeExpired, KubeKindNotServed, KubeNotFound } from '../../src/domain/kube/errors.js';
import { HYPERPOD_NODE_CLASS } from '../../src/domain/kube/hyperpod-node-class.js';
import { kubeKind, parseBase, strings, type KubeResource } from '../../src/domain/kube/kind.js';
import { NODE_POOL } from '../../src/domain/kube/node-pool.js';
import { POD } from '../../src/domain/kube/pod.js';
import { kubeAccess } from '../helpers/kube.js';
import { eventually, startTestSandbox, type TestSandbox } from '../helpers/sandbox.js';
import { activeCluster, buildEksWorld } from '../sandbox/eks-fixtures.js';

/** A kind no module of ours covers, typed here: the client is generic over any descriptor. */
type KubeConfigMap = KubeResource & { data: Record<string, string> };
const CONFIG_MAP = kubeKind<KubeConfigMap>(
  { apiVersion: 'v1', kind: 'ConfigMap', plural: 'configmaps', namespaced: true },
  (raw) => {
    const base = parseBase(raw, { apiVersion: 'v1', kind: 'ConfigMap' });
    return { ...base, data: strings(base.data) };
  },
);
const GADGET = kubeKind(
  {
    apiVersion: 'example.instantstart.dev/v1',
    kind: 'Gadget',
    plural: 'gadgets',
    namespaced: true,
    crd: 'gadgets.example.instantstart.dev',
  },
  (raw) => parseBase(raw, { apiVersion: 'example.instantstart.dev/v1', kind: 'Gadget' }),
);
const GADGET_CRD = {
  apiVersion: 'apiextensions.k8s.io/v1',
  kind: 'CustomResourceDefinition',
  metadata: { name: 'gadgets.example.instantstart.dev' },
  spec: {
    group: 'example.instantstart.dev',
    scope: 'Namespaced',
    names: { plural: 'gadgets', singular: 'gadget', kind: 'Gadget' },
    versions: [
      {
        name: 'v1',
        served: true,
        storage: true,
        schema: { openAPIV3Schema: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true } },
      },
    ],
  },
};

const cm = (name: string, data: Record<string, string> = {}, labels: Record<string, string> = {}) => ({
  apiVersion: 'v1',
  kind: 'ConfigMap',
  metadata: { name, namespace: 'default', labels },
  data,
});

/** The next event of a watch, or a failure instead of a hung test. */
async function next<T>(it: AsyncIterator<KubeWatchEvent<T>>): Promise<KubeWatchEvent<T>> {
  let timer: NodeJS.Timeout | undefined;
  const r = await Promise.race([
    it.next(),
    new Promise<never>(
      (_, reject) => (timer = setTimeout(() => reject(new Error('no watch event within 10 s')), 10_000)),
    ),
  ]);
  clearTimeout(timer);
  assert.ok(!r.done, 'the watch ended');
  return r.value;
}
const summary = (e: KubeWatchEvent<KubeConfigMap>) =>
  e.type === 'BOOKMARK' ? 'BOOKMARK' : `${e.type} ${e.object.metadata.name} ${JSON.stringify(e.object.data)}`;

describe('typed Kubernetes operations on a sandbox EKS cluster', () => {
  let sb: TestSandbox;
  let kube: KubePort;
  before(async () => {
    sb = await startTestSandbox({ speed: 600 });
    await activeCluster(sb, await buildEksWorld('kt'), 'kt');
    await sb.advance(1);
    kube = await new Cloud(new AwsClients({ defaultRegion: 'us-west-2' })).kube('us-west-2', 'kt');
  });
  after(async () => {
    await sb.admin('/_sandbox/faults', { method: 'DELETE' });
    await sb.dispose();
  });

  it('reads an object as its kind types it; a missing one is KubeNotFound naming cluster, kind, namespace and name', async () => {
    const applied = await kube.apply(CONFIG_MAP, cm('typed', { greeting: 'hello' }));
    assert.equal(applied.data.greeting, 'hello');
    assert.equal((await kube.get(CONFIG_MAP, 'typed', 'default')).data.greeting, 'hello');
    assert.equal(await kube.find(CONFIG_MAP, 'absent', 'default'), undefined);
    await assert.rejects(kube.get(CONFIG_MAP, 'absent', 'default'), (err: unknown) => {
      assert.ok(err instanceof KubeNotFound, String(err));
      assert.deepEqual(err.object, { cluster: 'kt', kind: 'ConfigMap', namespace: 'default', name: 'absent' });
      assert.equal(err.message, 'ConfigMap default/absent in EKS cluster kt does not exist.');
      // Not the resource the user asked for: a route that looked it up for itself answers 422, not 404.
      assert.equal(problemFor(err).status, 422);
      return true;
    });
    assert.equal(await kube.delete(CONFIG_MAP, 'typed', 'default'), true);
    assert.equal(await kube.delete(CONFIG_MAP, 'typed', 'default'), false, 'nothing left to delete');
  });

  it('tells a kind the cluster does not serve from a missing object by discovery, with the remedy', async () => {
    await assert.rejects(kube.find(NODE_POOL, 'instantstart'), (err: unknown) => {
      assert.ok(err instanceof KubeKindNotServed, String(err));
      assert.deepEqual(err.object, { cluster: 'kt', kind: 'NodePool.karpenter.sh', name: 'instantstart' });
      assert.match(err.remedy!, /HyperPod-managed Karpenter/);
      const problem = problemFor(err);
      assert.deepEqual([problem.status, problem.code], [422, 'KindNotServed']);
      assert.match(problem.remedy!, /turn managed autoscaling on/);
      return true;
    });
    await assert.rejects(kube.list(HYPERPOD_NODE_CLASS), KubeKindNotServed);
    assert.equal(
      await kube.current({ apiVersion: NODE_POOL.apiVersion, kind: 'NodePool', metadata: { name: 'x' } }),
      undefined,
    );

    // The same request once the kind's CRD exists: the kind is served, the object is what is missing.
    await assert.rejects(kube.find(GADGET, 'g1', 'default'), KubeKindNotServed);
    await kube.applyAll([GADGET_CRD]);
    assert.equal(await kube.find(GADGET, 'g1', 'default'), undefined);
    await kube.applyAll([
      {
        apiVersion: GADGET.apiVersion,
        kind: 'Gadget',
        metadata: { name: 'g1', namespace: 'default' },
        spec: { size: 3 },
      },
    ]);
    assert.deepEqual((await kube.get(GADGET, 'g1', 'default')).spec, { size: 3 });
  });

  it('lists every page with label and field selectors', async () => {
    for (let i = 1; i <= 5; i++) await kube.apply(CONFIG_MAP, cm(`page-${i}`, { i: String(i) }, { batch: 'pages' }));
    await kube.apply(CONFIG_MAP, cm('page-other', {}, { batch: 'other' }));
    const all = await kube.list(CONFIG_MAP, { namespace: 'default', labelSelector: 'batch=pages', limit: 2 });
    assert.deepEqual(
      all.map((c) => c.data.i),
      ['1', '2', '3', '4', '5'],
    );
    const one = await kube.list(CONFIG_MAP, { namespace: 'default', fieldSelector: 'metadata.name=page-3' });
    assert.deepEqual(
      one.map((c) => c.metadata.name),
      ['page-3'],
    );
    const first = await kube.listPage(CONFIG_MAP, { namespace: 'default', labelSelector: 'batch=pages', limit: 2 });
    assert.equal(first.items.length, 2);
    assert.ok(first.continue);
  });

  it('starts a list again when its continue token expires (410), and gives up with KubeExpired when it keeps expiring', async () => {
    const fault = await sb.admin('/_sandbox/faults', {
      method: 'POST',
      body: { type: 'kube-compaction', cluster: 'kt', count: 1 },
    });
    assert.equal(fault.status, 201, JSON.stringify(fault.body));
    const all = await kube.list(CONFIG_MAP, { namespace: 'default', labelSelector: 'batch=pages', limit: 2 });
    assert.deepEqual(
      all.map((c) => c.metadata.name),
      ['page-1', 'page-2', 'page-3', 'page-4', 'page-5'],
      'complete, not failed, after the second page expired',
    );
    assert.deepEqual((await sb.admin('/_sandbox/faults')).body.faults, [], 'the history was compacted mid-list');

    const page = await kube.listPage(CONFIG_MAP, { namespace: 'default', labelSelector: 'batch=pages', limit: 2 });
    await sb.admin('/_sandbox/faults', { method: 'POST', body: { type: 'kube-compaction', cluster: 'kt', count: 1 } });
    await assert.rejects(
      kube.listPage(CONFIG_MAP, {
        namespace: 'default',
        labelSelector: 'batch=pages',
        limit: 2,
        continue: page.continue,
      }),
      (err: unknown) => {
        assert.ok(err instanceof KubeError && err.httpStatus === 410 && err.code === 'Expired', String(err));
        return true;
      },
    );

    await sb.admin('/_sandbox/faults', { method: 'POST', body: { type: 'kube-compaction', cluster: 'kt', count: 10 } });
    await assert.rejects(
      kube.list(CONFIG_MAP, { namespace: 'default', labelSelector: 'batch=pages', limit: 2 }),
      (err: unknown) => {
        assert.ok(err instanceof KubeExpired, String(err));
        assert.equal(err.retryable, true);
        assert.equal(problemFor(err).status, 503);
        return true;
      },
    );
    await sb.admin('/_sandbox/faults', { method: 'DELETE' });
  });

  it('watches with typed events, resumes from a resourceVersion, and lists again when that version was compacted', async () => {
    await kube.apply(CONFIG_MAP, cm('w-a', { v: '1' }, { w: 'yes' }));
    const stop = new AbortController();
    const events = kube
      .watch(CONFIG_MAP, { namespace: 'default', labelSelector: 'w=yes', signal: stop.signal })
      [Symbol.asyncIterator]();
    assert.equal(summary(await next(events)), 'ADDED w-a {"v":"1"}', 'the current objects first');
    await kube.apply(CONFIG_MAP, cm('w-b', { v: '1' }, { w: 'yes' }));
    assert.equal(summary(await next(events)), 'ADDED w-b {"v":"1"}');
    await kube.apply(CONFIG_MAP, cm('w-a', { v: '2' }, { w: 'yes' }));
    assert.equal(summary(await next(events)), 'MODIFIED w-a {"v":"2"}');
    await kube.delete(CONFIG_MAP, 'w-b', 'default');
    const deleted = await next(events);
    assert.equal(deleted.type, 'DELETED');
    const resumeFrom = deleted.type === 'DELETED' ? deleted.object.metadata.resourceVersion! : '';
    stop.abort();
    assert.equal((await events.next()).done, true, 'the signal ends the watch');

    await kube.apply(CONFIG_MAP, cm('w-a', { v: '3' }, { w: 'yes' }));
    const fromVersion = kube
      .watch(CONFIG_MAP, { namespace: 'default', labelSelector: 'w=yes', resourceVersion: resumeFrom })
      [Symbol.asyncIterator]();
    assert.equal(summary(await next(fromVersion)), 'MODIFIED w-a {"v":"3"}', 'only what changed after the version');
    await fromVersion.return!(undefined);

    await kube.apply(CONFIG_MAP, cm('w-a', { v: '4' }, { w: 'yes' }));
    await sb.admin('/_sandbox/faults', { method: 'POST', body: { type: 'kube-compaction', cluster: 'kt', count: 1 } });
    const afterCompaction = kube
      .watch(CONFIG_MAP, { namespace: 'default', labelSelector: 'w=yes', resourceVersion: resumeFrom })
      [Symbol.asyncIterator]();
    assert.equal(
      summary(await next(afterCompaction)),
      'ADDED w-a {"v":"4"}',
      'the version was gone (410): listed again',
    );
    await kube.apply(CONFIG_MAP, cm('w-a', { v: '5' }, { w: 'yes' }));
    assert.equal(summary(await next(afterCompaction)), 'MODIFIED w-a {"v":"5"}', 'and watching on from the new list');
    await afterCompaction.return!(undefined);
  });

  it('reads a container log (tailed, bounded) and follows it live until told to stop', async () => {
    const capacity = { cpu: '8', memory: '32Gi', pods: '110' };
    // A kubelet registers its Node with its status (apply would leave the status out).
    const node = {
      apiVersion: 'v1',
      kind: 'Node',
      metadata: { name: 'worker-1' },
      status: {
        conditions: [{ type: 'Ready', status: 'True', reason: 'KubeletReady' }],
        capacity,
        allocatable: capacity,
      },
    };
    await (await kubeAccess(sb, 'kt')).kubectl(['create', '-f', '-'], { input: JSON.stringify(node) });
    const pod = (name: string, containers: Array<{ name: string; command: string[] }>) => ({
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: { name, namespace: 'default' },
      spec: { containers: containers.map((c) => ({ ...c, image: 'busybox:1.36' })) },
    });
    await kube.applyAll([
      pod('ticker', [{ name: 'main', command: ['sh', '-c', 'while true; do echo tick; sleep 5; done'] }]),
      pod('pair', [
        { name: 'a', command: ['sleep', '3600'] },
        { name: 'b', command: ['sleep', '3600'] },
      ]),
    ]);
    await eventually(async () => (await kube.get(POD, 'ticker', 'default')).status.phase === 'Running', {
      sandbox: sb,
      stepSeconds: 5,
      what: 'ticker running',
    });
    await sb.advance(30);
    const text = async (stream: NodeJS.ReadableStream) => {
      let out = '';
      for await (const chunk of stream) out += String(chunk);
      return out;
    };
    assert.equal(
      await text(await kube.logs({ name: 'ticker', namespace: 'default' }, { tailLines: 2 })),
      'tick\ntick\n',
    );
    assert.equal(await text(await kube.logs({ name: 'ticker', namespace: 'default' }, { limitBytes: 3 })), 'tic');

    const stop = new AbortController();
    const live = await kube.logs(
      { name: 'ticker', namespace: 'default' },
      { follow: true, tailLines: 1, signal: stop.signal },
    );
    let seen = '';
    live.on('data', (chunk) => (seen += String(chunk)));
    const ended = new Promise<void>((resolve) => live.on('end', resolve));
    await eventually(async () => seen.split('\n').filter((l) => l === 'tick').length >= 3, {
      sandbox: sb,
      stepSeconds: 10,
      what: 'new lines while following',
    });
    stop.abort();
    await ended;

    await assert.rejects(
      kube.logs({ name: 'pair', namespace: 'default' }),
      (err: unknown) =>
        err instanceof KubeError && err.httpStatus === 400 && /has containers a, b: name the one/.test(err.message),
    );
    await assert.rejects(
      kube.logs({ name: 'nobody', namespace: 'default' }),
      (err: unknown) => err instanceof KubeNotFound && err.object.name === 'nobody' && err.object.kind === 'Pod',
    );
  });
});
