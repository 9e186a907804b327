import type { SelectProps } from '@cloudscape-design/components/select';
import { ProblemError, type ProblemFieldError } from '@kit/api/client.js';

/**
 * What forms share: inputs keep what was typed (strings), the server's schema is the judge. The
 * server's problem+json names each refused field by its path (`worker.gpus`, `model.acceptEula`); the form shows the
 * message under the input that owns that path, and whatever no input owns in one alert.
 */

export const option = (value: string, label = value, description?: string): SelectProps.Option => ({
  value,
  label,
  description,
});

export const pick = (options: readonly SelectProps.Option[], value: string) =>
  options.find((o) => o.value === value) ?? null;

export interface FieldErrors {
  /** The message for the input that owns `path` (its own path or one under it: `instanceTypes.0`). */
  errorOf(path: string): string | undefined;
  /** The refusals no input on screen owns. */
  unplaced: ProblemFieldError[];
  /** Whether the form shows the error as a whole: no field named, or some field no input owns. */
  alert: boolean;
}

/**
 * Field errors from a failed mutation, each placed on one of the inputs on screen (`labels`: request path → the
 * input's label): an error belongs to the longest path that is it or a prefix of it, and reads as a sentence naming
 * the input as the form does ("GPUs per replica must be at most 1"), not the request field.
 */
export function fieldErrors(error: unknown, labels: Readonly<Record<string, string>>): FieldErrors {
  const errors = error instanceof ProblemError ? (error.problem.errors ?? []) : [];
  const paths = Object.keys(labels);
  const owner = (p: string) =>
    paths
      .filter((f) => p === f || p.startsWith(`${f}.`))
      .sort((a, b) => b.length - a.length)
      .at(0);
  const unplaced = errors.filter((e) => owner(e.path) === undefined);
  return {
    errorOf: (path) => {
      const e = errors.find((x) => owner(x.path) === path);
      if (!e) return undefined;
      return sentenceOf(labels[path] ?? 'This field', e.message);
    },
    unplaced,
    alert: !!error && (errors.length === 0 || unplaced.length > 0),
  };
}

/** Schema messages are fragments ("must be at most 40 characters"): named by the label; a sentence stands alone. */
const FRAGMENT = /^(must|is|are|should|cannot|can't|needs?|has|have|was|does|expected|too|not)\b/;
const sentenceOf = (label: string, message: string) =>
  FRAGMENT.test(message) ? `${label} ${message}` : message.charAt(0).toUpperCase() + message.slice(1);

/** A fresh Idempotency-Key for one form: a double click or a retry after a lost answer deploys once. */
export const newIdempotencyKey = (form: string) => `ui-${form}-${crypto.randomUUID()}`;
