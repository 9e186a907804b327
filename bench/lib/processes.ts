import { spawn, type ChildProcess } from 'node:child_process';
import { closeSync, mkdtempSync, openSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The repository root (this file runs from dist/bench/lib/). */
export const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../../..');

/**
 * One child process the bench started. Output goes to a file, not a pipe: a pipe the bench reads
 * would make the measured server wait on the bench's own event loop when it logs.
 */
export interface Child {
  pid: number;
  process: ChildProcess;
  logFile: string;
  output(): string;
  stop(): Promise<void>;
}

export function tempDir(prefix: string): string {
  return mkdtempSync(join(tmpdir(), `instantstart-bench-${prefix}-`));
}

/** Every child still running, so an interrupted bench leaves no server behind. */
const running = new Set<ChildProcess>();

/** SIGTERM to every child the bench started and has not stopped yet. */
export function killChildren(): void {
  for (const child of running) child.kill('SIGTERM');
}

export function startChild(args: string[], logFile: string, env: NodeJS.ProcessEnv = process.env): Child {
  const fd = openSync(logFile, 'a');
  const child = spawn(process.execPath, args, { cwd: ROOT, env, stdio: ['ignore', fd, fd] });
  closeSync(fd);
  running.add(child);
  const exited = new Promise<void>((r) =>
    child.once('exit', () => {
      running.delete(child);
      r();
    }),
  );
  return {
    pid: child.pid!,
    process: child,
    logFile,
    output: () => readFileSync(logFile, 'utf8'),
    async stop() {
      if (child.exitCode !== null || child.signalCode !== null) return;
      child.kill('SIGTERM');
      const killer = setTimeout(() => child.kill('SIGKILL'), 20_000);
      await exited;
      clearTimeout(killer);
    },
  };
}

/** Waits until `pattern` appears in the child's output; its first group is the answer. */
export async function waitForOutput(child: Child, pattern: RegExp, timeoutMs: number, what: string): Promise<string> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const m = pattern.exec(child.output());
    if (m) return m[1]!;
    if (child.process.exitCode !== null)
      throw new Error(`${what}: the process exited (${child.process.exitCode}):\n${child.output().slice(-2000)}`);
    if (Date.now() > deadline)
      throw new Error(`${what}: not seen within ${timeoutMs / 1000} s:\n${child.output().slice(-2000)}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

/** A port free right now on 127.0.0.1 (for a server whose address must be known before it prints it). */
export async function freePort(): Promise<number> {
  return new Promise((resolvePort, reject) => {
    const s = createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address() as { port: number };
      s.close(() => resolvePort(port));
    });
  });
}

/** Resident set size of one process in kB (Linux /proc); NaN once it is gone. */
export function rssKb(pid: number): number {
  try {
    const m = /VmRSS:\s+(\d+)\s+kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return m ? Number(m[1]) : Number.NaN;
  } catch {
    return Number.NaN;
  }
}

/** The process and every descendant (a sandbox or worker the server starts as a process). */
export function processTree(pid: number): number[] {
  const parents = new Map<number, number[]>();
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      // Field 4 of /proc/<pid>/stat is the parent; the command name in field 2 may hold spaces.
      const stat = readFileSync(`/proc/${name}/stat`, 'utf8');
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      parents.set(ppid, [...(parents.get(ppid) ?? []), Number(name)]);
    } catch {
      // the process ended while we looked
    }
  }
  const out = [pid];
  for (let i = 0; i < out.length; i++) out.push(...(parents.get(out[i]!) ?? []));
  return out;
}

/** Samples the RSS of a process (alone and with its descendants) until stopped; keeps the peaks. */
export class RssSampler {
  peakKb = 0;
  peakTreeKb = 0;
  private timer: NodeJS.Timeout;
  constructor(
    private readonly pid: number,
    everyMs = 250,
  ) {
    this.timer = setInterval(() => this.sample(), everyMs);
    this.sample();
  }
  sample(): { kb: number; treeKb: number } {
    const kb = rssKb(this.pid);
    const treeKb = processTree(this.pid).reduce((sum, p) => sum + (rssKb(p) || 0), 0);
    if (kb > this.peakKb) this.peakKb = kb;
    if (treeKb > this.peakTreeKb) this.peakTreeKb = treeKb;
    return { kb, treeKb };
  }
  stop(): void {
    clearInterval(this.timer);
  }
}

export function removeDir(dir: string): void {
  rmSync(dir, { recursive: true, force: true });
}
