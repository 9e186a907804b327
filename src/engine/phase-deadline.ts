import { PhaseDeadlineExceeded } from './failures.js';
import type { PhaseDeadline } from './workflow.js';

/** The journaled clocks of a phase's current change (PhaseRecord.actStartedAt / waitStartedAt). */
export interface PhaseClocks {
  actStartedAt?: string;
  waitStartedAt?: string;
}

/** A new attempt's clocks (a journal patch): nothing acted or waited for yet — a retry's deadline starts anew. */
export const FRESH_CLOCKS = { actStartedAt: null, waitStartedAt: null } as const;

/** The step a phase is in, as far as deadlines go. */
export type DeadlineStep = 'observe' | 'act' | 'await';

/** What a phase's deadline timer needs to know. */
export interface DeadlineTimerOptions {
  title: string;
  deadline: PhaseDeadline;
  expectedSeconds: number;
  /** Real ms per cloud ms (PollingOptions.timeScale): a wait's deadline is in cloud seconds, like every wait. */
  timeScale: number;
  /** No deadline ends sooner than this many real ms (PollingOptions.minDeadlineMs). */
  minDeadlineMs: number;
  /** True while the cloud does not answer: the outage rule (OUTAGE_RETRY_MS) decides then, the deadline waits. */
  held(): boolean;
  nowMs(): number;
  /** What the wait last saw (its latest progress line), for the message. */
  lastSeen(): string | undefined;
  /** Called once when the deadline passes: the phase loop aborts the phase with this error. */
  expire(err: PhaseDeadlineExceeded): void;
}

interface Due {
  step: 'act' | 'wait';
  atMs: number;
}

/** How often a deadline that passed while the cloud was silent looks again whether it answers. */
const HELD_RECHECK_MS = 1000;

/** setTimeout's longest delay; a later deadline is re-armed when this one fires. */
const MAX_TIMER_MS = 2 ** 31 - 1;

/**
 * The deadline that holds for one run of one phase. Its start is always a journaled time (when the change first
 * acted, when its wait began), never this process's start, so a restart does not reset it; the timer only turns it
 * into an abort at the right moment. While acting, the act's deadline holds; while awaiting, the wait's; while
 * observing, the wait's once the change is waited for, else the act's once it acted (observing again after a crash
 * in act), else none.
 */
export class DeadlineTimer {
  private timer: NodeJS.Timeout | undefined;
  private armed: Due | undefined;
  private expired = false;

  constructor(private readonly options: DeadlineTimerOptions) {}

  /** Arms the timer for the deadline that holds in `step` with these clocks (re-arms only when it moved). */
  follow(step: DeadlineStep, clocks: PhaseClocks): void {
    const due = this.dueFor(step, clocks);
    if (due?.atMs === this.armed?.atMs && due?.step === this.armed?.step) return;
    this.stop();
    this.armed = due;
    if (due) this.arm(due);
  }

  stop(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    this.armed = undefined;
  }

  private dueFor(step: DeadlineStep, { actStartedAt, waitStartedAt }: PhaseClocks): Due | undefined {
    const { deadline, timeScale, minDeadlineMs } = this.options;
    const at = (startedAt: string, ms: number) => Date.parse(startedAt) + Math.max(minDeadlineMs, ms);
    // An act is calls to the cloud: real round trips and the SDK's real-time retries, which a sped-up clock does not
    // shorten. A wait is the cloud's own work, which it does: its deadline follows the time scale.
    const act = actStartedAt ? { step: 'act' as const, atMs: at(actStartedAt, deadline.actSeconds * 1000) } : undefined;
    const wait = waitStartedAt
      ? { step: 'wait' as const, atMs: at(waitStartedAt, deadline.waitSeconds * 1000 * timeScale) }
      : undefined;
    if (step === 'act') return act;
    if (step === 'await') return wait;
    return wait ?? act;
  }

  private arm(due: Due): void {
    const delay = Math.min(MAX_TIMER_MS, Math.max(0, due.atMs - this.options.nowMs()));
    this.timer = setTimeout(() => {
      this.timer = undefined;
      if (this.armed !== due || this.expired) return;
      if (this.options.nowMs() < due.atMs) return this.arm(due); // a deadline beyond one timer, or a clock behind
      if (this.options.held()) {
        this.armed = { ...due, atMs: this.options.nowMs() + HELD_RECHECK_MS };
        return this.arm(this.armed);
      }
      this.expired = true;
      this.options.expire(new PhaseDeadlineExceeded(this.message(due.step)));
    }, delay);
    this.timer.unref?.();
  }

  private message(step: 'act' | 'wait'): string {
    const { title, deadline, expectedSeconds } = this.options;
    if (step === 'act') {
      return (
        `${title}: its change did not return within ${duration(deadline.actSeconds)} (the act's deadline); it was ` +
        'abandoned, and what it asked the cloud for may still happen. Retrying the phase observes actual state first.'
      );
    }
    const seen = this.options.lastSeen();
    return (
      `${title}: still not finished after ${duration(deadline.waitSeconds)} of waiting (the wait's deadline; ` +
      `it usually takes ${duration(expectedSeconds)}). Last seen: ${seen ? seen : 'no progress reported yet'}. ` +
      'Look at the resource; retrying the phase observes actual state first and waits again with a fresh deadline.'
    );
  }
}

/** `45 s`, `12 min`, `2 h 30 min` (cloud time). */
export function duration(seconds: number): string {
  if (seconds < 90) return `${Math.round(seconds * 10) / 10} s`;
  const minutes = Math.round(seconds / 60);
  if (minutes < 120) return `${minutes} min`;
  const hours = Math.floor(minutes / 60);
  const rest = minutes % 60;
  return rest ? `${hours} h ${rest} min` : `${hours} h`;
}
