import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { formOf, groupEdit } from '../../src/capabilities/instance-groups/ui/group-edit.js';
import type { InstanceGroupView } from '../../src/domain/schemas/instance-groups.js';

const group: InstanceGroupView = {
  name: 'workers',
  instanceType: 'ml.g5.8xlarge',
  status: 'InService',
  currentCount: 2,
  targetCount: 2,
  capacityType: 'on-demand',
  deepHealthChecks: false,
  subnetIds: ['subnet-1'],
  labels: { team: 'a' },
  taints: [{ key: 'gpu', effect: 'NoSchedule' }],
  scheduledUpdate: { scheduleExpression: 'cron(0 3 ? * SUN *)', maxBatch: { type: 'INSTANCE_COUNT', value: 1 } },
};

describe("the instance group edit dialog's change", () => {
  it('sends nothing for an untouched form, and only the field that differs otherwise', () => {
    assert.deepEqual(groupEdit(group, formOf(group)), { changes: {}, errors: {}, consequences: [] });
    const edit = groupEdit(group, { ...formOf(group), labels: 'team=a\nowner=b' });
    assert.deepEqual(edit.changes, { labels: { team: 'a', owner: 'b' } });
  });

  it('says that a new NoExecute taint evicts running pods and that patching restarts nodes', () => {
    const edit = groupEdit(group, {
      ...formOf(group),
      taints: 'gpu:NoSchedule\ndedicated=train:NoExecute',
      patching: 'WhenIdle',
    });
    assert.deepEqual(edit.changes.taints, [
      { key: 'gpu', effect: 'NoSchedule' },
      { key: 'dedicated', value: 'train', effect: 'NoExecute' },
    ]);
    assert.deepEqual(edit.changes.autoPatch, { patchingStrategy: 'WhenIdle' });
    assert.match(edit.consequences.join(' '), /evicts every running pod/);
    assert.match(edit.consequences.join(' '), /restarts each node/);
    const removed = groupEdit(group, { ...formOf(group), taints: '' });
    assert.deepEqual(
      [removed.changes, removed.consequences],
      [{ taints: [] }, []],
      'taking a taint away evicts nothing and asks for no yes',
    );
  });

  it('keeps the batch of a schedule it edits, removes a schedule emptied, and names a line it cannot read', () => {
    assert.deepEqual(
      groupEdit(group, { ...formOf(group), amiSchedule: 'cron(0 4 ? * SAT *)' }).changes.scheduledUpdate,
      {
        scheduleExpression: 'cron(0 4 ? * SAT *)',
        maxBatch: { type: 'INSTANCE_COUNT', value: 1 },
      },
    );
    assert.equal(groupEdit(group, { ...formOf(group), amiSchedule: '' }).changes.scheduledUpdate, null);
    assert.deepEqual(groupEdit(group, { ...formOf(group), taints: 'no effect here' }).errors, {
      taints: '"no effect here" is not key=value:Effect (Effect: NoSchedule, PreferNoSchedule or NoExecute)',
    });
  });
});
