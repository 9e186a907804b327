import { z } from 'zod';
import { EnvListSchema, ImageSchema } from './fields.js';

/**
 * A custom container instead of a recipe: the image, the command and how it is launched. The rule it
 * keeps is that every training process runs under the HyperPod elastic agent (hyperpodrun), without
 * which the training operator's restarts and log-monitoring rules do nothing.
 */

/** `python`, `python3`, `python3.12`: an interpreter the training script may be given after. */
const PYTHON = /^python(3(\.\d+)?)?$/;
const baseName = (program: string) => program.slice(program.lastIndexOf('/') + 1);

/**
 * The training script of a custom command, when the command is one: `/data/code/train.py …` or
 * `python3 /data/code/train.py …` (the script and what follows it), else undefined.
 */
export function customScriptOf(command: readonly string[]): { script: string; args: string[] } | undefined {
  const [first, second] = command;
  if (first !== undefined && first.endsWith('.py')) return { script: first, args: command.slice(1) };
  if (first !== undefined && PYTHON.test(baseName(first)) && second?.endsWith('.py'))
    return { script: second, args: command.slice(2) };
  return undefined;
}

/** Whether a custom command starts the HyperPod elastic agent itself. */
export const startsHyperpodrun = (command: readonly string[]): boolean =>
  command[0] !== undefined && baseName(command[0]) === 'hyperpodrun';

export const CustomLaunchSchema = z
  .enum(['hyperpodrun', 'as-is'])
  .describe(
    'hyperpodrun (default): command is your Python training script (a .py path, optionally after ' +
      'python3) and InstantStart starts it on every node through the HyperPod elastic agent — hyperpodrun ' +
      '--nnodes=<nodes> --nproc-per-node=<GPUs> --server-port=8080 --tee=3 --log_dir=/tmp/hyperpod ' +
      '<script> <args> (one process per GPU or NeuronCore); a command that starts with hyperpodrun itself ' +
      'is kept as written. as-is: command runs exactly as written; it (or your entrypoint script) must ' +
      "exec hyperpodrun, or the training operator's process restarts and log-monitoring rules do nothing.",
  );

export const CustomContainerSchema = z
  .object({
    image: ImageSchema.describe(
      'Container image, e.g. 123456789012.dkr.ecr.us-west-2.amazonaws.com/my-trainer:1.2. It must contain ' +
        'the HyperPod elastic agent (pip install hyperpod-elastic-agent: the hyperpodrun command): the ' +
        "training operator's process restarts and log-monitoring rules work only through it; without it a " +
        'hang goes unnoticed and a crash recreates every pod.',
    ),
    command: z
      .array(z.string().max(4096))
      .min(1)
      .max(64)
      .describe(
        'Your training script and its arguments, e.g. ["/data/code/train.py", "--epochs", "3"] (or ' +
          '["python3", "/data/code/train.py"]), started through hyperpodrun; or ["hyperpodrun", …] as you want ' +
          'it; or, with launch as-is, any program (which must exec hyperpodrun itself).',
      ),
    args: z.array(z.string().max(4096)).max(256).default([]).describe('More arguments after command.'),
    launch: CustomLaunchSchema.default('hyperpodrun'),
    env: EnvListSchema.default([]),
  })
  .strict()
  .superRefine((c, ctx) => {
    if (c.launch !== 'hyperpodrun' || startsHyperpodrun(c.command) || customScriptOf(c.command)) return;
    const program = baseName(c.command[0] ?? '');
    const torchrun = program === 'torchrun' || (PYTHON.test(program) && c.command.includes('torch.distributed.run'));
    ctx.addIssue({
      code: 'custom',
      path: ['command'],
      message: torchrun
        ? 'starts torchrun, which has no HyperPod elastic agent: give your training script instead (e.g. ' +
          '["/data/code/train.py", …]) and it is started through hyperpodrun, the torchrun-compatible launcher ' +
          'the training operator needs — or start hyperpodrun yourself'
        : 'must be your Python training script (a .py path, optionally after python3), started on every node ' +
          'through hyperpodrun, or start with hyperpodrun; to run another program set launch to as-is (it must ' +
          'then exec hyperpodrun itself, or restarts and log rules do nothing)',
    });
  })
  .describe(
    'Your own container, run as a recipe is. It gets the same placement, storage and fault ' +
      'tolerance (a HyperPodPyTorchJob); its image must contain the HyperPod elastic agent (pip package ' +
      "hyperpod-elastic-agent, the hyperpodrun launcher): without it the training operator's restarts and " +
      'log rules do nothing.',
  );
export type CustomContainer = z.output<typeof CustomContainerSchema>;
