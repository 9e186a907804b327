import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { CoreV1Api, KubeConfig, PatchStrategy, setHeaderOptions, Watch } from '@kubernetes/client-node';
import { compactHistory, startApi, type TestApi } from './api-harness.js';

/** @kubernetes/client-node, the product's client, against the API over plain HTTP. */
describe('kube API: @kubernetes/client-node', () => {
  let api: TestApi;
  let kc: KubeConfig;
  let core: CoreV1Api;

  before(async () => {
    api = await startApi();
    kc = new KubeConfig();
    kc.loadFromOptions({
      clusters: [{ name: 'test', server: api.url, skipTLSVerify: true }],
      users: [{ name: 'test', token: 'unused' }],
      contexts: [{ name: 'test', cluster: 'test', user: 'test' }],
      currentContext: 'test',
    });
    core = kc.makeApiClient(CoreV1Api);
  });
  after(async () => api.close());

  it('creates, lists, merge-patches and deletes', async () => {
    await core.createNamespace({ body: { metadata: { name: 'team' } } });
    const created = await core.createNamespacedConfigMap({
      namespace: 'team',
      body: { metadata: { name: 'cfg', labels: { app: 'x' } }, data: { a: '1' } },
    });
    assert.ok(created.metadata?.uid);
    const list = await core.listNamespacedConfigMap({ namespace: 'team', labelSelector: 'app=x' });
    assert.deepEqual(
      list.items.map((i) => i.metadata?.name),
      ['cfg'],
    );
    assert.ok(list.metadata?.resourceVersion);
    const patched = await core.patchNamespacedConfigMap(
      { name: 'cfg', namespace: 'team', body: { data: { b: '2' } } },
      setHeaderOptions('Content-Type', PatchStrategy.MergePatch),
    );
    assert.deepEqual(patched.data, { a: '1', b: '2' });
    await core.deleteNamespacedConfigMap({ name: 'cfg', namespace: 'team' });
    await assert.rejects(core.readNamespacedConfigMap({ name: 'cfg', namespace: 'team' }), (e: any) => e.code === 404);
    await assert.rejects(
      core.createNamespacedConfigMap({ namespace: 'nowhere', body: { metadata: { name: 'x' } } }),
      (e: any) => e.code === 404 && /namespaces \\?"nowhere\\?" not found/.test(String(e.body)),
    );
  });

  it('watches with Watch: ADDED, MODIFIED, DELETED in order', async () => {
    const seen: string[] = [];
    const watch = new Watch(kc);
    let done: unknown = 'open';
    const req = await watch.watch(
      '/api/v1/namespaces/team/configmaps',
      { labelSelector: 'w=1' },
      (type, obj) => seen.push(`${type} ${obj.metadata.name}`),
      (err) => (done = err),
    );
    try {
      await new Promise((r) => setTimeout(r, 100));
      await core.createNamespacedConfigMap({
        namespace: 'team',
        body: { metadata: { name: 'w', labels: { w: '1' } } },
      });
      await core.patchNamespacedConfigMap(
        { name: 'w', namespace: 'team', body: { data: { v: '2' } } },
        setHeaderOptions('Content-Type', PatchStrategy.MergePatch),
      );
      await core.deleteNamespacedConfigMap({ name: 'w', namespace: 'team' });
      for (let i = 0; i < 50 && seen.length < 3; i++) await new Promise((r) => setTimeout(r, 20));
      assert.deepEqual(seen, ['ADDED w', 'MODIFIED w', 'DELETED w']);
      assert.equal(done, 'open');
    } finally {
      req.abort();
    }
  });

  it('a watch from a compacted resourceVersion ends with an ERROR event carrying 410, which informers relist on', async () => {
    const old = Number(api.cluster.objects.resourceVersion);
    compactHistory(api, 'team');
    const events: Array<[string, any]> = [];
    const ended = new Promise<unknown>((resolve) => {
      void new Watch(kc).watch(
        '/api/v1/namespaces/team/configmaps',
        { resourceVersion: String(old) },
        (type, obj) => events.push([type, obj]),
        resolve,
      );
    });
    assert.equal(await ended, null, 'the stream ends normally after the error event');
    assert.equal(events.length, 1);
    assert.equal(events[0]![0], 'ERROR');
    assert.equal(events[0]![1].code, 410);
  });
});
