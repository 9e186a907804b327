import type { KubeCluster } from '../cluster.js';
import type { KubeObject } from '../types.js';
import { programOf } from './log-programs.js';
import type { Line } from './program-lines.js';
import type { Any } from './util.js';

/**
 * `runPolicy.logMonitoringConfiguration`, evaluated on the log of a rank's training container (its
 * current run), as the HyperPod agent reads the stdout of the processes it started:
 * - `expectedStartCutOffInSeconds`: no line matches `logPattern` that long after the start → HANGING;
 * - `expectedRecurringFrequencyInSeconds`: after a first match, no match for that long → HANGING;
 * - `metricThreshold` + `operator` (gt, gteq, lt, lteq, eq) on the number the pattern's first
 *   capture group reads: the last `metricEvaluationDataPoints` (1) matches all compare true → SLOW;
 * - `stopPattern`: once a line matches it, the rule is off for the rest of the run.
 * Patterns are JavaScript regular expressions; a rule whose pattern does not compile is skipped.
 */

export interface Verdict {
  state: 'HANGING' | 'SLOW';
  rule: string;
  /** `LogStateHanging_<rule>` / `LogStateSlow_<rule>`. */
  reason: string;
  message: string;
}

interface Rule {
  name: string;
  pattern: RegExp;
  stop?: RegExp;
  startCutoffMs?: number;
  recurringMs?: number;
  threshold?: number;
  operator: string;
  points: number;
}

const compile = (source: unknown): RegExp | undefined => {
  if (typeof source !== 'string' || source === '') return undefined;
  try {
    return new RegExp(source);
  } catch {
    return undefined;
  }
};
const seconds = (v: unknown) => (typeof v === 'number' && Number.isFinite(v) && v >= 0 ? v * 1000 : undefined);

export function rulesOf(spec: Any): Rule[] {
  const out: Rule[] = [];
  for (const r of (spec?.runPolicy?.logMonitoringConfiguration ?? []) as Any[]) {
    const pattern = compile(r?.logPattern);
    if (!pattern || typeof r.name !== 'string' || r.name === '') continue;
    const stop = compile(r.stopPattern);
    const startCutoffMs = seconds(r.expectedStartCutOffInSeconds);
    const recurringMs = seconds(r.expectedRecurringFrequencyInSeconds);
    const threshold =
      typeof r.metricThreshold === 'number'
        ? r.metricThreshold
        : Number.isFinite(Number(r.metricThreshold)) && r.metricThreshold !== undefined
          ? Number(r.metricThreshold)
          : undefined;
    out.push({
      name: r.name,
      pattern,
      ...(stop ? { stop } : {}),
      ...(startCutoffMs !== undefined ? { startCutoffMs } : {}),
      ...(recurringMs !== undefined ? { recurringMs } : {}),
      ...(threshold !== undefined ? { threshold } : {}),
      operator: String(r.operator ?? 'gt'),
      points: Math.max(1, Math.floor(Number(r.metricEvaluationDataPoints ?? 1)) || 1),
    });
  }
  return out;
}

const COMPARE = new Map<string, (a: number, b: number) => boolean>([
  ['gt', (a, b) => a > b],
  ['gteq', (a, b) => a >= b],
  ['lt', (a, b) => a < b],
  ['lteq', (a, b) => a <= b],
  ['eq', (a, b) => a === b],
]);

/** The verdicts of the rules on a running training container's current run (nothing is wrong → []). */
export function evaluateRules(
  cluster: KubeCluster,
  pod: KubeObject,
  container: Any,
  status: Any | undefined,
  rules: Rule[],
  now: number,
): Verdict[] {
  if (rules.length === 0 || !status?.state?.running) return [];
  const start = Date.parse(status.state.running.startedAt);
  if (!Number.isFinite(start) || now <= start) return [];
  const program = programOf(pod, container, Number(status.restartCount ?? 0), cluster);
  const read = (from: number, until: number): Line[] =>
    program.lines(start, Math.max(start, from), Math.min(now, until));
  const stopped = (rule: Rule) => !!rule.stop && read(start, now).some((l) => rule.stop!.test(l.text));
  const out: Verdict[] = [];
  for (const rule of rules) {
    const hang = hanging(rule, read, start, now);
    if (hang && !stopped(rule)) {
      out.push({ state: 'HANGING', rule: rule.name, reason: `LogStateHanging_${rule.name}`, message: hang });
      continue;
    }
    const slow = rule.threshold !== undefined ? slowValues(rule, read, start, now) : undefined;
    if (slow && !stopped(rule))
      out.push({ state: 'SLOW', rule: rule.name, reason: `LogStateSlow_${rule.name}`, message: slow });
  }
  return out;
}

function hanging(
  rule: Rule,
  read: (from: number, until: number) => Line[],
  start: number,
  now: number,
): string | undefined {
  const matches = (from: number, until: number) => read(from, until).some((l) => rule.pattern.test(l.text));
  let seen = false;
  if (rule.startCutoffMs !== undefined) {
    seen = matches(start, start + rule.startCutoffMs);
    if (!seen && now > start + rule.startCutoffMs)
      return `no log line matched /${rule.pattern.source}/ within expectedStartCutOffInSeconds ${rule.startCutoffMs / 1000} of the start`;
  }
  if (rule.recurringMs === undefined || now - start <= rule.recurringMs || matches(now - rule.recurringMs, now))
    return undefined;
  // The gap counts only once the pattern has matched (before that, only the start cut-off applies).
  if (!seen && !matches(start, now - rule.recurringMs)) return undefined;
  return `no log line matched /${rule.pattern.source}/ for expectedRecurringFrequencyInSeconds ${rule.recurringMs / 1000}`;
}

/** The last matches' values when all of them compare true against the threshold (SLOW), else undefined. */
function slowValues(
  rule: Rule,
  read: (from: number, until: number) => Line[],
  start: number,
  now: number,
): string | undefined {
  const compare = COMPARE.get(rule.operator) ?? COMPARE.get('gt')!;
  let values: number[] = [];
  // Widen the look-back until it holds enough data points (or reaches the start of the run).
  for (let window = 60_000; ; window *= 4) {
    values = [];
    for (const l of read(now - window, now)) {
      const m = rule.pattern.exec(l.text);
      const v = m?.[1] !== undefined ? Number(m[1]) : NaN;
      if (Number.isFinite(v)) values.push(v);
    }
    if (values.length >= rule.points || now - window <= start) break;
  }
  const last = values.slice(-rule.points);
  if (last.length < rule.points || !last.every((v) => compare(v, rule.threshold!))) return undefined;
  return `the last ${rule.points} value(s) of /${rule.pattern.source}/ are ${rule.operator} metricThreshold ${rule.threshold}`;
}
