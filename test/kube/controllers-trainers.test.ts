import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { readLogs } from '../../sandbox/kube/controllers/logs.js';
import { parseMetricLine } from '../../sandbox/kube/controllers/training-programs.js';
import { T } from '../../sandbox/kube/controllers/util.js';
import { hyperpodrunCommand } from '../../src/domain/training/elastic-agent.js';
import { get, node, pod, world } from './controllers-fixtures.js';

const RECIPES: Record<string, { command: string[]; banner: RegExp }> = {
  torchrun: {
    command: ['torchrun', '--nnodes=1', '--nproc-per-node=8', 'train.py'],
    banner: /^\[rank0\]: Experiment configuration: \{"model"/m,
  },
  llamafactory: {
    command: ['llamafactory-cli', 'train', '/data/configs/qwen_lora_sft.yaml'],
    banner: /llamafactory\.train\.tuner:\d+ >> Experiment configuration: stage=sft finetuning_type=lora/,
  },
  swift: {
    command: ['swift', 'sft', '--model', 'Qwen/Qwen2.5-7B-Instruct', '--train_type', 'full'],
    banner: /^\[INFO:swift\] Experiment configuration: model=Qwen\/Qwen2\.5-7B-Instruct train_type=full/m,
  },
  megatron: {
    command: ['megatron', 'rlhf', '--rlhf_type', 'grpo'],
    banner: /^\[INFO:swift\] Experiment configuration: rlhf_type=grpo/m,
  },
  verl: {
    command: ['python3', '-m', 'verl.trainer.main_ppo', 'algorithm.adv_estimator=grpo'],
    banner: /^\(TaskRunner pid=\d+\) Experiment configuration: \{'algorithm': \{'adv_estimator': 'grpo'\}/m,
  },
};

function run(
  command: string[],
  annotations: Record<string, string> = {},
  env: Array<{ name: string; value: string }> = [],
) {
  const w = world();
  w.cluster.objects.create(T.nodes, node('n1', { cpu: '96', memory: '768Gi', 'nvidia.com/gpu': '8' }));
  w.cluster.objects.create(
    T.pods,
    pod(
      'trainer',
      {
        restartPolicy: 'Never',
        containers: [
          {
            name: 'main',
            image: 'registry.example.com/team/trainer:1',
            command,
            env,
            resources: { limits: { 'nvidia.com/gpu': '8' } },
          },
        ],
      },
      { 'sandbox.instantstart.dev/steps': '30', 'sandbox.instantstart.dev/step-seconds': '2', ...annotations },
    ),
  );
  w.advance(120, 2);
  return { w, log: readLogs(w.cluster, get(w, 'pods', 'trainer'), {}), phase: get(w, 'pods', 'trainer').status.phase };
}

describe('controllers: the simulated trainers per recipe', () => {
  for (const [name, recipe] of Object.entries(RECIPES)) {
    it(`${name}: its own banner, then metrics lines with a falling loss and a steady throughput, then exit 0`, () => {
      const { log, phase } = run(recipe.command);
      assert.match(log, recipe.banner);
      const metrics = log
        .split('\n')
        .map(parseMetricLine)
        .filter((m) => m !== undefined);
      assert.deepEqual(
        metrics.map((m) => m.step),
        Array.from({ length: 30 }, (_, i) => i + 1),
      );
      assert.ok(metrics[29]!.loss < metrics[0]!.loss - 0.3, `loss falls: ${metrics[0]!.loss} → ${metrics[29]!.loss}`);
      const tps = metrics.map((m) => m.tokensPerSecond);
      assert.ok(Math.max(...tps) / Math.min(...tps) < 1.1, 'throughput within a few percent');
      assert.ok(metrics.every((m) => m.lr > 0));
      assert.equal(phase, 'Succeeded');
    });
  }

  it("the frameworks' entries started by hyperpodrun, as the recipes start them: the agent's line, then the framework's banner", () => {
    const through = (module: string, args: string[]) =>
      hyperpodrunCommand({
        nnodes: '1',
        nprocPerNode: 8,
        entry: { module },
        args,
        install: 'hyperpod-elastic-agent==1.1.3',
      });
    const launched: Array<[string[], RegExp]> = [
      [through('llamafactory.launcher', ['/tmp/train.yaml']), RECIPES.llamafactory!.banner],
      [
        through('swift.cli.sft', ['--model', 'Qwen/Qwen2.5-7B-Instruct', '--train_type', 'full']),
        RECIPES.swift!.banner,
      ],
      [through('swift.cli._megatron.rlhf', ['--rlhf_type', 'grpo']), RECIPES.megatron!.banner],
      [['hyperpodrun', '--nnodes=1', '--nproc-per-node=8', 'train.py'], RECIPES.torchrun!.banner],
    ];
    for (const [command, banner] of launched) {
      const { log, phase } = run(command);
      assert.match(
        log.split('\n')[0]!,
        /^\[hyperpod-elastic-agent\] HyperPod elastic agent listening on :8080/,
        command.join(' '),
      );
      assert.match(log, banner);
      assert.doesNotMatch(log, /run sh: `|Initializing \d+ distributed tasks/, 'no framework launcher of its own ran');
      assert.equal(log.split('\n').map(parseMetricLine).filter(Boolean).length, 30);
      assert.equal(phase, 'Succeeded');
    }
    assert.doesNotMatch(
      run(RECIPES.swift!.command).log,
      /hyperpod-elastic-agent/,
      'swift started directly has no agent',
    );
  });

  it('crash-at-step ends the run with a traceback and the exit code; hang-at-step stops printing and keeps running', () => {
    const crashed = run(RECIPES.torchrun!.command, {
      'sandbox.instantstart.dev/crash-at-step': '4',
      'sandbox.instantstart.dev/exit-code': '3',
    });
    assert.equal(crashed.phase, 'Failed');
    assert.equal(get(crashed.w, 'pods', 'trainer').status.containerStatuses[0].state.terminated.exitCode, 3);
    assert.deepEqual(
      crashed.log
        .split('\n')
        .map(parseMetricLine)
        .filter(Boolean)
        .map((m) => m!.step),
      [1, 2, 3],
    );
    assert.match(crashed.log, /ChildFailedError: train\.py FAILED/);
    const hung = run(RECIPES.swift!.command, { 'sandbox.instantstart.dev/hang-at-step': '5' });
    assert.equal(hung.phase, 'Running');
    assert.equal(hung.log.split('\n').map(parseMetricLine).filter(Boolean).at(-1)!.step, 5);
  });

  it("a rank other than the scenario's plays it straight; slow-at-step cuts the throughput to a third", () => {
    const other = run(
      RECIPES.torchrun!.command,
      { 'sandbox.instantstart.dev/crash-at-step': '4', 'sandbox.instantstart.dev/crash-rank': '1' },
      [{ name: 'NODE_RANK', value: '0' }],
    );
    assert.equal(other.phase, 'Succeeded');
    const slow = run(RECIPES.llamafactory!.command, { 'sandbox.instantstart.dev/slow-at-step': '10' });
    const tps = slow.log
      .split('\n')
      .map(parseMetricLine)
      .filter(Boolean)
      .map((m) => m!.tokensPerSecond);
    assert.ok(tps[20]! < tps[5]! / 2.5, `slower from step 10: ${tps[5]} → ${tps[20]}`);
  });

  it('a trainer given MLFLOW_TRACKING_URI says where its metrics go', () => {
    const arn = 'arn:aws:sagemaker:us-west-2:000000000000:mlflow-tracking-server/team';
    const { log } = run(RECIPES.torchrun!.command, {}, [
      { name: 'MLFLOW_TRACKING_URI', value: arn },
      { name: 'MLFLOW_EXPERIMENT_NAME', value: 'sft' },
      { name: 'MLFLOW_RUN_NAME', value: 'llama' },
    ]);
    assert.ok(log.includes(`mlflow: logging metrics to ${arn} (experiment "sft", run "llama")`));
  });
});
