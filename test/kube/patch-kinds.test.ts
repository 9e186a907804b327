import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  applyJsonPatch,
  applyMergePatch,
  applyStrategicMergePatch,
  recordUpdate,
  serverSideApply,
} from '../../sandbox/kube/patch/index.js';
import { builtinType } from '../../sandbox/kube/resources.js';
import type { KubeObject } from '../../sandbox/kube/types.js';
import { KubeError } from '../../sandbox/kube/errors.js';

const DEPLOYMENTS = builtinType('apps', 'deployments');
const NOW = '2026-06-01T12:00:00Z';

const deployment = (): KubeObject => ({
  apiVersion: 'apps/v1',
  kind: 'Deployment',
  metadata: { name: 'api', namespace: 'default', labels: { app: 'api' } },
  spec: {
    replicas: 2,
    selector: { matchLabels: { app: 'api' } },
    template: {
      metadata: { labels: { app: 'api' } },
      spec: {
        containers: [
          { name: 'api', image: 'api:1', env: [{ name: 'A', value: '1' }], ports: [{ containerPort: 8080 }] },
          { name: 'sidecar', image: 'envoy:1' },
        ],
      },
    },
  },
});

const containers = (o: KubeObject) => (o.spec as any).template.spec.containers as Array<Record<string, any>>;

describe('patches', () => {
  it('strategic merge patches merge containers and env by name, and $patch: delete removes one', () => {
    const base = deployment();
    const patched = applyStrategicMergePatch(
      base,
      {
        spec: {
          template: { spec: { containers: [{ name: 'api', image: 'api:2', env: [{ name: 'B', value: '2' }] }] } },
        },
      },
      DEPLOYMENTS,
    );
    assert.deepEqual(
      containers(patched).map((c) => `${c.name}=${c.image}`),
      ['api=api:2', 'sidecar=envoy:1'],
    );
    assert.deepEqual(containers(patched)[0]!.env, [
      { name: 'A', value: '1' },
      { name: 'B', value: '2' },
    ]);
    assert.deepEqual(containers(patched)[0]!.ports, [{ containerPort: 8080 }], 'untouched fields stay');
    const removed = applyStrategicMergePatch(
      patched,
      { spec: { template: { spec: { containers: [{ name: 'sidecar', $patch: 'delete' }] } } } },
      DEPLOYMENTS,
    );
    assert.deepEqual(
      containers(removed).map((c) => c.name),
      ['api'],
    );
    assert.equal(containers(base).length, 2, 'the input is not mutated');
  });

  it('merge patches replace lists and delete with null; JSON patches apply in order and a failed test is refused (422)', () => {
    const merged = applyMergePatch(deployment(), {
      metadata: { labels: { app: null, tier: 'backend' } },
      spec: { template: { spec: { containers: [{ name: 'only', image: 'x:1' }] } } },
    });
    assert.deepEqual(merged.metadata.labels, { tier: 'backend' });
    assert.deepEqual(
      containers(merged).map((c) => c.name),
      ['only'],
    );
    const json = applyJsonPatch(deployment(), [
      { op: 'replace', path: '/spec/replicas', value: 5 },
      { op: 'add', path: '/metadata/labels/team', value: 'ml' },
    ]);
    assert.equal((json.spec as any).replicas, 5);
    assert.equal(json.metadata.labels!.team, 'ml');
    assert.throws(
      () => applyJsonPatch(deployment(), [{ op: 'test', path: '/spec/replicas', value: 9 }]),
      (e: KubeError) => e.code === 422,
    );
    assert.throws(
      () => applyJsonPatch(deployment(), { op: 'replace' }),
      (e: KubeError) => e.code === 400,
    );
  });

  it('records field ownership for updates, moving a changed field to the manager that changed it', () => {
    const created = recordUpdate(undefined, deployment(), { manager: 'kubectl-create', type: DEPLOYMENTS, now: NOW });
    assert.equal(created.metadata.managedFields?.length, 1);
    assert.ok((created.metadata.managedFields![0]!.fieldsV1 as any)['f:spec']['f:replicas']);
    const scaled = recordUpdate(
      created,
      { ...created, spec: { ...(created.spec as object), replicas: 4 } },
      { manager: 'hpa', type: DEPLOYMENTS, now: NOW },
    );
    const hpa = scaled.metadata.managedFields!.find((f) => f.manager === 'hpa')!;
    assert.deepEqual(hpa.fieldsV1, { 'f:spec': { 'f:replicas': {} } });
    const creator = scaled.metadata.managedFields!.find((f) => f.manager === 'kubectl-create')!;
    assert.equal((creator.fieldsV1 as any)['f:spec']['f:replicas'], undefined);
  });

  it('server-side apply: conflicts with another manager unless forced, shares equal values, and removes what a manager stops applying', () => {
    const first = serverSideApply(undefined, deployment(), {
      manager: 'platform',
      force: false,
      type: DEPLOYMENTS,
      now: NOW,
    });
    assert.equal((first.spec as any).replicas, 2);
    const scaled = recordUpdate(
      first,
      { ...first, spec: { ...(first.spec as object), replicas: 7 } },
      { manager: 'autoscaler', type: DEPLOYMENTS, now: NOW },
    );

    assert.throws(
      () => serverSideApply(scaled, deployment(), { manager: 'platform', force: false, type: DEPLOYMENTS, now: NOW }),
      (e: KubeError) => {
        assert.equal(e.code, 409);
        assert.match(e.message, /conflict with "autoscaler" using apps\/v1: \.spec\.replicas/);
        assert.equal(e.details?.causes?.[0]?.reason, 'FieldManagerConflict');
        return true;
      },
    );
    const forced = serverSideApply(scaled, deployment(), {
      manager: 'platform',
      force: true,
      type: DEPLOYMENTS,
      now: NOW,
    });
    assert.equal((forced.spec as any).replicas, 2);

    const same = serverSideApply(forced, deployment(), {
      manager: 'second',
      force: false,
      type: DEPLOYMENTS,
      now: NOW,
    });
    assert.ok(
      same.metadata.managedFields!.some((f) => f.manager === 'second'),
      'equal values are shared, not conflicts',
    );

    const withoutSidecar = deployment();
    (withoutSidecar.spec as any).template.spec.containers = [containers(withoutSidecar)[0]];
    const dropped = serverSideApply(forced, withoutSidecar, {
      manager: 'platform',
      force: false,
      type: DEPLOYMENTS,
      now: NOW,
    });
    assert.deepEqual(
      containers(dropped).map((c) => c.name),
      ['api'],
      'the sidecar only platform applied is gone',
    );
  });
});
