import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { z } from 'zod';
import { PreconditionError } from '../../src/domain/errors.js';
import { SubmitTrainingJobRequestSchema } from '../../src/domain/schemas/training.js';
import {
  ElasticSchema,
  FaultToleranceSchema,
  LogMonitoringRuleSchema,
  elasticAllows,
} from '../../src/domain/schemas/training-policies.js';
import { checkTrainingCompatibility } from '../../src/domain/training/elastic.js';
import { METRIC_LINE_PATTERN, parseMetricLine } from '../../src/domain/training/metric-line.js';
import { placementFor } from '../../src/domain/training/placement.js';
import { presetRules, runPolicyManifest } from '../../src/domain/training/run-policy.js';
import { trainingManifest } from '../../src/domain/training/submit.js';

/** What the sandbox's simulated trainers print (the metric line contract), with a recipe prefix. */
const CONTRACT_LINE = '[rank 0] step=42 loss=1.9342 tokens/s=98213 lr=3.0e-04';

type Any = Record<string, any>;
const pathsOf = (r: z.ZodSafeParseResult<unknown>) => (r.success ? [] : r.error.issues.map((i) => i.path.join('.')));

describe('Log monitoring: presets over the metric line contract', () => {
  it('parses the contract line and nothing else', () => {
    assert.deepEqual(parseMetricLine(CONTRACT_LINE), { step: 42, loss: 1.9342, tokensPerSecond: 98213, lr: 0.0003 });
    assert.equal(parseMetricLine('Loaded dataset: 128 shards'), undefined);
    assert.ok(new RegExp(METRIC_LINE_PATTERN).test('step=1 loss=2.5 tokens/s=1.2e+04 lr=1e-5'));
  });

  it("turns each preset into a valid rule that matches the contract line (and the recipe's own lines)", () => {
    const ft = FaultToleranceSchema.parse({
      logMonitoring: { jobStart: {}, hang: { gapSeconds: 300 }, lowThroughput: { tokensPerSecondBelow: 100_000 } },
    });
    const rules = presetRules(ft.logMonitoring, { progress: "'loss': " });
    assert.deepEqual(
      rules.map((r) => r.name),
      ['JobStart', 'JobHangingDetection', 'LowThroughput'],
    );
    for (const r of rules) {
      assert.ok(LogMonitoringRuleSchema.safeParse(r).success, `${r.name} passes the same schema custom rules do`);
      assert.ok(new RegExp(r.logPattern).test(CONTRACT_LINE), `${r.name} matches a contract line`);
    }
    assert.ok(
      new RegExp(rules[1]!.logPattern).test("{'loss': 1.2, 'learning_rate': 1e-4, 'epoch': 0.1}"),
      "and the Hugging Face Trainer's line",
    );
    assert.ok(!new RegExp(rules[1]!.logPattern).test('Loaded dataset: 128 shards'));
    const throughput = new RegExp(rules[2]!.logPattern).exec(CONTRACT_LINE);
    assert.equal(Number(throughput?.[1]), 98213, 'the one capture group is the tokens/s value');
    assert.deepEqual(
      [
        rules[0]!.expectedStartCutOffInSeconds,
        rules[1]!.expectedRecurringFrequencyInSeconds,
        rules[2]!.operator,
        rules[2]!.metricEvaluationDataPoints,
      ],
      [1800, 300, 'lt', 3],
    );
  });

  it('writes runPolicy as the operator reads it: budget, escalation, presets then custom rules', () => {
    const ft = FaultToleranceSchema.parse({
      jobMaxRetryCount: 50,
      restartPolicy: {
        evalPeriodSeconds: 21600,
        numRestartBeforeFullJobRestart: 3,
        maxFullJobRestarts: 1,
        maxNumRepeatOffendersToAvoid: 2,
      },
      logMonitoring: { hang: {} },
      customRules: [
        { name: 'NoCheckpoint', logPattern: '.*saved checkpoint.*', expectedRecurringFrequencyInSeconds: 3600 },
      ],
    });
    const rp = runPolicyManifest(ft) as Any;
    assert.equal(rp.jobMaxRetryCount, 50);
    assert.deepEqual(rp.restartPolicy, {
      evalPeriodSeconds: 21600,
      numRestartBeforeFullJobRestart: 3,
      maxFullJobRestarts: 1,
      maxNumRepeatOffendersToAvoid: 2,
    });
    assert.deepEqual(
      rp.logMonitoringConfiguration.map((r: Any) => r.name),
      ['JobHangingDetection', 'NoCheckpoint'],
    );
    assert.equal(rp.cleanPodPolicy, 'None', 'pods stay after the job so their logs can be read');
  });

  it('refuses custom rules that cannot work, naming the field', () => {
    const rule = (r: Record<string, unknown>) =>
      pathsOf(
        LogMonitoringRuleSchema.safeParse({ name: 'R', logPattern: '.*x.*', expectedStartCutOffInSeconds: 60, ...r }),
      );
    assert.deepEqual(rule({ logPattern: 'step=(\\d+' }), ['logPattern']);
    assert.deepEqual(rule({ logPattern: '(?<=loss=)\\d+' }), ['logPattern']);
    assert.deepEqual(
      rule({ metricThreshold: 5, operator: 'lt' }),
      ['logPattern'],
      'a metric rule needs its capture group',
    );
    assert.deepEqual(rule({ logPattern: 'a=(\\d+)', metricThreshold: 5 }), ['operator']);
    assert.deepEqual(
      rule({ expectedStartCutOffInSeconds: undefined }),
      ['expectedStartCutOffInSeconds'],
      'a rule that can never fire',
    );
    assert.deepEqual(rule({ name: 'bad name!' }), ['name']);
    assert.deepEqual(rule({ stopPattern: '[' }), ['stopPattern']);
    assert.deepEqual(
      pathsOf(
        FaultToleranceSchema.safeParse({
          logMonitoring: { hang: {} },
          customRules: [{ name: 'JobHangingDetection', logPattern: 'x', expectedStartCutOffInSeconds: 5 }],
        }),
      ),
      ['customRules.0.name'],
    );
  });

  it("takes whole-number thresholds only, as the operator's CRD types metricThreshold (integer): a float is refused by field", () => {
    const metric = { name: 'Loss', logPattern: '.*loss=([0-9.]+).*', operator: 'gt' };
    assert.deepEqual(pathsOf(LogMonitoringRuleSchema.safeParse({ ...metric, metricThreshold: 2 })), []);
    const float = LogMonitoringRuleSchema.safeParse({ ...metric, metricThreshold: 2.5 });
    assert.deepEqual(pathsOf(float), ['metricThreshold']);
    assert.match(float.error!.issues[0]!.message, /whole number/);
    assert.deepEqual(
      pathsOf(FaultToleranceSchema.safeParse({ logMonitoring: { lowThroughput: { tokensPerSecondBelow: 1500.5 } } })),
      ['logMonitoring.lowThroughput.tokensPerSecondBelow'],
    );
    const rules = runPolicyManifest(
      FaultToleranceSchema.parse({ logMonitoring: { lowThroughput: { tokensPerSecondBelow: 1500 } } }),
    ).logMonitoringConfiguration as Any[];
    assert.ok(Number.isInteger(rules[0].metricThreshold), 'the preset writes an integer metricThreshold');
  });
});

describe('Elastic training: ranges and refusals', () => {
  it('checks the range and the sizes it allows', () => {
    assert.deepEqual(pathsOf(ElasticSchema.safeParse({ minReplicas: 4, maxReplicas: 2 })), ['maxReplicas']);
    assert.deepEqual(
      pathsOf(
        ElasticSchema.safeParse({
          minReplicas: 1,
          maxReplicas: 8,
          replicaIncrementStep: 2,
          replicaDiscreteValues: [2],
        }),
      ),
      ['replicaDiscreteValues'],
    );
    assert.deepEqual(
      pathsOf(ElasticSchema.safeParse({ minReplicas: 2, maxReplicas: 8, replicaDiscreteValues: [2, 16] })),
      ['replicaDiscreteValues'],
    );
    const e = ElasticSchema.parse({ minReplicas: 2, maxReplicas: 8, replicaIncrementStep: 2 });
    assert.deepEqual(
      [2, 3, 4, 8, 10].map((n) => elasticAllows(e, n)),
      [true, false, true, true, false],
    );
    assert.deepEqual(
      pathsOf(
        SubmitTrainingJobRequestSchema.safeParse({
          name: 'j',
          custom: { image: 'i:1', command: ['/data/code/train.py'] },
          instanceGroup: 'g',
          storage: 's',
          nodes: 9,
          elastic: { minReplicas: 1, maxReplicas: 4 },
        }),
      ),
      ['nodes'],
    );
  });

  const elastic = ElasticSchema.parse({ minReplicas: 1, maxReplicas: 4 });
  const base = {
    kind: 'HyperPodPyTorchJob' as const,
    group: 'spot-gpus',
    capacityType: 'on-demand',
    tieredCheckpointing: false,
  };
  const refusal = (req: Parameters<typeof checkTrainingCompatibility>[0], facts: Partial<typeof base>) => {
    try {
      checkTrainingCompatibility(req, { ...base, ...facts });
      return undefined;
    } catch (e) {
      assert.ok(e instanceof PreconditionError, 'a 422 (precondition), not a 400');
      return e.problems;
    }
  };

  it('refuses elastic on a spot group, naming elastic and the group', () => {
    const problems = refusal({ elastic }, { capacityType: 'spot' });
    assert.equal(problems?.[0]?.path, 'elastic');
    assert.match(problems![0]!.message, /spot-gpus.*spot/);
  });

  it('refuses elastic while tiered checkpointing is on, and checkpointless with elastic', () => {
    assert.deepEqual(
      refusal({ elastic }, { tieredCheckpointing: true })?.map((p) => p.path),
      ['elastic'],
    );
    assert.deepEqual(
      refusal({ elastic, checkpointless: true }, {})?.map((p) => p.path),
      ['checkpointless'],
    );
    assert.deepEqual(
      refusal({ elastic, checkpointless: true }, { capacityType: 'spot', tieredCheckpointing: true })?.map(
        (p) => p.path,
      ),
      ['elastic', 'elastic', 'checkpointless', 'checkpointless'],
      'every reason at once',
    );
    assert.equal(refusal({ elastic }, { capacityType: 'training-plan' }), undefined);
    assert.equal(refusal({ checkpointless: true }, {}), undefined);
  });

  it('refuses before any manifest exists, and writes elasticPolicy when allowed', () => {
    const P5 = { instanceType: 'ml.p5.48xlarge', acceleratorCount: 8, efaSupported: true, maximumEfaInterfaces: 32 };
    const placement = placementFor({ name: 'gpu', instanceType: 'ml.p5.48xlarge' }, P5);
    const req = SubmitTrainingJobRequestSchema.parse({
      name: 'el',
      recipe: 'pytorch-script',
      params: { script: '/data/train.py' },
      instanceGroup: 'gpu',
      storage: 's',
      nodes: 2,
      elastic: { minReplicas: 2, maxReplicas: 6, replicaIncrementStep: 2 },
    });
    assert.throws(
      () => trainingManifest(req, { claimName: 's', placement, capacityType: 'spot', tieredCheckpointing: false }),
      (e: unknown) => e instanceof PreconditionError && e.problems[0]?.path === 'elastic',
    );
    const m = trainingManifest(req, {
      claimName: 's',
      placement,
      capacityType: 'on-demand',
      tieredCheckpointing: false,
    });
    const spec = m.spec as Any;
    assert.deepEqual(spec.elasticPolicy, { minReplicas: 2, maxReplicas: 6, replicaIncrementStep: 2 });
    assert.equal(spec.replicaSpecs[0].maxReplicas, 6);
    assert.ok(JSON.stringify(spec.replicaSpecs[0].template).includes('--nnodes=2:6'));
    const lf = SubmitTrainingJobRequestSchema.parse({
      ...req,
      recipe: 'llama-factory-sft',
      params: { modelPath: '/data/models/m', dataset: 'd' },
    });
    assert.throws(
      () => trainingManifest(lf, { claimName: 's', placement, capacityType: 'on-demand', tieredCheckpointing: false }),
      (e: unknown) => e instanceof PreconditionError && e.problems[0]?.path === 'elastic',
      'a framework that does not resume at another world size cannot be elastic',
    );
  });
});

describe('Training schemas: described for forms and OpenAPI, names Kubernetes accepts', () => {
  it('describes every field of the submit request', () => {
    const js = z.toJSONSchema(SubmitTrainingJobRequestSchema, { io: 'input', unrepresentable: 'any' }) as Any;
    const missing: string[] = [];
    const walk = (s: Any, at: string) => {
      for (const [k, v] of Object.entries((s.properties ?? {}) as Any)) {
        if (!v.description) missing.push(`${at}${k}`);
        walk(v, `${at}${k}.`);
        if (v.items) walk(v.items, `${at}${k}[].`);
      }
    };
    walk(js, '');
    assert.deepEqual(missing, []);
  });

  it('takes job names pods can carry and refuses secrets as literals', () => {
    const r = (extra: Record<string, unknown>) =>
      pathsOf(
        SubmitTrainingJobRequestSchema.safeParse({
          name: 'ok-job',
          custom: { image: 'i:1', command: ['/data/code/train.py'] },
          instanceGroup: 'g',
          storage: 's',
          ...extra,
        }),
      );
    assert.deepEqual(r({}), []);
    assert.deepEqual(r({ name: 'Bad_Name' }), ['name']);
    assert.deepEqual(r({ name: 'a'.repeat(41) }), ['name']);
    assert.deepEqual(r({ env: [{ name: 'HF_TOKEN', value: 'hf_x' }] }), ['env.0.name']);
    assert.deepEqual(r({ recipe: 'pytorch-script' }), ['custom'], 'a recipe and a custom container at once');
  });
});
