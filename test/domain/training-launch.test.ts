import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import type { KubeObject } from '../../src/domain/kube-object.js';
import { SubmitTrainingJobRequestSchema } from '../../src/domain/schemas/training.js';
import { placementFor, type InstanceTypeFacts } from '../../src/domain/training/placement.js';
import { RECIPES } from '../../src/domain/training/recipes/index.js';
import { trainingManifest } from '../../src/domain/training/submit.js';

/**
 * Every HyperPodPyTorchJob worker starts through the HyperPod elastic agent. Each recipe's container
 * command is run for real, in bash, against stand-ins for the image's programs: `python3` (pip and
 * the module look-up) and `hyperpodrun` (which records how it was called). What hyperpodrun receives
 * is what the training operator's fault tolerance depends on: the job's layout, the operator's port,
 * the log folder the rules read, and the framework's own entry with its arguments.
 */

const P5: InstanceTypeFacts = {
  instanceType: 'ml.p5.48xlarge',
  acceleratorName: 'H100',
  acceleratorCount: 8,
  efaSupported: true,
  maximumEfaInterfaces: 32,
};
const placement = placementFor({ name: 'gpu', instanceType: P5.instanceType }, P5);
const facts = { claimName: 'shared-s3', placement, capacityType: 'on-demand', tieredCheckpointing: false };
const FLAGS = [
  '--nnodes=2',
  '--nproc-per-node=8',
  '--server-host=0.0.0.0',
  '--server-port=8080',
  '--tee=3',
  '--log_dir=/tmp/hyperpod',
];
const MODEL = '/data/models/Qwen/Qwen2.5-0.5B-Instruct/main';
/** Where the python3 stand-in says a module's file is. */
const fileOf = (module: string) => `/opt/site-packages/${module.replaceAll('.', '/')}.py`;

/** Each HyperPodPyTorchJob recipe: its minimal parameters and the entry (with its first arguments) hyperpodrun must start. */
const EXPECTED: Record<string, { params: Record<string, unknown>; entry: string[] }> = {
  'pytorch-script': {
    params: { script: '/data/code/train.py', scriptArgs: ['--epochs', '2'] },
    entry: ['/data/code/train.py', '--epochs', '2'],
  },
  'llama-factory-sft': {
    params: { modelPath: MODEL, dataset: 'alpaca_en_demo' },
    entry: [fileOf('llamafactory.launcher'), '/tmp/train.yaml'],
  },
  'ms-swift-sft': {
    params: { modelPath: MODEL, datasets: ['/data/datasets/alpaca/train.jsonl'] },
    entry: [fileOf('swift.cli.sft'), '--model', MODEL, '--dataset', '/data/datasets/alpaca/train.jsonl'],
  },
  'ms-swift-megatron-rlhf': {
    params: { modelPath: MODEL, datasets: ['/data/datasets/dpo/train.jsonl'], globalBatchSize: 16 },
    entry: [fileOf('swift.cli._megatron.rlhf'), '--rlhf_type', 'dpo', '--model', MODEL],
  },
};

const dir = mkdtempSync(join(tmpdir(), 'hyperpodrun-launch-'));
after(() => rmSync(dir, { recursive: true, force: true }));

const HYPERPODRUN = `#!/bin/sh
echo $$ > "$LAUNCH_DIR/pid"
for a in "$@"; do printf '%s\\n' "$a"; done > "$LAUNCH_DIR/argv"
`;
const PYTHON3 = `#!/bin/sh
if [ "$1" = "-m" ] && [ "$2" = "pip" ]; then
  shift 2; echo "$*" >> "$LAUNCH_DIR/pip"
  cp "$LAUNCH_DIR/hyperpodrun.stub" "$LAUNCH_DIR/bin/hyperpodrun"; chmod +x "$LAUNCH_DIR/bin/hyperpodrun"; exit 0
fi
if [ "$1" = "-c" ]; then echo "/opt/site-packages/$(echo "$3" | tr . /).py"; exit 0; fi
exit 3
`;

interface Launch {
  /** hyperpodrun's arguments, or undefined when it never ran. */
  argv?: string[];
  /** pip installs, one line each. */
  pip: string[];
  /** hyperpodrun took over the process the container started (it gets the container's SIGTERM). */
  samePid: boolean;
  status: number | null;
  stderr: string;
}

/** Runs a training container's command as the image would, hyperpodrun preinstalled or not. */
function launch(m: KubeObject, hyperpodrunInImage: boolean): Launch {
  const run = mkdtempSync(join(dir, 'run-'));
  const bin = join(run, 'bin');
  mkdirSync(bin);
  writeFileSync(join(run, 'hyperpodrun.stub'), HYPERPODRUN);
  writeFileSync(join(bin, 'python3'), PYTHON3);
  chmodSync(join(bin, 'python3'), 0o755);
  if (hyperpodrunInImage) {
    writeFileSync(join(bin, 'hyperpodrun'), HYPERPODRUN);
    chmodSync(join(bin, 'hyperpodrun'), 0o755);
  }
  const c = (m.spec as any).replicaSpecs[0].template.spec.containers[0];
  const argv: string[] = [...c.command, ...(c.args ?? [])];
  const env = {
    ...Object.fromEntries(c.env.map((e: { name: string; value: string }) => [e.name, e.value])),
    PATH: `${bin}:/usr/bin:/bin`,
    LAUNCH_DIR: run,
  };
  const r = spawnSync(argv[0]!, argv.slice(1), { env, encoding: 'utf8' });
  const read = (f: string) =>
    existsSync(join(run, f)) ? readFileSync(join(run, f), 'utf8').split('\n').filter(Boolean) : undefined;
  return {
    argv: read('argv'),
    pip: read('pip') ?? [],
    samePid: read('pid')?.[0] === String(r.pid),
    status: r.status,
    stderr: r.stderr,
  };
}

const submit = (body: Record<string, unknown>) =>
  trainingManifest(
    SubmitTrainingJobRequestSchema.parse({ instanceGroup: 'gpu', nodes: 2, storage: 'shared-s3', ...body }),
    facts,
  );

describe('every HyperPodPyTorchJob worker starts through hyperpodrun (the command run in bash)', () => {
  it('the recipes checked here are all the HyperPodPyTorchJob recipes there are', () => {
    assert.deepEqual(
      RECIPES.filter((r) => r.kind === 'HyperPodPyTorchJob')
        .map((r) => r.id)
        .sort(),
      Object.keys(EXPECTED).sort(),
    );
  });

  for (const [id, expected] of Object.entries(EXPECTED)) {
    it(`${id}: installs the pinned agent when the image lacks it, then execs hyperpodrun with the job's layout and the framework's entry`, () => {
      const m = submit({ name: `job-${id}`, recipe: id, params: expected.params });
      const fresh = launch(m, false);
      assert.equal(fresh.status, 0, fresh.stderr);
      assert.deepEqual(fresh.pip, ['install --no-cache-dir hyperpod-elastic-agent==1.1.3']);
      assert.deepEqual(fresh.argv?.slice(0, FLAGS.length), FLAGS);
      assert.deepEqual(fresh.argv?.slice(FLAGS.length, FLAGS.length + expected.entry.length), expected.entry);
      assert.ok(fresh.samePid, 'hyperpodrun replaces the shell: it is the process the container runtime signals');

      const baked = launch(m, true);
      assert.deepEqual([baked.pip, baked.argv], [[], fresh.argv], 'an image with hyperpodrun installs nothing');
    });
  }

  it('llama-factory-sft: the generated config is written where the launcher reads it', () => {
    const m = submit({ name: 'lf', recipe: 'llama-factory-sft', params: EXPECTED['llama-factory-sft']!.params });
    assert.equal(launch(m, true).status, 0);
    const config = JSON.parse(readFileSync('/tmp/train.yaml', 'utf8'));
    assert.deepEqual([config.output_dir, config.model_name_or_path, config.stage], ['/data/outputs/lf', MODEL, 'sft']);
  });

  it('elasticAgent "" never installs: the image must have hyperpodrun (pytorch-script is then hyperpodrun itself)', () => {
    const m = submit({
      name: 'own',
      recipe: 'pytorch-script',
      params: { script: '/data/code/train.py', elasticAgent: '' },
    });
    const c = (m.spec as any).replicaSpecs[0].template.spec.containers[0];
    assert.deepEqual(c.command, ['hyperpodrun', ...FLAGS, '/data/code/train.py']);
    const swift = submit({
      name: 'own-swift',
      recipe: 'ms-swift-sft',
      params: { ...EXPECTED['ms-swift-sft']!.params, elasticAgent: '' },
    });
    assert.doesNotMatch(JSON.stringify((swift.spec as any).replicaSpecs[0].template.spec.containers[0].command), /pip/);
    assert.equal(launch(swift, false).status, 127, 'without hyperpodrun in the image the worker does not start');
  });

  it('an elastic pytorch-script job tells hyperpodrun its node range', () => {
    const m = submit({
      name: 'grow',
      recipe: 'pytorch-script',
      params: EXPECTED['pytorch-script']!.params,
      elastic: { minReplicas: 1, maxReplicas: 4 },
    });
    assert.equal(launch(m, true).argv?.[0], '--nnodes=1:4');
  });

  it("a custom container's training script is started through hyperpodrun, with the arguments after it", () => {
    const m = submit({
      name: 'mine',
      custom: {
        image: 'my/trainer:1',
        command: ['python3', '/data/code/train.py', '--lr', '1e-4'],
        args: ['--epochs', '1'],
      },
    });
    const l = launch(m, true);
    assert.deepEqual(l.argv, [...FLAGS, '/data/code/train.py', '--lr', '1e-4', '--epochs', '1']);
    assert.deepEqual(
      launch(m, false).argv,
      undefined,
      'nothing is installed into a custom image: it must bring the agent',
    );
  });
});
