import { z } from 'zod';
import { ELASTIC_AGENT_PORT } from '../kube/hyperpod-pytorch-job.js';

/**
 * The HyperPod elastic agent, `hyperpodrun`: every worker of a HyperPodPyTorchJob starts through
 * it. It is what makes the training operator's fault tolerance real — it runs the training
 * processes, restarts them in place (process-level restarts), copies their output to
 * `--log_dir` and evaluates the job's log-monitoring rules on it, and talks to the operator on
 * `--server-port`. A worker started without it (`torchrun`, `llamafactory-cli`, `swift` directly)
 * still runs, but a hang is never detected and a crash can only be handled as a failed pod.
 *
 * Sources: PyPI `hyperpod-elastic-agent` (1.1.3, the newest release: "an extension of PyTorch's
 * ElasticAgent"; `hyperpodrun` takes every torchrun argument plus its own, and should be PID 1 or
 * get SIGTERM forwarded — hence `exec`); AWS's "Using the training operator to run jobs" (sample
 * launch: `hyperpodrun --server-host=… --server-port=… --tee=3 --log_dir=/tmp/hyperpod --nnodes=…
 * --nproc-per-node=… <script> <args>`, container port 8080 the agent listens on; logs on stdout are
 * what the rules read).
 */

export const ELASTIC_AGENT_PACKAGE = 'hyperpod-elastic-agent';
/** The pip requirement the recipes install when their image has no `hyperpodrun`. */
export const ELASTIC_AGENT_REQUIREMENT = `${ELASTIC_AGENT_PACKAGE}==1.1.3`;
/** Where hyperpodrun keeps each process's log: the operator's log monitoring reads it there. */
export const HYPERPOD_LOG_DIR = '/tmp/hyperpod';

const PIP_SPEC = /^[A-Za-z0-9][A-Za-z0-9._-]*(\[[A-Za-z0-9,._-]+\])?(==[A-Za-z0-9.+!-]+)?$/;

/** A recipe's `elasticAgent` parameter: what to install when the image lacks hyperpodrun. */
export const ElasticAgentParamSchema = z
  .string()
  .refine(
    (s) => s === '' || PIP_SPEC.test(s),
    `must be a pip requirement such as ${ELASTIC_AGENT_REQUIREMENT}, or empty`,
  )
  .default(ELASTIC_AGENT_REQUIREMENT)
  .describe(
    `The HyperPod elastic agent (pip package ${ELASTIC_AGENT_PACKAGE}), installed at start when the image has no hyperpodrun; every worker starts through it, and without it the training operator's restarts and log rules do nothing. Empty: never install (your image must have it).`,
  );

export interface HyperpodrunLaunch {
  /** `--nnodes`: the node count, or `min:max` for an elastic job. */
  nnodes: string;
  /** `--nproc-per-node`: one process per GPU or NeuronCore. */
  nprocPerNode: number;
  /**
   * What each training process runs: a script path, or a Python module of the image whose file
   * is looked up at start (what the frameworks' own launchers hand torchrun).
   */
  entry: { script: string } | { module: string };
  /** The entry's arguments (handed over as arguments, never written into the shell text). */
  args?: readonly string[];
  /** A pip requirement installed first when `hyperpodrun` is missing; empty or absent: never. */
  install?: string;
  /** Shell text run before the agent starts (constants only: request values travel in the environment or as arguments). */
  prepare?: string;
}

/** The agent's own flags: the job's layout, the operator's port, and its log copies (`--tee=3`: stdout and stderr). */
export function hyperpodrunFlags(nnodes: string, nprocPerNode: number): string[] {
  return [
    `--nnodes=${nnodes}`,
    `--nproc-per-node=${nprocPerNode}`,
    '--server-host=0.0.0.0',
    `--server-port=${ELASTIC_AGENT_PORT}`,
    '--tee=3',
    `--log_dir=${HYPERPOD_LOG_DIR}`,
  ];
}

/** `--nnodes` of a job: its nodes, or `min:max` when it is elastic. */
export const nnodesOf = (nodes: number, elastic?: { minReplicas: number; maxReplicas: number }): string =>
  elastic ? `${elastic.minReplicas}:${elastic.maxReplicas}` : String(nodes);

/** Looks a module's file up with the image's Python, as MS-Swift's launcher does before it calls torchrun. */
const findModule = (module: string) =>
  `entry=$(python3 -c 'import importlib.util, sys; print(importlib.util.find_spec(sys.argv[1]).origin)' ${module}) || exit 1`;

/**
 * The container command that starts the workers through hyperpodrun: plain arguments when nothing
 * has to happen first, else a bash script ending in `exec hyperpodrun …` (the agent becomes PID 1)
 * whose request values arrive as its arguments ("$@").
 *
 * @example
 * hyperpodrunCommand({ nnodes: '2', nprocPerNode: 8, entry: { module: 'swift.cli.sft' }, args: ['--model',
 * '/data/models/m'] })
 * // ['/bin/bash', '-c', 'entry=$(python3 -c …) || exit 1\nexec hyperpodrun --nnodes=2 --nproc-per-node=8 … "$entry"
 * "$@"', 'hyperpodrun-launch', '--model', '/data/models/m']
 */
export function hyperpodrunCommand(l: HyperpodrunLaunch): string[] {
  const flags = hyperpodrunFlags(l.nnodes, l.nprocPerNode);
  const args = [...(l.args ?? [])];
  if ('script' in l.entry && !l.install && !l.prepare) return ['hyperpodrun', ...flags, l.entry.script, ...args];
  const lines = [
    ...(l.install
      ? [`command -v hyperpodrun >/dev/null || python3 -m pip install --no-cache-dir '${l.install}' || exit 1`]
      : []),
    ...(l.prepare ? [l.prepare] : []),
    ...('module' in l.entry ? [findModule(l.entry.module)] : []),
    `exec hyperpodrun ${flags.join(' ')} ${'module' in l.entry ? '"$entry" ' : ''}"$@"`,
  ];
  return [
    '/bin/bash',
    '-c',
    lines.join('\n'),
    'hyperpodrun-launch',
    ...('script' in l.entry ? [l.entry.script] : []),
    ...args,
  ];
}
