import type { MetricPointSchema } from '../schemas/training.js';
import type { z } from 'zod';

/**
 * A job's metric series for charts: which metrics by default, and how a long history is thinned
 * to at most `maxPoints` without losing its shape's ends. Pure; the service reads MLflow.
 */

type Point = z.infer<typeof MetricPointSchema>;

/**
 * What the recipes report to MLflow by default, as MLflow keys: the trainers' metric line
 * `step= loss= tokens/s= lr=` becomes loss, throughput and learning_rate (the sandbox's reporter
 * and the recipes' `report_to mlflow` use the same keys).
 */
export const DEFAULT_METRICS = ['loss', 'throughput', 'learning_rate'] as const;

/** `"loss, throughput"` → ['loss', 'throughput'] (trimmed, each once, in order); the default list when absent. */
export function metricNames(text: string | undefined): string[] {
  if (text === undefined) return [...DEFAULT_METRICS];
  return [
    ...new Set(
      text
        .split(',')
        .map((m) => m.trim())
        .filter(Boolean),
    ),
  ];
}

/**
 * At most `maxPoints` points, evenly spaced over the series, the first and the last always kept
 * (the last is where training is now: a chart must never stop short of it).
 *
 * @example
 * thinPoints(tenThousandPoints, 100).length // 100, ending with tenThousandPoints[9999]
 */
export function thinPoints(points: readonly Point[], maxPoints: number): Point[] {
  if (points.length <= maxPoints) return [...points];
  if (maxPoints <= 1) return points.length ? [points[points.length - 1]!] : [];
  const out: Point[] = [];
  const stride = (points.length - 1) / (maxPoints - 1);
  for (let i = 0; i < maxPoints; i++) out.push(points[Math.round(i * stride)]!);
  return out;
}
