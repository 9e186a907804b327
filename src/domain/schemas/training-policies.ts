import { z } from 'zod';
import { captureGroupCount, regexProblem } from '../training/regex-check.js';

/**
 * How a training job survives faults (the HyperPod training operator's `runPolicy`) and how it may
 * change size (its `elasticPolicy`), as requests state them. Field names follow the operator's
 * manifest fields, so what a person reads in the form is what `kubectl get -o yaml` shows.
 * docs/TRAINING.md → Fault tolerance, Elastic training. run-policy.ts and elastic.ts turn these
 * into manifest fields.
 */

const seconds = (what: string, max = 7 * 86_400) => z.number().int().min(1).max(max).describe(what);

/** A log-monitoring regex: compiles, no constructs the operator's engine lacks. */
const LogRegexSchema = z
  .string()
  .min(1, 'must not be empty')
  .max(512, 'must be at most 512 characters')
  .superRefine((p, ctx) => {
    const problem = regexProblem(p);
    if (problem) ctx.addIssue({ code: 'custom', message: problem });
  });

export const LogRuleOperatorSchema = z
  .enum(['gt', 'gteq', 'lt', 'lteq', 'eq'])
  .describe(
    'How the captured value is compared with metricThreshold: gt >, gteq ≥, lt <, lteq ≤, eq =. True means the rule evaluates to SLOW.',
  );

/** Rule names become failure reasons (`LogStateHanging_<name>`), so they stay short and plain. */
export const LogRuleNameSchema = z
  .string()
  .regex(
    /^[A-Za-z][A-Za-z0-9_-]{0,62}$/,
    'must start with a letter and use only letters, digits, _ and - (at most 63): it becomes part of the failure reason LogStateHanging_<name>',
  )
  .describe('Rule name; a hang it detects is reported as LogStateHanging_<name>.');

export const LogMonitoringRuleSchema = z
  .object({
    name: LogRuleNameSchema,
    logPattern: LogRegexSchema.describe(
      'Regular expression a log line must match. For a metric rule it has exactly one capture group: the number compared with metricThreshold.',
    ),
    expectedStartCutOffInSeconds: seconds(
      'HANGING when no line has matched this long after the job started.',
    ).optional(),
    expectedRecurringFrequencyInSeconds: seconds('HANGING when matching lines stop for longer than this.').optional(),
    metricThreshold: z
      .number()
      .int(
        "must be a whole number: the training operator's CRD types metricThreshold as an integer, and a real API server refuses the whole job otherwise",
      )
      .optional()
      .describe(
        "The whole number the captured value is compared with (an integer in the operator's CRD); the comparison being true evaluates to SLOW.",
      ),
    operator: LogRuleOperatorSchema.optional(),
    metricEvaluationDataPoints: z
      .number()
      .int()
      .min(1)
      .max(1000)
      .optional()
      .describe('Consecutive SLOW evaluations before the job is marked SLOW (default 1).'),
    stopPattern: LogRegexSchema.optional().describe(
      'Regular expression that ends the rule when a line matches it (e.g. the end of training), so a finished job is not taken for a hung one.',
    ),
  })
  .strict()
  .superRefine((r, ctx) => {
    const metric = r.metricThreshold !== undefined || r.operator !== undefined;
    if (r.expectedStartCutOffInSeconds === undefined && r.expectedRecurringFrequencyInSeconds === undefined && !metric)
      ctx.addIssue({
        code: 'custom',
        path: ['expectedStartCutOffInSeconds'],
        message:
          'a rule needs a time limit (expectedStartCutOffInSeconds or expectedRecurringFrequencyInSeconds) or a metric check (metricThreshold with operator); without one it never fires',
      });
    if (metric && (r.metricThreshold === undefined || r.operator === undefined))
      ctx.addIssue({
        code: 'custom',
        path: [r.metricThreshold === undefined ? 'metricThreshold' : 'operator'],
        message:
          'metricThreshold and operator go together: the captured value is compared with the threshold by the operator',
      });
    if (r.metricEvaluationDataPoints !== undefined && !metric)
      ctx.addIssue({
        code: 'custom',
        path: ['metricEvaluationDataPoints'],
        message: 'applies only to a metric rule (metricThreshold with operator)',
      });
    if (regexProblem(r.logPattern) === undefined) {
      const groups = captureGroupCount(r.logPattern);
      if (metric && groups !== 1)
        ctx.addIssue({
          code: 'custom',
          path: ['logPattern'],
          message: `must have exactly one capture group (the number compared with metricThreshold); it has ${groups}`,
        });
      if (!metric && groups > 1)
        ctx.addIssue({
          code: 'custom',
          path: ['logPattern'],
          message: `may have at most one capture group; it has ${groups}`,
        });
    }
  })
  .describe(
    'A custom log-monitoring rule, as the training operator takes it (runPolicy.logMonitoringConfiguration[]).',
  );
export type LogMonitoringRule = z.output<typeof LogMonitoringRuleSchema>;

/**
 * Presets over the training metric line contract (docs/TRAINING.md → Metrics) and the recipe's own
 * progress lines: what most jobs want without writing a regex.
 */
export const LogMonitoringPresetsSchema = z
  .object({
    jobStart: z
      .object({
        cutoffSeconds: seconds("Seconds from the job's start to its first training step line.", 86_400).default(1800),
      })
      .strict()
      .optional()
      .describe(
        'Job-start deadline: HANGING (LogStateHanging_JobStart) when no training step line appears in time (loading a large model counts against it).',
      ),
    hang: z
      .object({
        gapSeconds: seconds('Longest allowed silence between two training step lines.', 86_400).default(600),
        startCutoffSeconds: seconds('Also HANGING when the first step line takes longer than this.', 86_400).optional(),
      })
      .strict()
      .optional()
      .describe(
        'Hang detection: HANGING (LogStateHanging_JobHangingDetection) when step lines stop for longer than gapSeconds (a stuck collective, a dead data loader).',
      ),
    lowThroughput: z
      .object({
        tokensPerSecondBelow: z
          .number()
          .int(
            "must be a whole number of tokens per second: it becomes the rule's metricThreshold, an integer in the training operator's CRD",
          )
          .positive()
          .describe("SLOW when a line's tokens/s is below this whole number."),
        dataPoints: z
          .number()
          .int()
          .min(1)
          .max(1000)
          .default(3)
          .describe('Consecutive low readings before the job is marked SLOW.'),
      })
      .strict()
      .optional()
      .describe(
        'Throughput floor: SLOW (LogStateSlow_LowThroughput) when tokens/s stays below the threshold (a straggler, a throttled link).',
      ),
  })
  .strict()
  .describe(
    "Ready-made log-monitoring rules over the training metric line contract (step=… loss=… tokens/s=… lr=…) and the recipe's own progress lines.",
  );
export type LogMonitoringPresets = z.output<typeof LogMonitoringPresetsSchema>;

/** The names the presets' rules get; a custom rule may not reuse them. */
export const PRESET_RULE_NAMES = {
  jobStart: 'JobStart',
  hang: 'JobHangingDetection',
  lowThroughput: 'LowThroughput',
} as const;

export const RestartPolicySchema = z
  .object({
    evalPeriodSeconds: seconds('The window the restart limits count in (e.g. 21600 = 6 h).', 30 * 86_400),
    numRestartBeforeFullJobRestart: z
      .number()
      .int()
      .min(0)
      .max(1000)
      .optional()
      .describe(
        'Process-level restarts in the window before the operator escalates to a full-job restart (pods recreated).',
      ),
    maxFullJobRestarts: z
      .number()
      .int()
      .min(0)
      .max(1000)
      .optional()
      .describe('Full-job restarts in the window after which the job fails.'),
    maxNumRepeatOffendersToAvoid: z
      .number()
      .int()
      .min(0)
      .max(1000)
      .optional()
      .describe('Nodes that faulted repeatedly to keep the job away from on a full-job restart.'),
  })
  .strict()
  .describe(
    'When process-level restarts escalate to full-job restarts, and when those give up (runPolicy.restartPolicy).',
  );
export type RestartPolicy = z.output<typeof RestartPolicySchema>;

export const CleanPodPolicySchema = z
  .enum(['All', 'OnlyComplete', 'None'])
  .describe(
    "What happens to the pods once the job ends. None (InstantStart's default): they stay, so every rank's logs can still be read (finished pods hold no GPUs). All (the operator's default): all are deleted. OnlyComplete: pods that completed are deleted.",
  );

export const FaultToleranceSchema = z
  .object({
    jobMaxRetryCount: z
      .number()
      .int()
      .min(0)
      .max(10_000)
      .default(10)
      .describe('The recovery budget: restarts (process-level and full-job) the job may use in all before it fails.'),
    restartPolicy: RestartPolicySchema.default({
      evalPeriodSeconds: 21_600,
      numRestartBeforeFullJobRestart: 3,
      maxFullJobRestarts: 1,
    }),
    logMonitoring: LogMonitoringPresetsSchema.default({}),
    customRules: z
      .array(LogMonitoringRuleSchema)
      .max(20)
      .default([])
      .describe('Your own log-monitoring rules, after the presets.'),
    cleanPodPolicy: CleanPodPolicySchema.default('None'),
    ttlSecondsAfterFinished: z
      .number()
      .int()
      .min(-1)
      .max(90 * 86_400)
      .default(7 * 86_400)
      .describe(
        'How long a finished job (and its pods, with cleanPodPolicy None) is kept before the operator deletes it; -1 keeps it until you delete it.',
      ),
  })
  .strict()
  .superRefine((ft, ctx) => {
    const seen = new Set<string>(
      Object.entries(PRESET_RULE_NAMES)
        .filter(
          ([k]) =>
            Object.hasOwn(ft.logMonitoring, k) && ft.logMonitoring[k as keyof LogMonitoringPresets] !== undefined,
        )
        .map(([, v]) => v),
    );
    ft.customRules.forEach((r, i) => {
      if (seen.has(r.name))
        ctx.addIssue({
          code: 'custom',
          path: ['customRules', i, 'name'],
          message: `'${r.name}' is already a rule of this job (a preset or an earlier rule); names must be unique`,
        });
      seen.add(r.name);
    });
  })
  .describe(
    'HyperPod training operator fault tolerance: the recovery budget, when restarts escalate, log-monitoring rules (hangs, slowness). HyperPodPyTorchJob recipes only; a RayJob retries as a whole (jobMaxRetryCount becomes its backoffLimit).',
  );
export type FaultTolerance = z.output<typeof FaultToleranceSchema>;
export type FaultToleranceRequest = z.input<typeof FaultToleranceSchema>;

export const ElasticSchema = z
  .object({
    minReplicas: z
      .number()
      .int()
      .min(1)
      .max(1000)
      .describe('Fewest nodes (pods) the job runs on; it scales down to this under pressure.'),
    maxReplicas: z
      .number()
      .int()
      .min(1)
      .max(1000)
      .describe('Most nodes (pods) the job grows to when capacity frees up.'),
    replicaIncrementStep: z
      .number()
      .int()
      .min(1)
      .max(1000)
      .optional()
      .describe(
        'Grow and shrink in steps of this many nodes (e.g. 2 keeps an even world size). Not with replicaDiscreteValues.',
      ),
    replicaDiscreteValues: z
      .array(z.number().int().min(1).max(1000))
      .min(1)
      .max(64)
      .optional()
      .describe('The only node counts the job may run at (e.g. [2, 4, 8]). Not with replicaIncrementStep.'),
    scalingTimeoutInSeconds: seconds(
      'How long a scale-up may wait for its pods before it is given up.',
      86_400,
    ).optional(),
    gracefulShutdownTimeoutInSeconds: seconds(
      'How long ranks get to checkpoint and stop before a scale-down removes them.',
      86_400,
    ).optional(),
    faultyScaleDownTimeoutInSeconds: seconds(
      'How long to wait for a faulty node to recover before scaling the job down around it.',
      86_400,
    ).optional(),
  })
  .strict()
  .superRefine((e, ctx) => {
    if (e.minReplicas > e.maxReplicas)
      ctx.addIssue({
        code: 'custom',
        path: ['maxReplicas'],
        message: `must be at least minReplicas (${e.minReplicas})`,
      });
    if (e.replicaIncrementStep !== undefined && e.replicaDiscreteValues !== undefined)
      ctx.addIssue({
        code: 'custom',
        path: ['replicaDiscreteValues'],
        message: 'give replicaIncrementStep or replicaDiscreteValues, not both',
      });
    if (e.replicaDiscreteValues) {
      const v = e.replicaDiscreteValues;
      if (v.some((x, i) => i > 0 && x <= v[i - 1]!))
        ctx.addIssue({
          code: 'custom',
          path: ['replicaDiscreteValues'],
          message: 'must be strictly increasing, e.g. [2, 4, 8]',
        });
      const outside = v.filter((x) => x < e.minReplicas || x > e.maxReplicas);
      if (outside.length)
        ctx.addIssue({
          code: 'custom',
          path: ['replicaDiscreteValues'],
          message: `${outside.join(', ')} ${outside.length === 1 ? 'is' : 'are'} outside minReplicas..maxReplicas (${e.minReplicas}..${e.maxReplicas})`,
        });
    }
  })
  .describe(
    'Elastic training between minReplicas and maxReplicas nodes. The job grows and shrinks with capacity (spec.elasticPolicy). Not on spot groups, not with managed tiered checkpointing on the cluster, not with checkpointless training. HyperPodPyTorchJob recipes only.',
  );
export type Elastic = z.output<typeof ElasticSchema>;

/** Whether `count` nodes is a size the elastic settings allow the job to run at. */
export function elasticAllows(e: Elastic, count: number): boolean {
  if (count < e.minReplicas || count > e.maxReplicas) return false;
  if (e.replicaDiscreteValues) return e.replicaDiscreteValues.includes(count);
  if (e.replicaIncrementStep) return (count - e.minReplicas) % e.replicaIncrementStep === 0;
  return true;
}
