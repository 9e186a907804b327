import type { FaultTolerance, LogMonitoringPresets, LogMonitoringRule } from '../schemas/training-policies.js';
import { PRESET_RULE_NAMES } from '../schemas/training-policies.js';
import { CONTRACT_PROGRESS_FRAGMENT, CONTRACT_THROUGHPUT_FRAGMENT, FLOAT_PATTERN } from './metric-line.js';

/**
 * Fault tolerance as the training operator reads it: the request's settings
 * (schemas/training-policies.ts) → `spec.runPolicy` of a HyperPodPyTorchJob. The log-monitoring
 * presets become rules over the metric line contract (metric-line.ts) OR-ed with the recipe's own
 * progress lines, so a rule fits the sandbox's trainers and the real framework alike.
 */

/**
 * How a recipe's framework prints progress, as regex fragments without capture groups:
 * `progress` appears once per optimizer step; `throughput` stands right before a tokens-per-second
 * number. Absent: the contract's lines only.
 */
export interface RecipeLogLines {
  progress?: string;
  throughput?: string;
}

const either = (contract: string, native?: string) => (native ? `(?:${contract}|${native})` : contract);

/**
 * The rules the chosen presets stand for, in a fixed order (start, hang, throughput).
 *
 * @example
 * presetRules({ hang: { gapSeconds: 600 } })
 * // [{ name: 'JobHangingDetection', logPattern: '.*step=\\d+\\s+loss=.*', expectedRecurringFrequencyInSeconds: 600 }]
 */
export function presetRules(presets: LogMonitoringPresets, lines: RecipeLogLines = {}): LogMonitoringRule[] {
  const progress = `.*${either(CONTRACT_PROGRESS_FRAGMENT, lines.progress)}.*`;
  const rules: LogMonitoringRule[] = [];
  if (presets.jobStart)
    rules.push({
      name: PRESET_RULE_NAMES.jobStart,
      logPattern: progress,
      expectedStartCutOffInSeconds: presets.jobStart.cutoffSeconds,
    });
  if (presets.hang)
    rules.push({
      name: PRESET_RULE_NAMES.hang,
      logPattern: progress,
      expectedRecurringFrequencyInSeconds: presets.hang.gapSeconds,
      ...(presets.hang.startCutoffSeconds !== undefined
        ? { expectedStartCutOffInSeconds: presets.hang.startCutoffSeconds }
        : {}),
    });
  if (presets.lowThroughput)
    rules.push({
      name: PRESET_RULE_NAMES.lowThroughput,
      logPattern: `.*${either(CONTRACT_THROUGHPUT_FRAGMENT, lines.throughput)}(${FLOAT_PATTERN}).*`,
      metricThreshold: presets.lowThroughput.tokensPerSecondBelow,
      operator: 'lt',
      metricEvaluationDataPoints: presets.lowThroughput.dataPoints,
    });
  return rules;
}

/** `spec.runPolicy` of a HyperPodPyTorchJob: budget, escalation, rules (presets first, then custom), clean-up. */
export function runPolicyManifest(ft: FaultTolerance, lines: RecipeLogLines = {}): Record<string, unknown> {
  const rules = [...presetRules(ft.logMonitoring, lines), ...ft.customRules];
  return {
    cleanPodPolicy: ft.cleanPodPolicy,
    jobMaxRetryCount: ft.jobMaxRetryCount,
    restartPolicy: { ...ft.restartPolicy },
    ttlSecondsAfterFinished: ft.ttlSecondsAfterFinished,
    ...(rules.length ? { logMonitoringConfiguration: rules.map((r) => ({ ...r })) } : {}),
  };
}
