import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { applyStrategicMergePatch, patchExtensions, supportsStrategicMerge } from '../../sandbox/kube/patch/index.js';
import type { KubeObject } from '../../sandbox/kube/types.js';
import {
  container,
  containers,
  deployment,
  DEPLOYMENTS,
  JOBS,
  kubeError,
  PODS,
  podSpec,
  service,
  SERVICES,
  WIDGETS,
  type Any,
} from './patch-fixtures.js';

const patchTemplate = (spec: Any): Any => ({ spec: { template: { spec } } });
const smp = (patch: Any, obj: KubeObject = deployment()) => applyStrategicMergePatch(obj, patch, DEPLOYMENTS);

describe('strategic merge patch', () => {
  it('adding an env var to one container keeps its other vars and the other containers', () => {
    const original = deployment();
    const patched = smp(
      patchTemplate({ containers: [{ name: 'web', env: [{ name: 'DEBUG', value: '1' }] }] }),
      original,
    );
    assert.deepEqual(container(patched, 'web').env, [
      { name: 'MODE', value: 'prod' },
      { name: 'DEBUG', value: '1' },
    ]);
    assert.equal(container(patched, 'web').image, 'nginx:1.27');
    assert.deepEqual(
      containers(patched).map((c) => c.name),
      ['web', 'log-shipper'],
    );
    assert.equal(container(original, 'web').env.length, 1, 'the input is never mutated');
  });

  it('changes an env var in place by name, and a new container is appended', () => {
    const patched = smp(
      patchTemplate({
        containers: [
          { name: 'web', env: [{ name: 'MODE', value: 'debug' }] },
          { name: 'metrics', image: 'prom/exporter:1' },
        ],
      }),
    );
    assert.deepEqual(container(patched, 'web').env, [{ name: 'MODE', value: 'debug' }]);
    assert.deepEqual(
      containers(patched).map((c) => c.name),
      ['web', 'log-shipper', 'metrics'],
    );
  });

  it('$patch: delete removes one container, one volume mount (by mountPath) and one volume', () => {
    const patched = smp(
      patchTemplate({
        containers: [
          { name: 'log-shipper', $patch: 'delete' },
          { name: 'web', volumeMounts: [{ mountPath: '/cache', $patch: 'delete' }] },
        ],
        volumes: [{ name: 'cache', $patch: 'delete' }],
      }),
    );
    assert.deepEqual(
      containers(patched).map((c) => c.name),
      ['web'],
    );
    assert.deepEqual(container(patched, 'web').volumeMounts, []);
    assert.deepEqual(podSpec(patched).volumes, []);
  });

  it('$patch: replace replaces a keyed list or a map instead of merging it', () => {
    const list = smp(patchTemplate({ containers: [{ $patch: 'replace' }, { name: 'only', image: 'busybox' }] }));
    assert.deepEqual(containers(list), [{ name: 'only', image: 'busybox' }]);
    const map = smp({ spec: { strategy: { $patch: 'replace', type: 'Recreate' } } });
    assert.deepEqual((map.spec as Any).strategy, { type: 'Recreate' });
  });

  it('$retainKeys drops the fields it does not list (kubectl switching a Deployment to Recreate)', () => {
    const patched = smp({ spec: { strategy: { $retainKeys: ['type'], type: 'Recreate' } } });
    assert.deepEqual((patched.spec as Any).strategy, { type: 'Recreate' });
  });

  it('lists without a merge key (args, tolerations) are replaced whole', () => {
    const patched = smp(
      patchTemplate({
        containers: [{ name: 'web', args: ['--verbose'] }],
        tolerations: [{ key: 'dedicated', operator: 'Exists' }],
      }),
    );
    assert.deepEqual(container(patched, 'web').args, ['--verbose']);
    assert.deepEqual(podSpec(patched).tolerations, [{ key: 'dedicated', operator: 'Exists' }]);
  });

  it('container ports merge by containerPort, service ports by port', () => {
    const pod = smp(
      patchTemplate({
        containers: [{ name: 'web', ports: [{ containerPort: 8080, name: 'http' }, { containerPort: 9090 }] }],
      }),
    );
    assert.deepEqual(container(pod, 'web').ports, [
      { containerPort: 8080, protocol: 'TCP', name: 'http' },
      { containerPort: 9090 },
    ]);
    const svc = applyStrategicMergePatch(
      service(),
      {
        spec: {
          ports: [
            { port: 80, targetPort: 8081 },
            { port: 443, targetPort: 8443, name: 'https' },
          ],
        },
      },
      SERVICES,
    );
    assert.deepEqual(
      (svc.spec as Any).ports.map((p: Any) => `${p.name}:${p.port}->${p.targetPort}`),
      ['http:80->8081', 'metrics:9090->9090', 'https:443->8443'],
    );
  });

  it('finalizers merge as a set and $deleteFromPrimitiveList removes some; ownerReferences merge by uid', () => {
    const base = {
      ...deployment(),
      metadata: {
        ...deployment().metadata,
        finalizers: ['a.example.com/x'],
        ownerReferences: [{ apiVersion: 'v1', kind: 'ConfigMap', name: 'cfg', uid: 'u1' }],
      },
    };
    const added = smp(
      {
        metadata: {
          finalizers: ['a.example.com/x', 'b.example.com/y'],
          ownerReferences: [{ apiVersion: 'v1', kind: 'Secret', name: 's', uid: 'u2' }],
        },
      },
      base,
    );
    assert.deepEqual(added.metadata.finalizers, ['a.example.com/x', 'b.example.com/y']);
    assert.deepEqual(
      added.metadata.ownerReferences!.map((r) => r.uid),
      ['u1', 'u2'],
    );
    const removed = smp({ metadata: { '$deleteFromPrimitiveList/finalizers': ['a.example.com/x'] } }, added);
    assert.deepEqual(removed.metadata.finalizers, ['b.example.com/y']);
  });

  it('$setElementOrder orders a keyed list as kubectl apply asks', () => {
    const patched = smp(
      patchTemplate({
        '$setElementOrder/containers': [{ name: 'log-shipper' }, { name: 'web' }],
        containers: [{ name: 'web', image: 'nginx:1.28' }],
      }),
    );
    assert.deepEqual(
      containers(patched).map((c) => `${c.name}=${c.image}`),
      ['log-shipper=fluent-bit:3', 'web=nginx:1.28'],
    );
    assert.equal(JSON.stringify(patched).includes('$setElementOrder'), false, 'directives are never stored');
  });

  it('maps merge, null deletes, and a rollout restart annotation lands on the pod template', () => {
    const patched = smp({
      metadata: { labels: { app: null, team: 'ml' } },
      spec: {
        template: { metadata: { annotations: { 'kubectl.kubernetes.io/restartedAt': '2026-06-01T12:00:00Z' } } },
      },
    });
    assert.deepEqual(patched.metadata.labels, { team: 'ml' });
    assert.deepEqual((patched.spec as Any).template.metadata, {
      labels: { app: 'web' },
      annotations: { 'kubectl.kubernetes.io/restartedAt': '2026-06-01T12:00:00Z' },
    });
  });

  it('status conditions merge by type (pods, and jobs whose conditions are atomic only for apply)', () => {
    const pod: KubeObject = {
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: { name: 'p' },
      status: {
        conditions: [
          { type: 'Ready', status: 'False' },
          { type: 'PodScheduled', status: 'True' },
        ],
      },
    };
    const patchedPod = applyStrategicMergePatch(
      pod,
      { status: { conditions: [{ type: 'Ready', status: 'True' }] } },
      PODS,
    );
    assert.deepEqual((patchedPod.status as Any).conditions, [
      { type: 'Ready', status: 'True' },
      { type: 'PodScheduled', status: 'True' },
    ]);
    const job: KubeObject = {
      apiVersion: 'batch/v1',
      kind: 'Job',
      metadata: { name: 'j' },
      status: { conditions: [{ type: 'Suspended', status: 'True' }] },
    };
    const patchedJob = applyStrategicMergePatch(
      job,
      { status: { conditions: [{ type: 'Complete', status: 'True' }] } },
      JOBS,
    );
    assert.equal((patchedJob.status as Any).conditions.length, 2);
  });

  it('refuses a list item without its merge key, an unknown directive, or a patch that is not an object (400)', () => {
    kubeError(() => smp(patchTemplate({ containers: [{ image: 'nginx:2' }] })), 400);
    kubeError(() => smp({ spec: { strategy: { $patch: 'explode' } } }), 400);
    kubeError(() => applyStrategicMergePatch(deployment(), [{ op: 'add' }], DEPLOYMENTS), 400);
    kubeError(() => smp({ $patch: 'delete' }), 400);
  });

  it('publishes the merge keys it uses as OpenAPI extensions, so kubectl builds its patches to match', () => {
    const ext = patchExtensions();
    assert.deepEqual(ext['io.k8s.api.core.v1.PodSpec']!.containers, {
      'x-kubernetes-list-type': 'map',
      'x-kubernetes-list-map-keys': ['name'],
      'x-kubernetes-patch-merge-key': 'name',
      'x-kubernetes-patch-strategy': 'merge',
    });
    assert.equal(ext['io.k8s.api.core.v1.PodSpec']!.volumes!['x-kubernetes-patch-strategy'], 'merge,retainKeys');
    assert.deepEqual(ext['io.k8s.api.core.v1.Container']!.ports!['x-kubernetes-list-map-keys'], [
      'containerPort',
      'protocol',
    ]);
    assert.deepEqual(ext['io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta']!.finalizers, {
      'x-kubernetes-list-type': 'set',
      'x-kubernetes-patch-strategy': 'merge',
    });
    assert.deepEqual(ext['io.k8s.api.batch.v1.JobStatus']!.conditions, {
      'x-kubernetes-list-type': 'atomic',
      'x-kubernetes-patch-merge-key': 'type',
      'x-kubernetes-patch-strategy': 'merge',
    });
    assert.deepEqual(ext['io.k8s.api.apps.v1.DeploymentSpec']!.strategy, {
      'x-kubernetes-patch-strategy': 'retainKeys',
    });
  });

  it('is offered for built-in kinds only (custom resources get 415 from the API)', () => {
    assert.equal(supportsStrategicMerge(DEPLOYMENTS), true);
    assert.equal(supportsStrategicMerge(WIDGETS), false);
  });
});
