/**
 * deploy/Dockerfile read as data, so its tests check and run what the file says rather than a copy of it.
 * A small reader for the forms the file uses (Dockerfile reference, docs.docker.com/reference/dockerfile/):
 * `#` comment lines, the default escape character `\` continuing a line (comment lines inside a continued
 * instruction are skipped, as BuildKit does), `FROM image [AS name]` starting a stage, and the JSON ("exec")
 * form of CMD and HEALTHCHECK CMD. The linter (dockerfile-utils' `validate()`) checks the syntax itself.
 */

export interface Instruction {
  /** Upper-case keyword: `FROM`, `RUN`, `COPY`, … */
  keyword: string;
  /** Everything after the keyword, continuation lines joined with one space. */
  args: string;
  /** 1-based line of the keyword. */
  line: number;
}

export interface Stage {
  /** The `AS` name, or the stage's index as text when it has none. */
  name: string;
  /** The base image (or an earlier stage's name). */
  from: string;
  instructions: Instruction[];
}

/** The instructions of a Dockerfile's text, in order (parser directives and comments left out). */
export function readInstructions(text: string): Instruction[] {
  const out: Instruction[] = [];
  const lines = text.split('\n');
  for (let i = 0; i < lines.length; i++) {
    const first = lines[i]!.trim();
    if (first === '' || first.startsWith('#')) continue;
    const line = i + 1;
    let joined = first;
    while (joined.endsWith('\\') && i + 1 < lines.length) {
      joined = joined.slice(0, -1).trimEnd();
      i++;
      const next = lines[i]!.trim();
      if (next.startsWith('#')) {
        joined += ' \\';
        continue;
      }
      joined += ` ${next}`;
    }
    const match = /^(\S+)\s*(.*)$/.exec(joined)!;
    out.push({ keyword: match[1]!.toUpperCase(), args: match[2]!.trim(), line });
  }
  return out;
}

/** The stages of a multi-stage Dockerfile (instructions before the first FROM, i.e. global ARGs, are dropped). */
export function readStages(text: string): Stage[] {
  const stages: Stage[] = [];
  for (const instruction of readInstructions(text)) {
    if (instruction.keyword === 'FROM') {
      const words = instruction.args.split(/\s+/).filter((w) => !w.startsWith('--'));
      const as = words.findIndex((w) => w.toUpperCase() === 'AS');
      stages.push({
        name: as >= 0 ? words[as + 1]! : String(stages.length),
        from: words[0]!,
        instructions: [instruction],
      });
    } else {
      stages.at(-1)?.instructions.push(instruction);
    }
  }
  return stages;
}

/** The exec (JSON) form of an instruction's arguments, e.g. CMD's; throws on the shell form, which we do not use. */
export function execForm(args: string): string[] {
  const parsed: unknown = JSON.parse(args);
  if (!Array.isArray(parsed) || !parsed.every((x) => typeof x === 'string')) {
    throw new Error(`not the exec form (a JSON array of strings): ${args}`);
  }
  return parsed;
}

/** A HEALTHCHECK's options and its command (exec form); `NONE` has no command. */
export function healthcheck(args: string): { options: Record<string, string>; command: string[] | 'NONE' } {
  const options: Record<string, string> = {};
  let rest = args;
  for (let m = /^--([a-z-]+)=(\S+)\s+/.exec(rest); m; m = /^--([a-z-]+)=(\S+)\s+/.exec(rest)) {
    options[m[1]!] = m[2]!;
    rest = rest.slice(m[0].length);
  }
  if (/^NONE$/i.test(rest)) return { options, command: 'NONE' };
  const cmd = /^CMD\s+(.*)$/i.exec(rest);
  if (!cmd) throw new Error(`HEALTHCHECK without CMD: ${args}`);
  return { options, command: execForm(cmd[1]!) };
}

/** A COPY's flags (`--from=build`, `--chown=…`), its sources and its destination. */
export function copyParts(args: string): { flags: Record<string, string>; sources: string[]; destination: string } {
  const words = args.split(/\s+/);
  const flags: Record<string, string> = {};
  while (words[0]?.startsWith('--')) {
    const [key, value = ''] = words.shift()!.slice(2).split('=');
    flags[key!] = value;
  }
  const destination = words.pop()!;
  return { flags, sources: words, destination };
}

/** `ENV a=1 b=2` (with `\` continuations already joined) as a record; quoted values lose their quotes. */
export function envPairs(args: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const m of args.matchAll(/([A-Za-z_][A-Za-z0-9_]*)=("[^"]*"|'[^']*'|\S*)/g)) {
    out[m[1]!] = m[2]!.replace(/^(["'])(.*)\1$/, '$2');
  }
  return out;
}

/** The value after `--flag` in an argument list (undefined when absent). */
export function flagValue(argv: readonly string[], flag: string): string | undefined {
  const at = argv.indexOf(flag);
  return at >= 0 ? argv[at + 1] : undefined;
}
