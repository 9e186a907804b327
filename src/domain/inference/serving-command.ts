import { InputError } from '../errors.js';
import type { ServingEngine } from '../schemas/inference/fields.js';

/**
 * The model server's command line, built as a list of arguments (no shell between us and the
 * process: an argument with spaces stays one argument, nothing is expanded):
 * - vLLM: `vllm serve <model> --host 0.0.0.0 --port <p> --tensor-parallel-size <g> …` (vllm-project/vllm
 *   `vllm/entrypoints/cli/serve.py`: the model is the positional argument);
 * - SGLang: `python3 -m sglang.launch_server --model-path <m> --host 0.0.0.0 --port <p> --tp <g>
 *   --enable-metrics …` (sgl-project/sglang `python/sglang/srt/server_args.py`; `/metrics` answers only
 *   with --enable-metrics);
 * - custom: the request's command and args as they are.
 * The request's extra args come last; they may not set what we set (the port the probes and Services
 * use, the model, the GPU split), so a clash is refused by the argument's index.
 */

/**
 * Pinned public images, with a version tag (CUDA 12.9 builds, which run on the NVIDIA drivers of
 * today's HyperPod AMIs; the CUDA 13 builds need driver 580+):
 * - vLLM v0.21.0 (`vllm/vllm-openai:v0.21.0-cu129`, Docker Hub; the CUDA 12.9 variant of the v0.21.0 release);
 * - SGLang v0.5.19 (`lmsysorg/sglang:v0.5.19-cu129`: "the last CUDA 12 tag", sgl-project/sglang
 *   docs/docs/get-started/install.mdx); the image carries `sglang_router`, which the router runs.
 */
export const DEFAULT_SERVING_IMAGES: Readonly<Record<'vllm' | 'sglang', string>> = {
  vllm: 'vllm/vllm-openai:v0.21.0-cu129',
  sglang: 'lmsysorg/sglang:v0.5.19-cu129',
};

/** Flags each engine gets from us (any spelling the engine accepts), with what the request sets instead. */
const OURS: Readonly<Record<'vllm' | 'sglang', Readonly<Record<string, string>>>> = {
  vllm: {
    '--port': 'port',
    '--host': 'the server listens on every interface',
    '--model': 'model',
    '--tensor-parallel-size': 'gpus',
    '-tp': 'gpus',
  },
  sglang: {
    '--port': 'port',
    '--host': 'the server listens on every interface',
    '--model-path': 'model',
    '--model': 'model',
    '--tp': 'gpus',
    '--tp-size': 'gpus',
    '--tensor-parallel-size': 'gpus',
  },
};

export type ServingCommand = { command: string[]; args: string[] };

export function servingCommand(p: {
  engine: ServingEngine;
  model: string;
  port: number;
  gpus: number;
  args: readonly string[];
  command?: readonly string[];
}): ServingCommand {
  if (p.engine === 'custom') {
    if (!p.command?.length) throw InputError.field('command', 'is required for a custom engine');
    return { command: [...p.command], args: [...p.args] };
  }
  refuseOurFlags(p.engine, p.args);
  const port = String(p.port);
  if (p.engine === 'vllm')
    return {
      command: ['vllm', 'serve'],
      args: [
        p.model,
        '--host',
        '0.0.0.0',
        '--port',
        port,
        ...(p.gpus > 0 ? ['--tensor-parallel-size', String(p.gpus)] : []),
        ...p.args,
      ],
    };
  return {
    command: ['python3', '-m', 'sglang.launch_server'],
    args: [
      '--model-path',
      p.model,
      '--host',
      '0.0.0.0',
      '--port',
      port,
      ...(p.gpus > 0 ? ['--tp', String(p.gpus)] : []),
      '--enable-metrics',
      ...p.args,
    ],
  };
}

function refuseOurFlags(engine: 'vllm' | 'sglang', args: readonly string[]): void {
  const ours = OURS[engine];
  args.forEach((arg, i) => {
    const flag = arg.split('=')[0] as string;
    const field = Object.hasOwn(ours, flag) ? ours[flag] : undefined;
    if (field)
      throw InputError.field(
        `args.${i}`,
        `must not set ${flag}: InstantStart sets it${field.includes(' ') ? ` (${field})` : ` from the request's ${field}`}`,
      );
  });
}
