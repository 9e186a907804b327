import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { z } from 'zod';
import { SetAutoscalingRequestSchema } from '../../src/domain/schemas/autoscaling.js';
import type { InstanceGroupSpec } from '../../src/domain/instance-groups.js';
import { labelKeyProblem } from '../../src/domain/instance-groups/kubernetes-labels.js';
import {
  AddInstanceGroupRequestSchema,
  type AddInstanceGroupRequest,
  ScaleInstanceGroupRequestSchema,
  UpdateInstanceGroupRequestSchema,
  type UpdateInstanceGroupRequest,
} from '../../src/domain/schemas/instance-groups.js';

/** The problems a user sees: each issue's path (as the problem+json field) and message. */
function problems(schema: z.ZodType, input: unknown): Array<{ path: string; message: string }> {
  const r = schema.safeParse(input);
  assert.ok(!r.success, `expected ${JSON.stringify(input)} to be rejected`);
  return r.error.issues.map((i) => ({ path: i.path.map(String).join('.'), message: i.message }));
}

function rejectsOn(schema: z.ZodType, input: unknown, path: string, pattern: RegExp): void {
  const found = problems(schema, input);
  assert.equal(found.length, 1, JSON.stringify(found));
  assert.equal(found[0]!.path, path);
  assert.match(found[0]!.message, pattern);
}

const group = { name: 'gpu-a', availabilityZone: 'us-west-2b', instanceType: 'ml.p5.48xlarge', instanceCount: 2 };
const add = (extra: Record<string, unknown>) => ({ ...group, ...extra });
const ARN = 'arn:aws:sagemaker:us-west-2:123456789012:training-plan/p5-plan-1';

// The request types are the domain's spec types: what the route parses, the diff takes.
const _update: Partial<InstanceGroupSpec> = {} as Omit<UpdateInstanceGroupRequest, 'region'>;
const _add: Partial<InstanceGroupSpec> = {} as Omit<AddInstanceGroupRequest, 'region'>;
void _update;
void _add;

describe('AddInstanceGroupRequest', () => {
  it('accepts a minimal group with defaults', () => {
    const r = AddInstanceGroupRequestSchema.parse(group);
    assert.equal(r.capacityType, 'on-demand');
    assert.equal(r.deepHealthChecks, false);
  });

  it('ties trainingPlanArn to capacityType training-plan', () => {
    rejectsOn(
      AddInstanceGroupRequestSchema,
      add({ capacityType: 'training-plan' }),
      'trainingPlanArn',
      /^is required when capacityType is training-plan$/,
    );
    rejectsOn(
      AddInstanceGroupRequestSchema,
      add({ capacityType: 'spot', trainingPlanArn: ARN }),
      'trainingPlanArn',
      /only allowed when capacityType is training-plan/,
    );
    assert.ok(
      AddInstanceGroupRequestSchema.safeParse(add({ capacityType: 'training-plan', trainingPlanArn: ARN })).success,
    );
  });

  it('checks counts, network interface and threads per core', () => {
    rejectsOn(
      AddInstanceGroupRequestSchema,
      add({ minInstanceCount: 3 }),
      'minInstanceCount',
      /must not exceed instanceCount/,
    );
    rejectsOn(AddInstanceGroupRequestSchema, add({ instanceCount: 1001 }), 'instanceCount', /at most 1000/);
    rejectsOn(AddInstanceGroupRequestSchema, add({ networkInterface: 'ena' }), 'networkInterface', /efa/);
    rejectsOn(AddInstanceGroupRequestSchema, add({ threadsPerCore: 4 }), 'threadsPerCore', /^must be 1 or 2$/);
  });

  it('validates Kubernetes labels the way the API server does, pointing at the key', () => {
    assert.ok(
      AddInstanceGroupRequestSchema.safeParse(add({ labels: { 'example.com/team': 'ml-infra', tier: '' } })).success,
    );
    rejectsOn(
      AddInstanceGroupRequestSchema,
      add({ labels: { 'Example.com/team': 'a' } }),
      'labels.Example.com/team',
      /^key prefix "Example.com" must be a lower-case DNS subdomain/,
    );
    rejectsOn(
      AddInstanceGroupRequestSchema,
      add({ labels: { team: 'has space' } }),
      'labels.team',
      /^value must use letters, digits/,
    );
    rejectsOn(
      AddInstanceGroupRequestSchema,
      add({ labels: { team: 'x'.repeat(64) } }),
      'labels.team',
      /at most 63 characters \(it has 64\)/,
    );
    rejectsOn(
      AddInstanceGroupRequestSchema,
      add({ labels: { ['n'.repeat(64)]: 'a' } }),
      `labels.${'n'.repeat(64)}`,
      /name part must be at most 63/,
    );
    rejectsOn(
      AddInstanceGroupRequestSchema,
      add({ labels: { 'sagemaker.amazonaws.com/node-health-status': 'Schedulable' } }),
      'labels.sagemaker.amazonaws.com/node-health-status',
      /reserved for HyperPod/,
    );
    rejectsOn(
      AddInstanceGroupRequestSchema,
      add({ labels: Object.fromEntries(Array.from({ length: 51 }, (_, i) => [`k${i}`, 'v'])) }),
      'labels',
      /at most 50 labels/,
    );
  });

  it('validates taints: effect, syntax and one per key and effect', () => {
    assert.ok(
      AddInstanceGroupRequestSchema.safeParse(
        add({
          taints: [
            { key: 'dedicated', value: 'gpu', effect: 'NoSchedule' },
            { key: 'dedicated', effect: 'NoExecute' },
          ],
        }),
      ).success,
    );
    rejectsOn(
      AddInstanceGroupRequestSchema,
      add({ taints: [{ key: 'gpu', effect: 'Never' }] }),
      'taints.0.effect',
      /^must be NoSchedule, PreferNoSchedule or NoExecute$/,
    );
    rejectsOn(
      AddInstanceGroupRequestSchema,
      add({ taints: [{ key: '-gpu', effect: 'NoSchedule' }] }),
      'taints.0.key',
      /starting and ending with a letter or digit/,
    );
    rejectsOn(
      AddInstanceGroupRequestSchema,
      add({
        taints: [
          { key: 'gpu', effect: 'NoSchedule' },
          { key: 'gpu', value: 'x', effect: 'NoSchedule' },
        ],
      }),
      'taints.1',
      /one taint per key and effect/,
    );
  });

  it('validates the lifecycle config', () => {
    assert.ok(
      AddInstanceGroupRequestSchema.safeParse(
        add({ lifecycleConfig: { sourceS3Uri: 's3://sagemaker-lc/scripts/', onCreate: 'on_create.sh' } }),
      ).success,
    );
    rejectsOn(
      AddInstanceGroupRequestSchema,
      add({ lifecycleConfig: { sourceS3Uri: 'https://bucket/x', onCreate: 'on_create.sh' } }),
      'lifecycleConfig.sourceS3Uri',
      /must be an S3 URI/,
    );
    rejectsOn(
      AddInstanceGroupRequestSchema,
      add({ lifecycleConfig: { sourceS3Uri: 's3://sagemaker-lc/', onCreate: '/abs/on_create.sh' } }),
      'lifecycleConfig.onCreate',
      /relative to sourceS3Uri/,
    );
    rejectsOn(
      AddInstanceGroupRequestSchema,
      add({ lifecycleConfig: { sourceS3Uri: 's3://sagemaker-lc/' } }),
      'lifecycleConfig.onCreate',
      /string/,
    );
  });

  it('describes every field (OpenAPI, MCP and the UI read these)', () => {
    for (const [key, field] of Object.entries(AddInstanceGroupRequestSchema.shape))
      assert.ok((field as z.ZodType).description, `${key} has no description`);
    for (const [key, field] of Object.entries(UpdateInstanceGroupRequestSchema.shape))
      assert.ok((field as z.ZodType).description, `${key} has no description`);
  });
});

describe('UpdateInstanceGroupRequest', () => {
  it('accepts only what may change', () => {
    const r = UpdateInstanceGroupRequestSchema.parse({
      instanceCount: 3,
      labels: { team: 'ml' },
      taints: [],
      deepHealthChecks: true,
      scheduledUpdate: null,
      autoPatch: { patchingStrategy: 'WhenIdle' },
    });
    assert.equal(r.instanceCount, 3);
    assert.equal(r.scheduledUpdate, null);
  });

  it('refuses each fixed field by name, saying why', () => {
    for (const [field, value] of [
      ['capacityType', 'spot'],
      ['networkInterface', 'efa-only'],
      ['instanceType', 'ml.g5.8xlarge'],
      ['threadsPerCore', 1],
      ['executionRole', 'arn:aws:iam::1:role/x'],
      ['overrideVpcConfig', {}],
      ['name', 'x'],
    ] as const) {
      rejectsOn(
        UpdateInstanceGroupRequestSchema,
        { instanceCount: 2, [field]: value },
        field,
        /^cannot change: .*(fixed|identifies|cannot change)/,
      );
    }
  });

  it('refuses unknown fields and empty requests', () => {
    rejectsOn(
      UpdateInstanceGroupRequestSchema,
      { instanceCount: 2, colour: 'blue' },
      'colour',
      /^is not a field of an instance group update$/,
    );
    rejectsOn(
      UpdateInstanceGroupRequestSchema,
      { region: 'us-west-2' },
      '',
      /names nothing to change: send at least one of instanceCount/,
    );
    rejectsOn(
      UpdateInstanceGroupRequestSchema,
      { instanceCount: 1, minInstanceCount: 2 },
      'minInstanceCount',
      /must not exceed instanceCount/,
    );
    rejectsOn(
      UpdateInstanceGroupRequestSchema,
      { scheduledUpdate: { scheduleExpression: 'every sunday' } },
      'scheduledUpdate.scheduleExpression',
      /cron\(0 3 \? \* SUN \*\)/,
    );
    rejectsOn(
      UpdateInstanceGroupRequestSchema,
      { autoPatch: { patchingStrategy: 'WhenIdle', nextPatchDate: 'tomorrow' } },
      'autoPatch.nextPatchDate',
      /ISO-8601/,
    );
  });
});

describe('ScaleInstanceGroupRequest and SetAutoscalingRequest', () => {
  it('scale needs a count, nothing else', () => {
    assert.deepEqual(ScaleInstanceGroupRequestSchema.parse({ instanceCount: 0 }), { instanceCount: 0 });
    rejectsOn(ScaleInstanceGroupRequestSchema, {}, 'instanceCount', /expected number/);
    assert.equal(
      problems(ScaleInstanceGroupRequestSchema, { instanceCount: 1, labels: {} })[0]!.message.includes('labels'),
      true,
    );
  });

  it('autoscaling says it manages HyperPod instance groups only', () => {
    assert.match(
      SetAutoscalingRequestSchema.description ?? '',
      /HyperPod instance groups only .*does not scale EKS managed node groups/,
    );
    rejectsOn(SetAutoscalingRequestSchema, { enabled: 'yes' }, 'enabled', /^must be true or false$/);
    rejectsOn(SetAutoscalingRequestSchema, { enabled: true }, 'instanceGroups', /is required when enabled is true/);
    rejectsOn(
      SetAutoscalingRequestSchema,
      { enabled: false, instanceGroups: ['gpu'] },
      'instanceGroups',
      /only goes with enabled: true/,
    );
    rejectsOn(SetAutoscalingRequestSchema, { enabled: true, instanceGroups: [] }, 'instanceGroups', /at least one/);
    rejectsOn(
      SetAutoscalingRequestSchema,
      { enabled: true, instanceGroups: ['gpu', 'gpu'] },
      'instanceGroups',
      /twice/,
    );
    rejectsOn(
      SetAutoscalingRequestSchema,
      { enabled: true, instanceGroups: Array.from({ length: 11 }, (_, i) => `g${i}`) },
      'instanceGroups',
      /at most 10/,
    );
    assert.deepEqual(SetAutoscalingRequestSchema.parse({ enabled: true, instanceGroups: ['gpu'] }), {
      enabled: true,
      instanceGroups: ['gpu'],
    });
    assert.deepEqual(SetAutoscalingRequestSchema.parse({ enabled: false }), { enabled: false });
  });
});

describe('labelKeyProblem', () => {
  it("allows prefixed and plain keys, refuses HyperPod's prefix and its subdomains", () => {
    assert.equal(labelKeyProblem('team'), undefined);
    assert.equal(labelKeyProblem('kubernetes.io/role'), undefined);
    assert.match(labelKeyProblem('x.sagemaker.amazonaws.com/a') ?? '', /reserved/);
    assert.match(labelKeyProblem('/a') ?? '', /empty prefix/);
    assert.match(labelKeyProblem('example.com/') ?? '', /must have a name/);
    assert.match(labelKeyProblem(`${'a'.repeat(254)}/x`) ?? '', /at most 253/);
  });
});
