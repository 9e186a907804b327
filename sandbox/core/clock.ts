/**
 * Sandbox time: a wall clock that runs `speed` times faster than real time, so AWS's 8–12 minute
 * EKS create takes seconds in tests and minutes in a realistic demo. It only ever moves forward:
 * changing the speed or jumping ahead rebases it on the current instant.
 */
export interface ClockSnapshot {
  /** Sandbox time (epoch ms) at the last rebase. */
  baseSandboxMs: number;
  speed: number;
}

export class SandboxClock {
  private baseSandboxMs: number;
  private baseRealMs: number;
  private speedFactor: number;

  constructor(
    snapshot?: ClockSnapshot,
    private readonly realNow: () => number = Date.now,
  ) {
    this.baseRealMs = this.realNow();
    this.baseSandboxMs = snapshot?.baseSandboxMs ?? this.baseRealMs;
    this.speedFactor = snapshot?.speed ?? 1;
  }

  /** Current sandbox time in epoch milliseconds. */
  now(): number {
    return Math.floor(this.baseSandboxMs + (this.realNow() - this.baseRealMs) * this.speedFactor);
  }

  get speed(): number {
    return this.speedFactor;
  }

  setSpeed(speed: number): void {
    if (!Number.isFinite(speed) || speed <= 0 || speed > 1_000_000) {
      throw new RangeError('speed must be a number greater than 0 and at most 1000000');
    }
    this.rebase();
    this.speedFactor = speed;
  }

  /** Jumps sandbox time forward (never back): lets a test skip a long wait deterministically. */
  advance(ms: number): void {
    if (!Number.isFinite(ms) || ms < 0) throw new RangeError('advance must be a non-negative number of milliseconds');
    this.rebase();
    this.baseSandboxMs += ms;
  }

  /** Real milliseconds until sandbox time reaches `sandboxMs` (0 when already there). */
  realDelayUntil(sandboxMs: number): number {
    return Math.max(0, (sandboxMs - this.now()) / this.speedFactor);
  }

  snapshot(): ClockSnapshot {
    return { baseSandboxMs: this.now(), speed: this.speedFactor };
  }

  private rebase(): void {
    const now = this.now();
    this.baseRealMs = this.realNow();
    this.baseSandboxMs = now;
  }
}
