import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { deployment, pod, startApi, widgetCrd, type TestApi } from './api-harness.js';

/** Table output (`kubectl get`): the server's columns, priority-1 columns for `-o wide`, printer columns of custom resources. */
describe('kube API: Table output', () => {
  let api: TestApi;
  before(async () => (api = await startApi()));
  after(async () => api.close());

  const TABLE = {
    accept:
      'application/json;as=Table;v=v1;g=meta.k8s.io,application/json;as=Table;v=v1beta1;g=meta.k8s.io,application/json',
  };
  const table = async (path: string) => (await api.call('GET', path, { headers: TABLE })).body;
  const columns = (t: any) => t.columnDefinitions.map((c: any) => `${c.name}${c.priority ? '*' : ''}`);

  it('lists pods with READY STATUS RESTARTS AGE, and IP NODE NOMINATED NODE READINESS GATES for -o wide', async () => {
    await api.call('POST', '/api/v1/namespaces/default/pods', { body: pod('web-1', { app: 'web' }) });
    await api.call('POST', '/api/v1/namespaces/default/pods', { body: pod('web-2', { app: 'web' }) });
    const pods = api.cluster.findType('', 'v1', 'pods')!;
    const p = api.cluster.objects.get(pods, 'default', 'web-2')!;
    api.cluster.objects.update(pods, {
      ...p,
      spec: { ...(p.spec as object), nodeName: 'hyperpod-i-0abc' },
      status: {
        phase: 'Running',
        podIP: '10.1.2.3',
        conditions: [{ type: 'Ready', status: 'True' }],
        containerStatuses: [
          {
            name: 'main',
            ready: true,
            restartCount: 2,
            state: { running: { startedAt: '2026-01-01T00:04:00Z' } },
            lastState: { terminated: { exitCode: 1, finishedAt: '2026-01-01T00:04:00Z' } },
          },
        ],
      },
    });
    api.advance(300);
    const t = await table('/api/v1/namespaces/default/pods?labelSelector=app%3Dweb');
    assert.equal(t.kind, 'Table');
    assert.equal(t.apiVersion, 'meta.k8s.io/v1');
    assert.deepEqual(columns(t), [
      'Name',
      'Ready',
      'Status',
      'Restarts',
      'Age',
      'IP*',
      'Node*',
      'Nominated Node*',
      'Readiness Gates*',
    ]);
    assert.equal(t.columnDefinitions[0].format, 'name');
    assert.deepEqual(t.rows[0].cells, ['web-1', '0/1', 'Pending', '0', '5m', '<none>', '<none>', '<none>', '<none>']);
    assert.deepEqual(t.rows[1].cells, [
      'web-2',
      '1/1',
      'Running',
      '2 (60s ago)',
      '5m',
      '10.1.2.3',
      'hyperpod-i-0abc',
      '<none>',
      '<none>',
    ]);
    assert.equal(t.rows[0].object.kind, 'PartialObjectMetadata');
    assert.deepEqual(t.rows[0].object.metadata.labels, { app: 'web' }, 'labels for --show-labels');
    assert.equal(t.metadata.resourceVersion, api.cluster.objects.resourceVersion);
  });

  it('includes the whole object or none of it as includeObject asks; one object comes as a one-row Table', async () => {
    const full = await table('/api/v1/namespaces/default/pods?includeObject=Object');
    assert.equal(full.rows[0].object.kind, 'Pod');
    assert.ok(full.rows[0].object.spec);
    const none = await table('/api/v1/namespaces/default/pods?includeObject=None');
    assert.equal(none.rows[0].object, undefined);
    const one = await table('/api/v1/namespaces/default/pods/web-1');
    assert.equal(one.rows.length, 1);
    assert.equal(one.rows[0].cells[0], 'web-1');
    const plain = await api.call('GET', '/api/v1/namespaces/default/pods/web-1', {
      headers: { accept: 'application/json' },
    });
    assert.equal(plain.body.kind, 'Pod');
    const beta = await api.call('GET', '/api/v1/namespaces/default/pods', {
      headers: { accept: 'application/json;as=Table;v=v1beta1;g=meta.k8s.io' },
    });
    assert.equal(beta.body.apiVersion, 'meta.k8s.io/v1beta1');
  });

  it('shows deployments, nodes and namespaces with their kubectl columns', async () => {
    await api.call('POST', '/apis/apps/v1/namespaces/default/deployments', { body: deployment('web', 3) });
    const d = await table('/apis/apps/v1/namespaces/default/deployments');
    assert.deepEqual(columns(d), [
      'Name',
      'Ready',
      'Up-to-date',
      'Available',
      'Age',
      'Containers*',
      'Images*',
      'Selector*',
    ]);
    assert.deepEqual(d.rows[0].cells, ['web', '0/3', 0, 0, '0s', 'web', 'nginx:1.27', 'app=web']);
    const nodes = api.cluster.findType('', 'v1', 'nodes')!;
    api.cluster.objects.create(nodes, {
      apiVersion: 'v1',
      kind: 'Node',
      metadata: { name: 'hyperpod-i-0abc', labels: { 'node-role.kubernetes.io/worker': '' } },
      status: {
        conditions: [{ type: 'Ready', status: 'True' }],
        addresses: [{ type: 'InternalIP', address: '10.1.0.5' }],
        nodeInfo: {
          kubeletVersion: 'v1.32.1-eks',
          osImage: 'Amazon Linux 2',
          kernelVersion: '5.10',
          containerRuntimeVersion: 'containerd://1.7',
        },
      },
    });
    const n = await table('/api/v1/nodes');
    assert.deepEqual(columns(n), [
      'Name',
      'Status',
      'Roles',
      'Age',
      'Version',
      'Internal-IP*',
      'External-IP*',
      'OS-Image*',
      'Kernel-Version*',
      'Container-Runtime*',
    ]);
    assert.deepEqual(n.rows[0].cells, [
      'hyperpod-i-0abc',
      'Ready',
      'worker',
      '0s',
      'v1.32.1-eks',
      '10.1.0.5',
      '<none>',
      'Amazon Linux 2',
      '5.10',
      'containerd://1.7',
    ]);
    const ns = await table('/api/v1/namespaces');
    assert.deepEqual(
      ns.rows.map((r: any) => r.cells.slice(0, 2)),
      [['default', 'Active']],
    );
  });

  it('shows custom resources with their CRD printer columns (priority > 0 for -o wide), CRDs with NAME and CREATED AT', async () => {
    await api.call('POST', '/apis/apiextensions.k8s.io/v1/customresourcedefinitions', { body: widgetCrd });
    const widgets = '/apis/example.com/v1/namespaces/default/widgets';
    await api.call('POST', widgets, {
      body: {
        apiVersion: 'example.com/v1',
        kind: 'Widget',
        metadata: { name: 'w1' },
        spec: { size: 3, colors: ['red', 'blue'], owner: 'ops' },
      },
    });
    await api.call('POST', widgets, {
      body: { apiVersion: 'example.com/v1', kind: 'Widget', metadata: { name: 'w2' }, spec: { size: 'big' } },
    });
    api.advance(7200);
    const t = await table(widgets);
    assert.deepEqual(columns(t), ['Name', 'Size', 'Colors', 'Owner*', 'Age']);
    assert.equal(t.columnDefinitions[4].type, 'date');
    assert.deepEqual(t.rows[0].cells, ['w1', 3, '["red","blue"]', 'ops', '120m']);
    assert.deepEqual(t.rows[1].cells, ['w2', null, null, null, '120m'], 'missing or mistyped values are empty cells');
    const crds = await table('/apis/apiextensions.k8s.io/v1/customresourcedefinitions');
    assert.deepEqual(columns(crds), ['Name', 'Created At']);
    assert.deepEqual(crds.rows[0].cells, ['widgets.example.com', '2026-01-01T00:05:00Z']);
  });
});
