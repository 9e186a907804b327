import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { ClusterInstanceGroupDetails } from '@aws-sdk/client-sagemaker';
import { diffInstanceGroup } from '../../src/domain/instance-groups.js';
import { groupSpecOf, specWithChanges } from '../../src/workflows/instance-group-spec.js';

const described: ClusterInstanceGroupDetails = {
  InstanceGroupName: 'gpu',
  InstanceType: 'ml.g5.8xlarge',
  CurrentCount: 2,
  TargetCount: 3,
  ExecutionRole: 'arn:aws:iam::000000000000:role/exec',
  ThreadsPerCore: 1,
  CapacityRequirements: { Spot: {} },
  OnStartDeepHealthChecks: ['InstanceStress', 'InstanceConnectivity'],
  OverrideVpcConfig: { Subnets: ['subnet-1'], SecurityGroupIds: ['sg-1'] },
  KubernetesConfig: {
    CurrentLabels: { team: 'old' },
    DesiredLabels: { team: 'ml' },
    DesiredTaints: [{ Key: 'gpu', Value: 'true', Effect: 'NoSchedule' }],
  },
  AutoPatchConfig: {
    PatchingStrategy: 'WhenIdle',
    DesiredPatchSchedule: { NextPatchDate: new Date('2026-06-01T03:00:00Z') },
  },
  ScheduledUpdateConfig: { ScheduleExpression: 'cron(0 3 ? * SUN *)', DeploymentConfig: { WaitIntervalInSeconds: 60 } },
};

describe('a group as HyperPod describes it, in our terms, and back with changes', () => {
  it('reads every field the diff compares; the group diffed with itself is a no-op', () => {
    const spec = groupSpecOf(described);
    assert.equal(spec.capacityType, 'spot');
    assert.equal(spec.instanceCount, 3, 'the target, not the current count');
    assert.deepEqual(spec.labels, { team: 'ml' }, 'desired labels win over current ones');
    assert.deepEqual(spec.taints, [{ key: 'gpu', value: 'true', effect: 'NoSchedule' }]);
    assert.equal(spec.deepHealthChecks, true);
    assert.deepEqual(spec.autoPatch, { patchingStrategy: 'WhenIdle', nextPatchDate: '2026-06-01T03:00:00.000Z' });
    assert.deepEqual(spec.scheduledUpdate, { scheduleExpression: 'cron(0 3 ? * SUN *)', waitIntervalSeconds: 60 });
    assert.equal(diffInstanceGroup(spec, spec).noop, true);
  });

  it('restates everything and replaces only what changed; false and null remove their blocks', () => {
    const out = specWithChanges(described, { labels: { team: 'infra' }, deepHealthChecks: false, autoPatch: null });
    assert.deepEqual(
      out.KubernetesConfig,
      { Labels: { team: 'infra' }, Taints: [{ Key: 'gpu', Value: 'true', Effect: 'NoSchedule' }] },
      'taints are kept',
    );
    assert.equal(out.OnStartDeepHealthChecks, undefined);
    assert.equal(out.AutoPatchConfig, undefined);
    assert.equal(out.InstanceCount, 3);
    assert.deepEqual(out.CapacityRequirements, { Spot: {} });
    assert.deepEqual(out.OverrideVpcConfig, described.OverrideVpcConfig);
    assert.equal(out.ScheduledUpdateConfig?.ScheduleExpression, 'cron(0 3 ? * SUN *)');
    const scheduled = specWithChanges(described, {
      scheduledUpdate: {
        scheduleExpression: 'cron(0 4 ? * SAT *)',
        maxBatch: { type: 'CAPACITY_PERCENTAGE', value: 20 },
      },
    });
    assert.deepEqual(scheduled.ScheduledUpdateConfig, {
      ScheduleExpression: 'cron(0 4 ? * SAT *)',
      DeploymentConfig: { RollingUpdatePolicy: { MaximumBatchSize: { Type: 'CAPACITY_PERCENTAGE', Value: 20 } } },
    });
  });
});
