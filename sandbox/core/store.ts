import { mkdirSync, readFileSync, renameSync, writeFileSync, existsSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import type { ClockSnapshot } from './clock.js';

/**
 * The sandbox's whole world. Each service owns one top-level section (created lazily by that
 * service's `section()` accessor); other services reach into it only through the owner's exported
 * functions, never by shape.
 */
export interface SandboxState {
  schemaVersion: 1;
  clock?: ClockSnapshot;
  [section: string]: unknown;
}

const STATE_FILE = 'state.json';

export function emptyState(): SandboxState {
  return { schemaVersion: 1 };
}

/**
 * Persists the state as one JSON document in the state directory, written atomically
 * (temp file + rename) shortly after each change and on shutdown, so a restart keeps every resource.
 */
export class StateStore {
  state: SandboxState;
  private timer: NodeJS.Timeout | undefined;
  /** How long the last write took: a large world (thousands of nodes) is written less often. */
  private lastFlushMs = 0;

  constructor(
    readonly dir: string,
    private readonly clockSnapshot: () => ClockSnapshot,
    private readonly debounceMs = 50,
  ) {
    mkdirSync(dir, { recursive: true });
    this.state = this.load();
  }

  private load(): SandboxState {
    const file = join(this.dir, STATE_FILE);
    if (!existsSync(file)) return emptyState();
    const parsed = JSON.parse(readFileSync(file, 'utf8')) as SandboxState;
    if (parsed.schemaVersion !== 1)
      throw new Error(`${file}: unsupported sandbox state version ${String(parsed.schemaVersion)}`);
    return parsed;
  }

  /**
   * Schedules a save; many changes in a burst cost one write. The wait grows with the cost of the
   * last write (20×, at most a minute: what a crash of the sandbox process can lose), so writing the
   * state takes about 5 % of the time however large it gets — a world of 5,000 nodes and their pods
   * takes 2–3 s to write, which the former 5 s ceiling repeated for 40 % of the time, blocking
   * every request meanwhile; shutdown still flushes at once.
   */
  markDirty(): void {
    if (this.timer) return;
    this.timer = setTimeout(() => this.flush(), Math.min(60_000, Math.max(this.debounceMs, this.lastFlushMs * 20)));
    this.timer.unref();
  }

  flush(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    this.state.clock = this.clockSnapshot();
    const file = join(this.dir, STATE_FILE);
    const tmp = `${file}.${process.pid}.tmp`;
    const started = performance.now();
    writeFileSync(tmp, JSON.stringify(this.state));
    renameSync(tmp, file);
    this.lastFlushMs = performance.now() - started;
  }

  /** Forgets every resource (the catalogue is code, so it stays). */
  reset(): void {
    this.state = emptyState();
    rmSync(join(this.dir, 'blobs'), { recursive: true, force: true });
    this.flush();
  }

  /** A directory for large payloads (S3 object bodies) that do not belong in the JSON document. */
  blobDir(): string {
    const dir = join(this.dir, 'blobs');
    mkdirSync(dir, { recursive: true });
    return dir;
  }
}
