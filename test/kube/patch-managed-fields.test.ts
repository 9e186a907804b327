import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { applyStrategicMergePatch, recordUpdate } from '../../sandbox/kube/patch/index.js';
import type { KubeObject } from '../../sandbox/kube/types.js';
import {
  deployment,
  DEPLOYMENTS,
  entry,
  fields,
  kubeError,
  LATER,
  NOW,
  service,
  SERVICES,
  type Any,
} from './patch-fixtures.js';

const create = (obj: KubeObject, manager = 'kubectl-create') =>
  recordUpdate(undefined, obj, { manager, type: DEPLOYMENTS, now: NOW });

describe('managedFields of creates and updates', () => {
  it('a create records one Update entry in FieldsV1 form, list items keyed by their merge key', () => {
    const created = create(deployment());
    assert.equal(created.metadata.managedFields!.length, 1);
    const e = entry(created, 'kubectl-create')!;
    assert.deepEqual(
      { ...e, fieldsV1: undefined },
      {
        manager: 'kubectl-create',
        operation: 'Update',
        apiVersion: 'apps/v1',
        time: NOW,
        fieldsType: 'FieldsV1',
        fieldsV1: undefined,
      },
    );
    const f = e.fieldsV1 as Any;
    assert.deepEqual(
      f['f:metadata'],
      { 'f:labels': { '.': {}, 'f:app': {} } },
      'name and namespace are the server’s, not a manager’s; the map it created is its own',
    );
    assert.deepEqual(f['f:spec']['f:replicas'], {});
    const web = f['f:spec']['f:template']['f:spec']['f:containers']['k:{"name":"web"}'];
    assert.deepEqual(Object.keys(web)[0], '.', 'an owned list item says so with "."');
    assert.deepEqual(web['f:env'], { 'k:{"name":"MODE"}': { '.': {}, 'f:name': {}, 'f:value': {} } });
    assert.deepEqual(web['f:ports'], {
      'k:{"containerPort":8080,"protocol":"TCP"}': { '.': {}, 'f:containerPort': {}, 'f:protocol': {} },
    });
    assert.deepEqual(web['f:volumeMounts'], {
      'k:{"mountPath":"/cache"}': { '.': {}, 'f:mountPath': {}, 'f:name': {} },
    });
    assert.deepEqual(web['f:args'], {}, 'atomic lists are owned whole');
    assert.equal(created.metadata.name, 'web');
  });

  it('an update moves only the fields it changed to its manager, and a later change by the first manager takes them back', () => {
    const created = create(deployment());
    const scaled = recordUpdate(
      created,
      { ...created, spec: { ...(created.spec as Any), replicas: 5 } },
      { manager: 'kubectl-scale', type: DEPLOYMENTS, now: LATER },
    );
    assert.deepEqual(fields(scaled, 'kubectl-scale'), { 'f:spec': { 'f:replicas': {} } });
    assert.equal(entry(scaled, 'kubectl-scale')!.time, LATER);
    assert.equal(fields(scaled, 'kubectl-create')['f:spec']['f:replicas'], undefined);
    assert.ok(fields(scaled, 'kubectl-create')['f:spec']['f:template'], 'the rest stays with its creator');
    assert.equal(entry(scaled, 'kubectl-create')!.time, NOW, 'an entry nobody wrote keeps its time');

    const back = recordUpdate(
      scaled,
      { ...scaled, spec: { ...(scaled.spec as Any), replicas: 1 } },
      { manager: 'kubectl-create', type: DEPLOYMENTS, now: LATER },
    );
    assert.equal(entry(back, 'kubectl-scale'), undefined, 'an entry left with no fields is dropped');
    assert.deepEqual(fields(back, 'kubectl-create')['f:spec']['f:replicas'], {});
  });

  it('a strategic patch adding an env var gives the patcher that var only', () => {
    const created = create(deployment());
    const patched = applyStrategicMergePatch(
      created,
      { spec: { template: { spec: { containers: [{ name: 'web', env: [{ name: 'DEBUG', value: '1' }] }] } } } },
      DEPLOYMENTS,
    );
    const recorded = recordUpdate(created, patched, { manager: 'kubectl-patch', type: DEPLOYMENTS, now: LATER });
    assert.deepEqual(fields(recorded, 'kubectl-patch'), {
      'f:spec': {
        'f:template': {
          'f:spec': {
            'f:containers': {
              'k:{"name":"web"}': { 'f:env': { 'k:{"name":"DEBUG"}': { '.': {}, 'f:name': {}, 'f:value': {} } } },
            },
          },
        },
      },
    });
  });

  it('removed fields leave every entry; status writes are recorded against the subresource', () => {
    const created = create(deployment());
    const unlabelled = recordUpdate(
      created,
      { ...created, metadata: { ...created.metadata, labels: {} } },
      { manager: 'kubectl-label', type: DEPLOYMENTS, now: LATER },
    );
    assert.equal(fields(unlabelled, 'kubectl-create')['f:metadata']?.['f:labels']?.['f:app'], undefined);
    assert.equal(entry(unlabelled, 'kubectl-label'), undefined, 'removing a field owns nothing');

    const withStatus = recordUpdate(
      created,
      { ...created, status: { replicas: 2, conditions: [{ type: 'Available', status: 'True' }] } },
      { manager: 'kube-controller-manager', type: DEPLOYMENTS, now: LATER, subresource: 'status' },
    );
    const status = entry(withStatus, 'kube-controller-manager')!;
    assert.equal(status.subresource, 'status');
    assert.deepEqual(status.fieldsV1, {
      'f:status': {
        'f:replicas': {},
        'f:conditions': { 'k:{"type":"Available"}': { '.': {}, 'f:status': {}, 'f:type': {} } },
      },
    });
  });

  it('service ports are keyed by port and protocol', () => {
    const created = recordUpdate(undefined, service(), { manager: 'kubectl-create', type: SERVICES, now: NOW });
    assert.deepEqual(Object.keys(fields(created, 'kubectl-create')['f:spec']['f:ports']), [
      'k:{"port":80,"protocol":"TCP"}',
      'k:{"port":9090,"protocol":"TCP"}',
    ]);
  });

  it('managedFields sent back unchanged or empty are kept; different ones replace them; [{}] clears them', () => {
    const created = create(deployment());
    const kept = recordUpdate(
      created,
      { ...created, metadata: { ...created.metadata, managedFields: [] } },
      { manager: 'x', type: DEPLOYMENTS, now: LATER },
    );
    assert.deepEqual(kept.metadata.managedFields, created.metadata.managedFields);
    const replaced = recordUpdate(
      created,
      {
        ...created,
        metadata: {
          ...created.metadata,
          managedFields: [
            {
              manager: 'someone',
              operation: 'Update',
              apiVersion: 'apps/v1',
              fieldsType: 'FieldsV1',
              fieldsV1: { 'f:spec': { 'f:replicas': {} } },
            },
          ],
        },
      },
      { manager: 'x', type: DEPLOYMENTS, now: LATER },
    );
    assert.deepEqual(
      replaced.metadata.managedFields!.map((e) => e.manager),
      ['someone'],
    );
    const cleared = recordUpdate(
      created,
      { ...created, metadata: { ...created.metadata, managedFields: [{} as never] } },
      { manager: 'x', type: DEPLOYMENTS, now: LATER },
    );
    assert.equal(cleared.metadata.managedFields, undefined);
    kubeError(
      () =>
        recordUpdate(
          created,
          { ...created, metadata: { ...created.metadata, managedFields: [{ manager: 'm' } as never] } },
          { manager: 'x', type: DEPLOYMENTS, now: LATER },
        ),
      400,
    );
  });
});
