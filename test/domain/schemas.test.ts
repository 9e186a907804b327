import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { z } from 'zod';
import { CreateClusterRequestSchema, DeleteClusterQuerySchema } from '../../src/domain/schemas/clusters.js';
import { QuotaCheckRequestSchema } from '../../src/domain/schemas/preflight.js';
import { ImageSchema } from '../../src/domain/schemas/training/fields.js';

/** The problems a user sees: each issue's path (as the problem+json field) and message. */
function problems(schema: z.ZodType, input: unknown): Array<{ path: string; message: string }> {
  const r = schema.safeParse(input);
  assert.ok(!r.success, `expected ${JSON.stringify(input)} to be rejected`);
  return r.error.issues.map((i) => ({ path: i.path.join('.'), message: i.message }));
}

/** Exactly one problem, on `path`, whose message matches `pattern`. */
function rejectsOn(schema: z.ZodType, input: unknown, path: string, pattern: RegExp): void {
  const found = problems(schema, input);
  assert.equal(found.length, 1, JSON.stringify(found));
  assert.equal(found[0]!.path, path);
  assert.match(found[0]!.message, pattern);
}

const ARN = 'arn:aws:sagemaker:us-west-2:123456789012:training-plan/p5-plan-1';
const minimal = { name: 'demo', availabilityZone: 'us-west-2b', instanceType: 'ml.p5.48xlarge', instanceCount: 4 };
const create = (extra: Record<string, unknown>) => ({ ...minimal, ...extra });

describe('CreateClusterRequestSchema', () => {
  it('fills the defaults of a minimal request', () => {
    assert.deepEqual(CreateClusterRequestSchema.parse(minimal), {
      ...minimal,
      capacityType: 'on-demand',
      deepHealthChecks: false,
      storage: { s3: true },
    });
  });

  it('defaults storage fields: S3 on, FSx for Lustre 1200 GiB when asked for', () => {
    assert.deepEqual(CreateClusterRequestSchema.parse(create({ storage: {} })).storage, { s3: true });
    assert.deepEqual(CreateClusterRequestSchema.parse(create({ storage: { s3: false, fsxLustre: {} } })).storage, {
      s3: false,
      fsxLustre: { storageCapacityGiB: 1200 },
    });
  });

  it('requires a training plan ARN for capacityType training-plan', () => {
    rejectsOn(
      CreateClusterRequestSchema,
      create({ capacityType: 'training-plan' }),
      'trainingPlanArn',
      /^is required when capacityType is training-plan$/,
    );
    const ok = CreateClusterRequestSchema.parse(create({ capacityType: 'training-plan', trainingPlanArn: ARN }));
    assert.equal(ok.trainingPlanArn, ARN);
  });

  it('refuses a training plan ARN with any other capacity type', () => {
    for (const capacityType of ['on-demand', 'spot', undefined]) {
      rejectsOn(
        CreateClusterRequestSchema,
        create({ capacityType, trainingPlanArn: ARN }),
        'trainingPlanArn',
        /^is only allowed when capacityType is training-plan$/,
      );
    }
  });

  it('checks the shape of the training plan ARN', () => {
    for (const bad of [
      'p5-plan-1',
      'arn:aws:sagemaker:us-west-2:123:training-plan/p',
      'arn:aws:ec2:us-west-2:123456789012:training-plan/p',
      `${ARN}/x`,
    ]) {
      rejectsOn(
        CreateClusterRequestSchema,
        create({ capacityType: 'training-plan', trainingPlanArn: bad }),
        'trainingPlanArn',
        /must be a SageMaker training plan ARN/,
      );
    }
    assert.ok(
      CreateClusterRequestSchema.safeParse(
        create({
          capacityType: 'training-plan',
          trainingPlanArn: 'arn:aws-cn:sagemaker:cn-north-1:123456789012:training-plan/a',
        }),
      ).success,
    );
  });

  it('rejects an unknown capacity type on capacityType', () => {
    assert.equal(problems(CreateClusterRequestSchema, create({ capacityType: 'reserved' }))[0]!.path, 'capacityType');
  });

  it('requires the zone to be in the region when both are given', () => {
    rejectsOn(
      CreateClusterRequestSchema,
      create({ region: 'us-east-1' }),
      'availabilityZone',
      /^is not in region us-east-1$/,
    );
    assert.ok(CreateClusterRequestSchema.safeParse(create({ region: 'us-west-2' })).success);
    // Without a region the server's region applies; the zone is checked against AWS later.
    assert.ok(CreateClusterRequestSchema.safeParse(create({ availabilityZone: 'eu-west-1a' })).success);
  });

  it('names malformed region and zone codes', () => {
    rejectsOn(CreateClusterRequestSchema, create({ region: 'us-west' }), 'region', /AWS Region code such as us-west-2/);
    rejectsOn(
      CreateClusterRequestSchema,
      create({ availabilityZone: 'us-west-2' }),
      'availabilityZone',
      /Availability Zone name such as us-west-2b/,
    );
    assert.ok(
      CreateClusterRequestSchema.safeParse(create({ region: 'us-gov-west-1', availabilityZone: 'us-gov-west-1a' }))
        .success,
    );
  });

  it('rejects unknown fields (strict), naming the key', () => {
    const r = CreateClusterRequestSchema.safeParse(create({ instanceTypes: 'ml.p5.48xlarge' }));
    assert.ok(!r.success);
    const issue = r.error.issues[0]!;
    assert.equal(issue.code, 'unrecognized_keys');
    // The path is the enclosing object (here the body itself); the key is in `keys` and the message.
    assert.deepEqual(issue.path, []);
    assert.deepEqual((issue as { keys?: string[] }).keys, ['instanceTypes']);
    assert.match(issue.message, /instanceTypes/);
  });

  it('accepts names of 1 to 32 lower-case letters, digits and inner hyphens', () => {
    for (const name of ['a', 'demo', 'a-1', 'llama-70b-train', 'a'.repeat(32)]) {
      assert.ok(CreateClusterRequestSchema.safeParse(create({ name })).success, name);
    }
  });

  it('explains each name rule', () => {
    const empty = problems(CreateClusterRequestSchema, create({ name: '' }));
    assert.deepEqual(
      empty.map((p) => p.path),
      ['name', 'name'],
    );
    assert.equal(empty[0]!.message, 'must not be empty');
    rejectsOn(
      CreateClusterRequestSchema,
      create({ name: 'a'.repeat(33) }),
      'name',
      /at most 32 characters \(it becomes part of IAM role and S3 bucket names\)/,
    );
    for (const name of ['Demo', '1demo', 'demo-', 'de_mo', '-demo', 'de mo', 'démo']) {
      rejectsOn(
        CreateClusterRequestSchema,
        create({ name }),
        'name',
        /must start with a lower-case letter, use only a-z, 0-9 and hyphens, and not end with a hyphen/,
      );
    }
  });

  it('bounds instanceCount', () => {
    rejectsOn(CreateClusterRequestSchema, create({ instanceCount: 0 }), 'instanceCount', /must be at least 1/);
    rejectsOn(CreateClusterRequestSchema, create({ instanceCount: 1001 }), 'instanceCount', /1000/);
    rejectsOn(CreateClusterRequestSchema, create({ instanceCount: 1.5 }), 'instanceCount', /int/);
    rejectsOn(CreateClusterRequestSchema, create({ instanceCount: '4' }), 'instanceCount', /expected number/);
    rejectsOn(CreateClusterRequestSchema, { ...minimal, instanceCount: undefined }, 'instanceCount', /expected number/);
  });

  it('checks instance type and Kubernetes version formats', () => {
    rejectsOn(
      CreateClusterRequestSchema,
      create({ instanceType: 'p5.48xlarge' }),
      'instanceType',
      /HyperPod instance type such as ml\.p5\.48xlarge/,
    );
    rejectsOn(
      CreateClusterRequestSchema,
      create({ kubernetesVersion: 'v1.32' }),
      'kubernetesVersion',
      /must look like 1\.32/,
    );
    assert.equal(CreateClusterRequestSchema.parse(create({ kubernetesVersion: '1.32' })).kubernetesVersion, '1.32');
  });

  it('checks FSx for Lustre capacity with its full path', () => {
    const fsx = (storageCapacityGiB: unknown) => create({ storage: { fsxLustre: { storageCapacityGiB } } });
    // 600 breaks two rules and both are reported, on the same field.
    const small = problems(CreateClusterRequestSchema, fsx(600));
    assert.deepEqual(
      small.map((p) => p.path),
      ['storage.fsxLustre.storageCapacityGiB', 'storage.fsxLustre.storageCapacityGiB'],
    );
    assert.equal(small[0]!.message, 'must be at least 1200 GiB');
    rejectsOn(CreateClusterRequestSchema, fsx(1300), 'storage.fsxLustre.storageCapacityGiB', /multiple of 2400 GiB/);
    rejectsOn(CreateClusterRequestSchema, fsx(201600), 'storage.fsxLustre.storageCapacityGiB', /100800/);
    assert.ok(CreateClusterRequestSchema.safeParse(fsx(2400)).success);
  });

  it('reports independent problems together', () => {
    const found = problems(
      CreateClusterRequestSchema,
      create({ name: 'Bad', capacityType: 'training-plan', instanceType: 'p5' }),
    );
    assert.deepEqual(found.map((p) => p.path).sort(), ['instanceType', 'name', 'trainingPlanArn']);
  });

  it('rejects unknown fields inside storage (a typo must not silently drop FSx)', () => {
    const found = problems(
      CreateClusterRequestSchema,
      create({ storage: { fsxlustre: { storageCapacityGiB: 2400 } } }),
    );
    assert.equal(found[0]!.path, 'storage');
  });

  it('rejects FSx sizes FSx refuses (SSD: 1200, 2400, then steps of 2400 GiB)', () => {
    problems(CreateClusterRequestSchema, create({ storage: { fsxLustre: { storageCapacityGiB: 3600 } } }));
  });
});

describe('DeleteClusterQuerySchema', () => {
  it('requires confirm=true, saying what deletion removes', () => {
    for (const query of [{}, { confirm: 'false' }, { confirm: 'yes' }, { confirm: true }]) {
      rejectsOn(
        DeleteClusterQuerySchema,
        query,
        'confirm',
        /must be true: deleting a cluster removes its nodes, EKS cluster, network and storage/,
      );
    }
  });

  it('defaults keepStorage to false and accepts a region', () => {
    assert.deepEqual(DeleteClusterQuerySchema.parse({ confirm: 'true' }), { confirm: 'true', keepStorage: 'false' });
    assert.deepEqual(DeleteClusterQuerySchema.parse({ confirm: 'true', keepStorage: 'true', region: 'eu-west-1' }), {
      confirm: 'true',
      keepStorage: 'true',
      region: 'eu-west-1',
    });
  });

  it('rejects bad keepStorage values and unknown parameters', () => {
    assert.equal(problems(DeleteClusterQuerySchema, { confirm: 'true', keepStorage: 'yes' })[0]!.path, 'keepStorage');
    const r = DeleteClusterQuerySchema.safeParse({ confirm: 'true', force: 'true' });
    assert.ok(!r.success);
    assert.equal(r.error.issues[0]!.code, 'unrecognized_keys');
    assert.match(r.error.issues[0]!.message, /force/);
  });
});

describe('QuotaCheckRequestSchema', () => {
  const quota = { instanceType: 'ml.p5.48xlarge', instanceCount: 2 };

  it('defaults the capacity type to on-demand', () => {
    assert.deepEqual(QuotaCheckRequestSchema.parse(quota), { ...quota, capacityType: 'on-demand' });
  });

  it('accepts the full set of fields', () => {
    const full = {
      ...quota,
      region: 'us-west-2',
      capacityType: 'training-plan',
      trainingPlanArn: ARN,
      availabilityZone: 'us-west-2a',
    };
    assert.deepEqual(QuotaCheckRequestSchema.parse(full), full);
  });

  it('names each malformed field', () => {
    rejectsOn(QuotaCheckRequestSchema, { ...quota, instanceCount: 0 }, 'instanceCount', /./);
    rejectsOn(QuotaCheckRequestSchema, { ...quota, instanceCount: 1001 }, 'instanceCount', /./);
    rejectsOn(QuotaCheckRequestSchema, { ...quota, instanceType: 'p5.48xlarge' }, 'instanceType', /ml\.p5\.48xlarge/);
    rejectsOn(QuotaCheckRequestSchema, { ...quota, region: 'uswest2' }, 'region', /AWS Region code/);
    rejectsOn(
      QuotaCheckRequestSchema,
      { ...quota, availabilityZone: 'usw2-az1' },
      'availabilityZone',
      /Availability Zone name/,
    );
    rejectsOn(QuotaCheckRequestSchema, { ...quota, trainingPlanArn: 'plan' }, 'trainingPlanArn', /training plan ARN/);
    rejectsOn(QuotaCheckRequestSchema, { ...quota, capacityType: 'reserved' }, 'capacityType', /./);
  });

  it('is strict about unknown fields', () => {
    const r = QuotaCheckRequestSchema.safeParse({ ...quota, count: 3 });
    assert.ok(!r.success);
    assert.equal(r.error.issues[0]!.code, 'unrecognized_keys');
  });
});

describe('ImageSchema', () => {
  it('says an empty image in words (not zod\'s "Too small")', () => {
    const found = problems(ImageSchema, '');
    assert.match(found[0]!.message, /^must not be empty/);
    assert.ok(
      found.every((p) => !/Too small/.test(p.message)),
      JSON.stringify(found),
    );
  });
});
