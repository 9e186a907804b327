import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { configMap, startApi, widgetCrd, type TestApi } from './api-harness.js';

/** DELETE: finalizers and deletionTimestamp, propagation policies, preconditions, namespaces, CRDs, collections. */
describe('kube API: deletion', () => {
  let api: TestApi;
  before(async () => (api = await startApi()));
  after(async () => api.close());

  const cms = '/api/v1/namespaces/default/configmaps';
  const exists = async (path: string) => (await api.call('GET', path)).status === 200;
  const owned = (name: string, owner: any, blockOwnerDeletion = true) =>
    configMap(
      name,
      {},
      {
        ownerReferences: [
          {
            apiVersion: 'v1',
            kind: 'ConfigMap',
            name: owner.metadata.name,
            uid: owner.metadata.uid,
            blockOwnerDeletion,
          },
        ],
      },
    );

  it('answers an immediate delete with a Success Status (a pod with the pod itself)', async () => {
    await api.call('POST', cms, { body: configMap('plain') });
    const res = await api.call('DELETE', `${cms}/plain`);
    assert.equal(res.status, 200);
    assert.equal(res.body.kind, 'Status');
    assert.equal(res.body.status, 'Success');
    assert.equal(res.body.details.name, 'plain');
    assert.equal(await exists(`${cms}/plain`), false);
    await api.call('POST', '/api/v1/namespaces/default/pods', {
      body: { metadata: { name: 'gone' }, spec: { containers: [{ name: 'c', image: 'busybox' }] } },
    });
    const pod = await api.call('DELETE', '/api/v1/namespaces/default/pods/gone');
    assert.equal(pod.body.kind, 'Pod');
    assert.equal((await api.call('DELETE', `${cms}/plain`)).status, 404);
  });

  it('keeps an object with finalizers, with a deletionTimestamp, until an update removes the last one', async () => {
    await api.call('POST', cms, {
      body: configMap('held', {}, { finalizers: ['example.com/hold', 'example.com/other'] }),
    });
    const res = await api.call('DELETE', `${cms}/held`);
    assert.equal(res.status, 200);
    assert.equal(res.body.kind, 'ConfigMap');
    assert.equal(res.body.metadata.deletionTimestamp, '2026-01-01T00:00:00Z');
    assert.ok(await exists(`${cms}/held`));
    const added = await api.call('PATCH', `${cms}/held`, {
      type: 'application/merge-patch+json',
      body: { metadata: { finalizers: ['example.com/hold', 'example.com/other', 'example.com/new'] } },
    });
    assert.equal(added.status, 422, 'no new finalizers while being deleted');
    const one = await api.call('PATCH', `${cms}/held`, {
      type: 'application/json-patch+json',
      body: [{ op: 'remove', path: '/metadata/finalizers/1' }],
    });
    assert.equal(one.status, 200);
    assert.ok(await exists(`${cms}/held`), 'one finalizer left');
    const last = await api.call('PATCH', `${cms}/held`, {
      type: 'application/merge-patch+json',
      body: { metadata: { finalizers: null } },
    });
    assert.equal(last.status, 200);
    assert.equal(await exists(`${cms}/held`), false, 'gone with its last finalizer');
  });

  it('Foreground deletes the dependents first, then the owner', async () => {
    const owner = (await api.call('POST', cms, { body: configMap('fg-owner') })).body;
    const child = (await api.call('POST', cms, { body: owned('fg-child', owner) })).body;
    await api.call('POST', cms, { body: owned('fg-grandchild', child) });
    const res = await api.call('DELETE', `${cms}/fg-owner`, {
      body: { kind: 'DeleteOptions', apiVersion: 'v1', propagationPolicy: 'Foreground' },
    });
    assert.equal(res.status, 200);
    assert.equal(await exists(`${cms}/fg-grandchild`), false);
    assert.equal(await exists(`${cms}/fg-child`), false);
    assert.equal(await exists(`${cms}/fg-owner`), false);
  });

  it('Foreground waits for a blocking dependent that has finalizers', async () => {
    const owner = (await api.call('POST', cms, { body: configMap('fw-owner') })).body;
    await api.call('POST', cms, {
      body: {
        ...owned('fw-child', owner),
        metadata: { ...owned('fw-child', owner).metadata, finalizers: ['example.com/slow'] },
      },
    });
    await api.call('DELETE', `${cms}/fw-owner?propagationPolicy=Foreground`);
    const waiting = (await api.call('GET', `${cms}/fw-owner`)).body;
    assert.deepEqual(waiting.metadata.finalizers, ['foregroundDeletion']);
    assert.ok(waiting.metadata.deletionTimestamp);
    await api.call('PATCH', `${cms}/fw-child`, {
      type: 'application/merge-patch+json',
      body: { metadata: { finalizers: null } },
    });
    assert.equal(await exists(`${cms}/fw-child`), false);
    assert.equal(await exists(`${cms}/fw-owner`), false, 'the owner goes once its blocking dependent is gone');
  });

  it('Orphan leaves the dependents without the owner reference; Background leaves them to the collector', async () => {
    const owner = (await api.call('POST', cms, { body: configMap('or-owner') })).body;
    await api.call('POST', cms, { body: owned('or-child', owner) });
    await api.call('DELETE', `${cms}/or-owner?propagationPolicy=Orphan`);
    assert.equal(await exists(`${cms}/or-owner`), false);
    const orphan = (await api.call('GET', `${cms}/or-child`)).body;
    assert.equal(orphan.metadata.ownerReferences, undefined);
    const bgOwner = (await api.call('POST', cms, { body: configMap('bg-owner') })).body;
    await api.call('POST', cms, { body: owned('bg-child', bgOwner) });
    await api.call('DELETE', `${cms}/bg-owner`, { body: { propagationPolicy: 'Background' } });
    assert.equal(await exists(`${cms}/bg-owner`), false);
    assert.equal(
      (await api.call('GET', `${cms}/bg-child`)).body.metadata.ownerReferences[0].uid,
      bgOwner.metadata.uid,
      'left for the garbage collector',
    );
    assert.equal((await api.call('DELETE', `${cms}/bg-child?propagationPolicy=Sideways`)).status, 400);
  });

  it('checks uid and resourceVersion preconditions (409)', async () => {
    const cm = (await api.call('POST', cms, { body: configMap('pre') })).body;
    const wrongUid = await api.call('DELETE', `${cms}/pre`, { body: { preconditions: { uid: 'not-it' } } });
    assert.equal(wrongUid.status, 409);
    assert.match(wrongUid.body.message, /Precondition failed: UID in precondition: not-it/);
    const wrongRv = await api.call('DELETE', `${cms}/pre`, { body: { preconditions: { resourceVersion: '1' } } });
    assert.equal(wrongRv.status, 409);
    const ok = await api.call('DELETE', `${cms}/pre`, {
      body: { preconditions: { uid: cm.metadata.uid, resourceVersion: cm.metadata.resourceVersion } },
    });
    assert.equal(ok.status, 200);
  });

  it('deletes a collection by label selector and answers with the deleted list', async () => {
    for (const n of ['dc-1', 'dc-2', 'dc-keep'])
      await api.call('POST', cms, { body: configMap(n, {}, { labels: { batch: n === 'dc-keep' ? 'keep' : 'drop' } }) });
    const res = await api.call('DELETE', `${cms}?labelSelector=batch%3Ddrop`);
    assert.equal(res.status, 200);
    assert.equal(res.body.kind, 'ConfigMapList');
    assert.deepEqual(
      res.body.items.map((i: any) => i.metadata.name),
      ['dc-1', 'dc-2'],
    );
    assert.equal(await exists(`${cms}/dc-1`), false);
    assert.ok(await exists(`${cms}/dc-keep`));
  });

  it('a namespace goes Terminating, takes its contents, and goes once empty; nothing new is created in it meanwhile', async () => {
    await api.call('POST', '/api/v1/namespaces', { body: { metadata: { name: 'doomed' } } });
    await api.call('POST', '/api/v1/namespaces/doomed/configmaps', { body: configMap('free') });
    await api.call('POST', '/api/v1/namespaces/doomed/configmaps', {
      body: configMap('stuck', {}, { finalizers: ['example.com/hold'] }),
    });
    const res = await api.call('DELETE', '/api/v1/namespaces/doomed');
    assert.equal(res.status, 200);
    assert.equal(res.body.status.phase, 'Terminating');
    assert.equal(await exists('/api/v1/namespaces/doomed/configmaps/free'), false);
    assert.ok(await exists('/api/v1/namespaces/doomed'), 'held by the finalizer of what is left in it');
    const late = await api.call('POST', '/api/v1/namespaces/doomed/configmaps', { body: configMap('late') });
    assert.equal(late.status, 403);
    await api.call('PATCH', '/api/v1/namespaces/doomed/configmaps/stuck', {
      type: 'application/merge-patch+json',
      body: { metadata: { finalizers: null } },
    });
    assert.equal(await exists('/api/v1/namespaces/doomed'), false);
  });

  it('deleting a CRD removes its custom resources and stops serving them', async () => {
    await api.call('POST', '/apis/apiextensions.k8s.io/v1/customresourcedefinitions', { body: widgetCrd });
    const widgets = '/apis/example.com/v1/namespaces/default/widgets';
    await api.call('POST', widgets, {
      body: { apiVersion: 'example.com/v1', kind: 'Widget', metadata: { name: 'w' }, spec: {} },
    });
    const res = await api.call('DELETE', '/apis/apiextensions.k8s.io/v1/customresourcedefinitions/widgets.example.com');
    assert.equal(res.status, 200);
    assert.equal(await exists('/apis/apiextensions.k8s.io/v1/customresourcedefinitions/widgets.example.com'), false);
    assert.equal((await api.call('GET', widgets)).status, 404);
  });
});
