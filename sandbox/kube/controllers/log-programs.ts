import type { KubeCluster } from '../cluster.js';
import type { KubeObject } from '../types.js';
import { agentFlagError, isHealthAgentImage } from './health-agent.js';
import { hfDownloadArgv, hfDownloadProgram } from './hf-download.js';
import { inRange, periodic, PREFIX, type Program } from './program-lines.js';
import { isRayJobSubmit, isRayStart, raySubmitProgram, rayNodeProgram } from './ray-programs.js';
import { parseScript, scriptOf, timelineOf } from './shell-script.js';
import { isTrainingVariant, trainingProgram, trainingVariantOf } from './training-programs.js';
import { servingKind, servingProgram } from '../serving/programs.js';
import { unit, type Any } from './util.js';

/**
 * What a container "runs" in the sandbox. The pod annotation `sandbox.instantstart.dev/program`
 * (or `sandbox.instantstart.dev/program.<container>` for one container) picks it, else the command,
 * else the image:
 *
 * - `training` and its variants `torchrun`, `llamafactory`, `swift`, `megatron`, `verl`
 *   (training-programs.ts): chosen by a command that runs `torchrun`/`hyperpodrun`,
 *   `llamafactory-cli train`, `swift sft`, `megatron rlhf|sft|pt` or `verl.trainer.main_ppo` (or
 *   the frameworks' entries started by hyperpodrun, as the recipes start them), or by
 *   an image with pytorch, training, nemo, megatron, torchrun, deepspeed: start-up lines (NCCL, an
 *   "Experiment configuration" banner), then every `step-seconds` (default 10) a metrics line with
 *   `step=N loss=… tokens/s=… lr=…`, the loss falling; after `steps` steps (default 100) it saves a
 *   checkpoint and exits 0. Crash, hang and slow scenarios by annotation.
 * - `ray` (a command `ray start …`) and `ray-submit` (`ray job submit … -- <entrypoint>`),
 *   ray-programs.ts: Ray's start-up, then blocking; the submitter tails the entrypoint's trainer.
 * - `vllm`, `sglang`, `sglang-router` (a command that runs `vllm serve`, the vLLM OpenAI entrypoint,
 *   `sglang.launch_server` or `sglang_router.launch_router`; ../serving/): the servers' start-up lines,
 *   then they answer HTTP through the API server's proxy; never exit.
 * - `server` (nginx, vllm, tgi, triton, inference, server, httpd, envoy): start-up lines, then a
 *   request line every 5 s; never exits.
 * - `failing` (images with fail or crash): starts, prints an error, exits `exit-code` (default 1)
 *   after `fail-after-seconds` (default 5) — restarts then back off into CrashLoopBackOff.
 * - `controller` (what EKS add-ons run, and images named `…/operator` or `…-controller`, such as
 *   quay.io/kuberay/operator): klog start-up lines, then a reconcile line every 30 s.
 * - `bad-flag` (HyperPod's health-monitoring agent given a flag it does not know, health-agent.ts):
 *   prints pflag's `unknown flag: --x` and exits 2 at once — the pod crash-loops, as a real one would.
 * - `oneshot`: one line, exits 0 after 2 s (the add-ons' init containers).
 * - `hf-download` (a command `hf download <repo> …`, whatever the image): the huggingface_hub CLI
 *   fetching from the Hub simulation into the container's volumes (hf-download.ts); it needs the
 *   cluster (its Secrets, volumes and the world beyond), so callers pass it.
 * - `command` (everything else, also `sleep`): runs the container's command and args as a tiny
 *   shell (shell-script.ts): `echo hello` prints `hello` and exits 0, `sleep 30` exits after 30 s,
 *   a `while true` loop repeats; with no command, or an unknown one, it prints one line and runs
 *   until stopped.
 *
 * Lines are a pure function of (pod uid, container, restart, time) — and of what the pod says about
 * them, its annotations included (faults injected into a run are recorded there) — so logs need no storage.
 */
export type { Program } from './program-lines.js';

export function programKind(pod: KubeObject, container: Any): string {
  const a = pod.metadata.annotations ?? {};
  const chosen = a[`${PREFIX}program.${container.name}`] ?? a[`${PREFIX}program`];
  if (chosen) return chosen === 'sleep' ? 'command' : chosen;
  // What a container runs says more than its image's name (the download image may be an inference server's).
  if (hfDownloadArgv(container)) return 'hf-download';
  if (isHealthAgentImage(container.image) && agentFlagError(container)) return 'bad-flag';
  const serving = servingKind(container);
  if (serving) return serving;
  if (isRayJobSubmit(container)) return 'ray-submit';
  if (isRayStart(container)) return 'ray';
  const recipe = trainingVariantOf(container);
  if (recipe) return recipe;
  const image = String(container.image ?? '').toLowerCase();
  if (/fail|crash/.test(image)) return 'failing';
  // An operator's image (quay.io/kuberay/operator, …-controller): a controller applied from manifests.
  if (/(^|[/-])(operator|controller)(:|@|$)/.test(image)) return 'controller';
  if (/pytorch|training|nemo|megatron|torchrun|deepspeed/.test(image)) return 'training';
  if (/nginx|vllm|tgi|text-generation-inference|triton|inference|server|httpd|envoy/.test(image)) return 'server';
  return 'command';
}

export function programOf(pod: KubeObject, container: Any, run: number, cluster?: KubeCluster): Program {
  const a = pod.metadata.annotations ?? {};
  const num = (key: string, fallback: number) => {
    const v = Number(a[`${PREFIX}${key}`]);
    return Number.isFinite(v) && v >= 0 ? v : fallback;
  };
  const seed = `${pod.metadata.uid}|${container.name}|${run}`;
  const kind = programKind(pod, container);
  if (isTrainingVariant(kind)) return trainingProgram(pod, container, run, kind);
  const serving = servingProgram(kind, pod, container, cluster);
  if (serving) return serving;
  switch (kind) {
    case 'ray':
      return rayNodeProgram(pod, container);
    case 'ray-submit':
      return raySubmitProgram(pod, container, run);
    case 'server':
      return server(seed, container);
    case 'failing':
      return failing(container, num('exit-code', 1), Math.max(1, num('fail-after-seconds', 5)) * 1000);
    case 'controller':
      return controller(seed, container);
    case 'hf-download':
      return hfDownloadProgram(cluster, pod, container, run);
    case 'bad-flag': {
      const error = agentFlagError(container) ?? 'unknown flag';
      return {
        lines: (t0, from, until) =>
          inRange(
            [
              { at: t0, text: error },
              { at: t0, text: 'Usage of /node-problem-detector:' },
            ],
            from,
            until,
          ),
        exitAfterMs: 500,
        exitCode: 2,
      };
    }
    case 'oneshot':
      return {
        lines: (t0, from, until) =>
          inRange([{ at: t0, text: `${container.name}: initialisation complete` }], from, until),
        exitAfterMs: 2000,
        exitCode: 0,
      };
    default:
      return command(pod, container);
  }
}

function server(seed: string, container: Any): Program {
  const port = container.ports?.[0]?.containerPort ?? 8080;
  const nginx = /nginx/.test(String(container.image));
  const paths = nginx
    ? ['/', '/healthz', '/index.html', '/api/status']
    : ['/v1/completions', '/v1/chat/completions', '/health', '/metrics'];
  const client = (i: number) =>
    `10.0.${Math.floor(unit(`${seed}|c${i}`) * 200) + 10}.${Math.floor(unit(`${seed}|d${i}`) * 240) + 10}`;
  return {
    lines(t0, from, until) {
      const banner = nginx
        ? [
            { at: t0, text: '/docker-entrypoint.sh: Configuration complete; ready for start up' },
            { at: t0, text: `nginx: listening on 0.0.0.0:${port}` },
          ]
        : [
            { at: t0, text: 'INFO:     Started server process [1]' },
            { at: t0 + 1000, text: `INFO:     Uvicorn running on http://0.0.0.0:${port} (Press CTRL+C to quit)` },
          ];
      const requests = periodic(t0, from, until, 5000, 1, Number.MAX_SAFE_INTEGER, (i) => {
        const path = paths[Math.floor(unit(`${seed}|p${i}`) * paths.length)]!;
        const ms = Math.round(3 + unit(`${seed}|l${i}`) * (path.startsWith('/v1') ? 900 : 20));
        return nginx
          ? `${client(i)} - - "GET ${path} HTTP/1.1" 200 ${Math.round(200 + unit(`${seed}|b${i}`) * 4000)} "-" "kube-probe/1.32" ${ms}ms`
          : `INFO:     ${client(i)}:${40000 + (i % 20000)} - "${path.startsWith('/v1') ? 'POST' : 'GET'} ${path} HTTP/1.1" 200 OK (${ms}ms)`;
      });
      return [...inRange(banner, from, until), ...requests];
    },
    exitCode: 0,
  };
}

/** What `date` prints in a container (UTC): `Mon Jun  1 12:00:05 UTC 2026`. */
function dateOutput(at: number): string {
  const [weekday, day, month, year, time] = new Date(at).toUTCString().replace(',', '').split(' ');
  return `${weekday} ${month} ${String(Number(day)).padStart(2, ' ')} ${time} UTC ${year}`;
}

/** klog's header: `I0601 12:00:05.000000       1 file.go:42] `. */
function klog(at: number, where: string): string {
  const d = new Date(at);
  const two = (n: number) => String(n).padStart(2, '0');
  return `I${two(d.getUTCMonth() + 1)}${two(d.getUTCDate())} ${two(d.getUTCHours())}:${two(d.getUTCMinutes())}:${two(d.getUTCSeconds())}.${String(d.getUTCMilliseconds()).padStart(3, '0')}000       1 ${where}] `;
}

function controller(seed: string, container: Any): Program {
  const version = /:([^:/]+)$/.exec(String(container.image))?.[1] ?? 'latest';
  return {
    lines(t0, from, until) {
      const banner = [
        { at: t0, text: `${klog(t0, 'main.go:64')}"Starting" component="${container.name}" version="${version}"` },
        { at: t0 + 1000, text: `${klog(t0 + 1000, 'leaderelection.go:257')}"Attempting to acquire leader lease"` },
        { at: t0 + 2000, text: `${klog(t0 + 2000, 'leaderelection.go:271')}"Successfully acquired lease"` },
      ];
      const ticks = periodic(
        t0,
        from,
        until,
        30_000,
        1,
        Number.MAX_SAFE_INTEGER,
        (i) =>
          `${klog(t0 + i * 30_000, 'controller.go:117')}"Reconciled" controller="${container.name}" duration="${Math.round(2 + unit(`${seed}|r${i}`) * 40)}ms"`,
      );
      return [...inRange(banner, from, until), ...ticks];
    },
    exitCode: 0,
  };
}

function failing(container: Any, code: number, after: number): Program {
  return {
    lines: (t0, from, until) =>
      inRange(
        [
          { at: t0, text: `starting ${container.image}` },
          { at: t0 + Math.max(0, after - 1000), text: 'Traceback (most recent call last):' },
          { at: t0 + Math.max(0, after - 1000), text: '  File "/app/main.py", line 42, in <module>' },
          {
            at: t0 + Math.max(0, after - 1000),
            text: `RuntimeError: CUDA error: an illegal memory access was encountered (exit code ${code})`,
          },
        ],
        from,
        until,
      ),
    exitAfterMs: after,
    exitCode: code,
  };
}

function command(pod: KubeObject, container: Any): Program {
  const command = ((container.command ?? []) as string[]).map(String);
  const args = ((container.args ?? []) as string[]).map(String);
  const script = scriptOf(command, args);
  const timeline = script ? timelineOf(parseScript(script)) : undefined;
  const fill = (text: string, at: number) =>
    text.replace(/\$\(date\)/g, dateOutput(at)).replace(/\$\(hostname\)/g, pod.metadata.name ?? '');
  if (!timeline) {
    return {
      lines: (t0, from, until) =>
        inRange(
          [{ at: t0, text: `[sandbox] ${container.image} started (no command: running until stopped)` }],
          from,
          until,
        ),
      exitCode: 0,
    };
  }
  // A script that prints nothing (`sleep 3600`, `python train.py`) says what it runs, so its log is not empty.
  const printsNothing = timeline.lines(0, (timeline.exitOffset ?? 0) + 60_000).length === 0;
  return {
    lines: (t0, from, until) => {
      const lines = timeline
        .lines(from - t0, until - t0)
        .map((l) => ({ at: t0 + l.offset, text: fill(l.text, t0 + l.offset) }));
      return printsNothing
        ? [...inRange([{ at: t0, text: `[sandbox] running: ${script}` }], from, until), ...lines]
        : lines;
    },
    ...(timeline.exitOffset !== undefined ? { exitAfterMs: Math.max(500, timeline.exitOffset) } : {}),
    exitCode: timeline.exitCode,
  };
}
