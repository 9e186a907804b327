/**
 * The training metric line contract (docs/TRAINING.md → Metrics): every metrics line a trainer prints
 * contains `step=<int> loss=<float> tokens/s=<float> lr=<float>`, with whatever prefix the recipe
 * adds. The sandbox's simulated trainers print exactly this, the MLflow simulation records it, and
 * the log-monitoring presets (log-rules.ts) watch for it. Real images print their own formats; a
 * recipe names those next to it (RecipeLogLines) so the presets match both.
 *
 * The patterns are written for both JavaScript and the training operator's regex engine: no
 * lookarounds, no backreferences, no named groups.
 */

/** A decimal number as trainers print it: `2.3456`, `12000`, `3.0e-04`, `-1.5E+2`. */
export const FLOAT_PATTERN = '[-+]?(?:\\d+(?:\\.\\d*)?|\\.\\d+)(?:[eE][-+]?\\d+)?';

/** One metrics line, four captures in order: step, loss, tokens/s, lr. */
export const METRIC_LINE_PATTERN = `step=(\\d+)\\s+loss=(${FLOAT_PATTERN})\\s+tokens/s=(${FLOAT_PATTERN})\\s+lr=(${FLOAT_PATTERN})`;

/** What appears once per training step in a contract line (no capture group). */
export const CONTRACT_PROGRESS_FRAGMENT = 'step=\\d+\\s+loss=';

/** What stands right before the throughput number in a contract line. */
export const CONTRACT_THROUGHPUT_FRAGMENT = 'tokens/s=';

export interface MetricPoint {
  step: number;
  loss: number;
  tokensPerSecond: number;
  lr: number;
}

const METRIC_LINE = new RegExp(METRIC_LINE_PATTERN);

/**
 * The metrics of one log line, or undefined when it is not a metrics line.
 *
 * @example
 * parseMetricLine('[rank0] step=12 loss=1.9342 tokens/s=98213 lr=3.0e-04')
 * // { step: 12, loss: 1.9342, tokensPerSecond: 98213, lr: 0.0003 }
 */
export function parseMetricLine(line: string): MetricPoint | undefined {
  const m = METRIC_LINE.exec(line);
  if (!m) return undefined;
  const [step, loss, tokensPerSecond, lr] = [Number(m[1]), Number(m[2]), Number(m[3]), Number(m[4])];
  if (![step, loss, tokensPerSecond, lr].every(Number.isFinite)) return undefined;
  return { step, loss, tokensPerSecond, lr };
}

/** The metric names the contract line carries, as MLflow records them (docs/TRAINING.md → Metrics). */
export const CONTRACT_METRICS = ['loss', 'tokens_per_second', 'learning_rate'] as const;
