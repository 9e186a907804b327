import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { PreconditionError, InputError } from '../../src/domain/errors.js';
import { HYPERPOD_PYTORCH_JOB } from '../../src/domain/kube/hyperpod-pytorch-job.js';
import { RAY_JOB } from '../../src/domain/kube/ray-job.js';
import { SubmitTrainingJobRequestSchema, type SubmitTrainingJobRequest } from '../../src/domain/schemas/training.js';
import type { KubeObject } from '../../src/domain/kube-object.js';
import { placementFor, type InstanceTypeFacts } from '../../src/domain/training/placement.js';
import { RECIPES, recipeView } from '../../src/domain/training/recipes/index.js';
import { trainingManifest } from '../../src/domain/training/submit.js';

/** Instance type facts as the catalog reads them from EC2 (never a table of ours). */
const P5: InstanceTypeFacts = {
  instanceType: 'ml.p5.48xlarge',
  acceleratorName: 'H100',
  acceleratorCount: 8,
  efaSupported: true,
  maximumEfaInterfaces: 32,
};
const G5: InstanceTypeFacts = {
  instanceType: 'ml.g5.8xlarge',
  acceleratorName: 'A10G',
  acceleratorCount: 1,
  efaSupported: true,
  maximumEfaInterfaces: 1,
};
const G6E: InstanceTypeFacts = {
  instanceType: 'ml.g6e.2xlarge',
  acceleratorName: 'L40S',
  acceleratorCount: 1,
  efaSupported: false,
};
const TRN1: InstanceTypeFacts = {
  instanceType: 'ml.trn1.32xlarge',
  acceleratorName: 'Trainium',
  acceleratorCount: 16,
  efaSupported: true,
  maximumEfaInterfaces: 8,
};
const C5: InstanceTypeFacts = { instanceType: 'ml.c5.xlarge', efaSupported: false };

const envOf = (p: { env: Array<{ name: string; value: string }> }) =>
  Object.fromEntries(p.env.map((e) => [e.name, e.value]));

describe("Placement: from the instance type's facts, per family", () => {
  it('p5: 8 GPUs and 32 EFA interfaces per pod, EFA with device RDMA', () => {
    const p = placementFor({ name: 'gpu', instanceType: 'ml.p5.48xlarge' }, P5);
    assert.deepEqual(p.nodeSelector, { 'sagemaker.amazonaws.com/instance-group-name': 'gpu' });
    assert.deepEqual(p.resources.limits, { 'nvidia.com/gpu': '8', 'vpc.amazonaws.com/efa': '32' });
    assert.equal(p.processesPerNode, 8);
    assert.equal(envOf(p).FI_PROVIDER, 'efa');
    assert.equal(envOf(p).FI_EFA_USE_DEVICE_RDMA, '1');
    assert.ok(envOf(p).NCCL_SOCKET_IFNAME);
  });

  it('g5 with EFA: libfabric over EFA but no device RDMA (it would fail NCCL init there)', () => {
    const p = placementFor({ name: 'g', instanceType: 'ml.g5.8xlarge' }, G5);
    assert.deepEqual(p.resources.limits, { 'nvidia.com/gpu': '1', 'vpc.amazonaws.com/efa': '1' });
    assert.equal(envOf(p).FI_PROVIDER, 'efa');
    assert.equal(envOf(p).FI_EFA_USE_DEVICE_RDMA, undefined);
  });

  it('g6e without EFA: GPUs only, no network settings at all', () => {
    const p = placementFor({ name: 'g', instanceType: 'ml.g6e.2xlarge' }, G6E);
    assert.deepEqual(p.resources.limits, { 'nvidia.com/gpu': '1' });
    assert.deepEqual(p.env, []);
  });

  it('trn1: Neuron devices, a process per NeuronCore, EFA with RDMA and the Neuron bootstrap interface', () => {
    const p = placementFor(
      { name: 'trn', instanceType: 'ml.trn1.32xlarge', taints: [{ key: 'team', value: 'ml', effect: 'NoSchedule' }] },
      TRN1,
    );
    assert.equal(p.accelerator, 'neuron');
    assert.deepEqual(p.resources.limits, { 'aws.amazon.com/neuron': '16', 'vpc.amazonaws.com/efa': '8' });
    assert.equal(p.processesPerNode, 32);
    assert.equal(envOf(p).FI_EFA_USE_DEVICE_RDMA, '1');
    assert.equal(envOf(p).CCOM_SOCKET_IFNAME, 'eth0');
    assert.equal(envOf(p).NCCL_SOCKET_IFNAME, undefined);
    assert.deepEqual(
      p.tolerations,
      [{ key: 'team', operator: 'Equal', value: 'ml', effect: 'NoSchedule' }],
      "the pods tolerate the group's own taints",
    );
  });

  it('a CPU group: no accelerator resources, one process per node', () => {
    const p = placementFor({ name: 'cpu', instanceType: 'ml.c5.xlarge' }, C5);
    assert.deepEqual(p.resources.limits, {});
    assert.equal(p.processesPerNode, 1);
  });
});

/** Minimal valid parameters of each recipe. */
const PARAMS: Record<string, Record<string, unknown>> = {
  'pytorch-script': { script: '/data/code/train.py', scriptArgs: ['--epochs', '2'] },
  'llama-factory-sft': { modelPath: '/data/models/Qwen/Qwen2.5-0.5B-Instruct/main', dataset: 'alpaca_en_demo' },
  'ms-swift-sft': {
    modelPath: '/data/models/Qwen/Qwen2.5-0.5B-Instruct/main',
    datasets: ['/data/datasets/alpaca/train.jsonl'],
  },
  'ms-swift-megatron-rlhf': {
    modelPath: '/data/models/Qwen/Qwen2.5-7B-Instruct/main',
    datasets: ['/data/datasets/dpo/train.jsonl'],
    globalBatchSize: 16,
  },
  'verl-rl': {
    modelPath: '/data/models/Qwen/Qwen2.5-0.5B-Instruct/main',
    trainFiles: '/data/datasets/gsm8k/train.parquet',
    valFiles: '/data/datasets/gsm8k/test.parquet',
  },
};

const request = (recipe: string, extra: Record<string, unknown> = {}): SubmitTrainingJobRequest =>
  SubmitTrainingJobRequestSchema.parse({
    name: `job-${recipe}`,
    recipe,
    params: PARAMS[recipe],
    instanceGroup: 'gpu',
    nodes: 2,
    storage: 'shared-s3',
    ...extra,
  });
const facts = (type: InstanceTypeFacts, more: Record<string, unknown> = {}) => ({
  claimName: 'shared-s3',
  placement: placementFor({ name: 'gpu', instanceType: type.instanceType }, type),
  capacityType: 'on-demand',
  tieredCheckpointing: false,
  ...more,
});

type Any = Record<string, any>;
/** Every pod template of a manifest (the replica specs, or the Ray head and workers). */
function templates(m: KubeObject): Any[] {
  const spec = m.spec as Any;
  return m.kind === 'RayJob'
    ? [spec.rayClusterSpec.headGroupSpec.template, ...spec.rayClusterSpec.workerGroupSpecs.map((g: Any) => g.template)]
    : spec.replicaSpecs.map((r: Any) => r.template);
}

describe('Recipes: each builder → a manifest its kind module reads back, on the group, with the storage at /data', () => {
  for (const recipe of RECIPES) {
    it(`${recipe.id} (${recipe.kind})`, () => {
      for (const type of [P5, G5]) {
        const m = trainingManifest(
          request(
            recipe.id,
            recipe.id === 'ms-swift-megatron-rlhf' && type === G5
              ? { params: { ...PARAMS[recipe.id], globalBatchSize: 2 } }
              : {},
          ),
          facts(type),
        );
        assert.equal(m.kind, recipe.kind);
        const parsed =
          recipe.kind === 'RayJob'
            ? RAY_JOB.parse(JSON.parse(JSON.stringify(m)))
            : HYPERPOD_PYTORCH_JOB.parse(JSON.parse(JSON.stringify(m)));
        assert.equal(parsed.metadata.name, `job-${recipe.id}`);
        assert.equal(parsed.metadata.labels['instantstart.dev/recipe'], recipe.id);
        for (const t of templates(m)) {
          assert.deepEqual(t.spec.nodeSelector, { 'sagemaker.amazonaws.com/instance-group-name': 'gpu' });
          assert.ok(t.spec.volumes.some((v: Any) => v.persistentVolumeClaim?.claimName === 'shared-s3'));
          const c = t.spec.containers[0];
          assert.ok(c.volumeMounts.some((v: Any) => v.mountPath === '/data'));
          assert.equal(c.resources.limits['nvidia.com/gpu'], String(type.acceleratorCount));
          assert.equal(c.resources.limits['vpc.amazonaws.com/efa'], String(type.maximumEfaInterfaces));
          const env = Object.fromEntries(c.env.map((e: Any) => [e.name, e.value]));
          assert.equal(env.CHECKPOINT_DIR, `/data/checkpoints/job-${recipe.id}`);
          assert.equal(env.FI_EFA_USE_DEVICE_RDMA, type === P5 ? '1' : undefined);
        }
        if (recipe.kind === 'HyperPodPyTorchJob') {
          const job = HYPERPOD_PYTORCH_JOB.parse(m);
          assert.equal(job.spec.replicaSpecs[0]!.replicas, 2);
          assert.equal(job.spec.nprocPerNode, String(type.acceleratorCount));
          assert.equal(job.spec.runPolicy.jobMaxRetryCount, 10, 'the default recovery budget');
        } else {
          const job = RAY_JOB.parse(m);
          assert.equal(job.spec.rayClusterSpec!.workerGroupSpecs[0]!.replicas, 1, 'the head is one of the two nodes');
          assert.match(
            job.spec.entrypoint!,
            /^python3 -m verl\.trainer\.main_ppo .*trainer\.nnodes=2 .*trainer\.n_gpus_per_node=/,
          );
        }
      }
      const view = recipeView(recipe);
      const props = (view.parameters as Any).properties as Any;
      for (const [field, schema] of Object.entries(props))
        assert.ok(schema.description, `${recipe.id}: params.${field} has a description for the generated form`);
    });
  }

  it("hands MLflow its tracking server ARN, experiment and run name; the elastic agent's port is open (training-launch.test.ts runs the command)", () => {
    const arn = 'arn:aws:sagemaker:us-west-2:111122223333:mlflow-tracking-server/team';
    const m = trainingManifest(request('pytorch-script', { mlflow: { trackingServerArn: arn } }), facts(P5));
    const c = templates(m)[0]!.spec.containers[0];
    const env = Object.fromEntries(c.env.map((e: Any) => [e.name, e.value]));
    assert.deepEqual(
      [env.MLFLOW_TRACKING_URI, env.MLFLOW_EXPERIMENT_NAME, env.MLFLOW_RUN_NAME],
      [arn, 'job-pytorch-script', 'job-pytorch-script'],
    );
    assert.deepEqual(c.ports, [{ name: 'elastic-agent', containerPort: 8080 }]);
  });

  it("llama-factory-sft writes its generated config with the contract's output folder and MLflow reporting", () => {
    const m = trainingManifest(
      request('llama-factory-sft', {
        mlflow: { trackingServerArn: 'arn:aws:sagemaker:us-west-2:111122223333:mlflow-tracking-server/t' },
      }),
      facts(P5),
    );
    const env = Object.fromEntries(templates(m)[0]!.spec.containers[0].env.map((e: Any) => [e.name, e.value]));
    const config = JSON.parse(env.INSTANTSTART_TRAIN_CONFIG);
    assert.deepEqual(
      [config.output_dir, config.report_to, config.finetuning_type, config.model_name_or_path],
      ['/data/outputs/job-llama-factory-sft', 'mlflow', 'lora', '/data/models/Qwen/Qwen2.5-0.5B-Instruct/main'],
    );
    assert.deepEqual(
      [env.FORCE_TORCHRUN, env.PYTORCH_CUDA_ALLOC_CONF],
      [undefined, 'expandable_segments:True'],
      "hyperpodrun, not LLaMA-Factory's torchrun, starts the workers: its launcher's defaults come with the recipe",
    );
  });

  it('refuses parameters outside the data contract, naming params.<field>', () => {
    assert.throws(
      () =>
        trainingManifest(
          request('llama-factory-sft', { params: { ...PARAMS['llama-factory-sft'], modelPath: '/tmp/model' } }),
          facts(P5),
        ),
      (e: unknown) =>
        e instanceof InputError && e.problems[0]?.path === 'params.modelPath' && /under \/data/.test(e.message),
    );
    assert.throws(
      () =>
        trainingManifest(
          request('llama-factory-sft', { params: { ...PARAMS['llama-factory-sft'], modelPath: '/data/../etc' } }),
          facts(P5),
        ),
      InputError,
    );
    assert.throws(
      () =>
        trainingManifest(
          SubmitTrainingJobRequestSchema.parse({ name: 'x', recipe: 'nope', instanceGroup: 'gpu', storage: 's' }),
          facts(P5),
        ),
      (e: unknown) => e instanceof InputError && e.problems[0]?.path === 'recipe',
    );
  });

  it('refuses a CUDA framework on a Trainium group, and Megatron parallel sizes that do not fit the nodes', () => {
    assert.throws(
      () => trainingManifest(request('verl-rl'), facts(TRN1)),
      (e: unknown) => e instanceof PreconditionError && e.problems[0]?.path === 'instanceGroup',
    );
    assert.throws(
      () =>
        trainingManifest(
          request('ms-swift-megatron-rlhf', { params: { ...PARAMS['ms-swift-megatron-rlhf'], tensorParallel: 16 } }),
          facts(P5),
        ),
      (e: unknown) => e instanceof PreconditionError && e.problems[0]?.path === 'params.tensorParallel',
    );
  });

  it('runs a custom container as a HyperPodPyTorchJob with the same placement and contract; a command starting hyperpodrun is kept', () => {
    const req = SubmitTrainingJobRequestSchema.parse({
      name: 'mine',
      custom: { image: 'my/trainer:1', command: ['hyperpodrun', 'train.py'], env: [{ name: 'BATCH', value: '4' }] },
      instanceGroup: 'gpu',
      storage: 'shared-s3',
    });
    const m = trainingManifest(req, facts(G6E));
    const c = templates(m)[0]!.spec.containers[0];
    assert.equal(c.image, 'my/trainer:1');
    assert.deepEqual(c.command, ['hyperpodrun', 'train.py']);
    assert.ok(c.env.some((e: Any) => e.name === 'BATCH' && e.value === '4'));
    assert.equal(HYPERPOD_PYTORCH_JOB.parse(m).metadata.labels['instantstart.dev/recipe'], undefined);
  });

  it('a custom command that is neither a training script nor hyperpodrun is refused naming custom.command, unless launch is as-is', () => {
    const custom = (command: string[], launch?: string) =>
      SubmitTrainingJobRequestSchema.safeParse({
        name: 'mine',
        custom: { image: 'my/trainer:1', command, ...(launch ? { launch } : {}) },
        instanceGroup: 'gpu',
        storage: 'shared-s3',
      });
    const torchrun = custom(['torchrun', '--nproc-per-node=8', '/data/code/train.py']);
    assert.equal(torchrun.success, false);
    assert.deepEqual(
      torchrun.error!.issues.map((i) => i.path.join('.')),
      ['custom.command'],
    );
    assert.match(torchrun.error!.issues[0]!.message, /torchrun, which has no HyperPod elastic agent/);
    assert.match(custom(['bash', '/data/run.sh']).error!.issues[0]!.message, /set launch to as-is/);
    const asIs = custom(['bash', '/data/run.sh'], 'as-is');
    assert.ok(asIs.success);
    assert.deepEqual(
      templates(trainingManifest(asIs.data, facts(G6E)))[0]!.spec.containers[0].command,
      ['bash', '/data/run.sh'],
      'as-is runs as written',
    );
    assert.ok(
      custom(['/data/code/train.py']).success && custom(['/usr/bin/python3.12', '/data/code/train.py']).success,
    );
  });
});
