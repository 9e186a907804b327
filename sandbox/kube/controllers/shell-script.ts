/**
 * Just enough of a shell to "run" the commands people put in pod specs: `echo`, `printf`,
 * `sleep N` (and `sleep infinity`), `exit N`, `true`, `false`, `date`, `hostname`, `;`/`&&`/newline
 * separated, and `while true; do …; done` loops. Anything else (`python train.py`, `nginx …`) is a
 * long-running process the sandbox cannot see into: it runs until stopped. The result is a
 * timeline of output lines and, when the script ends, its exit time and code.
 */

export type Step =
  | { kind: 'print'; text: string }
  | { kind: 'sleep'; ms: number }
  | { kind: 'exit'; code: number }
  | { kind: 'forever' }
  | { kind: 'loop'; body: Step[] };

export interface Timeline {
  /** Lines at offsets (ms) from the start, from `fromOffset` to `untilOffset` inclusive (loops expanded only that far). */
  lines(fromOffset: number, untilOffset: number): Array<{ offset: number; text: string }>;
  /** Offset at which the script exits; undefined when it runs until stopped. */
  exitOffset?: number;
  exitCode: number;
}

/** The script a container runs: `sh -c <script>` style, or the argv as one command line. */
export function scriptOf(command: string[], args: string[]): string {
  const argv = [...command, ...args];
  const shell = argv.findIndex((a, i) => i > 0 && a === '-c' && /(^|\/)(ba|da|z)?sh$/.test(argv[0] ?? ''));
  if (shell > 0) return argv.slice(shell + 1).join(' ');
  return argv.map((a) => (/\s/.test(a) ? `'${a}'` : a)).join(' ');
}

export function parseScript(script: string): Step[] {
  const steps: Step[] = [];
  const text = script.replace(/\\\n/g, ' ');
  const loop = /while\s+(?:true|:|\[\s*1\s*\]);?\s*do\s+([\s\S]*?);?\s*done/;
  const m = loop.exec(text);
  if (m) {
    steps.push(...parseCommands(text.slice(0, m.index)));
    steps.push({ kind: 'loop', body: parseCommands(m[1]!) });
    return steps;
  }
  return parseCommands(text);
}

function parseCommands(text: string): Step[] {
  const out: Step[] = [];
  for (const raw of text.split(/\s*(?:&&|;|\n|\|\|)\s*/)) {
    const cmd = raw.trim();
    if (!cmd || cmd === 'set -e' || cmd.startsWith('#')) continue;
    const [name, ...rest] = cmd.split(/\s+/);
    const arg = rest.join(' ');
    switch (name) {
      case 'echo':
        out.push({ kind: 'print', text: unquote(arg.replace(/^-[ne]\s+/, '')) });
        break;
      case 'printf':
        out.push({ kind: 'print', text: unquote(arg).replace(/\\n$/, '').replace(/\\n/g, '\n') });
        break;
      case 'sleep':
        out.push(
          arg === 'infinity' || arg === 'inf'
            ? { kind: 'forever' }
            : { kind: 'sleep', ms: Math.max(0, parseDuration(arg)) },
        );
        break;
      case 'exit':
        out.push({ kind: 'exit', code: Number.parseInt(arg || '0', 10) || 0 });
        break;
      case 'true':
      case ':':
        break;
      case 'false':
        out.push({ kind: 'exit', code: 1 });
        break;
      case 'date':
        out.push({ kind: 'print', text: '$(date)' });
        break;
      case 'hostname':
        out.push({ kind: 'print', text: '$(hostname)' });
        break;
      default:
        out.push({ kind: 'forever' });
    }
  }
  return out;
}

const unquote = (s: string) => s.trim().replace(/^(["'])(.*)\1$/s, '$2');

function parseDuration(arg: string): number {
  const m = /^(\d+(?:\.\d+)?)([smhd]?)$/.exec(arg.trim());
  if (!m) return 0;
  return Number(m[1]) * ({ '': 1000, s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000 }[m[2]!] ?? 1000);
}

/** The timeline of a parsed script: straight-line steps, then (at most) one loop that never ends. */
export function timelineOf(steps: Step[]): Timeline {
  let t = 0;
  const fixed: Array<{ offset: number; text: string }> = [];
  for (const step of steps) {
    if (step.kind === 'print') fixed.push({ offset: t, text: step.text });
    else if (step.kind === 'sleep') t += step.ms;
    else if (step.kind === 'exit') return straight(fixed, t, step.code);
    else if (step.kind === 'forever') return { lines: (from, until) => within(fixed, from, until), exitCode: 0 };
    else return looping(fixed, t, step.body);
  }
  return straight(fixed, t, 0);
}

type Lines = Array<{ offset: number; text: string }>;
const within = (lines: Lines, from: number, until: number) =>
  lines.filter((l) => l.offset >= from && l.offset <= until);

function straight(fixed: Lines, end: number, code: number): Timeline {
  return { lines: (from, until) => within(fixed, from, until), exitOffset: end, exitCode: code };
}

function looping(fixed: Lines, start: number, body: Step[]): Timeline {
  const inner = timelineOf(body.filter((s) => s.kind !== 'loop'));
  // A loop body without a sleep would print without end in no time: give each pass a second.
  const period = Math.max(1000, inner.exitOffset ?? 1000);
  return {
    lines(from, until) {
      const out = within(fixed, from, until);
      const body = inner.lines(0, period - 1);
      for (let pass = Math.max(0, Math.floor((from - start) / period)); start + pass * period <= until; pass++) {
        for (const l of body) {
          const offset = start + pass * period + l.offset;
          if (offset >= from && offset <= until) out.push({ offset, text: l.text });
        }
      }
      return out;
    },
    exitCode: 0,
  };
}
