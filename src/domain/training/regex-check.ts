/**
 * Checks on regular expressions people write for the training operator's log monitoring. The
 * operator evaluates them, not us, so what we refuse is what would fail there or surprise: text that
 * does not compile, constructs its engine lacks (lookarounds, backreferences, named groups), and a
 * metric rule whose value has nowhere to come from (the metric is the one capture group).
 */

/** Capturing groups of a pattern that compiles (named groups count). */
export function captureGroupCount(pattern: string): number {
  // An alternation with the empty pattern always matches, so the match reports every group.
  return new RegExp(`${pattern}|`).exec('')!.length - 1;
}

/**
 * Why a pattern cannot be a log-monitoring regex, or undefined when it can.
 *
 * @example
 * regexProblem('step=(\\d+') // 'is not a valid regular expression: …'
 * regexProblem('(?<=loss=)\\d+') // 'uses a lookaround …'
 */
export function regexProblem(pattern: string): string | undefined {
  try {
    new RegExp(pattern);
  } catch (e) {
    return `is not a valid regular expression: ${(e as Error).message.replace(/^Invalid regular expression: /, '')}`;
  }
  if (/\(\?<?[=!]/.test(pattern))
    return "uses a lookaround ((?=, (?!, (?<=, (?<!), which the training operator's regex engine does not support";
  if (/\\[1-9]|\\k</.test(pattern))
    return "uses a backreference, which the training operator's regex engine does not support";
  if (/\(\?<[A-Za-z]/.test(pattern)) return 'uses a named group; use a plain (…) group';
  return undefined;
}
