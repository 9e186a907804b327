import type { KubeObject } from '../types.js';
import { unit, type Any } from './util.js';

/**
 * What each simulated trainer prints (training-programs.ts runs them): a start-up, one metrics
 * line per step and a closing, in the words of the real tools — torchrun/hyperpodrun with NCCL,
 * LLaMA-Factory, MS-Swift (`swift sft`, `megatron rlhf`), VERL on Ray. Every metrics line carries
 * the shared contract `step=N loss=… tokens/s=… lr=…` after the tool's own text, and every start-up
 * has an `Experiment configuration` line (the HyperPod docs' JobStart log rule waits for it).
 */

/** What a trainer knows about itself (training-programs.ts fills it from the pod). */
export interface TrainingRun {
  pod: KubeObject;
  container: Any;
  run: number;
  steps: number;
  /** Time between two steps. */
  periodMs: number;
  /** Seeds per run (throughput) and per job (the loss: the same on every rank). */
  seed: string;
  jobSeed: string;
  jobName: string;
  /** NODE_RANK: the pod's rank among the job's pods. */
  rank: number;
  /** WORLD_SIZE as the operator sets it: pods. */
  pods: number;
  gpus: number;
  nproc: number;
  /** Processes in the job: pods × processes per pod. */
  worldSize: number;
  /** FI_PROVIDER as the pod sets it (lower case), when it does. */
  fiProvider?: string;
  /** EFA devices allocated to the container (its `vpc.amazonaws.com/efa` request). */
  efaDevices: number;
  neuron: boolean;
  host: string;
  podIp: string;
  masterAddr: string;
  masterPort: string;
  command: string;
  /** Started through the HyperPod elastic agent (hyperpodrun) rather than a framework's own torchrun. */
  agent: boolean;
  image: string;
}

export interface StepMetrics {
  loss: number;
  tps: number;
  lr: number;
}

/** A line's text, or its text given the time it is printed at (log headers with a clock). */
export type Text = string | ((at: number) => string);
export const textAt = (text: Text, at: number) => (typeof text === 'function' ? text(at) : text);

export interface Recipe {
  /** Start-up time: step 1 comes `warmupMs` + one step period after the start. */
  warmupMs: number;
  tokensPerGpu: number;
  lr(step: number, steps: number): number;
  preamble(run: TrainingRun): Array<{ offset: number; text: Text }>;
  step(i: number, m: StepMetrics, run: TrainingRun, at: number): string;
  finish(run: TrainingRun, finalLoss: number): Text[];
  crash(run: TrainingRun, step: number): Text[];
}

/** `3.00e-04`, as Python prints a float in scientific notation (Megatron: `3.000000E-04`). */
export const sci = (x: number, digits = 2) => x.toExponential(digits).replace(/e([+-])(\d)$/, 'e$10$2');

/** The contract every metrics line carries. */
export const metricText = (i: number, m: StepMetrics) =>
  `step=${i} loss=${m.loss.toFixed(4)} tokens/s=${m.tps.toFixed(1)} lr=${sci(m.lr)}`;

/** Linear warm-up over 3 % of the steps, then cosine decay to a tenth of the peak. */
const cosine = (peak: number) => (i: number, steps: number) => {
  const total = steps > 1 ? steps : 10_000;
  const warm = Math.max(1, Math.round(total * 0.03));
  if (i < warm) return (peak * i) / warm;
  return peak * (0.1 + 0.45 * (1 + Math.cos((Math.PI * Math.min(i - warm, total - warm)) / Math.max(1, total - warm))));
};

const pidOf = (run: TrainingRun, salt = '') => 100 + Math.floor(unit(`${run.seed}|pid${salt}`) * 9000);
const firstRank = (run: TrainingRun) => run.rank * run.nproc;
const range = (from: number, count: number) => Array.from({ length: count }, (_, k) => from + k);
/** `2026-06-01 12:00:05,000`: Python logging's default clock (Ray's driver log). */
const rayClock = (at: number) => new Date(at).toISOString().slice(0, 23).replace('T', ' ').replace('.', ',');
const clockText = (at: number) => new Date(at).toISOString().slice(0, 19).replace('T', ' ');
/** `I0601 12:00:05.000000 1234 file.py:42] `: the glog header torch.distributed logs with. */
const glog = (level: 'I' | 'W' | 'E', run: TrainingRun, where: string) => (at: number) => {
  const d = new Date(at);
  const two = (n: number) => String(n).padStart(2, '0');
  return `${level}${two(d.getUTCMonth() + 1)}${two(d.getUTCDate())} ${two(d.getUTCHours())}:${two(d.getUTCMinutes())}:${two(d.getUTCSeconds())}.${String(d.getUTCMilliseconds()).padStart(3, '0')}000 ${pidOf(run, 'agent')} ${where}] `;
};
const logged =
  (level: 'I' | 'W' | 'E', run: TrainingRun, where: string, text: string): Text =>
  (at) =>
    `${glog(level, run, where)(at)}${text}`;

const flag = (run: TrainingRun, pattern: RegExp, fallback: string) => pattern.exec(run.command)?.[1] ?? fallback;
const modelOf = (run: TrainingRun) =>
  flag(
    run,
    /(?:--model(?:_name_or_path|_id)?|model_name_or_path|model\.path|--model_type)[= ]+['"]?([^\s'"]+)/,
    'meta-llama/Llama-3.1-8B',
  );
const datasetOf = (run: TrainingRun) =>
  flag(run, /(?:--dataset|dataset|data\.train_files)[= ]+['"]?([^\s'"]+)/, '/data/datasets/alpaca-cleaned');
const scriptOf = (run: TrainingRun) => /(\S+\.py)\b/.exec(run.command)?.[1] ?? 'train.py';
const trainType = (run: TrainingRun) =>
  /full/i.test(flag(run, /(?:--train_type|finetuning_type)[= ]+(\w+)/, ''))
    ? 'full'
    : /lora/i.test(run.command) || !/full/i.test(run.command)
      ? 'lora'
      : 'full';

/**
 * Which network NCCL ends up on, from what the pod really has. aws-ofi-nccl (the plugin in AWS's training images)
 * uses libfabric's efa provider when EFA devices are in the container and FI_PROVIDER is efa or unset (it picks the
 * provider itself then). FI_PROVIDER=efa without a device: libfabric finds no provider, the plugin fails to start
 * (aws-ofi-nccl's NCCL_OFI_WARN("OFI fi_getinfo() call failed: %s") with fi_strerror(FI_ENODATA), "No data
 * available"; libfabric's "provider efa output empty list" in aws/aws-ofi-nccl#889) and NCCL, with NCCL_NET unset,
 * falls back to its built-in socket transport (NCCL_NET in NCCL's environment-variable docs). No device and no FI_PROVIDER, or another provider: the socket transport (assumed — a
 * real plugin may pick libfabric's tcp provider instead).
 */
export function ncclNetwork(run: TrainingRun): 'efa' | 'ofi-failed' | 'socket' {
  const provider = run.fiProvider;
  if (run.efaDevices > 0 && (provider === undefined || provider === 'efa')) return 'efa';
  return provider === 'efa' ? 'ofi-failed' : 'socket';
}

/**
 * NCCL's start-up on every local rank of the pod: bootstrap, the network (aws-ofi-nccl's `NET/OFI Selected provider
 * is efa` when EFA is really usable, its failure and the socket fallback otherwise, ncclNetwork), the communicator,
 * the channels (rank 0) and the ring, then Init COMPLETE.
 */
export function ncclLines(run: TrainingRun, from: number, prefix = ''): Array<{ offset: number; text: string }> {
  if (run.neuron || run.gpus === 0) return [];
  const out: Array<{ offset: number; text: string }> = [];
  const nics = Math.max(1, run.efaDevices);
  const n = run.worldSize;
  const network = ncclNetwork(run);
  for (const local of range(0, Math.min(run.nproc, 8))) {
    const rank = firstRank(run) + local;
    const pid = pidOf(run, String(local));
    const head = `${prefix}${run.host}:${pid}:${pid} [${local}] NCCL INFO `;
    const warn = `${prefix}${run.host}:${pid}:${pid} [${local}] `;
    const at = from + local * 40;
    const next = (rank + 1) % n;
    const crossesNodes = Math.floor(next / run.nproc) !== run.rank;
    const net = network === 'efa' ? 'NET/OFI' : 'NET/Socket';
    out.push({ offset: at, text: `${head}Bootstrap : Using eth0:${run.podIp}<0>` });
    if (network === 'efa') {
      out.push({ offset: at + 300, text: `${head}NET/OFI Initializing aws-ofi-nccl 1.14.0` });
      out.push({
        offset: at + 300,
        text: `${head}NET/OFI Selected provider is efa, fabric is efa-direct (found ${nics} nics)`,
      });
      out.push({ offset: at + 300, text: `${head}Using network Libfabric` });
    } else {
      if (network === 'ofi-failed') {
        // aws-ofi-nccl's warnings (NCCL_OFI_WARN, printed as "<func>:<line> NCCL WARN NET/OFI …").
        out.push({ offset: at + 250, text: `${head}NET/OFI Initializing aws-ofi-nccl 1.14.0` });
        out.push({
          offset: at + 280,
          text: `${warn}nccl_net_ofi_rdma_init:7737 NCCL WARN NET/OFI OFI fi_getinfo() call failed: No data available`,
        });
        out.push({
          offset: at + 280,
          text: `${warn}nccl_net_ofi_create_plugin:261 NCCL WARN NET/OFI Unable to find a protocol that worked.  Failing initialization.`,
        });
        out.push({
          offset: at + 280,
          text: `${warn}nccl_net_ofi_create_plugin:341 NCCL WARN NET/OFI aws-ofi-nccl initialization failed`,
        });
      }
      out.push({ offset: at + 300, text: `${head}NET/Socket : Using [0]eth0:${run.podIp}<0>` });
      out.push({ offset: at + 300, text: `${head}Using network Socket` });
    }
    out.push({
      offset: at + 600,
      text: `${head}comm 0x7f${Math.floor(unit(`${run.seed}|comm${local}`) * 0xffffff)
        .toString(16)
        .padStart(6, '0')
        .slice(0, 6)}00 rank ${rank} nRanks ${n} nNodes ${run.pods} localRanks ${run.nproc} localRank ${local} MNNVL 0`,
    });
    if (rank === 0)
      for (const c of [0, 1])
        out.push({
          offset: at + 700,
          text: `${head}Channel ${String(c).padStart(2, '0')}/02 : ${range(0, Math.min(n, 32))
            .map((r) => String(r).padStart(4))
            .join('')}${n > 32 ? ' …' : ''}`,
        });
    out.push({
      offset: at + 900,
      text: `${head}Channel 00/0 : ${rank}[${local}] -> ${next}[${next % run.nproc}] [send] via ${crossesNodes && run.pods > 1 ? `${net}/0` : 'P2P/IPC'}`,
    });
    out.push({ offset: at + 1200, text: `${head}Connected all rings` });
    out.push({ offset: at + 1500, text: `${head}Init COMPLETE` });
  }
  return out;
}

/** What torchrun's elastic agent prints when a worker process failed. */
const childFailed = (run: TrainingRun, cause: string[]): Text[] => {
  const r = firstRank(run);
  return [
    `[rank${r}]: Traceback (most recent call last):`,
    `[rank${r}]:   File "${scriptOf(run).startsWith('/') ? '' : '/workspace/'}${scriptOf(run)}", line 214, in <module>`,
    `[rank${r}]:     loss.backward()`,
    ...cause.map((c) => `[rank${r}]: ${c}`),
    logged(
      'E',
      run,
      'torch/distributed/elastic/multiprocessing/api.py:869',
      `failed (exitcode: 1) local_rank: 0 (pid: ${pidOf(run, '0')}) of binary: /usr/bin/python3`,
    ),
    `torch.distributed.elastic.multiprocessing.errors.ChildFailedError: ${scriptOf(run)} FAILED`,
  ];
};
const ncclError =
  'torch.distributed.DistBackendError: NCCL error in: /opt/pytorch/torch/csrc/distributed/c10d/ProcessGroupNCCL.cpp:2027, unhandled cuda error (run with NCCL_DEBUG=INFO for details), NCCL version 2.21.5';
const torchrunLine = (run: TrainingRun, entry: string) =>
  `run sh: \`/usr/bin/python3 -m torch.distributed.run --nproc_per_node ${run.nproc} --nnodes ${run.pods} --node_rank ${run.rank} --master_addr ${run.masterAddr} --master_port ${run.masterPort} ${entry}\``;

const generic: Recipe = {
  warmupMs: 3000,
  tokensPerGpu: 12_000,
  lr: () => 3e-4,
  preamble: (run) => [
    {
      offset: 0,
      text: `[sandbox training] image=${run.image} world_size=${run.worldSize} steps=${run.steps > 0 ? run.steps : 'unlimited'}`,
    },
    {
      offset: 0,
      text: `Initializing process group: backend=${run.neuron ? 'xla' : run.gpus ? 'nccl' : 'gloo'} world_size=${run.worldSize} rank=${firstRank(run)}`,
    },
    { offset: 500, text: 'Loaded dataset: 128 shards, 4.1B tokens; tokenizer ready' },
    {
      offset: 2500,
      text: `Experiment configuration: {"job": "${run.jobName}", "world_size": ${run.worldSize}, "max_steps": ${run.steps}, "lr": 3e-4, "checkpoint_dir": "/data/checkpoints/${run.jobName}/"}`,
    },
  ],
  step: (i, m) => `step=${i} loss=${m.loss.toFixed(4)} tokens/s=${Math.round(m.tps)} lr=3.0e-04`,
  finish: (run, loss) => [
    `Training complete: ${run.steps} steps, final loss ${loss.toFixed(4)}; checkpoint saved to /data/checkpoints/${run.jobName}/step-${run.steps}`,
  ],
  crash: () => [
    'Traceback (most recent call last):',
    '  File "/workspace/train.py", line 214, in <module>',
    'RuntimeError: CUDA error: an illegal memory access was encountered',
  ],
};

/** The HyperPod elastic agent's first line, before the trainer it starts prints anything (training-programs.ts). */
export const agentLine = (run: TrainingRun): { offset: number; text: Text } => ({
  offset: 0,
  text: `[hyperpod-elastic-agent] HyperPod elastic agent listening on :8080 (job ${run.jobName}, node rank ${run.rank}, restart ${run.run})`,
});

const torchrun: Recipe = {
  warmupMs: 8000,
  tokensPerGpu: 11_000,
  lr: cosine(3e-4),
  preamble: (run) => {
    const ranks = range(firstRank(run), run.nproc);
    return [
      ...(run.agent
        ? []
        : [
            {
              offset: 0,
              text: logged(
                'W',
                run,
                'torch/distributed/run.py:793',
                'Setting OMP_NUM_THREADS environment variable for each process to be 1 in default, to avoid your system being overloaded',
              ),
            },
          ]),
      {
        offset: 300,
        text: logged(
          'I',
          run,
          'torch/distributed/launcher/api.py:194',
          `Starting elastic_operator with launch configs: entrypoint: ${scriptOf(run)}, min_nodes: ${run.pods}, max_nodes: ${run.pods}, nproc_per_node: ${run.nproc}, rdzv_backend: c10d, rdzv_endpoint: ${run.masterAddr}:${run.masterPort}`,
        ),
      },
      {
        offset: 1000,
        text: logged(
          'I',
          run,
          'torch/distributed/elastic/agent/server/api.py:525',
          `[default] Rendezvous complete for workers. Result: restart_count=${run.run} master_addr=${run.masterAddr} master_port=${run.masterPort} group_rank=${run.rank} group_world_size=${run.pods} local_ranks=[${range(0, run.nproc).join(', ')}] global_ranks=[${ranks.join(', ')}] global_world_sizes=[${ranks.map(() => run.worldSize).join(', ')}]`,
        ),
      },
      ...ncclLines(run, 2000),
      {
        offset: 6500,
        text: `[rank${firstRank(run)}]: Experiment configuration: {"model": "${modelOf(run)}", "world_size": ${run.worldSize}, "nnodes": ${run.pods}, "nproc_per_node": ${run.nproc}, "max_steps": ${run.steps}, "seq_len": 4096, "checkpoint_dir": "/data/checkpoints/${run.jobName}/"}`,
      },
      { offset: 7000, text: `[rank${firstRank(run)}]: Loaded ${datasetOf(run)}: 4.1B tokens in 128 shards` },
    ];
  },
  step: (i, m, run) => `[rank${firstRank(run)}]: ${metricText(i, m)}`,
  finish: (run, loss) => [
    `[rank${firstRank(run)}]: Saved checkpoint to /data/checkpoints/${run.jobName}/step-${run.steps}`,
    `[rank${firstRank(run)}]: Training complete: ${run.steps} steps, final loss ${loss.toFixed(4)}`,
    logged(
      'I',
      run,
      'torch/distributed/elastic/agent/server/api.py:879',
      '[default] worker group successfully finished. Waiting 300 seconds for other agents to finish.',
    ),
  ],
  crash: (run) => childFailed(run, [ncclError]),
};

const llamafactory: Recipe = {
  warmupMs: 9000,
  tokensPerGpu: 3_200,
  lr: cosine(1e-4),
  preamble: (run) => {
    const info =
      (where: string, text: string): Text =>
      (at) =>
        `[INFO|${clockText(at)}] ${where} ${text}`;
    return [
      // llamafactory-cli's own launcher says so before it starts torchrun; hyperpodrun starts the entry directly.
      ...(run.agent
        ? []
        : [
            {
              offset: 0,
              text: info(
                'llamafactory.cli:143',
                `>> Initializing ${run.nproc} distributed tasks at: ${run.masterAddr}:${run.masterPort}`,
              ),
            },
          ]),
      {
        offset: 800,
        text: info(
          'llamafactory.hparams.parser:406',
          `>> Process rank: ${firstRank(run)}, world size: ${run.worldSize}, device: cuda:0, distributed training: True, compute dtype: torch.bfloat16`,
        ),
      },
      ...ncclLines(run, 1500),
      { offset: 5000, text: info('llamafactory.data.loader:143', `>> Loading dataset ${datasetOf(run)}...`) },
      {
        offset: 6000,
        text: info(
          'llamafactory.model.loader:143',
          `>> trainable params: ${trainType(run) === 'lora' ? '20,971,520 || all params: 8,051,232,768 || trainable%: 0.2605' : '8,030,261,248 || all params: 8,030,261,248 || trainable%: 100.0000'}`,
        ),
      },
      {
        offset: 7000,
        text: info(
          'llamafactory.train.tuner:143',
          `>> Experiment configuration: stage=sft finetuning_type=${trainType(run)} model=${modelOf(run)} dataset=${datasetOf(run)} max_steps=${run.steps} output_dir=/data/outputs/${run.jobName}`,
        ),
      },
      { offset: 8000, text: '[INFO|trainer.py:2414] >> ***** Running training *****' },
      { offset: 8000, text: `[INFO|trainer.py:2417] >>   Total optimization steps = ${run.steps}` },
    ];
  },
  step: (i, m, run, at) =>
    `[INFO|${clockText(at)}] llamafactory.train.callbacks:143 >> {'loss': ${m.loss.toFixed(4)}, 'grad_norm': ${(0.3 + unit(`${run.seed}|g${i}`) * 0.6).toFixed(4)}, 'learning_rate': ${sci(m.lr)}, 'epoch': ${(i / Math.max(1, run.steps)).toFixed(2)}, 'throughput': ${m.tps.toFixed(2)}} ${metricText(i, m)}`,
  finish: (run, loss) => [
    `[INFO|trainer.py:3984] >> Saving model checkpoint to /data/outputs/${run.jobName}/checkpoint-${run.steps}`,
    '***** train metrics *****',
    `  train_loss               = ${loss.toFixed(4)}`,
  ],
  crash: (run) =>
    childFailed(run, [
      'torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB. GPU 0 has a total capacity of 79.11 GiB of which 1.12 GiB is free.',
    ]),
};

const swiftLine = (run: TrainingRun) =>
  `[INFO:swift] Experiment configuration: model=${modelOf(run)} train_type=${trainType(run)} dataset=${datasetOf(run)} max_steps=${run.steps} output_dir=/data/outputs/${run.jobName}`;

const swift: Recipe = {
  warmupMs: 9000,
  tokensPerGpu: 3_500,
  lr: cosine(1e-4),
  preamble: (run) => [
    // Swift's launcher prints the torchrun it starts; hyperpodrun starts the entry directly.
    ...(run.agent
      ? []
      : [{ offset: 0, text: torchrunLine(run, '/usr/local/lib/python3.11/site-packages/swift/cli/sft.py') }]),
    { offset: 1000, text: (at) => `[INFO:swift] Start time of running main: ${clockText(at)}` },
    ...ncclLines(run, 1500),
    { offset: 5500, text: swiftLine(run) },
    {
      offset: 6500,
      text: `[INFO:swift] model_parameter_info: PeftModelForCausalLM: 8051.2320M Params (20.9715M Trainable [0.2605%]), 0.0001M Buffers.`,
    },
    { offset: 8000, text: `[INFO:swift] The TrainArguments will be saved in: /data/outputs/${run.jobName}/args.json` },
  ],
  step: (i, m, run) => {
    const total = Math.max(1, run.steps);
    return `[INFO:swift] {'loss': ${m.loss.toFixed(4)}, 'token_acc': ${(0.45 + 0.4 * (1 - Math.exp(-i / 40))).toFixed(4)}, 'learning_rate': ${sci(m.lr)}, 'memory(GiB)': 21.34, 'epoch': ${(i / total).toFixed(2)}, 'global_step/max_steps': '${i}/${run.steps}', 'percentage': '${((100 * i) / total).toFixed(2)}%'} ${metricText(i, m)}`;
  },
  finish: (run) => [
    `[INFO:swift] Saving model checkpoint to /data/outputs/${run.jobName}/checkpoint-${run.steps}`,
    `[INFO:swift] last_model_checkpoint: /data/outputs/${run.jobName}/checkpoint-${run.steps}`,
    (at) => `[INFO:swift] End time of running main: ${clockText(at)}`,
  ],
  crash: (run) => childFailed(run, [ncclError]),
};

const megatron: Recipe = {
  warmupMs: 12_000,
  tokensPerGpu: 4_000,
  lr: cosine(5e-6),
  preamble: (run) => {
    const rlhf = flag(run, /--rlhf_type[= ]+(\w+)/, 'dpo');
    const tp = Math.min(run.nproc, 8);
    return [
      ...(run.agent
        ? []
        : [
            {
              offset: 0,
              text: torchrunLine(run, '/usr/local/lib/python3.11/site-packages/swift/cli/_megatron/rlhf.py'),
            },
          ]),
      ...ncclLines(run, 1000),
      { offset: 5000, text: '> initializing torch distributed ...' },
      { offset: 5200, text: `> initialized tensor model parallel with size ${tp}` },
      { offset: 5200, text: '> initialized pipeline model parallel with size 1' },
      {
        offset: 7000,
        text: `[INFO:swift] Experiment configuration: rlhf_type=${rlhf} model=${modelOf(run)} tensor_model_parallel_size=${tp} train_iters=${run.steps} save=/data/checkpoints/${run.jobName}`,
      },
      { offset: 9000, text: '> building GPT model ...' },
      { offset: 11_000, text: 'training ...' },
    ];
  },
  step: (i, m, run, at) =>
    ` [${clockText(at)}] iteration ${String(i).padStart(8)}/${String(run.steps).padStart(8)} | consumed samples: ${i * 128} | elapsed time per iteration (ms): ${(run.periodMs * (0.97 + unit(`${run.seed}|e${i}`) * 0.06)).toFixed(1)} | learning rate: ${sci(m.lr, 6).toUpperCase()} | global batch size: 128 | loss: ${sci(m.loss, 6).toUpperCase()} | ${metricText(i, m)}`,
  finish: (run) => [
    `saving checkpoint at iteration ${String(run.steps).padStart(8)} to /data/checkpoints/${run.jobName}`,
    `  successfully saved checkpoint from iteration ${String(run.steps).padStart(8)} to /data/checkpoints/${run.jobName}`,
  ],
  crash: (run) => childFailed(run, [ncclError]),
};

const verl: Recipe = {
  warmupMs: 15_000,
  tokensPerGpu: 1_500,
  lr: () => 1e-6,
  preamble: (run) => {
    const pid = pidOf(run, 'driver');
    const estimator = flag(run, /algorithm\.adv_estimator=(\w+)/, 'gae');
    const nnodes = flag(run, /trainer\.nnodes=(\d+)/, '1');
    const perNode = flag(run, /trainer\.n_gpus_per_node=(\d+)/, String(Math.max(1, run.gpus)));
    const head =
      /RAY_ADDRESS=\S*?([\w.-]+):\d+|--address[= ]+\S*?\/\/([\w.-]+):/.exec(run.command)?.slice(1).find(Boolean) ??
      run.masterAddr;
    return [
      {
        offset: 0,
        text: (at) =>
          `${rayClock(at)}\tINFO worker.py:1832 -- Connecting to existing Ray cluster at address: ${head}:6379...`,
      },
      {
        offset: 1000,
        text: (at) =>
          `${rayClock(at)}\tINFO worker.py:2003 -- Connected to Ray cluster. View the dashboard at http://${head}:8265`,
      },
      {
        offset: 2000,
        text: `(TaskRunner pid=${pid}) Experiment configuration: {'algorithm': {'adv_estimator': '${estimator}'}, 'data': {'train_files': '${datasetOf(run)}'}, 'actor_rollout_ref': {'model': {'path': '${modelOf(run)}'}, 'rollout': {'name': 'vllm'}}, 'trainer': {'nnodes': ${nnodes}, 'n_gpus_per_node': ${perNode}, 'total_training_steps': ${run.steps}, 'default_local_dir': '/data/checkpoints/${run.jobName}'}}`,
      },
      {
        offset: 6000,
        text: `(WorkerDict pid=${pid + 17}) Model config after override: {"_name_or_path": "${modelOf(run)}", "torch_dtype": "bfloat16"}`,
      },
      { offset: 12_000, text: `(TaskRunner pid=${pid}) Size of train dataloader: ${run.steps}` },
      { offset: 14_000, text: `(TaskRunner pid=${pid}) Total training steps: ${run.steps}` },
    ];
  },
  step: (i, m, run) => {
    const reward =
      0.1 + 0.7 * (1 - Math.exp(-i / Math.max(20, run.steps / 3))) + (unit(`${run.jobSeed}|r${i}`) - 0.5) * 0.02;
    return `(TaskRunner pid=${pidOf(run, 'driver')}) step:${i} - actor/pg_loss:${(m.loss * 0.05 - 0.04).toFixed(4)} - actor/entropy:${(m.loss * 0.4).toFixed(4)} - critic/score/mean:${reward.toFixed(4)} - perf/throughput:${m.tps.toFixed(1)} ${metricText(i, m)}`;
  },
  finish: (run) => [
    `(TaskRunner pid=${pidOf(run, 'driver')}) Saved checkpoint to /data/checkpoints/${run.jobName}/global_step_${run.steps}`,
    `(TaskRunner pid=${pidOf(run, 'driver')}) Final validation metrics: {'val-core/openai/gsm8k/reward/mean@1': 0.78}`,
  ],
  crash: (run) => [
    `(TaskRunner pid=${pidOf(run, 'driver')}) ray.exceptions.RayTaskError(DistBackendError): ray::WorkerDict.actor_rollout_update_actor() (pid=${pidOf(run, 'driver') + 17})`,
    `(TaskRunner pid=${pidOf(run, 'driver')}) ${ncclError}`,
  ],
};

export const RECIPES = { training: generic, torchrun, llamafactory, swift, megatron, verl } as const satisfies Record<
  string,
  Recipe
>;
