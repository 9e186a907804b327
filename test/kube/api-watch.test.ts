import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { watchSettings } from '../../sandbox/kube/api/watch.js';
import { compactHistory, configMap, startApi, type TestApi } from './api-harness.js';

/** Watches: synthetic ADDED, replay from a resourceVersion, 410 when too old, selector transitions, Table events. */
describe('kube API: watch', () => {
  let api: TestApi;
  before(async () => (api = await startApi()));
  after(async () => api.close());

  const cms = '/api/v1/namespaces/default/configmaps';
  const summary = (events: Array<{ type: string; object: any }>) =>
    events.map((e) => `${e.type} ${e.object.metadata?.name ?? e.object.code}`);

  it('without a resourceVersion starts with the current objects as ADDED, then streams changes', async () => {
    await api.call('POST', cms, { body: configMap('w-existing', {}, { labels: { w: 'a' } }) });
    const w = api.stream(`${cms}?watch=true&labelSelector=w`);
    await w.waitFor(1);
    await api.call('POST', cms, { body: configMap('w-new', {}, { labels: { w: 'a' } }) });
    await api.call('PATCH', `${cms}/w-new`, { type: 'application/merge-patch+json', body: { data: { x: '1' } } });
    await api.call('DELETE', `${cms}/w-new`);
    await w.waitFor(4);
    w.stop();
    assert.deepEqual(summary(w.events()), ['ADDED w-existing', 'ADDED w-new', 'MODIFIED w-new', 'DELETED w-new']);
  });

  it('from a resourceVersion replays only the later changes', async () => {
    const rv = (await api.call('GET', cms)).body.metadata.resourceVersion;
    await api.call('POST', cms, { body: configMap('w-after') });
    const w = api.stream(`${cms}?watch=1&resourceVersion=${rv}`);
    await w.waitFor(1);
    w.stop();
    assert.deepEqual(summary(w.events()), ['ADDED w-after']);
    assert.equal(w.events()[0]!.object.metadata.resourceVersion, String(Number(rv) + 1));
  });

  it('sends an object that stops matching the selector as DELETED, one that starts matching as ADDED', async () => {
    await api.call('POST', cms, { body: configMap('w-moving', {}, { labels: { stage: 'dev' } }) });
    const w = api.stream(`${cms}?watch=true&labelSelector=stage%3Dprod`);
    await new Promise((r) => setTimeout(r, 50));
    await api.call('PATCH', `${cms}/w-moving`, {
      type: 'application/merge-patch+json',
      body: { metadata: { labels: { stage: 'prod' } } },
    });
    await api.call('PATCH', `${cms}/w-moving`, { type: 'application/merge-patch+json', body: { data: { v: '2' } } });
    await api.call('PATCH', `${cms}/w-moving`, {
      type: 'application/merge-patch+json',
      body: { metadata: { labels: { stage: 'dev' } } },
    });
    await api.call('PATCH', `${cms}/w-moving`, { type: 'application/merge-patch+json', body: { data: { v: '3' } } });
    await w.waitFor(3);
    await new Promise((r) => setTimeout(r, 50));
    w.stop();
    assert.deepEqual(summary(w.events()), ['ADDED w-moving', 'MODIFIED w-moving', 'DELETED w-moving']);
  });

  it('watches one object through a metadata.name field selector (kubectl get x -w)', async () => {
    const w = api.stream(`${cms}?watch=true&fieldSelector=metadata.name%3Dw-moving`);
    await w.waitFor(1);
    await api.call('POST', cms, { body: configMap('w-other') });
    await api.call('PATCH', `${cms}/w-moving`, { type: 'application/merge-patch+json', body: { data: { v: '4' } } });
    await w.waitFor(2);
    w.stop();
    assert.deepEqual(summary(w.events()), ['ADDED w-moving', 'MODIFIED w-moving']);
  });

  it('answers a resourceVersion older than the history with an ERROR event carrying 410 Expired', async () => {
    const before = Number(api.cluster.objects.resourceVersion);
    compactHistory(api);
    const w = api.stream(`${cms}?watch=true&resourceVersion=${before}`);
    await w.ended;
    const [event] = w.events();
    assert.equal(w.events().length, 1);
    assert.equal(event!.type, 'ERROR');
    assert.equal(event!.object.kind, 'Status');
    assert.equal(event!.object.code, 410);
    assert.equal(event!.object.reason, 'Expired');
    const cont = Buffer.from(JSON.stringify({ rv: String(before), start: '' })).toString('base64url');
    assert.equal(
      (await api.call('GET', `${cms}?limit=1&continue=${cont}`)).status,
      410,
      'a continue token that old is expired too',
    );
  });

  it('closes the stream after timeoutSeconds and refuses a malformed resourceVersion', async () => {
    const w = api.stream(`${cms}?watch=true&timeoutSeconds=1&fieldSelector=metadata.name%3Dnone`);
    const started = Date.now();
    await w.ended;
    assert.ok(Date.now() - started >= 900);
    assert.equal((await api.call('GET', `${cms}?watch=true&resourceVersion=abc`)).status, 400);
  });

  it('sends BOOKMARK events with the current resourceVersion when the client allows them', async () => {
    const interval = watchSettings.bookmarkIntervalMs;
    watchSettings.bookmarkIntervalMs = 50;
    try {
      const w = api.stream(
        `${cms}?watch=true&allowWatchBookmarks=true&resourceVersion=${api.cluster.objects.resourceVersion}`,
      );
      await w.waitFor(1);
      w.stop();
      const [event] = w.events();
      assert.equal(event!.type, 'BOOKMARK');
      assert.deepEqual(event!.object, {
        kind: 'ConfigMap',
        apiVersion: 'v1',
        metadata: { resourceVersion: api.cluster.objects.resourceVersion },
      });
    } finally {
      watchSettings.bookmarkIntervalMs = interval;
    }
  });

  it('streams one-row Tables when kubectl asks for Table output', async () => {
    const w = api.stream(`${cms}?watch=true&fieldSelector=metadata.name%3Dw-moving`, {
      accept: 'application/json;as=Table;v=v1;g=meta.k8s.io,application/json',
    });
    await w.waitFor(1);
    w.stop();
    const [event] = w.events();
    assert.equal(event!.type, 'ADDED');
    assert.equal(event!.object.kind, 'Table');
    assert.deepEqual(
      event!.object.columnDefinitions.map((c: any) => c.name),
      ['Name', 'Data', 'Age'],
    );
    assert.equal(event!.object.rows.length, 1);
    assert.equal(event!.object.rows[0].cells[0], 'w-moving');
    assert.equal(event!.object.rows[0].object.kind, 'PartialObjectMetadata');
  });
});
