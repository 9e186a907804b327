import type { Any } from './util.js';

/** What the simulated programs share: the Program shape, the annotation prefix, and line helpers. */

/** One output line at an absolute sandbox time (epoch ms). */
export type Line = { at: number; text: string };

export interface Program {
  /** Lines of a run that started at `startMs`, with times in [fromMs, untilMs]. */
  lines(startMs: number, fromMs: number, untilMs: number): Line[];
  /** Milliseconds after start when the process exits; undefined = runs until stopped. */
  exitAfterMs?: number;
  exitCode: number;
}

/** The prefix of every annotation the sandbox reads from pods (`sandbox.instantstart.dev/steps`, …). */
export const PREFIX = 'sandbox.instantstart.dev/';

/** Lines `at = start + i * period` for i ≥ first, restricted to [from, until] without walking the whole run. */
export function periodic(
  start: number,
  from: number,
  until: number,
  period: number,
  first: number,
  last: number,
  line: (i: number) => string,
): Line[] {
  const out: Line[] = [];
  for (let i = Math.max(first, Math.ceil((from - start) / period)); i <= last && start + i * period <= until; i++)
    out.push({ at: start + i * period, text: line(i) });
  return out;
}

export const inRange = (lines: Line[], from: number, until: number) =>
  lines.filter((l) => l.at >= from && l.at <= until);

/** A pod annotation `sandbox.instantstart.dev/<key>` as a non-negative number, or the fallback. */
export function annotationNumber(
  annotations: Record<string, string> | undefined,
  key: string,
  fallback: number,
): number {
  const raw = annotations?.[`${PREFIX}${key}`];
  if (raw === undefined || raw.trim() === '') return fallback;
  const v = Number(raw);
  return Number.isFinite(v) && v >= 0 ? v : fallback;
}

/** A literal environment variable of a container (`value`, not references): what the operators inject. */
export function literalEnv(container: Any, name: string): string | undefined {
  const entry = ((container.env ?? []) as Any[]).filter((e) => e?.name === name && e.value !== undefined).at(-1);
  return entry ? String(entry.value) : undefined;
}

/** The container's command and arguments as one line (what `ps` would show). */
export const commandLine = (container: Any) =>
  [...((container.command ?? []) as unknown[]), ...((container.args ?? []) as unknown[])].map(String).join(' ');
