import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { handleDiscovery } from '../../sandbox/kube/api/discovery.js';
import { makeMemoryKubeCluster } from '../../sandbox/kube/cluster.js';
import { clusterWithCrd, cronTabCrd, getJson } from './discovery-fixtures.js';

/** `/version` and the legacy discovery documents kubectl and client-go fall back to. */
describe('legacy discovery', () => {
  it('reports an EKS-style version for the cluster, 1.35 unless the cluster says otherwise', () => {
    const plain = getJson(makeMemoryKubeCluster(), '/version').body;
    assert.equal(plain.major, '1');
    assert.equal(plain.minor, '35+');
    assert.match(plain.gitVersion, /^v1\.35\.0-eks-[0-9a-f]{7}$/);
    const older = makeMemoryKubeCluster();
    older.kubernetesVersion = '1.31';
    assert.match(getJson(older, '/version').body.gitVersion, /^v1\.31\.0-eks-/);
  });

  it('lists the core version and its resources with verbs, short names, categories and subresources', () => {
    const cluster = makeMemoryKubeCluster();
    assert.deepEqual(getJson(cluster, '/api').body.versions, ['v1']);
    const list = getJson(cluster, '/api/v1').body;
    assert.equal(list.kind, 'APIResourceList');
    assert.equal(list.groupVersion, 'v1');
    const byName = new Map(list.resources.map((r: { name: string }) => [r.name, r]));
    assert.deepEqual(byName.get('pods'), {
      name: 'pods',
      singularName: 'pod',
      namespaced: true,
      kind: 'Pod',
      verbs: ['create', 'delete', 'deletecollection', 'get', 'list', 'patch', 'update', 'watch'],
      shortNames: ['po'],
      categories: ['all'],
    });
    assert.deepEqual(byName.get('pods/log'), {
      name: 'pods/log',
      singularName: '',
      namespaced: true,
      kind: 'Pod',
      verbs: ['get'],
    });
    assert.deepEqual((byName.get('pods/status') as { verbs: string[] }).verbs, ['get', 'patch', 'update']);
    assert.equal((byName.get('nodes') as { namespaced: boolean }).namespaced, false);
  });

  it('names the Scale kind of autoscaling/v1 for the scale subresource', () => {
    const list = getJson(makeMemoryKubeCluster(), '/apis/apps/v1').body;
    const scale = list.resources.find((r: { name: string }) => r.name === 'deployments/scale');
    assert.deepEqual(scale, {
      name: 'deployments/scale',
      singularName: '',
      namespaced: true,
      group: 'autoscaling',
      version: 'v1',
      kind: 'Scale',
      verbs: ['get', 'patch', 'update'],
    });
    assert.ok(list.resources.some((r: { name: string }) => r.name === 'deployments/status'));
  });

  it('lists every group with its preferred version, custom resource groups once their CRD is established', () => {
    const pending = clusterWithCrd(cronTabCrd({ established: false }));
    const before = getJson(pending, '/apis').body;
    assert.equal(before.kind, 'APIGroupList');
    assert.deepEqual(
      before.groups.map((g: { name: string }) => g.name),
      [
        'apps',
        'autoscaling',
        'batch',
        'networking.k8s.io',
        'rbac.authorization.k8s.io',
        'storage.k8s.io',
        'apiextensions.k8s.io',
      ],
    );
    assert.equal(handleDiscovery(pending, '/apis/stable.example.com', ''), undefined);

    const cluster = clusterWithCrd();
    const group = getJson(cluster, '/apis').body.groups.find((g: { name: string }) => g.name === 'stable.example.com');
    assert.deepEqual(group, {
      name: 'stable.example.com',
      versions: [{ groupVersion: 'stable.example.com/v1', version: 'v1' }],
      preferredVersion: { groupVersion: 'stable.example.com/v1', version: 'v1' },
    });
    assert.equal(getJson(cluster, '/apis/stable.example.com').body.kind, 'APIGroup');
    const resources = getJson(cluster, '/apis/stable.example.com/v1').body.resources;
    assert.deepEqual(
      resources.map((r: { name: string }) => r.name),
      ['crontabs', 'crontabs/status', 'crontabs/scale'],
    );
    assert.deepEqual(resources[0].shortNames, ['ct']);
  });

  it('prefers GA over beta over alpha when a CRD serves several versions', () => {
    const version = (name: string, storage = false) => ({
      name,
      served: true,
      storage,
      schema: { openAPIV3Schema: { type: 'object' } },
    });
    const cluster = clusterWithCrd(
      cronTabCrd({ versions: [version('v1alpha1'), version('v1beta1'), version('v1', true), version('v2beta1')] }),
    );
    const group = getJson(cluster, '/apis/stable.example.com').body;
    assert.deepEqual(
      group.versions.map((v: { version: string }) => v.version),
      ['v1', 'v2beta1', 'v1beta1', 'v1alpha1'],
    );
    assert.equal(group.preferredVersion.version, 'v1');
  });

  it('answers nothing for paths that are not discovery (the router then says 404)', () => {
    const cluster = makeMemoryKubeCluster();
    for (const path of ['/apis/nope.example.com', '/apis/apps/v9', '/api/v2', '/healthz', '/openapi/v3/apis/nope/v1']) {
      assert.equal(handleDiscovery(cluster, path, 'application/json'), undefined, path);
    }
  });
});
