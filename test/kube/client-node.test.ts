import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import {
  AppsV1Api,
  CoreV1Api,
  KubeConfig,
  PatchStrategy,
  setHeaderOptions,
  Watch,
  type V1ConfigMap,
} from '@kubernetes/client-node';
import { eventually, startTestSandbox, type TestSandbox } from '../helpers/sandbox.js';
import { startKubeCluster, type TestKubeCluster } from '../helpers/kube.js';

/**
 * @kubernetes/client-node — the library the product uses — against a sandbox cluster, through a
 * kubeconfig from `instantstart kubeconfig` (TLS verified with the sandbox CA, EKS token from the
 * exec plugin).
 */
describe('client-node against a sandbox EKS cluster', () => {
  let sb: TestSandbox;
  let k: TestKubeCluster;
  let kc: KubeConfig;
  let core: CoreV1Api;
  let apps: AppsV1Api;
  const ns = 'client';

  before(async () => {
    sb = await startTestSandbox();
    k = await startKubeCluster(sb, 'cn');
    kc = k.kubeConfig();
    core = kc.makeApiClient(CoreV1Api);
    apps = kc.makeApiClient(AppsV1Api);
    await core.createNamespace({ body: { metadata: { name: ns } } });
  });
  after(async () => sb.dispose());

  const cm = (name: string, data: Record<string, string> = {}, labels: Record<string, string> = {}): V1ConfigMap => ({
    metadata: { name, labels },
    data,
  });

  it('creates, reads, updates with optimistic concurrency and deletes', async () => {
    const created = await core.createNamespacedConfigMap({ namespace: ns, body: cm('settings', { a: '1' }) });
    assert.ok(created.metadata?.uid);
    assert.ok(created.metadata?.resourceVersion);
    const read = await core.readNamespacedConfigMap({ name: 'settings', namespace: ns });
    assert.deepEqual(read.data, { a: '1' });
    const updated = await core.replaceNamespacedConfigMap({
      name: 'settings',
      namespace: ns,
      body: { ...read, data: { a: '2' } },
    });
    assert.notEqual(updated.metadata?.resourceVersion, read.metadata?.resourceVersion);
    await assert.rejects(
      core.replaceNamespacedConfigMap({ name: 'settings', namespace: ns, body: { ...read, data: { a: '3' } } }),
      (e: any) => e.code === 409,
    );
    await core.deleteNamespacedConfigMap({ name: 'settings', namespace: ns });
    await assert.rejects(core.readNamespacedConfigMap({ name: 'settings', namespace: ns }), (e: any) => e.code === 404);
  });

  it('patches with merge, JSON and strategic-merge patches, and server-side apply', async () => {
    await core.createNamespacedConfigMap({ namespace: ns, body: cm('patched', { a: '1', b: '2' }) });
    const merged = await core.patchNamespacedConfigMap(
      { name: 'patched', namespace: ns, body: { data: { b: null, c: '3' } } },
      setHeaderOptions('Content-Type', PatchStrategy.MergePatch),
    );
    assert.deepEqual(merged.data, { a: '1', c: '3' });
    const json = await core.patchNamespacedConfigMap(
      { name: 'patched', namespace: ns, body: [{ op: 'replace', path: '/data/a', value: 'one' }] },
      setHeaderOptions('Content-Type', PatchStrategy.JsonPatch),
    );
    assert.equal(json.data?.a, 'one');

    const deployment = {
      apiVersion: 'apps/v1',
      kind: 'Deployment',
      metadata: { name: 'api', namespace: ns },
      spec: {
        replicas: 0,
        selector: { matchLabels: { app: 'api' } },
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
    };
    await apps.createNamespacedDeployment({ namespace: ns, body: deployment });
    const strategic = await apps.patchNamespacedDeployment(
      {
        name: 'api',
        namespace: ns,
        body: { spec: { template: { spec: { containers: [{ name: 'api', image: 'api:2' }] } } } },
      },
      setHeaderOptions('Content-Type', PatchStrategy.StrategicMergePatch),
    );
    assert.deepEqual(
      strategic.spec?.template.spec?.containers.map((c) => `${c.name}=${c.image}`),
      ['api=api:2', 'sidecar=envoy:1'],
      'the sidecar survives',
    );

    const applied = await apps.patchNamespacedDeployment(
      {
        name: 'api',
        namespace: ns,
        body: {
          apiVersion: 'apps/v1',
          kind: 'Deployment',
          metadata: { name: 'api', namespace: ns },
          spec: { replicas: 2 },
        },
        fieldManager: 'platform',
        force: true,
      },
      setHeaderOptions('Content-Type', PatchStrategy.ServerSideApply),
    );
    assert.equal(applied.spec?.replicas, 2);
    assert.ok(applied.metadata?.managedFields?.some((f) => f.manager === 'platform' && f.operation === 'Apply'));
  });

  it('pages a list with limit and continue', async () => {
    for (let i = 0; i < 7; i++)
      await core.createNamespacedConfigMap({ namespace: ns, body: cm(`page-${i}`, {}, { set: 'paging' }) });
    const names: string[] = [];
    let cont: string | undefined;
    let pages = 0;
    do {
      const page = await core.listNamespacedConfigMap({
        namespace: ns,
        labelSelector: 'set=paging',
        limit: 3,
        ...(cont ? { _continue: cont } : {}),
      });
      names.push(...page.items.map((i) => i.metadata!.name!));
      cont = page.metadata?._continue || undefined;
      pages++;
    } while (cont);
    assert.equal(pages, 3);
    assert.deepEqual(
      names,
      Array.from({ length: 7 }, (_, i) => `page-${i}`),
    );
  });

  it('watches: events for create, update and delete arrive in order', async () => {
    const seen: string[] = [];
    const watch = new Watch(kc);
    const req = await watch.watch(
      `/api/v1/namespaces/${ns}/configmaps`,
      { labelSelector: 'set=watched' },
      (type, obj) => seen.push(`${type} ${obj.metadata.name}`),
      () => {},
    );
    try {
      await new Promise((r) => setTimeout(r, 200));
      await core.createNamespacedConfigMap({ namespace: ns, body: cm('w1', { v: '1' }, { set: 'watched' }) });
      await core.patchNamespacedConfigMap(
        { name: 'w1', namespace: ns, body: { data: { v: '2' } } },
        setHeaderOptions('Content-Type', PatchStrategy.MergePatch),
      );
      await core.deleteNamespacedConfigMap({ name: 'w1', namespace: ns });
      await eventually(async () => seen.length >= 3, { what: 'three watch events' });
      assert.deepEqual(seen, ['ADDED w1', 'MODIFIED w1', 'DELETED w1']);
    } finally {
      req.abort();
    }
  });

  it('garbage-collects dependents when their owner is deleted', async () => {
    const owner = await core.createNamespacedConfigMap({ namespace: ns, body: cm('owner') });
    await core.createNamespacedConfigMap({
      namespace: ns,
      body: {
        metadata: {
          name: 'dependent',
          ownerReferences: [{ apiVersion: 'v1', kind: 'ConfigMap', name: 'owner', uid: owner.metadata!.uid! }],
        },
      },
    });
    await core.deleteNamespacedConfigMap({ name: 'owner', namespace: ns });
    await eventually(
      async () =>
        core.readNamespacedConfigMap({ name: 'dependent', namespace: ns }).then(
          () => false,
          (e: any) => e.code === 404,
        ),
      { sandbox: sb, stepSeconds: 5, what: 'the dependent collected' },
    );
  });

  it('refuses an invalid object with 422 naming the field, and stores nothing', async () => {
    await assert.rejects(
      core.createNamespacedPod({
        namespace: ns,
        body: { metadata: { name: 'no-image' }, spec: { containers: [{ name: 'main' }] } } as any,
      }),
      (e: any) => {
        assert.equal(e.code, 422);
        assert.match(String(e.body), /spec\.containers\[0\]\.image/);
        return true;
      },
    );
    await assert.rejects(core.readNamespacedPod({ name: 'no-image', namespace: ns }), (e: any) => e.code === 404);
  });
});
