import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { recordUpdate, serverSideApply, type ApplyOptions } from '../../sandbox/kube/patch/index.js';
import type { KubeObject } from '../../sandbox/kube/types.js';
import {
  container,
  containers,
  deployment,
  DEPLOYMENTS,
  entry,
  fields,
  kubeError,
  LATER,
  NOW,
  widget,
  WIDGETS,
  type Any,
} from './patch-fixtures.js';

const opts = (manager: string, extra: Partial<ApplyOptions> = {}): ApplyOptions => ({
  manager,
  force: false,
  type: DEPLOYMENTS,
  now: NOW,
  ...extra,
});
const withReplicas = (o: KubeObject, replicas: number): KubeObject => ({
  ...structuredClone(o),
  spec: { ...(structuredClone(o.spec) as Any), replicas },
});

describe('server-side apply', () => {
  it('creates the object from the applied configuration, owned by one Apply entry', () => {
    const created = serverSideApply(undefined, deployment(), opts('kubectl'));
    assert.equal(created.metadata.name, 'web');
    assert.equal((created.spec as Any).replicas, 2);
    assert.equal(created.metadata.managedFields!.length, 1);
    const e = entry(created, 'kubectl')!;
    assert.equal(e.operation, 'Apply');
    assert.equal(e.apiVersion, 'apps/v1');
    assert.equal(e.time, NOW);
    assert.deepEqual(fields(created, 'kubectl')['f:spec']['f:selector'], {}, 'a label selector is atomic under apply');
    assert.deepEqual(
      fields(created, 'kubectl')['f:metadata'],
      { 'f:labels': { 'f:app': {} } },
      'an Apply entry owns the fields it sets, not the maps holding them',
    );
    assert.ok(fields(created, 'kubectl')['f:spec']['f:template']['f:spec']['f:containers']['k:{"name":"log-shipper"}']);
  });

  it('conflicts (409) on a field another manager changed, naming manager, version and field', () => {
    const applied = serverSideApply(undefined, deployment(), opts('kubectl'));
    const scaled = recordUpdate(applied, withReplicas(applied, 7), {
      manager: 'kubectl-client-side-apply',
      type: DEPLOYMENTS,
      now: LATER,
    });
    const err = kubeError(() => serverSideApply(scaled, deployment(), opts('kubectl')), 409);
    assert.equal(err.reason, 'Conflict');
    assert.equal(
      err.message,
      'Apply failed with 1 conflict: conflict with "kubectl-client-side-apply" using apps/v1: .spec.replicas',
    );
    assert.deepEqual(err.details!.causes, [
      {
        reason: 'FieldManagerConflict',
        message: 'conflict with "kubectl-client-side-apply" using apps/v1',
        field: '.spec.replicas',
      },
    ]);
  });

  it('lists every conflict, grouped by manager, with keyed list items in the path', () => {
    const mine = serverSideApply(undefined, deployment(), opts('platform'));
    const theirs = deployment();
    (theirs.spec as Any).replicas = 9;
    container(theirs, 'web').image = 'nginx:1.99';
    const err = kubeError(() => serverSideApply(mine, theirs, opts('ci')), 409);
    assert.equal(
      err.message,
      'Apply failed with 2 conflicts: conflicts with "platform":\n- .spec.replicas\n- .spec.template.spec.containers[name="web"].image',
    );
  });

  it('force takes the field over: the value changes and the other manager no longer owns it', () => {
    const applied = serverSideApply(undefined, deployment(), opts('kubectl'));
    const scaled = recordUpdate(applied, withReplicas(applied, 7), { manager: 'hpa', type: DEPLOYMENTS, now: LATER });
    const forced = serverSideApply(scaled, deployment(), opts('kubectl', { force: true, now: LATER }));
    assert.equal((forced.spec as Any).replicas, 2);
    assert.equal(entry(forced, 'hpa'), undefined, 'hpa owned only replicas, so its entry is gone');
    assert.deepEqual(fields(forced, 'kubectl')['f:spec']['f:replicas'], {});
    assert.equal(entry(forced, 'kubectl')!.time, LATER);
  });

  it('two managers applying the same value share the field without conflict, and it survives one of them dropping it', () => {
    const first = serverSideApply(undefined, deployment(), opts('team-a'));
    const second = serverSideApply(first, deployment(), opts('team-b'));
    assert.deepEqual(fields(second, 'team-a')['f:spec']['f:replicas'], {});
    assert.deepEqual(fields(second, 'team-b')['f:spec']['f:replicas'], {});

    const withoutReplicas = deployment();
    delete (withoutReplicas.spec as Any).replicas;
    const dropped = serverSideApply(second, withoutReplicas, opts('team-a'));
    assert.equal((dropped.spec as Any).replicas, 2, 'team-b still owns it');
    assert.equal(fields(dropped, 'team-a')['f:spec']['f:replicas'], undefined);
  });

  it('fields a manager stops applying are removed: a container, an env var, a label', () => {
    const first = serverSideApply(undefined, deployment(), opts('kubectl'));
    const smaller = deployment();
    delete smaller.metadata.labels;
    (smaller.spec as Any).template.spec.containers = [{ ...container(smaller, 'web'), env: undefined }];
    delete container(smaller, 'web').env;
    const applied = serverSideApply(first, smaller, opts('kubectl'));
    assert.deepEqual(
      containers(applied).map((c) => c.name),
      ['web'],
    );
    assert.equal(container(applied, 'web').env, undefined);
    assert.equal(applied.metadata.labels, undefined);
    assert.equal(
      fields(applied, 'kubectl')['f:spec']['f:template']['f:spec']['f:containers']['k:{"name":"log-shipper"}'],
      undefined,
    );
  });

  it('keeps a field another manager wrote inside a list item the applier drops', () => {
    const first = serverSideApply(undefined, deployment(), opts('kubectl'));
    const tuned = structuredClone(first);
    container(tuned, 'log-shipper').resources = { limits: { memory: '128Mi' } };
    const updated = recordUpdate(first, tuned, { manager: 'vpa', type: DEPLOYMENTS, now: LATER });
    const smaller = deployment();
    (smaller.spec as Any).template.spec.containers = [container(smaller, 'web')];
    const applied = serverSideApply(updated, smaller, opts('kubectl'));
    assert.deepEqual(
      container(applied, 'log-shipper'),
      { name: 'log-shipper', resources: { limits: { memory: '128Mi' } } },
      'the item stays for vpa; the fields only kubectl owned go',
    );
  });

  it('merges keyed lists with what others added, and ports by port and protocol', () => {
    const first = serverSideApply(undefined, deployment(), opts('kubectl'));
    const other = deployment();
    (other.spec as Any).template.spec.containers = [{ name: 'web', ports: [{ containerPort: 8080, protocol: 'UDP' }] }];
    const merged = serverSideApply(first, other, opts('dns-team'));
    assert.deepEqual(container(merged, 'web').ports, [
      { containerPort: 8080, protocol: 'TCP' },
      { containerPort: 8080, protocol: 'UDP' },
    ]);
    assert.deepEqual(
      containers(merged).map((c) => c.name),
      ['web', 'log-shipper'],
    );
  });

  it('an object without managedFields is owned by "before-first-apply" on its first apply', () => {
    const stored = withReplicas(deployment(), 4);
    const err = kubeError(() => serverSideApply(stored, deployment(), opts('kubectl')), 409);
    assert.match(err.message, /conflict with "before-first-apply" using apps\/v1: \.spec\.replicas/);
  });

  it('custom resources merge lists atomically and still conflict and prune', () => {
    const first = serverSideApply(undefined, widget(), opts('kubectl', { type: WIDGETS }));
    assert.deepEqual(fields(first, 'kubectl'), { 'f:spec': { 'f:size': {}, 'f:tags': {} } });
    const retagged = serverSideApply(first, { ...widget(), spec: { tags: ['c'] } }, opts('kubectl', { type: WIDGETS }));
    assert.deepEqual(retagged.spec, { tags: ['c'] }, 'the list is replaced, size (no longer applied) removed');
    kubeError(
      () => serverSideApply(retagged, { ...widget(), spec: { tags: ['d'] } }, opts('other', { type: WIDGETS })),
      409,
    );
  });

  it('applies status only through the status subresource', () => {
    const first = serverSideApply(undefined, { ...deployment(), status: { replicas: 99 } }, opts('kubectl'));
    assert.equal(first.status, undefined, 'the main resource ignores status');
    const withStatus = serverSideApply(
      first,
      {
        apiVersion: 'apps/v1',
        kind: 'Deployment',
        metadata: { name: 'web', namespace: 'default' },
        spec: { replicas: 50 },
        status: { replicas: 2 },
      },
      opts('controller', { subresource: 'status' }),
    );
    assert.deepEqual(withStatus.status, { replicas: 2 });
    assert.equal((withStatus.spec as Any).replicas, 2, 'spec is not applied through status');
    assert.equal(entry(withStatus, 'controller')!.subresource, 'status');
    assert.deepEqual(fields(withStatus, 'controller'), { 'f:status': { 'f:replicas': {} } });
  });

  it('refuses an applied configuration that carries managedFields (400)', () => {
    const applied = {
      ...deployment(),
      metadata: {
        ...deployment().metadata,
        managedFields: [
          {
            manager: 'x',
            operation: 'Apply' as const,
            apiVersion: 'apps/v1',
            fieldsType: 'FieldsV1' as const,
            fieldsV1: {},
          },
        ],
      },
    };
    kubeError(() => serverSideApply(undefined, applied, opts('kubectl')), 400);
  });
});
