import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  HYPERPOD_PYTORCH_JOB,
  hyperpodJobStatus,
  hyperpodRecoveryBudget,
} from '../../src/domain/kube/hyperpod-pytorch-job.js';
import { knownKind } from '../../src/domain/kube/index.js';
import { POD } from '../../src/domain/kube/pod.js';
import { RAY_CLUSTER } from '../../src/domain/kube/ray-cluster.js';
import { RAY_JOB, rayJobRecoveryBudget, rayJobStatus } from '../../src/domain/kube/ray-job.js';
import { hyperpodJobView, rayJobView } from '../../src/domain/training/job-view.js';
import { TrainingJobViewSchema } from '../../src/domain/schemas/training.js';

/** A job as the operator reports it: the doc example's run policy, the given status. */
const hpjob = (status: Record<string, unknown>, runPolicy: Record<string, unknown> = {}) =>
  HYPERPOD_PYTORCH_JOB.parse({
    apiVersion: 'sagemaker.amazonaws.com/v1',
    kind: 'HyperPodPyTorchJob',
    metadata: {
      name: 'llama',
      namespace: 'default',
      labels: { 'instantstart.dev/recipe': 'pytorch-script' },
      annotations: { 'instantstart.dev/instance-group': 'gpu' },
    },
    spec: {
      nprocPerNode: '8',
      replicaSpecs: [
        { name: 'pod', replicas: 2, template: { spec: { containers: [{ name: 'trainer', image: 'img:1' }] } } },
      ],
      runPolicy: {
        jobMaxRetryCount: 10,
        restartPolicy: { evalPeriodSeconds: 21600, numRestartBeforeFullJobRestart: 3, maxFullJobRestarts: 1 },
        ...runPolicy,
      },
    },
    status,
  });
const cond = (type: string, reason?: string, message?: string, status = 'True') => ({
  type,
  status,
  ...(reason ? { reason } : {}),
  ...(message ? { message } : {}),
});

describe('HyperPodPyTorchJob: status view and recovery budget', () => {
  it('is served by its CRD and named what the training operator installs', () => {
    assert.equal(knownKind('sagemaker.amazonaws.com/v1', 'HyperPodPyTorchJob'), HYPERPOD_PYTORCH_JOB);
    assert.equal(HYPERPOD_PYTORCH_JOB.crd, 'hyperpodpytorchjobs.sagemaker.amazonaws.com');
    assert.match(HYPERPOD_PYTORCH_JOB.installedBy!, /training-operator/);
    assert.equal(knownKind('ray.io/v1', 'RayJob'), RAY_JOB);
    assert.equal(knownKind('ray.io/v1', 'RayCluster'), RAY_CLUSTER);
    assert.match(RAY_JOB.installedBy!, /kuberay-operator/);
    for (const garbage of [null, 'x', 7, [], { status: 'nope', spec: { replicaSpecs: 'x', runPolicy: [] } }]) {
      for (const kind of [HYPERPOD_PYTORCH_JOB, RAY_JOB, RAY_CLUSTER])
        assert.equal(kind.health!(kind.parse(garbage) as never).state, 'transitional');
    }
  });

  it('reads a process-level restart (PLR): running again, one restart of ten used, the faulty rank and instance named', () => {
    const job = hpjob({
      conditions: [
        cond('Created'),
        cond('PodsRunning'),
        cond('Running', 'Running', 'The fault of reason NodeFault was remediated in 94283 milliseconds.'),
      ],
      restartCount: 1,
      restartStatus: { fullJobRestartCount: 0, restartCount: 1, currentEvalPeriod: '2026-12-05T10:00:00Z' },
      latestFaultyPodInstanceList: {
        restartType: 'PLR',
        faultyRankList: ['1'],
        faultyPodList: ['llama-pod-1'],
        faultyInstanceIdList: ['i-0abc'],
      },
    });
    assert.equal(hyperpodJobStatus(job).phase, 'Running');
    const b = hyperpodRecoveryBudget(job);
    assert.deepEqual(b.processRestarts, { used: 1, allowed: 10, remaining: 9 });
    assert.deepEqual(b.fullJobRestarts, { used: 0, allowed: 1, remaining: 1 });
    assert.deepEqual(b.window, {
      restarts: 1,
      beforeFullJobRestart: 3,
      evalPeriodSeconds: 21600,
      currentEvalPeriod: '2026-12-05T10:00:00Z',
    });
    assert.deepEqual(b.lastFault, {
      restartType: 'PLR',
      level: 'process',
      ranks: [1],
      pods: ['llama-pod-1'],
      instances: ['i-0abc'],
    });
    assert.equal(b.exhausted, false);
    assert.equal(HYPERPOD_PYTORCH_JOB.health!(job).state, 'healthy');
  });

  it('reads an escalation to a job-level restart (JLR) while it recovers', () => {
    const job = hpjob({
      conditions: [
        cond('Created'),
        cond('Running', undefined, undefined, 'False'),
        cond('Restarting', 'NodeFault', 'Found unhealthy node hyperpod-i-0def'),
      ],
      restartCount: 4,
      restartStatus: { fullJobRestartCount: 1, restartCount: 0 },
      latestFaultyPodInstanceList: {
        restartType: 'JLR',
        faultyRankList: [0, 1],
        faultyPodList: ['llama-pod-0', 'llama-pod-1'],
        faultyInstanceIdList: ['i-0def'],
      },
    });
    assert.deepEqual(hyperpodJobStatus(job), {
      phase: 'Restarting',
      reason: 'NodeFault',
      message: 'Found unhealthy node hyperpod-i-0def',
    });
    const b = hyperpodRecoveryBudget(job);
    assert.equal(b.lastFault?.level, 'job');
    assert.deepEqual(b.fullJobRestarts, { used: 1, allowed: 1, remaining: 0 });
    assert.equal(
      b.exhausted,
      true,
      'the one full-job restart of the window is spent: the next escalation fails the job',
    );
    assert.equal(HYPERPOD_PYTORCH_JOB.health!(job).state, 'degraded');
  });

  it("reads an exhausted budget: Failed with the operator's reason, every process restart used", () => {
    const job = hpjob({
      conditions: [cond('Created'), cond('Failed', 'MaxRetryExceeded', 'job exceeded jobMaxRetryCount 10')],
      restartCount: 10,
      completionTime: '2026-12-05T11:00:00Z',
    });
    assert.deepEqual(hyperpodJobStatus(job), {
      phase: 'Failed',
      reason: 'MaxRetryExceeded',
      message: 'job exceeded jobMaxRetryCount 10',
    });
    assert.deepEqual(hyperpodRecoveryBudget(job).processRestarts, { used: 10, allowed: 10, remaining: 0 });
    assert.equal(hyperpodRecoveryBudget(job).exhausted, true);
    assert.equal(HYPERPOD_PYTORCH_JOB.health!(job).state, 'failed');
  });

  it('reads a hang and a slow job flagged by log-monitoring rules', () => {
    const hang = hpjob({
      conditions: [cond('Running'), cond('Hanging', 'LogStateHanging_JobHangingDetection', 'no match for 600 s')],
      restartCount: 0,
    });
    assert.deepEqual(hyperpodJobStatus(hang), {
      phase: 'Hanging',
      reason: 'LogStateHanging_JobHangingDetection',
      message: 'no match for 600 s',
    });
    const byReason = hpjob({ conditions: [cond('Running'), cond('Degraded', 'LogStateHanging_JobStart')] });
    assert.equal(hyperpodJobStatus(byReason).phase, 'Hanging', 'the reason alone says it: LogStateHanging_<rule>');
    const slow = hpjob({ conditions: [cond('Running'), cond('Slow', 'LogStateSlow_LowThroughput')] });
    assert.equal(hyperpodJobStatus(slow).phase, 'Slow');
    assert.equal(HYPERPOD_PYTORCH_JOB.health!(slow).code, 'LogStateSlow_LowThroughput');
    const restartedForHang = hpjob({ conditions: [cond('Restarting', 'LogStateHanging_JobStart')], restartCount: 1 });
    assert.deepEqual(hyperpodJobStatus(restartedForHang), { phase: 'Restarting', reason: 'LogStateHanging_JobStart' });
  });

  it('reads a finished job as Succeeded and a fresh one as Pending with an unspent budget', () => {
    assert.equal(
      hyperpodJobStatus(hpjob({ conditions: [cond('Running', undefined, undefined, 'False'), cond('Completed')] }))
        .phase,
      'Succeeded',
    );
    const fresh = hpjob({ conditions: [cond('Created')] });
    assert.equal(hyperpodJobStatus(fresh).phase, 'Pending');
    assert.deepEqual(hyperpodRecoveryBudget(fresh).processRestarts, { used: 0, allowed: 10, remaining: 10 });
    assert.equal(hyperpodRecoveryBudget(fresh).exhausted, false);
  });

  it('lists the pods by global rank with their nodes, and the view passes its schema', () => {
    const pod = (name: string, index: string, node?: string, extra: Record<string, unknown> = {}) =>
      POD.parse({
        metadata: {
          name,
          labels: {
            HPJob: 'llama',
            'sagemaker.amazonaws.com/replica-name': 'pod',
            'sagemaker.amazonaws.com/replica-index': index,
          },
        },
        spec: { ...(node ? { nodeName: node } : {}), containers: [{ name: 'trainer' }] },
        status: {
          phase: node ? 'Running' : 'Pending',
          containerStatuses: node ? [{ name: 'trainer', ready: true, restartCount: 2, state: { running: {} } }] : [],
          ...extra,
        },
      });
    const job = hpjob({ conditions: [cond('Running')], restartCount: 2 });
    const view = hyperpodJobView(job, [pod('llama-pod-1', '1'), pod('llama-pod-0', '0', 'hyperpod-i-0aaa')]);
    assert.deepEqual(
      view.ranks.map((r) => [r.rank, r.pod, r.node, r.instanceId, r.restarts]),
      [
        [0, 'llama-pod-0', 'hyperpod-i-0aaa', 'i-0aaa', 2],
        [1, 'llama-pod-1', undefined, undefined, 0],
      ],
    );
    assert.equal(view.recipe, 'pytorch-script');
    assert.equal(view.instanceGroup, 'gpu');
    assert.equal(view.paths.checkpoints, '/data/checkpoints/llama');
    TrainingJobViewSchema.parse(view);
  });

  it("reads the elastic target size from upstream's map of replica spec → replicas, a replica spec without a template too", () => {
    const job = HYPERPOD_PYTORCH_JOB.parse({
      apiVersion: 'sagemaker.amazonaws.com/v1',
      kind: 'HyperPodPyTorchJob',
      metadata: { name: 'grow', namespace: 'default' },
      spec: { replicaSpecs: [{ name: 'pod', replicas: 2 }], elasticPolicy: { minReplicas: 1, maxReplicas: 4 } },
      status: {
        conditions: [cond('Running')],
        elasticScalingStatus: { targetReplicas: { pod: 3 }, podsScaled: false },
      },
    });
    const view = hyperpodJobView(job, []);
    assert.deepEqual(view.elastic, { minReplicas: 1, maxReplicas: 4, targetReplicas: 3 });
    TrainingJobViewSchema.parse(view);
  });
});

describe('RayJob and RayCluster: status views', () => {
  const rayjob = (status: Record<string, unknown>, backoffLimit = 2) =>
    RAY_JOB.parse({
      metadata: { name: 'grpo', namespace: 'default' },
      spec: {
        entrypoint: 'python3 -m verl.trainer.main_ppo',
        backoffLimit,
        rayClusterSpec: { headGroupSpec: { template: {} }, workerGroupSpecs: [{ groupName: 'workers', replicas: 1 }] },
      },
      status,
    });

  it('maps jobDeploymentStatus and jobStatus to one phase', () => {
    const phase = (s: Record<string, unknown>) => rayJobStatus(rayjob(s)).phase;
    assert.equal(phase({}), 'Pending');
    assert.equal(phase({ jobDeploymentStatus: 'Initializing' }), 'Pending');
    assert.equal(
      phase({ jobDeploymentStatus: 'Running', jobStatus: 'PENDING' }),
      'Pending',
      'submitted, Ray has not started it',
    );
    assert.equal(phase({ jobDeploymentStatus: 'Running', jobStatus: 'RUNNING' }), 'Running');
    assert.equal(phase({ jobDeploymentStatus: 'Retrying', failed: 1 }), 'Restarting');
    assert.equal(phase({ jobDeploymentStatus: 'Complete', jobStatus: 'SUCCEEDED' }), 'Succeeded');
    assert.equal(phase({ jobDeploymentStatus: 'Complete', jobStatus: 'STOPPED' }), 'Failed');
    assert.deepEqual(
      rayJobStatus(
        rayjob({ jobDeploymentStatus: 'Failed', jobStatus: 'FAILED', reason: 'AppFailed', message: 'exit 1' }),
      ),
      { phase: 'Failed', reason: 'AppFailed', message: 'exit 1' },
    );
    assert.equal(phase({ jobDeploymentStatus: 'Suspended' }), 'Suspended');
  });

  it('counts whole-job retries against backoffLimit', () => {
    assert.deepEqual(rayJobRecoveryBudget(rayjob({ jobDeploymentStatus: 'Retrying', failed: 1 })), {
      jobRetries: { used: 1, allowed: 2, remaining: 1 },
      exhausted: false,
    });
    assert.equal(rayJobRecoveryBudget(rayjob({ jobDeploymentStatus: 'Failed', failed: 3 })).exhausted, true);
  });

  it("lists the head as rank 0 and the workers after it, with the Ray cluster's state", () => {
    const pod = (name: string, type: string) =>
      POD.parse({
        metadata: {
          name,
          labels: {
            'ray.io/cluster': 'grpo-abcde',
            'ray.io/node-type': type,
            'ray.io/group': type === 'head' ? 'headgroup' : 'workers',
          },
        },
        spec: { nodeName: 'hyperpod-i-0b', containers: [{ name: 'ray' }] },
        status: { phase: 'Running' },
      });
    const cluster = RAY_CLUSTER.parse({
      metadata: { name: 'grpo-abcde' },
      status: { state: 'ready', availableWorkerReplicas: 1, desiredWorkerReplicas: 1 },
    });
    const view = rayJobView(
      rayjob({ jobDeploymentStatus: 'Running', jobStatus: 'RUNNING', rayClusterName: 'grpo-abcde' }),
      [pod('grpo-abcde-workers-x', 'worker'), pod('grpo-abcde-head-y', 'head')],
      cluster,
    );
    assert.deepEqual(
      view.ranks.map((r) => [r.rank, r.role]),
      [
        [0, 'head'],
        [1, 'workers'],
      ],
    );
    assert.deepEqual(view.rayCluster, { name: 'grpo-abcde', state: 'ready', availableWorkers: 1, desiredWorkers: 1 });
    assert.equal(view.nodes, 2);
    assert.equal(RAY_CLUSTER.health!(cluster).state, 'healthy');
    assert.equal(
      RAY_CLUSTER.health!(
        RAY_CLUSTER.parse({ metadata: { name: 'c' }, status: { state: 'failed', reason: 'HeadPodNotFound' } }),
      ).state,
      'failed',
    );
    TrainingJobViewSchema.parse(view);
  });

  it("lists the submitter (the batch Job's pod, no Ray node) as the last rank: its newest pod after a retry", () => {
    const ray = (name: string, type: string) =>
      POD.parse({
        metadata: { name, labels: { 'ray.io/cluster': 'grpo-abcde', 'ray.io/node-type': type } },
        spec: { nodeName: 'hyperpod-i-0b', containers: [{ name: 'ray' }] },
        status: { phase: 'Running' },
      });
    const submitter = (name: string, created: string, phase: string) =>
      POD.parse({
        metadata: { name, creationTimestamp: created, labels: { 'batch.kubernetes.io/job-name': 'grpo' } },
        spec: { nodeName: 'hyperpod-i-0c', containers: [{ name: 'ray-job-submitter' }] },
        status: { phase },
      });
    const pods = [
      submitter('grpo-old', '2026-06-01T12:00:00Z', 'Failed'),
      ray('grpo-abcde-head-y', 'head'),
      submitter('grpo-new', '2026-06-01T12:05:00Z', 'Running'),
      ray('grpo-abcde-workers-x', 'worker'),
    ];
    const view = rayJobView(
      rayjob({ jobDeploymentStatus: 'Running', jobStatus: 'RUNNING', rayClusterName: 'grpo-abcde' }),
      pods,
    );
    assert.deepEqual(
      view.ranks.map((r) => [r.rank, r.pod, r.role]),
      [
        [0, 'grpo-abcde-head-y', 'head'],
        [1, 'grpo-abcde-workers-x', 'worker'],
        [2, 'grpo-new', 'submitter'],
      ],
    );
    assert.equal(view.nodes, 2, 'the submitter is a rank to read, not a node the job asks for');
  });
});
