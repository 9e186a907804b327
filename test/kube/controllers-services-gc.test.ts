import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { deleteObject } from '../../sandbox/kube/api/deletion.js';
import { T } from '../../sandbox/kube/controllers/util.js';
import { deployment, eventsFor, get, list, node, podsOf, world } from './controllers-fixtures.js';

describe('controllers: bootstrap, Services, Endpoints, garbage collection, Events', () => {
  it('bootstraps what a new EKS cluster has', () => {
    const w = world();
    assert.deepEqual(
      list(w, 'namespaces').map((n) => `${n.metadata.name}:${n.status.phase}`),
      ['default:Active', 'kube-node-lease:Active', 'kube-public:Active', 'kube-system:Active'],
    );
    const api = get(w, 'services', 'kubernetes');
    assert.deepEqual([api.spec.clusterIP, api.spec.ports[0].port], ['172.20.0.1', 443]);
    assert.equal(get(w, 'storageclasses', 'gp2', undefined).provisioner, 'kubernetes.io/aws-ebs');
    assert.deepEqual(
      ['cluster-admin', 'admin', 'edit', 'view'].map((r) => Boolean(get(w, 'clusterroles', r, undefined))),
      [true, true, true, true],
    );
    assert.ok(list(w, 'serviceaccounts').filter((s) => s.metadata.name === 'default').length === 4);
    w.cluster.objects.create(T.namespaces, { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'team-a' } });
    w.tick();
    assert.equal(get(w, 'namespaces', 'team-a', undefined).status.phase, 'Active');
    assert.ok(get(w, 'serviceaccounts', 'default', 'team-a'), 'a new namespace gets its default ServiceAccount');
  });

  it('allocates ClusterIPs and node ports, publishes a LoadBalancer hostname after a delay, and keeps Endpoints', () => {
    const w = world();
    w.cluster.objects.create(T.nodes, node('n1', { cpu: '8', memory: '32Gi' }));
    w.cluster.objects.create(
      T.deployments,
      deployment('shop', 2, {
        containers: [{ name: 'web', image: 'nginx:1.27', ports: [{ name: 'http', containerPort: 8080 }] }],
      }),
    );
    w.cluster.objects.create(T.services, {
      apiVersion: 'v1',
      kind: 'Service',
      metadata: { name: 'shop', namespace: 'default' },
      spec: { type: 'LoadBalancer', selector: { app: 'shop' }, ports: [{ name: 'web', port: 80, targetPort: 'http' }] },
    });
    w.advance(5);
    let svc = get(w, 'services', 'shop');
    assert.match(svc.spec.clusterIP, /^172\.20\.\d+\.\d+$/);
    assert.notEqual(svc.spec.clusterIP, '172.20.0.1');
    assert.ok(svc.spec.ports[0].nodePort >= 30000 && svc.spec.ports[0].nodePort <= 32767);
    assert.deepEqual(svc.status.loadBalancer, {}, 'no hostname yet');
    w.advance(30);
    svc = get(w, 'services', 'shop');
    assert.match(
      svc.status.loadBalancer.ingress[0].hostname,
      /^a[0-9a-f]{31}-\d{10}\.us-west-2\.elb\.amazonaws\.com$/,
      "EKS's in-tree provider makes a Classic Load Balancer for a Service no other controller claims",
    );
    assert.ok(eventsFor(w, 'shop').some((e) => e.reason === 'EnsuredLoadBalancer'));
    const ep = get(w, 'endpoints', 'shop');
    assert.deepEqual(
      ep.subsets[0].addresses.map((a: { ip: string }) => a.ip).sort(),
      podsOf(w, 'shop')
        .map((p) => p.status.podIP)
        .sort(),
    );
    assert.deepEqual(
      ep.subsets[0].ports,
      [{ name: 'web', port: 8080, protocol: 'TCP' }],
      'the named targetPort resolves to the container port',
    );
    w.cluster.objects.remove(T.services, 'default', 'shop');
    w.tick();
    assert.equal(get(w, 'endpoints', 'shop'), undefined, 'Endpoints go with their Service');
  });

  it('collects orphans in the background and finishes a foreground deletion once the dependents are gone', () => {
    const w = world();
    w.cluster.objects.create(T.nodes, node('n1', { cpu: '8', memory: '32Gi' }));
    const owner = w.cluster.objects.create(T.configmaps, {
      apiVersion: 'v1',
      kind: 'ConfigMap',
      metadata: { name: 'owner', namespace: 'default' },
    });
    w.cluster.objects.create(T.configmaps, {
      apiVersion: 'v1',
      kind: 'ConfigMap',
      metadata: {
        name: 'dep',
        namespace: 'default',
        ownerReferences: [{ apiVersion: 'v1', kind: 'ConfigMap', name: 'owner', uid: owner.metadata.uid! }],
      },
    });
    w.cluster.objects.remove(T.configmaps, 'default', 'owner');
    w.tick();
    assert.equal(get(w, 'configmaps', 'dep'), undefined, 'an orphan is collected');

    w.cluster.objects.create(T.deployments, deployment('fg', 2, { containers: [{ name: 'c', image: 'nginx:1.27' }] }));
    w.advance(10);
    assert.equal(podsOf(w, 'fg').length, 2);
    deleteObject(w.cluster, T.deployments, get(w, 'deployments', 'fg'), 'Foreground');
    w.advance(2);
    assert.equal(get(w, 'deployments', 'fg'), undefined);
    assert.equal(list(w, 'replicasets', 'default').length, 0);
    assert.equal(podsOf(w, 'fg').length, 0);

    w.cluster.objects.create(T.deployments, deployment('bg', 1, { containers: [{ name: 'c', image: 'nginx:1.27' }] }));
    w.advance(5);
    w.cluster.objects.remove(T.deployments, 'default', 'bg');
    w.advance(2);
    assert.equal(list(w, 'replicasets', 'default').length, 0, 'the ReplicaSet of a deleted Deployment is collected');
    assert.equal(podsOf(w, 'bg').length, 0, 'and then its pods');
  });

  it('aggregates repeated events into one with a count, and expires events after an hour', () => {
    const w = world();
    w.cluster.objects.create(
      T.deployments,
      deployment('nowhere', 1, { containers: [{ name: 'c', image: 'nginx:1.27' }] }),
    );
    w.advance(200, 5);
    const pod = podsOf(w, 'nowhere')[0];
    const failed = eventsFor(w, pod.metadata.name).filter((e) => e.reason === 'FailedScheduling');
    assert.equal(failed.length, 1);
    assert.equal(failed[0].message, 'no nodes available to schedule pods');
    assert.ok(failed[0].count >= 3 && failed[0].count <= 5, `counted about once a minute (${failed[0].count})`);
    assert.notEqual(failed[0].firstTimestamp, failed[0].lastTimestamp);
    w.cluster.objects.remove(T.deployments, 'default', 'nowhere');
    w.advance(3900, 100);
    assert.equal(list(w, 'events').length, 0);
  });
});
