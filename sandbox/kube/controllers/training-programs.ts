import type { KubeObject } from '../types.js';
import { injectedFaults } from './injected-faults.js';
import { DEFAULT_NCCL_TIMEOUT_MS, ncclWatchdogLines } from './nccl-watchdog.js';
import {
  annotationNumber,
  commandLine,
  inRange,
  literalEnv,
  periodic,
  PREFIX,
  type Line,
  type Program,
} from './program-lines.js';
import { agentLine, RECIPES, textAt, type Recipe, type Text, type TrainingRun } from './training-recipes.js';
import { runsElasticAgent } from './training-pods.js';
import { unit, type Any } from './util.js';

/**
 * The simulated trainers. Every variant prints its start-up (NCCL init, an "Experiment
 * configuration" banner), then a metrics line per step — containing `step=N loss=… tokens/s=… lr=…`,
 * the loss falling, the throughput steady — and after `steps` steps a checkpoint line and exit 0.
 * The variant is the pod annotation `sandbox.instantstart.dev/program` (`torchrun`, `llamafactory`,
 * `swift`, `megatron`, `verl`; `training` picks by command), else the container's command:
 * `torchrun`/`hyperpodrun`, `llamafactory-cli train`, `swift sft`, `megatron rlhf|sft|pt`,
 * `python3 -m verl.trainer.main_ppo` — or the frameworks' entries started by hyperpodrun, as the
 * recipes start them (`llamafactory.launcher`, `swift.cli.sft`, `swift.cli._megatron.rlhf`). Started
 * through hyperpodrun, a trainer's log opens with the HyperPod elastic agent's line.
 *
 * Scenarios, from pod annotations (a rank is the pod's `NODE_RANK`, what the training operator
 * injects; without `…-rank` every rank plays it): `crash-at-step` (exit `exit-code`, 1, at that step;
 * `crash-runs` limits it to the first runs of the container), `hang-at-step` (prints nothing after
 * that step and never exits), `slow-at-step` (throughput down to a third from that step). Faults
 * injected into a run from outside (injected-faults.ts) end or freeze it at their time; an injected NCCL timeout
 * freezes it and, the process group's timeout later, ends it with the NCCL watchdog's abort (nccl-watchdog.ts).
 */

export const TRAINING_VARIANTS = ['training', 'torchrun', 'llamafactory', 'swift', 'megatron', 'verl'] as const;
export type TrainingVariant = (typeof TRAINING_VARIANTS)[number];

export const isTrainingVariant = (name: string): name is TrainingVariant =>
  (TRAINING_VARIANTS as readonly string[]).includes(name);

/** The metrics every trainer's step line carries (the shared contract), wherever the tool's own text puts them. */
export const METRIC_LINE = /\bstep=(\d+) loss=([\d.]+) tokens\/s=([\d.]+) lr=([\d.]+(?:e[+-]?\d+)?)/;

export function parseMetricLine(
  text: string,
): { step: number; loss: number; tokensPerSecond: number; lr: number } | undefined {
  const m = METRIC_LINE.exec(text);
  return m ? { step: Number(m[1]), loss: Number(m[2]), tokensPerSecond: Number(m[3]), lr: Number(m[4]) } : undefined;
}

/** The recipe a command line runs, when it is one the sandbox knows. */
export function trainingVariantOf(container: Any): Exclude<TrainingVariant, 'training'> | undefined {
  const line = commandLine(container);
  if (/verl\.trainer\.main_ppo/.test(line)) return 'verl';
  if (/\bllamafactory-cli\s+train\b|\bllamafactory[./]launcher\b/.test(line)) return 'llamafactory';
  if (/\bswift\s+sft\b|\bswift[./]cli[./]sft\b/.test(line)) return 'swift';
  if (/\bmegatron\s+(rlhf|sft|pt)\b|\bswift[./]cli[./]_megatron[./](rlhf|sft|pt)\b/.test(line)) return 'megatron';
  if (/(^|[\s/])(torchrun|hyperpodrun)(\s|$)|torch\.distributed\.(run|launch)/.test(line)) return 'torchrun';
  return undefined;
}

const GENERIC_STEP_SECONDS = 10;

export function trainingProgram(pod: KubeObject, container: Any, run: number, variant: TrainingVariant): Program {
  const recipe = RECIPES[variant === 'training' ? (trainingVariantOf(container) ?? 'training') : variant];
  const a = pod.metadata.annotations ?? {};
  const steps = Math.floor(annotationNumber(a, 'steps', 100));
  // Down to a millisecond a step: a flood of lines for log benchmarks (bench/job-logs.ts).
  const period = Math.max(0.001, annotationNumber(a, 'step-seconds', GENERIC_STEP_SECONDS)) * 1000;
  const ctx = trainingRun(pod, container, run, steps, period);
  const stepAt = (i: number) => recipe.warmupMs + i * period;
  const loss = lossCurve(ctx, steps);
  const baseTps = recipe.tokensPerGpu * (0.8 + unit(`${ctx.seed}|tp`) * 0.4) * Math.max(1, ctx.gpus);
  const slowFrom = scenarioStep(a, 'slow', ctx);
  const metrics = (i: number) => ({
    loss: loss(i),
    tps: baseTps * (0.97 + unit(`${ctx.seed}|t${i}`) * 0.06) * (slowFrom !== undefined && i >= slowFrom ? 0.33 : 1),
    lr: recipe.lr(i, Math.max(1, steps)),
  });

  // How the run ends: done, a scripted crash, or a fault injected into it from outside, whichever
  // comes first — unless it hangs before: a frozen process never gets to its own end, only a kill
  // from outside (an injected crash, the operator's restart) still ends it.
  const natural: Ending[] = [];
  if (steps > 0) natural.push({ kind: 'done', atMs: stepAt(steps) + 1000, lastStep: steps });
  const crash = scenarioStep(a, 'crash', ctx);
  const crashRuns = annotationNumber(a, 'crash-runs', Infinity);
  if (crash !== undefined && crash >= 1 && run < crashRuns && (steps <= 0 || crash <= steps))
    natural.push({ kind: 'crash', atMs: stepAt(crash), lastStep: crash - 1 });
  const hangs: Ending[] = [];
  const hang = scenarioStep(a, 'hang', ctx);
  if (hang !== undefined && (steps <= 0 || hang < steps))
    hangs.push({ kind: 'hang', atMs: stepAt(hang), lastStep: hang });
  const kills: Ending[] = [];
  for (const injected of injectedFaults(pod, String(container.name), run)) {
    const stepThen = Math.floor((injected.afterMs - recipe.warmupMs) / period);
    if (injected.kind === 'nccl-timeout') {
      // The collective in flight never completes: output stops now, and the watchdog aborts the process once the
      // process group's timeout has passed (nccl-watchdog.ts).
      const watchdogMs = injected.timeoutMs ?? DEFAULT_NCCL_TIMEOUT_MS;
      hangs.push({ kind: 'hang', atMs: injected.afterMs, lastStep: stepThen });
      kills.push({ kind: 'crash', atMs: injected.afterMs + watchdogMs, lastStep: stepThen, watchdogMs });
      continue;
    }
    (injected.kind === 'hang' ? hangs : kills).push({
      kind: injected.kind,
      atMs: injected.afterMs,
      lastStep: stepThen,
      ...(injected.reason ? { reason: injected.reason } : {}),
    });
  }
  const first = (list: Ending[]) => [...list].sort((x, y) => x.atMs - y.atMs)[0];
  const frozen = first(hangs);
  const natEnd = first(natural);
  const end = frozen && (!natEnd || frozen.atMs < natEnd.atMs) ? first(kills) : first([...natural, ...kills]);
  // Output stops at the freeze (the step it hung at still printed) or just before the end.
  const printedUntil = Math.min(
    frozen && (!end || frozen.atMs < end.atMs) ? frozen.atMs + 0.5 : Infinity,
    end ? end.atMs - 0.5 : Infinity,
  );
  const lastStep = Math.min(
    frozen?.lastStep ?? Infinity,
    end?.lastStep ?? Infinity,
    steps > 0 ? steps : Number.MAX_SAFE_INTEGER,
  );

  const exitCode =
    end?.kind === 'crash' ? Math.floor(annotationNumber(a, 'exit-code', 1)) || 1 : end?.kind === 'restart' ? 143 : 0;
  return {
    lines(t0, from, until) {
      const before = (l: Line) => l.at <= t0 + printedUntil;
      const preamble = [
        ...(ctx.agent ? [agentLine(ctx)] : []),
        ...recipe.preamble(ctx),
        ...mlflowLines(container, recipe),
      ].map((l) => ({ at: t0 + l.offset, text: textAt(l.text, t0 + l.offset) }));
      const firstStep = t0 + recipe.warmupMs;
      const stepLines = periodic(firstStep, from, Math.min(until, t0 + printedUntil), period, 1, lastStep, (i) =>
        recipe.step(i, metrics(i), ctx, firstStep + i * period),
      );
      const at = end ? t0 + end.atMs : 0;
      const closing = end
        ? endingLines(recipe, end, ctx, metrics(Math.max(1, lastStep)), !!frozen && frozen.atMs < end.atMs).map(
            (text) => ({ at, text: textAt(text, at) }),
          )
        : [];
      return [
        ...inRange(preamble, from, until).filter(before),
        ...stepLines.filter(before),
        ...inRange(closing, from, until),
      ];
    },
    ...(end ? { exitAfterMs: end.kind === 'done' ? end.atMs + 1000 : end.atMs } : {}),
    exitCode,
  };
}

interface Ending {
  kind: 'done' | 'crash' | 'hang' | 'restart';
  /** Milliseconds after the run's start. */
  atMs: number;
  lastStep: number;
  reason?: string;
  /** A crash by PyTorch's NCCL watchdog after this timeout: the rank prints the watchdog's lines. */
  watchdogMs?: number;
}

function endingLines(
  recipe: Recipe,
  end: Ending,
  ctx: TrainingRun,
  last: { loss: number },
  wasFrozen: boolean,
): Text[] {
  if (end.kind === 'done') return recipe.finish(ctx, last.loss);
  // The watchdog is a thread of the frozen process: it still prints, then aborts the process.
  if (end.kind === 'crash' && end.watchdogMs !== undefined)
    return ncclWatchdogLines(ctx, Math.max(1, end.lastStep + 1), end.watchdogMs);
  // A frozen process killed from outside prints nothing of its own.
  if (end.kind === 'crash') return wasFrozen ? [] : recipe.crash(ctx, end.lastStep + 1);
  return [
    `[hyperpod-elastic-agent] stopping the training processes of rank ${ctx.rank} (${end.reason ?? 'restart requested'}): sending SIGTERM, restarting in place`,
  ];
}

/** A trainer given MLFLOW_TRACKING_URI says where its metrics go (the managed MLflow simulation records them). */
function mlflowLines(container: Any, recipe: Recipe): Array<{ offset: number; text: string }> {
  const uri = literalEnv(container, 'MLFLOW_TRACKING_URI');
  if (!uri) return [];
  const experiment = literalEnv(container, 'MLFLOW_EXPERIMENT_NAME') ?? 'Default';
  const run = literalEnv(container, 'MLFLOW_RUN_NAME') ?? literalEnv(container, 'JOB_NAME') ?? 'run';
  return [
    {
      offset: Math.max(0, recipe.warmupMs - 200),
      text: `mlflow: logging metrics to ${uri} (experiment "${experiment}", run "${run}")`,
    },
  ];
}

/** The step a scenario annotation names, when it applies to this pod's rank. */
function scenarioStep(
  a: Record<string, string>,
  scenario: 'crash' | 'hang' | 'slow',
  ctx: TrainingRun,
): number | undefined {
  const step = annotationNumber(a, `${scenario}-at-step`, NaN);
  if (!Number.isFinite(step)) return undefined;
  const rank = a[`${PREFIX}${scenario}-rank`];
  if (rank !== undefined && rank.trim() !== '' && Number(rank) !== ctx.rank) return undefined;
  return Math.floor(step);
}

/** Loss falling from ~2.2–3.6 toward ~0.9–1.4, the same curve on every rank of a job (the loss is all-reduced). */
function lossCurve(ctx: TrainingRun, steps: number): (i: number) => number {
  const start = 2.2 + unit(ctx.jobSeed) * 1.4;
  const floor = 0.9 + unit(`${ctx.jobSeed}|floor`) * 0.5;
  const tau = Math.max(30, steps / 3);
  return (i) => floor + (start - floor) * Math.exp(-i / tau) + (unit(`${ctx.jobSeed}|${i}`) - 0.5) * 0.02;
}

/** What a trainer knows about itself: the operator's environment, its GPUs and network. */
function trainingRun(pod: KubeObject, container: Any, run: number, steps: number, periodMs: number): TrainingRun {
  const limits = { ...((container.resources?.requests ?? {}) as Any), ...((container.resources?.limits ?? {}) as Any) };
  const gpus =
    Math.max(
      Number(limits['nvidia.com/gpu'] ?? 0),
      Number(limits['aws.amazon.com/neuroncore'] ?? 0),
      Number(limits['aws.amazon.com/neuron'] ?? 0),
    ) || 0;
  // The job a trainer belongs to: what the training operator tells it, else what its pod is labelled with (a RayJob's
  // submitter, a batch Job).
  const labels = pod.metadata.labels ?? {};
  const jobName =
    literalEnv(container, 'JOB_NAME') ??
    labels.HPJob ??
    labels['ray.io/originated-from-cr-name'] ??
    labels['batch.kubernetes.io/job-name'];
  const nproc = Math.max(1, gpus);
  const rank = Number(literalEnv(container, 'NODE_RANK') ?? 0) || 0;
  const pods = Math.max(1, Number(literalEnv(container, 'WORLD_SIZE') ?? 1) || 1);
  const seed = `${pod.metadata.uid}|${container.name}|${run}`;
  return {
    pod,
    container,
    run,
    steps,
    periodMs,
    seed,
    jobSeed: jobName ? `${pod.metadata.namespace}/${jobName}` : seed,
    jobName: jobName ?? pod.metadata.name ?? 'job',
    rank,
    pods,
    gpus,
    nproc,
    worldSize: pods * nproc,
    ...(literalEnv(container, 'FI_PROVIDER') !== undefined
      ? { fiProvider: String(literalEnv(container, 'FI_PROVIDER')).toLowerCase() }
      : {}),
    efaDevices: Number(limits['vpc.amazonaws.com/efa'] ?? 0) || 0,
    neuron: Number(limits['aws.amazon.com/neuroncore'] ?? limits['aws.amazon.com/neuron'] ?? 0) > 0,
    host: String((pod.spec as Any | undefined)?.hostname ?? pod.metadata.name ?? 'localhost'),
    podIp: String((pod.status as Any | undefined)?.podIP ?? '10.0.0.1'),
    masterAddr: literalEnv(container, 'MASTER_ADDR') ?? 'localhost',
    masterPort: literalEnv(container, 'MASTER_PORT') ?? '29500',
    command: commandLine(container),
    agent: runsElasticAgent(container),
    image: String(container.image ?? ''),
  };
}
