import type { PhaseStatus } from '../domain/schemas/operations.js';
import type { PhaseRecord } from '../store/operations-store.js';
import { raceAbort, sleep } from './abort.js';
import { isOutage, isTransient, MAX_TRANSIENT_RETRIES, OUTAGE_RETRY_MS, silentParty } from './failures.js';
import type { OperationJournal } from './journal.js';
import { DeadlineTimer, type PhaseClocks } from './phase-deadline.js';
import { PollSchedule } from './poll-schedule.js';
import type { SharedPoller } from './poller.js';
import { MIN_DEADLINE_MS, transientBackoffMs, type PollingOptions } from './polling.js';
import type { AwaitOutcome, ObserveOutcome, PhaseContext, PhaseDefinition } from './workflow.js';

type Step = 'observe' | 'act' | 'await';

/** Everything one run of one phase needs. */
export interface PhaseLoopEnv {
  definition: PhaseDefinition<unknown, Record<string, unknown>>;
  /** The phase row as it was when this run began (after the attempt was counted). */
  record: PhaseRecord;
  context: PhaseContext<unknown, Record<string, unknown>>;
  journal: OperationJournal;
  /** This phase's signal: aborted by a cancel or a stop of the run, and by the phase's own deadline (`expire`). */
  signal: AbortSignal;
  /** Aborts this phase alone (its signal) with `err`: how a deadline that passed ends it. */
  expire(err: unknown): void;
  polling: PollingOptions;
  poller: SharedPoller;
  random: () => number;
  nowMs: () => number;
}

const OBSERVE_OUTCOMES: readonly ObserveOutcome[] = ['done', 'in-progress', 'needs-act'];

/**
 * Runs one phase to completion: observe → (act) → await, journaling each state before entering it
 * (and observe again when await hands back with `observeAgain`). Awaits sleep on the wait's
 * PollSchedule, shared per resource through the SharedPoller.
 * Resolves with the final phase status (`skipped` when observe found the work done and no attempt
 * ever acted, else `succeeded`). Rejects with the error that failed the phase, or with the signal's
 * reason on cancel/stop; the caller journals those outcomes.
 *
 * Transient cloud errors are absorbed here: up to {@link MAX_TRANSIENT_RETRIES} in a row, with
 * backoff and a warn line each. A cloud that does not answer at all (timeouts, unreachable) is an
 * outage instead: retried with backoff for up to {@link OUTAGE_RETRY_MS}, shown once as the phase's
 * progress and one warn line, and closed by one info line when the cloud answers again. A failed act
 * is never repeated blindly: the loop goes back to observe.
 *
 * The phase's deadline (PhaseDefinition.deadline) counts from the journaled clocks of its change — when it first
 * acted, when its wait began — so a restart resumes the count; past it the phase rejects with
 * PhaseDeadlineExceeded, naming what it waited for and what it last saw.
 */
export async function runPhaseLoop(env: PhaseLoopEnv): Promise<Extract<PhaseStatus, 'succeeded' | 'skipped'>> {
  const { definition: phase, context: ctx, journal, signal } = env;
  const startedAtMs = env.record.startedAt ? Date.parse(env.record.startedAt) : env.nowMs();
  let acted = env.record.acted;
  let progress = env.record.progress;
  let step: Step = 'observe';
  let failures = 0;
  let failedStep: Step | undefined;
  const waits = new WaitSchedules(env, startedAtMs);
  let outage: { since: number; attempts: number; who: string } | undefined;
  const clocks: PhaseClocks = {
    ...(env.record.actStartedAt === undefined ? {} : { actStartedAt: env.record.actStartedAt }),
    ...(env.record.waitStartedAt === undefined ? {} : { waitStartedAt: env.record.waitStartedAt }),
  };
  const deadline = new DeadlineTimer({
    title: phase.title,
    deadline: phase.deadline,
    expectedSeconds: phase.expectedSeconds,
    timeScale: env.polling.timeScale,
    minDeadlineMs: env.polling.minDeadlineMs ?? MIN_DEADLINE_MS,
    held: () => outage !== undefined,
    nowMs: env.nowMs,
    lastSeen: () => (outage ? `${outage.who} is not answering` : progress),
    expire: env.expire,
  });
  // The wait of the current change begins (journaled once: a wait resumed after a restart keeps its start).
  const beginWait = () => {
    const patch = clocks.waitStartedAt === undefined ? { waitStartedAt: journal.timestamp() } : {};
    Object.assign(clocks, patch);
    return patch;
  };

  // A run of transient errors ends when the work moves forward. Observe answering "needs-act"
  // after a failed act is not progress: the act must get through before the count starts over.
  const madeProgress = () => {
    failures = 0;
    failedStep = undefined;
  };

  // Any answer from the cloud ends an outage: say so once, and show the phase's own progress again.
  const answered = () => {
    if (!outage) return;
    const { since, who } = outage;
    outage = undefined;
    journal.together(() => {
      journal.log(
        'info',
        `${who} answers again after ${Math.round((env.nowMs() - since) / 1000)} s without an answer; carrying on.`,
        phase.name,
      );
      journal.phase(phase.name, { progress: progress ?? null });
    });
  };

  try {
    for (;;) {
      signal.throwIfAborted();
      deadline.follow(step, clocks);
      try {
        if (step === 'observe') {
          journal.phase(phase.name, { status: 'observing' });
          const outcome = await raceAbort(phase.observe(ctx), signal);
          answered();
          if (!OBSERVE_OUTCOMES.includes(outcome))
            throw new Error(
              `Phase '${phase.name}' observe returned ${JSON.stringify(outcome)}, expected done, in-progress or needs-act.`,
            );
          if (outcome !== 'needs-act' || failedStep === 'observe') madeProgress();
          if (outcome === 'done') {
            if (phase.verdict !== undefined) {
              // A check that passed is a result, not a step found already done.
              const verdict = phase.verdict;
              journal.together(() => {
                journal.phase(phase.name, { progress: verdict });
                journal.log('info', verdict, phase.name);
              });
              return 'succeeded';
            }
            if (!acted) journal.log('info', 'Already in place; nothing to change.', phase.name);
            return acted ? 'succeeded' : 'skipped';
          }
          if (outcome === 'needs-act') {
            if (!phase.act) throw new Error(`Phase '${phase.name}' needs a change but defines no act.`);
            step = 'act';
            continue;
          }
          journal.together(() => {
            journal.phase(phase.name, { status: 'awaiting', ...beginWait() });
            journal.log('info', 'Already under way; waiting for it to finish.', phase.name);
          });
          step = 'await';
          continue;
        }

        if (step === 'act') {
          // Journaled and durable BEFORE the mutation: a crash from here on resumes at observe. The act's clock starts
          // with its first try and runs on through repeats (after a restart or a transient error) until act returns.
          const actClock = clocks.actStartedAt === undefined ? { actStartedAt: journal.timestamp() } : {};
          journal.phase(phase.name, { status: 'acting', acted: true, ...actClock });
          Object.assign(clocks, actClock);
          deadline.follow('act', clocks);
          acted = true;
          await raceAbort(phase.act!(ctx), signal);
          answered();
          madeProgress();
          if (!phase.await) return 'succeeded'; // its clocks no longer matter: a new attempt starts them anew
          clocks.actStartedAt = undefined;
          journal.phase(phase.name, { status: 'awaiting', actStartedAt: null, ...beginWait() });
          step = 'await';
          continue;
        }

        // step === 'await'
        await sleep(waits.current().delayMs(env.nowMs()), signal);
        if (!phase.await) {
          // Observe said "in progress" but there is nothing else to poll: observe again.
          step = 'observe';
          continue;
        }
        const outcome = await poll(env);
        answered();
        madeProgress();
        if (outcome.progress !== undefined && outcome.progress !== progress) {
          progress = outcome.progress;
          journal.phase(phase.name, { progress });
        }
        if (outcome.done) return 'succeeded';
        if (outcome.observeAgain) {
          // The next wait is another change (made by the next act): its schedule and its deadline start anew.
          waits.restart();
          journal.phase(phase.name, { actStartedAt: null, waitStartedAt: null });
          clocks.actStartedAt = undefined;
          clocks.waitStartedAt = undefined;
          step = 'observe';
        }
      } catch (err) {
        if (signal.aborted) throw signal.reason;
        if (isOutage(err)) {
          if (!outage) {
            const started = { since: env.nowMs(), attempts: 0, who: silentParty(err) };
            outage = started;
            journal.together(() => {
              journal.log(
                'warn',
                `${started.who} is not answering (${err.service} ${err.operation}: ${err.code}); retrying with backoff until it answers, for at most ${OUTAGE_RETRY_MS / 60_000} minutes.`,
                phase.name,
              );
              journal.phase(phase.name, { progress: `${started.who} is not answering, retrying` });
            });
          } else if (env.nowMs() - outage.since >= OUTAGE_RETRY_MS) {
            throw err;
          }
          outage.attempts++;
          await sleep(transientBackoffMs(outage.attempts, env.polling, env.random), signal);
          if (step === 'act') step = 'observe';
          continue;
        }
        if (!isTransient(err) || failures >= MAX_TRANSIENT_RETRIES) throw err;
        failures++;
        failedStep = step;
        journal.log(
          'warn',
          `${err.code} from ${err.service} ${err.operation} (transient, retry ${failures} of ${MAX_TRANSIENT_RETRIES}): ${err.message}`,
          phase.name,
        );
        await sleep(transientBackoffMs(failures, env.polling, env.random), signal);
        if (step === 'act') step = 'observe';
      }
    }
  } finally {
    deadline.stop();
    waits.leave();
  }
}

/**
 * The schedule of the phase's current wait: the resource's shared one when the phase names it
 * (`pollKey`), else its own. It is anchored where the wait began — the phase's start, kept across a
 * restart, so a resumed wait continues where it stands — and anew after `observeAgain`.
 */
class WaitSchedules {
  private watch: { key: string | undefined; schedule: PollSchedule; leave(): void } | undefined;
  private startedAtMs: number;

  constructor(
    private readonly env: PhaseLoopEnv,
    startedAtMs: number,
  ) {
    this.startedAtMs = startedAtMs;
  }

  current(): PollSchedule {
    const { definition: phase, context } = this.env;
    // The key may name what act just made (e.g. the NAT gateway's id), so it is read for each wait.
    const key = phase.await ? phase.pollKey?.(context) : undefined;
    if (this.watch && this.watch.key === key) return this.watch.schedule;
    this.leave();
    const start = () =>
      new PollSchedule({
        startedAtMs: this.startedAtMs,
        expectedSeconds: phase.expectedSeconds,
        polling: this.env.polling,
        random: this.env.random,
      });
    const watch = key === undefined ? { schedule: start(), leave: () => undefined } : this.env.poller.watch(key, start);
    this.watch = { key, ...watch };
    return watch.schedule;
  }

  restart(): void {
    this.leave();
    this.startedAtMs = this.env.nowMs();
  }

  leave(): void {
    this.watch?.leave();
    this.watch = undefined;
  }
}

async function poll(env: PhaseLoopEnv): Promise<AwaitOutcome> {
  const { definition: phase, context: ctx, signal } = env;
  const key = phase.pollKey?.(ctx);
  const call = () => phase.await!(ctx);
  const outcome = key === undefined ? call() : env.poller.poll(key, call, signal);
  return raceAbort(outcome, signal);
}
