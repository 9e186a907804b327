import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { makeMemoryKubeCluster } from '../../sandbox/kube/cluster.js';
import { AGGREGATED_ACCEPT, clusterWithCrd, getJson } from './discovery-fixtures.js';

/** Aggregated discovery (`apidiscovery.k8s.io/v2`): one answer per root with every resource, as kubectl 1.32 asks for it. */
describe('aggregated discovery', () => {
  it('answers /api with an APIGroupDiscoveryList when the client asks for v2, and says so in its content type', () => {
    const answer = getJson(makeMemoryKubeCluster(), '/api', AGGREGATED_ACCEPT);
    assert.equal(answer.contentType, 'application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList');
    assert.equal(answer.body.kind, 'APIGroupDiscoveryList');
    assert.equal(answer.body.apiVersion, 'apidiscovery.k8s.io/v2');
    assert.equal(answer.body.items.length, 1);
    const core = answer.body.items[0];
    assert.equal(core.metadata.name, undefined, 'the core group has no name');
    assert.equal(core.versions[0].version, 'v1');
    assert.equal(core.versions[0].freshness, 'Current');
    const pods = core.versions[0].resources.find((r: { resource: string }) => r.resource === 'pods');
    assert.deepEqual(pods, {
      resource: 'pods',
      responseKind: { group: '', version: 'v1', kind: 'Pod' },
      scope: 'Namespaced',
      singularResource: 'pod',
      verbs: ['create', 'delete', 'deletecollection', 'get', 'list', 'patch', 'update', 'watch'],
      shortNames: ['po'],
      categories: ['all'],
      subresources: [
        {
          subresource: 'status',
          responseKind: { group: '', version: 'v1', kind: 'Pod' },
          verbs: ['get', 'patch', 'update'],
        },
        { subresource: 'log', responseKind: { group: '', version: 'v1', kind: 'Pod' }, verbs: ['get'] },
      ],
    });
    const nodes = core.versions[0].resources.find((r: { resource: string }) => r.resource === 'nodes');
    assert.equal(nodes.scope, 'Cluster');
  });

  it('answers /apis with every named group, custom resources included, scale answering autoscaling/v1 Scale', () => {
    const answer = getJson(clusterWithCrd(), '/apis', AGGREGATED_ACCEPT);
    const names = answer.body.items.map((g: { metadata: { name: string } }) => g.metadata.name);
    assert.deepEqual(names, [
      'apps',
      'autoscaling',
      'batch',
      'networking.k8s.io',
      'rbac.authorization.k8s.io',
      'storage.k8s.io',
      'apiextensions.k8s.io',
      'stable.example.com',
    ]);
    const apps = answer.body.items[0].versions[0].resources;
    const deployments = apps.find((r: { resource: string }) => r.resource === 'deployments');
    assert.deepEqual(deployments.subresources[1], {
      subresource: 'scale',
      responseKind: { group: 'autoscaling', version: 'v1', kind: 'Scale' },
      verbs: ['get', 'patch', 'update'],
    });
    const crontabs = answer.body.items.at(-1).versions[0].resources[0];
    assert.equal(crontabs.resource, 'crontabs');
    assert.deepEqual(crontabs.responseKind, { group: 'stable.example.com', version: 'v1', kind: 'CronTab' });
    assert.deepEqual(crontabs.shortNames, ['ct']);
  });

  it('falls back to v2beta1 when that is all the client takes, and to the legacy documents for plain JSON', () => {
    const cluster = makeMemoryKubeCluster();
    const beta = getJson(
      cluster,
      '/apis',
      'application/json;g=apidiscovery.k8s.io;v=v2beta1;as=APIGroupDiscoveryList,application/json',
    );
    assert.equal(beta.contentType, 'application/json;g=apidiscovery.k8s.io;v=v2beta1;as=APIGroupDiscoveryList');
    assert.equal(beta.body.apiVersion, 'apidiscovery.k8s.io/v2beta1');
    const legacy = getJson(cluster, '/apis', 'application/json, */*');
    assert.equal(legacy.contentType, 'application/json');
    assert.equal(legacy.body.kind, 'APIGroupList');
    assert.equal(getJson(cluster, '/api', 'application/json').body.kind, 'APIVersions');
    const jsonFirst = getJson(cluster, '/api', `application/json,${AGGREGATED_ACCEPT}`);
    assert.equal(jsonFirst.body.kind, 'APIVersions', 'the first acceptable type the client lists wins');
  });
});
