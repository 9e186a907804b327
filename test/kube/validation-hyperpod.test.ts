import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { defaultObject, pruneObject, unknownFields, validateObject } from '../../sandbox/kube/api/validation.js';
import type { StatusCause } from '../../sandbox/kube/errors.js';
import type { KubeObject } from '../../sandbox/kube/types.js';
import { SubmitTrainingJobRequestSchema } from '../../src/domain/schemas/training.js';
import { placementFor, type InstanceTypeFacts } from '../../src/domain/training/placement.js';
import { RECIPES } from '../../src/domain/training/recipes/index.js';
import { trainingManifest } from '../../src/domain/training/submit.js';
import { hyperPodJob, trainingWorld } from './controllers-training-fixtures.js';

/**
 * The sandbox's HyperPodPyTorchJob CRD, typed from the HyperPod CLI's model of the operator's CRD
 * (sandbox/kube/controllers/crds/hyperpod-pytorch-job.ts): a wrong type is refused with the API
 * server's words, an unknown field is pruned, and every manifest the product builds passes with
 * nothing pruned — so every field it sets exists upstream, with that type.
 */

const w = trainingWorld(0);
const type = w.jobType;
const messages = (causes: StatusCause[]) => causes.map((c) => `${c.field}: ${c.message}`);
/** What the API server does with a create: prune, default, validate. */
const admit = (obj: KubeObject) => {
  const stored = defaultObject(w.cluster, type, pruneObject(w.cluster, type, obj));
  return {
    stored,
    causes: messages(validateObject(w.cluster, type, stored)),
    unknown: unknownFields(w.cluster, type, obj),
  };
};
const withRunPolicy = (runPolicy: Record<string, unknown>) => hyperPodJob('typed', { runPolicy });

const P5: InstanceTypeFacts = {
  instanceType: 'ml.p5.48xlarge',
  acceleratorName: 'H100',
  acceleratorCount: 8,
  efaSupported: true,
  maximumEfaInterfaces: 32,
};
const MODEL = '/data/models/Qwen/Qwen2.5-0.5B-Instruct/main';
const PARAMS: Record<string, Record<string, unknown>> = {
  'pytorch-script': { script: '/data/code/train.py', scriptArgs: ['--epochs', '2'] },
  'llama-factory-sft': { modelPath: MODEL, dataset: 'alpaca_en_demo' },
  'ms-swift-sft': { modelPath: MODEL, datasets: ['/data/datasets/alpaca/train.jsonl'] },
  'ms-swift-megatron-rlhf': { modelPath: MODEL, datasets: ['/data/datasets/dpo/train.jsonl'], globalBatchSize: 16 },
};
/** Every fault-tolerance setting the product writes into runPolicy. */
const FAULT_TOLERANCE = {
  jobMaxRetryCount: 20,
  restartPolicy: {
    evalPeriodSeconds: 3600,
    numRestartBeforeFullJobRestart: 2,
    maxFullJobRestarts: 1,
    maxNumRepeatOffendersToAvoid: 1,
  },
  logMonitoring: {
    jobStart: { cutoffSeconds: 900 },
    hang: { gapSeconds: 300, startCutoffSeconds: 1200 },
    lowThroughput: { tokensPerSecondBelow: 1500, dataPoints: 5 },
  },
  customRules: [
    {
      name: 'LossSpike',
      logPattern: '.*loss=([0-9.]+).*',
      metricThreshold: 20,
      operator: 'gt',
      metricEvaluationDataPoints: 3,
      stopPattern: '.*Training complete.*',
    },
  ],
  cleanPodPolicy: 'OnlyComplete',
  ttlSecondsAfterFinished: 3600,
};
const ELASTIC = {
  minReplicas: 1,
  maxReplicas: 4,
  replicaIncrementStep: 1,
  scalingTimeoutInSeconds: 600,
  gracefulShutdownTimeoutInSeconds: 120,
  faultyScaleDownTimeoutInSeconds: 300,
};

const manifest = (body: Record<string, unknown>) =>
  trainingManifest(
    SubmitTrainingJobRequestSchema.parse({
      instanceGroup: 'gpu',
      nodes: 2,
      storage: 'shared-s3',
      faultTolerance: FAULT_TOLERANCE,
      env: [{ name: 'BATCH', value: '4' }],
      ...body,
    }),
    {
      claimName: 'shared-s3',
      placement: placementFor(
        { name: 'gpu', instanceType: P5.instanceType, taints: [{ key: 'team', value: 'ml', effect: 'NoSchedule' }] },
        P5,
      ),
      capacityType: 'on-demand',
      tieredCheckpointing: false,
      serviceAccountName: 'instantstart-mlflow-abc',
    },
  ) as KubeObject;

describe('the sandbox HyperPodPyTorchJob CRD, typed from upstream', () => {
  it('takes every manifest the product builds with nothing pruned: each field it sets exists upstream with that type', () => {
    const jobs: Array<[string, KubeObject]> = RECIPES.filter((r) => r.kind === 'HyperPodPyTorchJob').map((r) => [
      r.id,
      manifest({ name: `job-${r.id}`, recipe: r.id, params: PARAMS[r.id], ...(r.elastic ? { elastic: ELASTIC } : {}) }),
    ]);
    jobs.push([
      'custom',
      manifest({
        name: 'mine',
        custom: { image: 'my/trainer:1', command: ['python3', '/data/code/train.py'], args: ['--epochs', '1'] },
        mlflow: { trackingServerArn: 'arn:aws:sagemaker:us-west-2:111122223333:mlflow-tracking-server/team' },
      }),
    ]);
    jobs.push([
      'checkpointless',
      manifest({ name: 'ckless', recipe: 'pytorch-script', params: PARAMS['pytorch-script'], checkpointless: true }),
    ]);
    assert.equal(jobs.length, 6);
    for (const [what, job] of jobs) {
      const { causes, unknown, stored } = admit(job);
      assert.deepEqual(unknown, [], `${what}: nothing the product sends is pruned`);
      assert.deepEqual(causes, [], `${what}: valid`);
      assert.deepEqual(
        (stored.spec as any).runPolicy.logMonitoringConfiguration.map((r: any) => r.name),
        ['JobStart', 'JobHangingDetection', 'LowThroughput', 'LossSpike'],
      );
    }
  });

  it('refuses a float metricThreshold as kube-apiserver words it, naming the field', () => {
    const { causes } = admit(
      withRunPolicy({
        logMonitoringConfiguration: [
          { name: 'Loss', logPattern: '.*loss=([0-9.]+).*', metricThreshold: 2.5, operator: 'gt' },
        ],
      }),
    );
    assert.deepEqual(causes, [
      'spec.runPolicy.logMonitoringConfiguration[0].metricThreshold: Invalid value: "number": spec.runPolicy.logMonitoringConfiguration[0].metricThreshold in body must be of type integer: "number"',
    ]);
    assert.deepEqual(
      admit(
        withRunPolicy({
          logMonitoringConfiguration: [
            { name: 'Loss', logPattern: '.*loss=([0-9.]+).*', metricThreshold: 2, operator: 'gt' },
          ],
        }),
      ).causes,
      [],
    );
  });

  it("requires what upstream requires: a rule's name and logPattern, restartPolicy.evalPeriodSeconds, a replica spec's name — not its template", () => {
    const { causes } = admit(
      withRunPolicy({
        restartPolicy: { maxFullJobRestarts: 1 },
        logMonitoringConfiguration: [{ expectedStartCutOffInSeconds: 60 }],
      }),
    );
    assert.deepEqual(causes.sort(), [
      'spec.runPolicy.logMonitoringConfiguration[0].logPattern: Required value',
      'spec.runPolicy.logMonitoringConfiguration[0].name: Required value',
      'spec.runPolicy.restartPolicy.evalPeriodSeconds: Required value',
    ]);
    const bare: KubeObject = {
      apiVersion: 'sagemaker.amazonaws.com/v1',
      kind: 'HyperPodPyTorchJob',
      metadata: { name: 'bare', namespace: 'default' },
      spec: { replicaSpecs: [{ replicas: 1 }, { name: 'no-template', replicas: 1 }] },
    };
    assert.deepEqual(admit(bare).causes, ['spec.replicaSpecs[0].name: Required value']);
  });

  it("types the full elasticPolicy and the run policy's deadlines and modes, and fills upstream's defaults", () => {
    const job = hyperPodJob('elastic', {
      runPolicy: {
        faultDeadlineSeconds: 600,
        startupDeadlineSeconds: 900,
        workloadMode: 'Deployment',
        restartPolicy: { evalPeriodSeconds: 60, scaleUpSnoozeTimeInSeconds: 120 },
      },
    });
    (job.spec as any).elasticPolicy = { ...ELASTIC, replicaIncrementStep: undefined, replicaDiscreteValues: [1, 2, 4] };
    const ok = admit(job);
    assert.deepEqual([ok.causes, ok.unknown], [[], []]);
    assert.deepEqual(
      [
        (ok.stored.spec as any).runPolicy.cleanPodPolicy,
        (ok.stored.spec as any).runPolicy.ttlSecondsAfterFinished,
        (ok.stored.spec as any).replicaSpecs[0].spares,
      ],
      ['All', 0, 0],
    );
    (job.spec as any).elasticPolicy = { minReplicas: '1', replicaDiscreteValues: [1.5] };
    assert.deepEqual(admit(job).causes, [
      'spec.elasticPolicy.minReplicas: Invalid value: "string": spec.elasticPolicy.minReplicas in body must be of type integer: "string"',
      'spec.elasticPolicy.replicaDiscreteValues[0]: Invalid value: "number": spec.elasticPolicy.replicaDiscreteValues[0] in body must be of type integer: "number"',
    ]);
  });

  it("prunes unknown fields at every level, the pod template's included (it is the real PodTemplateSpec)", () => {
    const job = withRunPolicy({
      jobMaxRetryCount: 3,
      retryBudget: 9,
      restartPolicy: { evalPeriodSeconds: 60, window: 1 },
    });
    const spec = job.spec as any;
    spec.elasticPolicy = { minReplicas: 1, maxReplicas: 2, minNodes: 1 };
    spec.priority = 'high';
    spec.replicaSpecs[0].template.metadata.generateName = 'x-';
    spec.replicaSpecs[0].template.spec.containers[0].imagePullPolice = 'Always';
    const { stored, unknown, causes } = admit(job);
    assert.deepEqual(unknown.sort(), [
      'spec.elasticPolicy.minNodes',
      'spec.priority',
      'spec.replicaSpecs[0].template.metadata.generateName',
      'spec.replicaSpecs[0].template.spec.containers[0].imagePullPolice',
      'spec.runPolicy.restartPolicy.window',
      'spec.runPolicy.retryBudget',
    ]);
    assert.deepEqual(causes, []);
    const kept = stored.spec as any;
    assert.deepEqual(
      [kept.runPolicy.jobMaxRetryCount, kept.runPolicy.retryBudget, kept.elasticPolicy, kept.priority],
      [3, undefined, { minReplicas: 1, maxReplicas: 2 }, undefined],
    );
    assert.deepEqual(
      kept.replicaSpecs[0].template.metadata.labels,
      { team: 'ml' },
      'labels and annotations of the template stay',
    );
    assert.equal(kept.replicaSpecs[0].template.spec.containers[0].imagePullPolice, undefined);
  });

  it("holds the pod template to the pod spec's types and required fields", () => {
    const job = hyperPodJob('pods');
    const container = (job.spec as any).replicaSpecs[0].template.spec.containers[0];
    container.ports = [{ containerPort: '8080' }];
    delete container.name;
    assert.deepEqual(admit(job).causes, [
      'spec.replicaSpecs[0].template.spec.containers[0].name: Required value',
      'spec.replicaSpecs[0].template.spec.containers[0].ports[0].containerPort: Invalid value: "string": spec.replicaSpecs[0].template.spec.containers[0].ports[0].containerPort in body must be of type integer: "string"',
    ]);
  });
});
