import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { configMap, deployment, startApi, widgetCrd, type TestApi } from './api-harness.js';

/** PATCH in its four media types, server-side apply, the status and scale subresources, and custom resources. */
describe('kube API: patch, apply, subresources, custom resources', () => {
  let api: TestApi;
  before(async () => (api = await startApi()));
  after(async () => api.close());

  const cms = '/api/v1/namespaces/default/configmaps';
  const deploys = '/apis/apps/v1/namespaces/default/deployments';

  it('applies merge, JSON and strategic merge patches', async () => {
    await api.call('POST', cms, { body: configMap('p', { a: '1', b: '2' }) });
    const merged = await api.call('PATCH', `${cms}/p`, {
      type: 'application/merge-patch+json',
      body: { data: { b: null, c: '3' } },
    });
    assert.equal(merged.status, 200);
    assert.deepEqual(merged.body.data, { a: '1', c: '3' });
    const json = await api.call('PATCH', `${cms}/p`, {
      type: 'application/json-patch+json',
      body: [{ op: 'replace', path: '/data/a', value: 'one' }],
    });
    assert.equal(json.body.data.a, 'one');
    const failedTest = await api.call('PATCH', `${cms}/p`, {
      type: 'application/json-patch+json',
      body: [{ op: 'test', path: '/data/a', value: 'two' }],
    });
    assert.equal(failedTest.status, 422);
    await api.call('POST', deploys, {
      body: {
        ...deployment('api'),
        spec: {
          ...deployment('api').spec,
          template: {
            metadata: { labels: { app: 'api' } },
            spec: {
              containers: [
                { name: 'api', image: 'api:1' },
                { name: 'sidecar', image: 'envoy:1' },
              ],
            },
          },
        },
      },
    });
    const strategic = await api.call('PATCH', `${deploys}/api`, {
      type: 'application/strategic-merge-patch+json',
      body: { spec: { template: { spec: { containers: [{ name: 'api', image: 'api:2' }] } } } },
    });
    assert.equal(strategic.status, 200, strategic.text);
    assert.deepEqual(
      strategic.body.spec.template.spec.containers.map((c: any) => `${c.name}=${c.image}`),
      ['api=api:2', 'sidecar=envoy:1'],
    );
    assert.equal(strategic.body.metadata.generation, 2, 'a spec change moves the generation');
  });

  it('answers 404 for a patch of a missing object, 415 for an unknown patch type', async () => {
    assert.equal(
      (await api.call('PATCH', `${cms}/missing`, { type: 'application/merge-patch+json', body: { data: {} } })).status,
      404,
    );
    const unknown = await api.call('PATCH', `${cms}/p`, { type: 'application/json', body: { data: {} } });
    assert.equal(unknown.status, 415);
    assert.equal(unknown.body.reason, 'UnsupportedMediaType');
  });

  it('server-side apply creates, then owns fields; conflicts with another manager unless forced; requires fieldManager', async () => {
    const yaml = (value: string) =>
      `apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: applied\ndata:\n  key: ${value}\n`;
    const apply = (body: string, q: string) =>
      api.call('PATCH', `${cms}/applied?${q}`, { type: 'application/apply-patch+yaml', body });
    const missingManager = await apply(yaml('v1'), '');
    assert.equal(missingManager.status, 422);
    assert.match(missingManager.body.message, /fieldManager: Required value/);
    const created = await apply(yaml('v1'), 'fieldManager=alice');
    assert.equal(created.status, 201, created.text);
    assert.ok(created.body.metadata.managedFields.some((f: any) => f.manager === 'alice' && f.operation === 'Apply'));
    const conflict = await apply(yaml('v2'), 'fieldManager=bob');
    assert.equal(conflict.status, 409);
    assert.equal(conflict.body.reason, 'Conflict');
    const forced = await apply(yaml('v2'), 'fieldManager=bob&force=true');
    assert.equal(forced.status, 200);
    assert.equal(forced.body.data.key, 'v2');
    const json = await api.call('PATCH', `${cms}/applied?fieldManager=alice&force=true`, {
      type: 'application/apply-patch+yaml',
      body: JSON.stringify({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'applied' }, data: { key: 'v3' } }),
    });
    assert.equal(json.status, 200, 'a JSON body is YAML too');
    assert.equal(
      (await api.call('PATCH', `${cms}/p?force=true`, { type: 'application/merge-patch+json', body: {} })).status,
      422,
      'force is for apply only',
    );
  });

  it('the status subresource writes only status; the main resource ignores status', async () => {
    const d = (await api.call('GET', `${deploys}/api`)).body;
    const status = await api.call('PUT', `${deploys}/api/status`, {
      body: { ...d, spec: { ...d.spec, replicas: 9 }, status: { replicas: 1, readyReplicas: 1 } },
    });
    assert.equal(status.status, 200, status.text);
    assert.equal(status.body.status.readyReplicas, 1);
    assert.equal(status.body.spec.replicas, d.spec.replicas, 'spec untouched through status');
    const main = await api.call('PATCH', `${deploys}/api`, {
      type: 'application/merge-patch+json',
      body: { status: { readyReplicas: 7 }, metadata: { labels: { x: 'y' } } },
    });
    assert.equal(main.body.status.readyReplicas, 1, 'status untouched through the main resource');
    assert.equal(main.body.metadata.labels.x, 'y');
    const got = await api.call('GET', `${deploys}/api/status`);
    assert.equal(got.body.status.readyReplicas, 1);
    const statusPatch = await api.call('PATCH', `${deploys}/api/status`, {
      type: 'application/merge-patch+json',
      body: { status: { availableReplicas: 1 } },
    });
    assert.equal(statusPatch.body.status.availableReplicas, 1);
    assert.ok(statusPatch.body.metadata.managedFields.some((f: any) => f.subresource === 'status'));
  });

  it('the scale subresource reads and writes spec.replicas as an autoscaling/v1 Scale', async () => {
    const scale = await api.call('GET', `${deploys}/api/scale`);
    assert.deepEqual(scale.body.spec, { replicas: 1 });
    assert.equal(scale.body.kind, 'Scale');
    assert.equal(scale.body.status.selector, 'app=api');
    assert.equal(scale.body.status.replicas, 1);
    const patched = await api.call('PATCH', `${deploys}/api/scale`, {
      type: 'application/merge-patch+json',
      body: { spec: { replicas: 3 } },
    });
    assert.equal(patched.status, 200, patched.text);
    assert.equal(patched.body.spec.replicas, 3);
    assert.equal((await api.call('GET', `${deploys}/api`)).body.spec.replicas, 3);
    const put = await api.call('PUT', `${deploys}/api/scale`, { body: { ...patched.body, spec: { replicas: 4 } } });
    assert.equal(put.body.spec.replicas, 4);
    const stale = await api.call('PUT', `${deploys}/api/scale`, { body: { ...patched.body, spec: { replicas: 5 } } });
    assert.equal(stale.status, 409, 'the Scale resourceVersion is a precondition');
    const negative = await api.call('PATCH', `${deploys}/api/scale`, {
      type: 'application/merge-patch+json',
      body: { spec: { replicas: -1 } },
    });
    assert.equal(negative.status, 422);
    assert.equal(
      (await api.call('GET', '/api/v1/namespaces/default/configmaps/p/scale')).status,
      404,
      'no scale subresource',
    );
  });

  it('a CRD is established at once and its custom resources are served, with status and scale subresources', async () => {
    const crd = await api.call('POST', '/apis/apiextensions.k8s.io/v1/customresourcedefinitions', { body: widgetCrd });
    assert.equal(crd.status, 201, crd.text);
    assert.ok(crd.body.status.conditions.some((c: any) => c.type === 'Established' && c.status === 'True'));
    assert.equal(crd.body.status.acceptedNames.kind, 'Widget');
    const widgets = '/apis/example.com/v1/namespaces/default/widgets';
    const w = await api.call('POST', widgets, {
      body: {
        apiVersion: 'example.com/v1',
        kind: 'Widget',
        metadata: { name: 'w1' },
        spec: { size: 3, replicas: 2 },
        status: { replicas: 5 },
      },
    });
    assert.equal(w.status, 201, w.text);
    assert.equal(w.body.status, undefined, 'status is dropped on create when it is a subresource');
    await api.call('PATCH', `${widgets}/w1/status`, {
      type: 'application/merge-patch+json',
      body: { status: { replicas: 2, selector: 'app=w1' } },
    });
    const scale = await api.call('GET', `${widgets}/w1/scale`);
    assert.deepEqual(scale.body.spec, { replicas: 2 });
    assert.deepEqual(scale.body.status, { replicas: 2, selector: 'app=w1' });
    await api.call('PATCH', `${widgets}/w1/scale`, {
      type: 'application/merge-patch+json',
      body: { spec: { replicas: 6 } },
    });
    assert.equal((await api.call('GET', `${widgets}/w1`)).body.spec.replicas, 6);
    const smp = await api.call('PATCH', `${widgets}/w1`, {
      type: 'application/strategic-merge-patch+json',
      body: { spec: { size: 4 } },
    });
    assert.equal(smp.status, 415, 'custom resources take no strategic merge patch');
    const merge = await api.call('PATCH', `${widgets}/w1`, {
      type: 'application/merge-patch+json',
      body: { spec: { size: 4 } },
    });
    assert.equal(merge.body.spec.size, 4);
  });
});
