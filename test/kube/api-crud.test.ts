import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { configMap, deployment, pod, startApi, type TestApi } from './api-harness.js';

/** Create, read, update, list and the request rules around them, as kube-apiserver answers them. */
describe('kube API: CRUD', () => {
  let api: TestApi;
  before(async () => (api = await startApi()));
  after(async () => api.close());

  const cms = '/api/v1/namespaces/default/configmaps';

  it('creates an object with uid, resourceVersion, creationTimestamp and a field manager from the User-Agent', async () => {
    const res = await api.call('POST', cms, { body: configMap('settings', { a: '1' }) });
    assert.equal(res.status, 201);
    const meta = res.body.metadata;
    assert.match(meta.uid, /^[0-9a-f-]{36}$/);
    assert.ok(Number(meta.resourceVersion) > 0);
    assert.equal(meta.creationTimestamp, '2026-01-01T00:00:00Z');
    assert.equal(meta.namespace, 'default');
    assert.deepEqual(
      meta.managedFields.map((f: any) => [f.manager, f.operation]),
      [['api-test', 'Update']],
    );
    const got = await api.call('GET', `${cms}/settings`);
    assert.equal(got.status, 200);
    assert.deepEqual(got.body.data, { a: '1' });
    assert.ok(got.body.metadata.managedFields, 'managed fields are returned on GET');
  });

  it('answers a name collision with 409 AlreadyExists', async () => {
    const res = await api.call('POST', cms, { body: configMap('settings') });
    assert.equal(res.status, 409);
    assert.equal(res.body.reason, 'AlreadyExists');
    assert.equal(res.body.message, 'configmaps "settings" already exists');
  });

  it('updates with optimistic concurrency: a stale resourceVersion is 409 Conflict', async () => {
    const read = (await api.call('GET', `${cms}/settings`)).body;
    const ok = await api.call('PUT', `${cms}/settings`, {
      body: { ...read, data: { a: '2' } },
      headers: { 'user-agent': 'kubectl-edit/v1.32.0 (linux/amd64)' },
    });
    assert.equal(ok.status, 200);
    assert.notEqual(ok.body.metadata.resourceVersion, read.metadata.resourceVersion);
    assert.ok(ok.body.metadata.managedFields.some((f: any) => f.manager === 'kubectl-edit'));
    const stale = await api.call('PUT', `${cms}/settings`, { body: { ...read, data: { a: '3' } } });
    assert.equal(stale.status, 409);
    assert.equal(stale.body.reason, 'Conflict');
    assert.match(stale.body.message, /the object has been modified/);
  });

  it('refuses mismatched names and namespaces, and creates only in existing namespaces', async () => {
    const rename = await api.call('PUT', `${cms}/settings`, { body: configMap('other') });
    assert.equal(rename.status, 400);
    assert.match(rename.body.message, /does not match the name on the URL/);
    const wrongNs = await api.call('POST', cms, { body: configMap('x', {}, { namespace: 'elsewhere' }) });
    assert.equal(wrongNs.status, 400);
    assert.equal(
      wrongNs.body.message,
      'the namespace of the provided object does not match the namespace sent on the request',
    );
    const noNs = await api.call('POST', '/api/v1/namespaces/missing/configmaps', { body: configMap('x') });
    assert.equal(noNs.status, 404);
    assert.equal(noNs.body.message, 'namespaces "missing" not found');
    assert.equal((await api.call('GET', '/api/v1/namespaces/default/configmaps/x')).status, 404, 'nothing stored');
  });

  it('requires a name or generateName (422) and generates names', async () => {
    const none = await api.call('POST', cms, { body: { data: {} } });
    assert.equal(none.status, 422);
    assert.equal(none.body.details.causes[0].field, 'metadata.name');
    const generated = await api.call('POST', cms, { body: { metadata: { generateName: 'gen-' } } });
    assert.equal(generated.status, 201);
    assert.match(generated.body.metadata.name, /^gen-[a-z0-9]{5}$/);
    assert.equal(generated.body.kind, 'ConfigMap', 'kind and apiVersion default from the path');
  });

  it('answers 404 NotFound Status for unknown objects and resources, 405 for methods a path does not serve', async () => {
    const missing = await api.call('GET', `${cms}/nope`);
    assert.equal(missing.status, 404);
    assert.deepEqual(missing.body, {
      kind: 'Status',
      apiVersion: 'v1',
      metadata: {},
      status: 'Failure',
      message: 'configmaps "nope" not found',
      reason: 'NotFound',
      details: { name: 'nope', group: '', kind: 'configmaps' },
      code: 404,
    });
    assert.equal((await api.call('GET', '/api/v1/namespaces/default/gadgets')).status, 404);
    assert.equal(
      (await api.call('GET', '/api/v1/namespaces/default/nodes')).status,
      404,
      'cluster-scoped kinds have no namespaced path',
    );
    assert.equal((await api.call('POST', '/api/v1/configmaps', { body: configMap('y') })).status, 405);
    assert.equal((await api.call('POST', `${cms}/settings`, { body: configMap('y') })).status, 405);
  });

  it('lists with label selectors (=, !=, in, notin, exists, !key) and field selectors', async () => {
    const label = (name: string, labels: Record<string, string>) =>
      api.call('POST', cms, { body: configMap(name, {}, { labels }) });
    await label('l-a', { tier: 'web', env: 'prod' });
    await label('l-b', { tier: 'db', env: 'prod' });
    await label('l-c', { tier: 'web' });
    const names = async (q: string) =>
      (await api.call('GET', `${cms}?${q}`)).body.items.map((i: any) => i.metadata.name);
    assert.deepEqual(await names('labelSelector=tier%3Dweb'), ['l-a', 'l-c']);
    assert.deepEqual(await names('labelSelector=tier%3D%3Dweb,env'), ['l-a']);
    assert.deepEqual(await names('labelSelector=tier!%3Dweb,tier'), ['l-b']);
    assert.deepEqual(await names('labelSelector=tier%20in%20(db,cache)'), ['l-b']);
    assert.deepEqual(await names('labelSelector=tier%20notin%20(db),tier'), ['l-a', 'l-c']);
    assert.deepEqual(await names('labelSelector=tier,!env'), ['l-c']);
    assert.deepEqual(await names('fieldSelector=metadata.name%3Dl-b'), ['l-b']);
    assert.deepEqual(await names('labelSelector=tier&fieldSelector=metadata.name!%3Dl-b'), ['l-a', 'l-c']);
    const bad = await api.call('GET', `${cms}?fieldSelector=spec.nodeName%3Dx`);
    assert.equal(bad.status, 400, 'configmaps have no spec.nodeName field label');
    const malformed = await api.call('GET', `${cms}?labelSelector=a%20in%20b`);
    assert.equal(malformed.status, 400);
  });

  it('selects pods by status.phase and spec.nodeName, across namespaces too', async () => {
    await api.call('POST', '/api/v1/namespaces/default/pods', { body: pod('p1') });
    const p1 = api.cluster.objects.get(api.cluster.findType('', 'v1', 'pods')!, 'default', 'p1')!;
    api.cluster.objects.update(api.cluster.findType('', 'v1', 'pods')!, {
      ...p1,
      spec: { ...(p1.spec as object), nodeName: 'node-a' },
      status: { phase: 'Running' },
    });
    await api.call('POST', '/api/v1/namespaces/default/pods', { body: pod('p2') });
    const names = async (q: string) =>
      (await api.call('GET', `/api/v1/pods?${q}`)).body.items.map((i: any) => i.metadata.name);
    assert.deepEqual(await names('fieldSelector=status.phase%3DRunning'), ['p1']);
    assert.deepEqual(await names('fieldSelector=spec.nodeName%3D'), ['p2'], 'unscheduled pods');
    assert.deepEqual(await names('fieldSelector=spec.nodeName%3Dnode-a,metadata.namespace%3Ddefault'), ['p1']);
  });

  it('pages with limit and continue; the list carries the resourceVersion; a bad continue token is 400', async () => {
    for (let i = 0; i < 5; i++)
      await api.call('POST', cms, { body: configMap(`page-${i}`, {}, { labels: { set: 'paging' } }) });
    const first = await api.call('GET', `${cms}?labelSelector=set%3Dpaging&limit=2`);
    assert.equal(first.body.kind, 'ConfigMapList');
    assert.equal(first.body.metadata.resourceVersion, api.cluster.objects.resourceVersion);
    assert.deepEqual(
      first.body.items.map((i: any) => i.metadata.name),
      ['page-0', 'page-1'],
    );
    assert.ok(first.body.metadata.continue);
    assert.equal(first.body.metadata.remainingItemCount, undefined, 'not counted when a selector filters');
    const names: string[] = first.body.items.map((i: any) => i.metadata.name);
    let token = first.body.metadata.continue;
    while (token) {
      const page = await api.call(
        'GET',
        `${cms}?labelSelector=set%3Dpaging&limit=2&continue=${encodeURIComponent(token)}`,
      );
      assert.equal(
        page.body.metadata.resourceVersion,
        first.body.metadata.resourceVersion,
        'pages keep the first page version',
      );
      names.push(...page.body.items.map((i: any) => i.metadata.name));
      token = page.body.metadata.continue;
    }
    assert.deepEqual(names, ['page-0', 'page-1', 'page-2', 'page-3', 'page-4']);
    const unfiltered = await api.call('GET', `${cms}?limit=1`);
    assert.ok(unfiltered.body.metadata.remainingItemCount > 0);
    assert.equal((await api.call('GET', `${cms}?limit=2&continue=garbage`)).status, 400);
  });

  it('dryRun=All validates and answers without storing', async () => {
    const created = await api.call('POST', `${cms}?dryRun=All`, { body: configMap('dry') });
    assert.equal(created.status, 201);
    assert.ok(created.body.metadata.uid);
    assert.equal((await api.call('GET', `${cms}/dry`)).status, 404);
    const read = (await api.call('GET', `${cms}/settings`)).body;
    const updated = await api.call('PUT', `${cms}/settings?dryRun=All`, { body: { ...read, data: { a: 'dry' } } });
    assert.equal(updated.body.data.a, 'dry');
    assert.notEqual((await api.call('GET', `${cms}/settings`)).body.data.a, 'dry');
    const deleted = await api.call('DELETE', `${cms}/settings?dryRun=All`);
    assert.equal(deleted.status, 200);
    assert.equal((await api.call('GET', `${cms}/settings`)).status, 200, 'still there');
    assert.equal((await api.call('POST', `${cms}?dryRun=Some`, { body: configMap('dry') })).status, 422);
  });

  it('fills defaults as the API does: pod settings, replicas, a Service cluster IP', async () => {
    const p = (await api.call('POST', '/api/v1/namespaces/default/pods', { body: pod('defaults') })).body;
    assert.equal(p.spec.restartPolicy, 'Always');
    assert.equal(p.spec.serviceAccountName, 'default');
    assert.equal(p.spec.containers[0].imagePullPolicy, 'IfNotPresent');
    assert.equal(p.status.phase, 'Pending', 'status starts over on create');
    const d = (
      await api.call('POST', '/apis/apps/v1/namespaces/default/deployments', {
        body: { ...deployment('web'), spec: { ...deployment('web').spec, replicas: undefined } },
      })
    ).body;
    assert.equal(d.spec.replicas, 1);
    assert.equal(d.spec.strategy.type, 'RollingUpdate');
    const svc = await api.call('POST', '/api/v1/namespaces/default/services', {
      body: {
        metadata: { name: 'web' },
        spec: { type: 'LoadBalancer', selector: { app: 'web' }, ports: [{ port: 80 }] },
      },
    });
    assert.equal(svc.status, 201);
    assert.match(svc.body.spec.clusterIP, /^172\.20\.\d+\.\d+$/);
    assert.equal(svc.body.spec.ports[0].protocol, 'TCP');
    assert.ok(svc.body.spec.ports[0].nodePort >= 30000);
    const replaced = await api.call('PUT', '/api/v1/namespaces/default/services/web', {
      body: {
        metadata: { name: 'web' },
        spec: { type: 'LoadBalancer', selector: { app: 'web2' }, ports: [{ port: 80 }] },
      },
    });
    assert.equal(replaced.status, 200, replaced.text);
    assert.equal(replaced.body.spec.clusterIP, svc.body.spec.clusterIP, 'the allocated IP is kept');
  });

  it('refuses changes to immutable fields with 422 and stores nothing', async () => {
    const path = '/apis/apps/v1/namespaces/default/deployments/web';
    const d = (await api.call('GET', path)).body;
    const res = await api.call('PUT', path, {
      body: { ...d, spec: { ...d.spec, selector: { matchLabels: { app: 'other' } } } },
    });
    assert.equal(res.status, 422);
    assert.equal(res.body.reason, 'Invalid');
    assert.equal(res.body.details.causes[0].field, 'spec.selector');
    assert.match(res.body.message, /field is immutable/);
    assert.deepEqual((await api.call('GET', path)).body.spec.selector, { matchLabels: { app: 'web' } });

    const podPath = '/api/v1/namespaces/default/pods/defaults';
    const p = (await api.call('GET', podPath)).body;
    const image = await api.call('PATCH', podPath, {
      type: 'application/strategic-merge-patch+json',
      body: { spec: { containers: [{ name: 'main', image: 'busybox:1.37' }] } },
    });
    assert.equal(image.status, 200, 'the image may change');
    const restart = await api.call('PUT', podPath, {
      body: { ...image.body, spec: { ...image.body.spec, restartPolicy: 'Never' } },
    });
    assert.equal(restart.status, 422);
    assert.match(restart.body.message, /pod updates may not change fields other than/);
    assert.equal(p.spec.restartPolicy, 'Always');
  });

  it('serves pod logs as text; a pod with several containers needs the container named', async () => {
    const two = pod('two');
    two.spec.containers.push({ name: 'sidecar', image: 'envoy:1' });
    // Bound to a node: an unscheduled pod has no kubelet to ask, and the API answers its logs with nothing.
    (two.spec as Record<string, unknown>).nodeName = 'node-1';
    await api.call('POST', '/api/v1/namespaces/default/pods', { body: two });
    const res = await api.call('GET', '/api/v1/namespaces/default/pods/two/log');
    assert.equal(res.status, 400);
    assert.equal(res.body.message, 'a container name must be specified for pod two, choose one of: [main sidecar]');
    const waiting = await api.call('GET', '/api/v1/namespaces/default/pods/two/log?container=sidecar');
    assert.equal(waiting.status, 400, 'not started yet');
    const pods = api.cluster.findType('', 'v1', 'pods')!;
    const stored = api.cluster.objects.get(pods, 'default', 'two')!;
    const running = { restartCount: 0, ready: true, state: { running: { startedAt: '2026-01-01T00:00:00Z' } } };
    api.cluster.objects.update(pods, {
      ...stored,
      status: {
        phase: 'Running',
        containerStatuses: [
          { name: 'main', ...running },
          { name: 'sidecar', ...running },
        ],
      },
    });
    api.advance(60);
    const named = await api.call('GET', '/api/v1/namespaces/default/pods/two/log?container=sidecar&tailLines=5');
    assert.equal(named.status, 200, named.text);
    assert.match(named.headers.get('content-type') ?? '', /^text\/plain/);
    assert.ok(named.text.split('\n').filter(Boolean).length <= 5);
    assert.equal((await api.call('GET', '/api/v1/namespaces/default/pods/two/log?container=nope')).status, 400);
    assert.equal((await api.call('POST', '/api/v1/namespaces/default/pods/two/log', { body: {} })).status, 405);
  });

  it('follows a running container log as sandbox time passes, and ends with the container', async () => {
    await api.call('POST', '/api/v1/namespaces/default/pods', {
      body: {
        metadata: { name: 'trainer' },
        spec: { nodeName: 'node-1', containers: [{ name: 'main', image: 'pytorch/pytorch:2.5.1' }] },
      },
    });
    const pods = api.cluster.findType('', 'v1', 'pods')!;
    const setState = (state: object) => {
      const p = api.cluster.objects.get(pods, 'default', 'trainer')!;
      api.cluster.objects.update(pods, {
        ...p,
        metadata: { ...p.metadata, resourceVersion: undefined },
        status: { phase: 'Running', containerStatuses: [{ name: 'main', restartCount: 0, ready: true, state }] },
      });
    };
    const startedAt = new Date(api.cluster.now()).toISOString().replace(/\.\d{3}Z$/, 'Z');
    setState({ running: { startedAt } });
    api.advance(60);
    const follow = api.stream('/api/v1/namespaces/default/pods/trainer/log?follow=true&tailLines=1');
    await follow.waitFor(1);
    assert.equal(follow.lines.length, 1, 'tailLines applies to what is there when following starts');
    api.advance(120);
    await follow.waitFor(2);
    setState({
      terminated: {
        exitCode: 0,
        reason: 'Completed',
        startedAt,
        finishedAt: new Date(api.cluster.now()).toISOString(),
      },
    });
    await follow.ended;
  });

  it('refuses bodies over 3 MiB with 413', async () => {
    const res = await api.call('POST', cms, { body: configMap('huge', { blob: 'x'.repeat(3 * 1024 * 1024 + 10) }) });
    assert.equal(res.status, 413);
    assert.equal((await api.call('GET', `${cms}/huge`)).status, 404);
  });
});
