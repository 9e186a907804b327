import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { InputError, PreconditionError } from '../../src/domain/errors.js';
import {
  BATCH_DELETE_LIMIT,
  BATCH_REBOOT_LIMIT,
  BATCH_REPLACE_LIMIT,
  IMMUTABLE_GROUP_FIELDS,
  type InstanceGroupSpec,
  MUTABLE_GROUP_FIELDS,
  NODE_ACTION_BATCH_LIMITS,
  batches,
  diffInstanceGroup,
  throwIfRefused,
} from '../../src/domain/instance-groups.js';

// ---- generators --------------------------------------------------------------------------------

const labelsArb = fc.dictionary(
  fc.constantFrom('team', 'tier', 'example.com/pool', 'gpu'),
  fc.constantFrom('a', 'b', 'ml', ''),
  { maxKeys: 3 },
);
const taintArb = fc.record(
  {
    key: fc.constantFrom('dedicated', 'gpu', 'example.com/x'),
    value: fc.option(fc.constantFrom('a', 'b'), { nil: undefined }),
    effect: fc.constantFrom('NoSchedule' as const, 'PreferNoSchedule' as const, 'NoExecute' as const),
  },
  { requiredKeys: ['key', 'effect'] },
);
const lifecycleArb = fc.record({
  sourceS3Uri: fc.constantFrom('s3://sagemaker-a/lc/', 's3://sagemaker-b/lc/'),
  onCreate: fc.constantFrom('on_create.sh', 'noop.sh'),
});

/** A whole group; small value pools so that two draws often coincide (equal fields must not diff). */
const specArb: fc.Arbitrary<InstanceGroupSpec> = fc.record(
  {
    name: fc.constantFrom('workers', 'gpu-a'),
    instanceType: fc.constantFrom('ml.p5.48xlarge', 'ml.g5.8xlarge'),
    capacityType: fc.constantFrom('on-demand' as const, 'spot' as const, 'training-plan' as const),
    trainingPlanArn: fc.constantFrom(
      'arn:aws:sagemaker:us-west-2:123456789012:training-plan/a',
      'arn:aws:sagemaker:us-west-2:123456789012:training-plan/b',
    ),
    networkInterface: fc.constantFrom('efa' as const, 'efa-only' as const),
    availabilityZone: fc.constantFrom('us-west-2a', 'us-west-2b'),
    threadsPerCore: fc.constantFrom(1 as const, 2 as const),
    executionRole: fc.constantFrom('arn:aws:iam::123456789012:role/a', 'arn:aws:iam::123456789012:role/b'),
    overrideVpcConfig: fc.record({
      subnetIds: fc.constantFrom(['subnet-1'], ['subnet-2'], ['subnet-1', 'subnet-2']),
      securityGroupIds: fc.constant(['sg-1']),
    }),
    instanceCount: fc.integer({ min: 0, max: 4 }),
    minInstanceCount: fc.integer({ min: 0, max: 2 }),
    labels: labelsArb,
    taints: fc.array(taintArb, { maxLength: 2 }),
    deepHealthChecks: fc.boolean(),
    lifecycleConfig: lifecycleArb,
    scheduledUpdate: fc.option(
      fc.record({ scheduleExpression: fc.constantFrom('cron(0 3 ? * SUN *)', 'cron(0 4 ? * SAT *)') }),
      { nil: null },
    ),
    autoPatch: fc.option(
      fc.record({ patchingStrategy: fc.constantFrom('WhenIdle' as const, 'WhenAllIdle' as const) }),
      { nil: null },
    ),
  },
  { requiredKeys: ['name', 'instanceType', 'capacityType', 'instanceCount'] },
);

/** A change request: any subset of another group's fields. */
const requestArb = fc
  .tuple(specArb, fc.subarray([...Object.keys(IMMUTABLE_GROUP_FIELDS), ...MUTABLE_GROUP_FIELDS]))
  .map(([other, keys]) => {
    const req: Record<string, unknown> = {};
    for (const k of keys) if (k in other) req[k] = (other as unknown as Record<string, unknown>)[k];
    return req as Partial<InstanceGroupSpec>;
  });

const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

// ---- properties --------------------------------------------------------------------------------

describe('diffInstanceGroup (diff contract)', () => {
  it('never puts a fixed field in changes, and refuses every fixed field that differs', () => {
    fc.assert(
      fc.property(specArb, requestArb, (current, req) => {
        const d = diffInstanceGroup(current, req);
        for (const field of Object.keys(IMMUTABLE_GROUP_FIELDS)) {
          assert.ok(!(field in d.changes), `${field} in changes`);
          const asked = (req as Record<string, unknown>)[field];
          const differs =
            asked !== undefined &&
            !same(asked, (current as unknown as Record<string, unknown>)[field]) &&
            field !== 'overrideVpcConfig';
          if (differs)
            assert.ok(
              d.refused.some((p) => p.path === field),
              `${field} differs but was not refused`,
            );
        }
        for (const p of d.refused) assert.ok(p.path in IMMUTABLE_GROUP_FIELDS, `refused ${p.path}`);
        assert.equal(d.noop, d.refused.length === 0 && Object.keys(d.changes).length === 0);
      }),
    );
  });

  it('changes only mutable fields that really differ, carrying the requested value', () => {
    fc.assert(
      fc.property(specArb, requestArb, (current, req) => {
        const d = diffInstanceGroup(current, req);
        for (const [field, value] of Object.entries(d.changes)) {
          assert.ok((MUTABLE_GROUP_FIELDS as readonly string[]).includes(field));
          assert.equal(value, (req as Record<string, unknown>)[field]);
          // Applying the change and diffing again finds nothing left to do for that field.
          assert.ok(!(field in diffInstanceGroup({ ...current, [field]: value }, { [field]: value }).changes));
        }
      }),
    );
  });

  it('is a no-op for the group itself, for any subset of it, and after applying its own changes', () => {
    fc.assert(
      fc.property(specArb, requestArb, (current, req) => {
        assert.deepEqual(diffInstanceGroup(current, current), { changes: {}, refused: [], noop: true });
        assert.deepEqual(diffInstanceGroup(current, structuredClone(current)).noop, true);
        const d = diffInstanceGroup(current, req);
        if (d.refused.length === 0) assert.ok(diffInstanceGroup({ ...current, ...d.changes }, req).noop);
      }),
    );
  });
});

describe('diffInstanceGroup: equal meaning is no change', () => {
  const current: InstanceGroupSpec = {
    name: 'workers',
    instanceType: 'ml.g5.8xlarge',
    capacityType: 'spot',
    instanceCount: 2,
    labels: { team: 'ml', tier: 'a' },
    taints: [
      { key: 'gpu', effect: 'NoSchedule' },
      { key: 'dedicated', value: 'x', effect: 'NoExecute' },
    ],
    overrideVpcConfig: { subnetIds: ['subnet-1', 'subnet-2'], securityGroupIds: ['sg-1'] },
  };

  it('ignores label and taint order, empty taint values, absent vs empty and false deep checks', () => {
    const d = diffInstanceGroup(current, {
      labels: { tier: 'a', team: 'ml' },
      taints: [
        { key: 'dedicated', value: 'x', effect: 'NoExecute' },
        { key: 'gpu', value: '', effect: 'NoSchedule' },
      ],
      deepHealthChecks: false,
      overrideVpcConfig: { subnetIds: ['subnet-2', 'subnet-1'], securityGroupIds: ['sg-1'] },
      scheduledUpdate: null,
    });
    assert.deepEqual(d, { changes: {}, refused: [], noop: true });
    assert.ok(diffInstanceGroup({ ...current, labels: undefined }, { labels: {} }).noop);
  });

  it('accepts a fixed field resent with its current value (forms resend everything)', () => {
    assert.ok(diffInstanceGroup(current, { name: 'workers', capacityType: 'spot', networkInterface: undefined }).noop);
  });

  it('refuses by name with the why, and keeps the allowed part', () => {
    const d = diffInstanceGroup(current, {
      instanceCount: 4,
      capacityType: 'on-demand',
      instanceType: 'ml.p5.48xlarge',
    });
    assert.deepEqual(d.changes, { instanceCount: 4 });
    assert.deepEqual(
      d.refused.map((p) => p.path),
      ['capacityType', 'instanceType'],
    );
    assert.match(
      d.refused[0]!.message,
      /^cannot change from "spot" to "on-demand": the capacity type .* is fixed when the group is created$/,
    );
    assert.throws(
      () => throwIfRefused(d),
      (e: unknown) =>
        e instanceof PreconditionError &&
        e.problems.length === 2 &&
        /fixed for the group's lifetime: capacityType/.test(e.message),
    );
  });

  it('refuses fields a group does not have', () => {
    const d = diffInstanceGroup(current, { colour: 'blue' } as Partial<InstanceGroupSpec>);
    assert.deepEqual(d.refused, [{ path: 'colour', message: 'is not a field of an instance group' }]);
  });

  it('clears a schedule with null', () => {
    const d = diffInstanceGroup(
      { ...current, scheduledUpdate: { scheduleExpression: 'cron(0 3 ? * SUN *)' } },
      { scheduledUpdate: null },
    );
    assert.deepEqual(d.changes, { scheduledUpdate: null });
  });

  it('does not throw when nothing was refused', () => {
    throwIfRefused(diffInstanceGroup(current, { instanceCount: 3 }));
  });
});

describe('batches and the Batch* limits', () => {
  it('keeps the documented AWS limits', () => {
    assert.equal(BATCH_REBOOT_LIMIT, 25);
    assert.equal(BATCH_REPLACE_LIMIT, 25);
    assert.equal(BATCH_DELETE_LIMIT, 50);
    assert.deepEqual(NODE_ACTION_BATCH_LIMITS, { reboot: 25, replace: 25, delete: 50 });
  });

  it('splits in order into chunks of at most the limit, losing nothing', () => {
    fc.assert(
      fc.property(fc.array(fc.string(), { maxLength: 200 }), fc.integer({ min: 1, max: 60 }), (ids, limit) => {
        const out = batches(ids, limit);
        assert.deepEqual(out.flat(), ids);
        assert.ok(out.every((b) => b.length >= 1 && b.length <= limit));
        assert.equal(out.length, Math.ceil(ids.length / limit));
      }),
    );
    assert.deepEqual(batches(['i-1', 'i-2', 'i-3'], 2), [['i-1', 'i-2'], ['i-3']]);
  });

  it('refuses a limit that is not a whole number ≥ 1', () => {
    for (const bad of [0, -1, 2.5, Number.NaN]) assert.throws(() => batches(['i-1'], bad), InputError);
  });
});
