import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { T } from '../../sandbox/kube/controllers/util.js';
import { deployment, eventsFor, get, list, node, phase, pod, podsOf, world } from './controllers-fixtures.js';

describe('controllers: Deployments, ReplicaSets, StatefulSets, DaemonSets', () => {
  it('runs a Deployment through a ReplicaSet to Running pods, and scales it up and down', () => {
    const w = world();
    w.cluster.objects.create(T.nodes, node('n1', { cpu: '8', memory: '32Gi' }, { ip: '10.1.64.11' }));
    w.cluster.objects.create(T.nodes, node('n2', { cpu: '8', memory: '32Gi' }, { ip: '10.1.65.12' }));
    w.cluster.objects.create(
      T.deployments,
      deployment('web', 2, {
        containers: [{ name: 'web', image: 'nginx:1.27', resources: { requests: { cpu: '500m' } } }],
      }),
    );
    w.advance(20);
    const [rs, ...more] = list(w, 'replicasets', 'default');
    assert.equal(more.length, 0);
    const hash = rs.metadata.labels['pod-template-hash'];
    assert.equal(rs.metadata.name, `web-${hash}`);
    assert.equal(rs.metadata.annotations['deployment.kubernetes.io/revision'], '1');
    assert.equal(rs.metadata.ownerReferences[0].kind, 'Deployment');
    const pods = podsOf(w, 'web');
    assert.equal(pods.length, 2);
    for (const p of pods) {
      assert.match(p.metadata.name, new RegExp(`^web-${hash}-[bcdfghjklmnpqrstvwxz2456789]{5}$`));
      assert.deepEqual(
        [p.metadata.ownerReferences[0].kind, p.metadata.ownerReferences[0].controller],
        ['ReplicaSet', true],
      );
      assert.equal(p.status.phase, 'Running');
      assert.equal(p.status.containerStatuses[0].ready, true);
      assert.match(p.status.containerStatuses[0].containerID, /^containerd:\/\/[0-9a-f]{64}$/);
      assert.match(p.status.containerStatuses[0].imageID, /^docker\.io\/library\/nginx@sha256:/);
      assert.deepEqual(
        p.status.conditions.map((c: { type: string; status: string }) => `${c.type}=${c.status}`),
        [
          'PodReadyToStartContainers=True',
          'Initialized=True',
          'Ready=True',
          'ContainersReady=True',
          'PodScheduled=True',
        ],
      );
    }
    assert.notEqual(pods[0].spec.nodeName, pods[1].spec.nodeName, 'replicas spread over the nodes');
    assert.ok(
      pods.every((p) => p.status.podIP.startsWith(p.status.hostIP.split('.').slice(0, 3).join('.'))),
      'pod IPs come from the node subnet',
    );
    const reasons = eventsFor(w, pods[0].metadata.name).map((e) => e.reason);
    assert.deepEqual(
      reasons.filter((r) => ['Scheduled', 'Pulling', 'Pulled', 'Created', 'Started'].includes(r)).sort(),
      ['Created', 'Pulled', 'Pulling', 'Scheduled', 'Started'],
    );
    const d = get(w, 'deployments', 'web');
    assert.deepEqual(
      [
        d.status.replicas,
        d.status.readyReplicas,
        d.status.availableReplicas,
        d.status.updatedReplicas,
        d.status.observedGeneration,
      ],
      [2, 2, 2, 2, 1],
    );
    assert.deepEqual(
      d.status.conditions.map((c: { type: string; reason: string }) => `${c.type}:${c.reason}`),
      ['Available:MinimumReplicasAvailable', 'Progressing:NewReplicaSetAvailable'],
    );

    w.cluster.objects.update(T.deployments, { ...d, spec: { ...d.spec, replicas: 4 } });
    w.advance(20);
    assert.equal(podsOf(w, 'web').filter((p) => phase(p) === 'Running').length, 4);
    assert.equal(get(w, 'deployments', 'web').status.readyReplicas, 4);
    const d2 = get(w, 'deployments', 'web');
    w.cluster.objects.update(T.deployments, { ...d2, spec: { ...d2.spec, replicas: 1 } });
    w.advance(4);
    assert.equal(podsOf(w, 'web').length, 1);
    assert.ok(
      eventsFor(w, 'web').some(
        (e) => e.reason === 'ScalingReplicaSet' && /^Scaled down replica set web-\w+ from 4 to 1$/.test(e.message),
      ),
    );
  });

  it('rolls a changed template out within maxSurge and maxUnavailable, keeping the old ReplicaSet at zero', () => {
    const w = world();
    for (const n of ['n1', 'n2', 'n3']) w.cluster.objects.create(T.nodes, node(n, { cpu: '16', memory: '64Gi' }));
    w.cluster.objects.create(
      T.deployments,
      deployment(
        'api',
        4,
        { containers: [{ name: 'api', image: 'nginx:1.26' }] },
        { strategy: { type: 'RollingUpdate', rollingUpdate: { maxSurge: 1, maxUnavailable: 1 } } },
      ),
    );
    w.advance(20);
    const d = get(w, 'deployments', 'api');
    w.cluster.objects.update(T.deployments, {
      ...d,
      spec: {
        ...d.spec,
        template: { ...d.spec.template, spec: { containers: [{ name: 'api', image: 'nginx:1.27' }] } },
      },
    });
    for (let i = 0; i < 60; i++) {
      w.advance(1);
      const pods = podsOf(w, 'api');
      assert.ok(pods.length <= 5, `at most replicas + maxSurge pods (${pods.length})`);
      assert.ok(
        pods.filter((p) =>
          p.status?.conditions?.some(
            (c: { type: string; status: string }) => c.type === 'Ready' && c.status === 'True',
          ),
        ).length >= 3,
        'at least replicas - maxUnavailable ready',
      );
    }
    const sets = list(w, 'replicasets', 'default').sort(
      (a, b) =>
        Number(a.metadata.annotations['deployment.kubernetes.io/revision']) -
        Number(b.metadata.annotations['deployment.kubernetes.io/revision']),
    );
    assert.deepEqual(
      sets.map((rs) => [rs.metadata.annotations['deployment.kubernetes.io/revision'], rs.spec.replicas]),
      [
        ['1', 0],
        ['2', 4],
      ],
    );
    assert.ok(podsOf(w, 'api').every((p) => p.spec.containers[0].image === 'nginx:1.27'));
    const after = get(w, 'deployments', 'api');
    assert.equal(after.metadata.annotations['deployment.kubernetes.io/revision'], '2');
    assert.equal(after.status.updatedReplicas, 4);
  });

  it("leaves a pod that fits nowhere Pending, with the scheduler's reasons counted per node", () => {
    const w = world();
    w.cluster.objects.create(
      T.nodes,
      node('gpu-1', { cpu: '96', memory: '1Ti', 'nvidia.com/gpu': '8' }, { labels: { pool: 'gpu' } }),
    );
    w.cluster.objects.create(T.nodes, node('cpu-1', { cpu: '4', memory: '16Gi' }));
    w.cluster.objects.create(T.nodes, node('cpu-2', { cpu: '4', memory: '16Gi' }));
    w.cluster.objects.create(
      T.pods,
      pod('greedy', {
        nodeSelector: { pool: 'gpu' },
        containers: [{ name: 'main', image: 'pytorch/pytorch:2.5', resources: { limits: { 'nvidia.com/gpu': '99' } } }],
      }),
    );
    w.advance(10);
    const p = get(w, 'pods', 'greedy');
    assert.equal(p.status.phase, 'Pending');
    assert.equal(p.spec.nodeName, undefined);
    const scheduled = p.status.conditions.find((c: { type: string }) => c.type === 'PodScheduled');
    const expected =
      "0/3 nodes are available: 1 Insufficient nvidia.com/gpu, 2 node(s) didn't match Pod's node affinity/selector. preemption: 0/3 nodes are available: 1 No preemption victims found for incoming pod, 2 Preemption is not helpful for scheduling.";
    assert.deepEqual([scheduled.status, scheduled.reason, scheduled.message], ['False', 'Unschedulable', expected]);
    const failed = eventsFor(w, 'greedy').find((e) => e.reason === 'FailedScheduling');
    assert.equal(failed.type, 'Warning');
    assert.equal(failed.message, expected);
    assert.equal(failed.source.component, 'default-scheduler');
  });

  it('honours taints and tolerations, nodeSelector and node affinity operators', () => {
    const w = world();
    w.cluster.objects.create(
      T.nodes,
      node(
        'trainer',
        { cpu: '8', memory: '32Gi' },
        { labels: { gen: '5' }, taints: [{ key: 'dedicated', value: 'training', effect: 'NoSchedule' }] },
      ),
    );
    w.cluster.objects.create(
      T.nodes,
      node('general', { cpu: '8', memory: '32Gi' }, { labels: { pool: 'general', gen: '3' } }),
    );
    const busybox = [{ name: 'c', image: 'busybox', command: ['sleep', '3600'] }];
    w.cluster.objects.create(
      T.pods,
      pod('tolerant', {
        nodeSelector: { gen: '5' },
        tolerations: [{ key: 'dedicated', operator: 'Equal', value: 'training', effect: 'NoSchedule' }],
        containers: busybox,
      }),
    );
    w.cluster.objects.create(T.pods, pod('plain', { containers: busybox }));
    const affinity = (operator: string, values: string[]) => ({
      nodeAffinity: {
        requiredDuringSchedulingIgnoredDuringExecution: {
          nodeSelectorTerms: [{ matchExpressions: [{ key: 'gen', operator, values }] }],
        },
      },
    });
    w.cluster.objects.create(
      T.pods,
      pod('newer', { affinity: affinity('Gt', ['4']), tolerations: [{ operator: 'Exists' }], containers: busybox }),
    );
    w.cluster.objects.create(T.pods, pod('older', { affinity: affinity('Lt', ['4']), containers: busybox }));
    w.cluster.objects.create(T.pods, pod('nowhere', { affinity: affinity('In', ['9']), containers: busybox }));
    w.advance(10);
    const nodeOf = (name: string) => get(w, 'pods', name).spec.nodeName;
    assert.deepEqual(
      [nodeOf('tolerant'), nodeOf('plain'), nodeOf('newer'), nodeOf('older'), nodeOf('nowhere')],
      ['trainer', 'general', 'trainer', 'general', undefined],
    );
    const message = get(w, 'pods', 'nowhere').status.conditions.find(
      (c: { type: string }) => c.type === 'PodScheduled',
    ).message;
    assert.match(
      message,
      /^0\/2 nodes are available: 1 node\(s\) didn't match Pod's node affinity\/selector, 1 node\(s\) had untolerated taint \{dedicated: training\}\./,
    );
    assert.equal(get(w, 'pods', 'tolerant').status.phase, 'Running');
  });

  it('creates StatefulSet pods in order, each once the one before is ready, and DaemonSet pods on every eligible node', () => {
    const w = world();
    w.cluster.objects.create(T.nodes, node('a', { cpu: '8', memory: '32Gi' }));
    w.cluster.objects.create(T.nodes, node('b', { cpu: '8', memory: '32Gi' }));
    w.cluster.objects.create(
      T.nodes,
      node('tainted', { cpu: '8', memory: '32Gi' }, { taints: [{ key: 'gpu', value: 'true', effect: 'NoSchedule' }] }),
    );
    w.cluster.objects.create(T.statefulsets, {
      apiVersion: 'apps/v1',
      kind: 'StatefulSet',
      metadata: { name: 'db', namespace: 'default' },
      spec: {
        replicas: 3,
        serviceName: 'db',
        selector: { matchLabels: { app: 'db' } },
        template: { metadata: { labels: { app: 'db' } }, spec: { containers: [{ name: 'db', image: 'postgres:16' }] } },
      },
    });
    w.cluster.objects.create(T.daemonsets, {
      apiVersion: 'apps/v1',
      kind: 'DaemonSet',
      metadata: { name: 'agent', namespace: 'default' },
      spec: {
        selector: { matchLabels: { app: 'agent' } },
        template: {
          metadata: { labels: { app: 'agent' } },
          spec: { containers: [{ name: 'agent', image: 'busybox', command: ['sleep', 'infinity'] }] },
        },
      },
    });
    w.advance(1);
    assert.deepEqual(
      podsOf(w, 'db').map((p) => p.metadata.name),
      ['db-0'],
      'db-1 waits for db-0',
    );
    w.advance(40);
    const db = podsOf(w, 'db');
    assert.deepEqual(
      db.map((p) => p.metadata.name),
      ['db-0', 'db-1', 'db-2'],
    );
    assert.ok(
      db.every((p) => p.status.phase === 'Running' && p.spec.hostname === p.metadata.name && p.spec.subdomain === 'db'),
    );
    assert.equal(db[2].metadata.labels['apps.kubernetes.io/pod-index'], '2');
    assert.equal(get(w, 'statefulsets', 'db').status.readyReplicas, 3);
    const agents = podsOf(w, 'agent');
    assert.deepEqual(agents.map((p) => p.spec.nodeName).sort(), ['a', 'b']);
    const ds = get(w, 'daemonsets', 'agent');
    assert.deepEqual(
      [ds.status.desiredNumberScheduled, ds.status.currentNumberScheduled, ds.status.numberReady],
      [2, 2, 2],
    );
  });

  it('a daemon pod stays through a NoSchedule taint added to its node (counted misscheduled), goes for a NoExecute one, and none comes back', () => {
    const w = world();
    w.cluster.objects.create(T.nodes, node('a', { cpu: '8', memory: '32Gi' }));
    w.cluster.objects.create(T.nodes, node('b', { cpu: '8', memory: '32Gi' }));
    w.cluster.objects.create(T.daemonsets, {
      apiVersion: 'apps/v1',
      kind: 'DaemonSet',
      metadata: { name: 'plugin', namespace: 'default' },
      spec: {
        selector: { matchLabels: { app: 'plugin' } },
        template: {
          metadata: { labels: { app: 'plugin' } },
          spec: { containers: [{ name: 'plugin', image: 'busybox', command: ['sleep', 'infinity'] }] },
        },
      },
    });
    w.advance(20);
    const before = podsOf(w, 'plugin');
    assert.deepEqual(before.map((p) => p.spec.nodeName).sort(), ['a', 'b']);
    const taint = (name: string, effect: string) => {
      const n = get(w, 'nodes', name, undefined);
      w.cluster.objects.update(T.nodes, { ...n, spec: { ...n.spec, taints: [{ key: 'team', value: 'ml', effect }] } });
    };
    taint('a', 'NoSchedule');
    w.advance(20);
    assert.deepEqual(
      podsOf(w, 'plugin')
        .map((p) => p.metadata.name)
        .sort(),
      before.map((p) => p.metadata.name).sort(),
      'both pods keep running',
    );
    const ds = get(w, 'daemonsets', 'plugin');
    assert.deepEqual(
      [ds.status.desiredNumberScheduled, ds.status.numberMisscheduled, ds.status.numberReady],
      [1, 1, 1],
    );
    taint('a', 'NoExecute');
    w.advance(20);
    assert.deepEqual(
      podsOf(w, 'plugin').map((p) => p.spec.nodeName),
      ['b'],
      'the NoExecute taint removes it and no new one is made',
    );
  });

  it('evicts pods from a node that stops being Ready, and the Deployment replaces them elsewhere; a deleted node takes its pods', () => {
    const w = world();
    w.cluster.objects.create(T.nodes, node('a', { cpu: '8', memory: '32Gi' }));
    w.cluster.objects.create(
      T.deployments,
      deployment('svc', 2, { containers: [{ name: 'svc', image: 'nginx:1.27' }] }),
    );
    w.advance(20);
    w.cluster.objects.create(T.nodes, node('b', { cpu: '8', memory: '32Gi' }));
    const a = get(w, 'nodes', 'a', undefined);
    w.cluster.objects.update(T.nodes, {
      ...a,
      status: { ...a.status, conditions: [{ type: 'Ready', status: 'Unknown', reason: 'NodeStatusUnknown' }] },
    });
    w.advance(2);
    const tainted = get(w, 'nodes', 'a', undefined);
    assert.deepEqual(
      tainted.spec.taints.map((t: { key: string; effect: string }) => `${t.key}:${t.effect}`),
      ['node.kubernetes.io/not-ready:NoSchedule', 'node.kubernetes.io/not-ready:NoExecute'],
    );
    assert.ok(
      podsOf(w, 'svc').every(
        (p) => p.status.conditions.find((c: { type: string }) => c.type === 'Ready').status === 'False',
      ),
      'pods on a NotReady node are not ready',
    );
    w.advance(310, 5);
    const moved = podsOf(w, 'svc');
    assert.equal(moved.length, 2);
    assert.ok(
      moved.every((p) => p.spec.nodeName === 'b' && p.status.phase === 'Running'),
      'evicted after the default 300 s toleration, recreated on b',
    );
    w.cluster.objects.remove(T.nodes, undefined, 'b');
    w.advance(1);
    assert.ok(podsOf(w, 'svc').every((p) => p.spec.nodeName !== 'b'));
  });
});
