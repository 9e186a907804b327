import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { readLogs } from '../../sandbox/kube/controllers/logs.js';
import { T } from '../../sandbox/kube/controllers/util.js';
import { eventsFor, get } from './controllers-fixtures.js';
import { conditionOf, hyperPodJob, jobOf, jobPods, trainingWorld, until } from './controllers-training-fixtures.js';

const env = (pod: any, name: string) =>
  pod.spec.containers[0].env.find((e: { name: string }) => e.name === name)?.value;
const BUDGET = {
  jobMaxRetryCount: 10,
  restartPolicy: { numRestartBeforeFullJobRestart: 2, evalPeriodSeconds: 3600, maxFullJobRestarts: 1 },
};

describe('controllers: the HyperPod training operator', () => {
  it('makes a pod per replica with the operator labels and env, reports Running, then Completed when every rank exited 0', () => {
    const w = trainingWorld();
    w.cluster.objects.create(w.jobType, hyperPodJob('llama', { runPolicy: { cleanPodPolicy: 'None' } }));
    w.tick();
    const pods = jobPods(w, 'llama');
    assert.deepEqual(
      pods.map((p) => p.metadata.name),
      ['llama-pod-0', 'llama-pod-1'],
    );
    assert.deepEqual(
      pods.map((p) => [
        p.metadata.labels['sagemaker.amazonaws.com/replica-name'],
        p.metadata.labels['sagemaker.amazonaws.com/replica-index'],
        p.metadata.labels.team,
      ]),
      [
        ['pod', '0', 'ml'],
        ['pod', '1', 'ml'],
      ],
    );
    assert.deepEqual(
      ['MASTER_ADDR', 'MASTER_PORT', 'WORLD_SIZE', 'NODE_RANK', 'JOB_NAME', 'FI_PROVIDER'].map((n) => env(pods[1], n)),
      ['llama-pod-0', '29500', '2', '1', 'llama', 'efa'],
    );
    assert.equal(pods[0].metadata.ownerReferences[0].kind, 'HyperPodPyTorchJob');
    assert.equal(pods[0].spec.restartPolicy, 'OnFailure');

    until(w, () => conditionOf(jobOf(w, 'llama'), 'Running')?.status === 'True');
    let job = jobOf(w, 'llama');
    assert.deepEqual(
      job.status.conditions.map((c: { type: string; status: string }) => `${c.type}=${c.status}`),
      ['Created=True', 'PodsRunning=True', 'Running=True'],
    );
    assert.deepEqual(
      [job.status.masterAddr, job.status.masterPort, job.status.restartCount],
      ['llama-pod-0', '29500', 0],
    );
    assert.deepEqual(
      job.status.jobPods.map((r: { name: string }) => r.name),
      ['llama-pod-0', 'llama-pod-1'],
    );
    assert.deepEqual(job.status.restartStatus, { currentEvalPeriod: 0, fullJobRestartCount: 0, restartCount: 0 });

    until(w, () => conditionOf(jobOf(w, 'llama'), 'Completed')?.status === 'True');
    job = jobOf(w, 'llama');
    assert.equal(job.status.conditions.at(-1).type, 'Completed', 'the newest state is last (the Status column)');
    assert.equal(conditionOf(job, 'Running').status, 'False');
    assert.ok(job.status.completionTime >= job.status.startTime);
    assert.ok(
      eventsFor(w, 'llama').some(
        (e) => e.reason === 'Completed' && e.source.component === 'hyperpod-pytorch-job-controller',
      ),
    );

    const log = readLogs(w.cluster, get(w, 'pods', 'llama-pod-1'), {});
    assert.match(log, /NCCL INFO Bootstrap : Using eth0:/);
    assert.match(log, /NCCL INFO NET\/OFI Selected provider is efa, fabric is efa-direct \(found 4 nics\)/);
    assert.match(log, /NCCL INFO comm 0x[0-9a-f]+ rank 8 nRanks 16 nNodes 2 localRanks 8 localRank 0/);
    assert.match(log, /Experiment configuration: \{"model"/);
    const steps = log.split('\n').filter((l) => /step=\d+ loss=[\d.]+ tokens\/s=[\d.]+ lr=[\d.e+-]+/.test(l));
    assert.equal(steps.length, 5);
    assert.match(log, /Saved checkpoint to \/data\/checkpoints\/llama\/step-5/);
  });

  it('deletes the pods of a finished job under the default cleanPodPolicy (All)', () => {
    const w = trainingWorld();
    w.cluster.objects.create(w.jobType, hyperPodJob('clean'));
    until(w, () => conditionOf(jobOf(w, 'clean'), 'Completed')?.status === 'True');
    assert.equal(jobPods(w, 'clean').length, 0);
  });

  it('restarts a crashing rank in place, then the whole job, and fails once maxFullJobRestarts is spent', () => {
    const w = trainingWorld();
    w.cluster.objects.create(
      w.jobType,
      hyperPodJob('crashy', {
        annotations: { 'sandbox.instantstart.dev/crash-at-step': '2', 'sandbox.instantstart.dev/crash-rank': '1' },
        runPolicy: BUDGET,
      }),
    );
    until(w, () => jobOf(w, 'crashy').status?.restartCount === 1);
    let job = jobOf(w, 'crashy');
    assert.deepEqual(job.status.latestFaultyPodInstanceList, {
      restartType: 'PLR',
      faultyInstanceIdList: [jobPods(w, 'crashy')[1].spec.nodeName],
      faultyPodList: ['crashy-pod-1'],
      faultyRankList: ['1'],
    });
    assert.deepEqual(job.status.restartStatus, { currentEvalPeriod: 0, fullJobRestartCount: 0, restartCount: 1 });
    assert.deepEqual(
      [conditionOf(job, 'Running').status, conditionOf(job, 'Running').reason],
      ['False', 'ProcessFault'],
    );
    const firstUid = jobPods(w, 'crashy')[0].metadata.uid;
    assert.equal(
      jobPods(w, 'crashy')[1].status.containerStatuses[0].restartCount,
      1,
      'the container restarted in place',
    );

    until(w, () => conditionOf(jobOf(w, 'crashy'), 'Running')?.status === 'True');
    assert.match(
      conditionOf(jobOf(w, 'crashy'), 'Running').message,
      /^The fault of reason ProcessFault was remediated in \d+ milliseconds\.$/,
    );
    assert.ok(eventsFor(w, 'crashy').some((e) => e.type === 'Normal' && e.reason === 'Running'));

    until(w, () => jobOf(w, 'crashy').status.restartCount === 3);
    job = jobOf(w, 'crashy');
    assert.equal(job.status.latestFaultyPodInstanceList.restartType, 'JLR');
    assert.deepEqual(job.status.restartStatus, { currentEvalPeriod: 0, fullJobRestartCount: 1, restartCount: 0 });
    assert.notEqual(jobPods(w, 'crashy')[0].metadata.uid, firstUid, 'every pod was recreated');

    until(w, () => conditionOf(jobOf(w, 'crashy'), 'Failed')?.status === 'True');
    job = jobOf(w, 'crashy');
    assert.equal(conditionOf(job, 'Failed').reason, 'MaxFullJobRestartsExceeded');
    assert.match(conditionOf(job, 'Failed').message, /maxFullJobRestarts 1/);
    assert.equal(job.status.restartCount, 5, 'PLR, PLR, JLR, PLR, PLR, then the next fault finds the budget spent');
    assert.ok(
      eventsFor(w, 'crashy').some(
        (e) =>
          e.type === 'Warning' &&
          e.reason === 'ProcessFault' &&
          /rank 1 \(pod crashy-pod-1\) exited with code 1/.test(e.message),
      ),
    );
  });

  it('fails on the first crash without a runPolicy, and names jobMaxRetryCount when it is spent', () => {
    const w = trainingWorld();
    w.cluster.objects.create(
      w.jobType,
      hyperPodJob('once', {
        annotations: { 'sandbox.instantstart.dev/crash-at-step': '2', 'sandbox.instantstart.dev/crash-rank': '0' },
      }),
    );
    w.cluster.objects.create(
      w.jobType,
      hyperPodJob('twice', {
        annotations: { 'sandbox.instantstart.dev/crash-at-step': '2', 'sandbox.instantstart.dev/crash-rank': '0' },
        runPolicy: { jobMaxRetryCount: 2 },
      }),
    );
    until(w, () => ['once', 'twice'].every((n) => conditionOf(jobOf(w, n), 'Failed')));
    assert.deepEqual(
      [conditionOf(jobOf(w, 'once'), 'Failed').reason, jobOf(w, 'once').status.restartCount],
      ['JobMaxRetryCountExceeded', 0],
    );
    assert.deepEqual(
      [conditionOf(jobOf(w, 'twice'), 'Failed').reason, jobOf(w, 'twice').status.restartCount],
      ['JobMaxRetryCountExceeded', 2],
    );
    assert.match(conditionOf(jobOf(w, 'twice'), 'Failed').message, /2 restarts used of runPolicy\.jobMaxRetryCount 2/);
  });

  it('a start cut-off log rule finds the job HANGING (LogStateHanging_JobStart) and restarts it', () => {
    const w = trainingWorld();
    const rule = { name: 'JobStart', logPattern: '.*Experiment configuration.*', expectedStartCutOffInSeconds: 1 };
    w.cluster.objects.create(
      w.jobType,
      hyperPodJob('stuck', { runPolicy: { jobMaxRetryCount: 1, logMonitoringConfiguration: [rule] } }),
    );
    until(w, () => jobOf(w, 'stuck').status?.restartCount === 1);
    const job = jobOf(w, 'stuck');
    assert.deepEqual(
      [conditionOf(job, 'Running').status, conditionOf(job, 'Running').reason],
      ['False', 'LogStateHanging_JobStart'],
    );
    const event = eventsFor(w, 'stuck').find((e) => e.reason === 'LogStateHanging_JobStart');
    assert.equal(event.type, 'Warning');
    assert.match(event.message, /no log line matched .* within expectedStartCutOffInSeconds 1/);
    until(w, () => conditionOf(jobOf(w, 'stuck'), 'Failed'));
    assert.equal(conditionOf(jobOf(w, 'stuck'), 'Failed').reason, 'JobMaxRetryCountExceeded');
    assert.match(conditionOf(jobOf(w, 'stuck'), 'Failed').message, /last fault: LogStateHanging_JobStart/);
  });

  it('a recurring log rule catches a rank that stopped printing; the restart shows in its previous log', () => {
    const w = trainingWorld();
    const rule = {
      name: 'JobHangingDetection',
      logPattern: '.*loss=([0-9.]+).*',
      expectedRecurringFrequencyInSeconds: 10,
    };
    w.cluster.objects.create(
      w.jobType,
      hyperPodJob('hangs', {
        annotations: {
          'sandbox.instantstart.dev/hang-at-step': '2',
          'sandbox.instantstart.dev/hang-rank': '1',
          'sandbox.instantstart.dev/steps': '20',
        },
        runPolicy: { ...BUDGET, cleanPodPolicy: 'None', logMonitoringConfiguration: [rule] },
      }),
    );
    until(w, () => jobOf(w, 'hangs').status?.restartCount === 1);
    assert.equal(conditionOf(jobOf(w, 'hangs'), 'Running').reason, 'LogStateHanging_JobHangingDetection');
    assert.deepEqual(jobOf(w, 'hangs').status.latestFaultyPodInstanceList.faultyRankList, ['1']);
    until(w, () => jobPods(w, 'hangs')[1].status.containerStatuses[0].state.running !== undefined);
    const previous = readLogs(w.cluster, jobPods(w, 'hangs')[1], { previous: true });
    assert.match(previous, /step=2 loss=/);
    assert.doesNotMatch(previous, /step=3 loss=/);
    assert.match(
      previous,
      /\[hyperpod-elastic-agent\] stopping the training processes of rank 1 \(LogStateHanging_JobHangingDetection\)/,
    );
    assert.equal(jobPods(w, 'hangs')[1].status.containerStatuses[0].lastState.terminated.exitCode, 143);
  });

  it('a metric rule marks a slow rank LogStateSlow_<rule> without restarting it', () => {
    const w = trainingWorld();
    const rule = {
      name: 'Throughput',
      logPattern: '.*tokens/s=([0-9.]+).*',
      metricThreshold: 50_000,
      operator: 'lt',
      metricEvaluationDataPoints: 2,
    };
    w.cluster.objects.create(
      w.jobType,
      hyperPodJob('slow', {
        annotations: { 'sandbox.instantstart.dev/slow-at-step': '3', 'sandbox.instantstart.dev/steps': '30' },
        runPolicy: { logMonitoringConfiguration: [rule] },
      }),
    );
    until(w, () => conditionOf(jobOf(w, 'slow'), 'Running')?.reason === 'LogStateSlow_Throughput');
    const job = jobOf(w, 'slow');
    assert.equal(conditionOf(job, 'Running').status, 'True');
    assert.equal(job.status.restartCount, 0);
    assert.ok(eventsFor(w, 'slow').some((e) => e.type === 'Warning' && e.reason === 'LogStateSlow_Throughput'));
  });

  it('a rank started without hyperpodrun has no elastic agent: its hang goes unnoticed, and its crash replaces every pod (PodFailed, a full job restart)', () => {
    const w = trainingWorld();
    const torchrun = ['torchrun', '--nnodes=2', '--nproc-per-node=8', '/workspace/train.py'];
    const rule = {
      name: 'JobHangingDetection',
      logPattern: '.*loss=([0-9.]+).*',
      expectedRecurringFrequencyInSeconds: 10,
    };
    const annotations = {
      'sandbox.instantstart.dev/hang-at-step': '2',
      'sandbox.instantstart.dev/hang-rank': '1',
      'sandbox.instantstart.dev/steps': '20',
    };
    w.cluster.objects.create(
      w.jobType,
      hyperPodJob('unwatched', {
        command: torchrun,
        annotations,
        runPolicy: { ...BUDGET, logMonitoringConfiguration: [rule] },
      }),
    );
    w.cluster.objects.create(
      w.jobType,
      hyperPodJob('watched', { annotations, runPolicy: { ...BUDGET, logMonitoringConfiguration: [rule] } }),
    );
    until(w, () => jobOf(w, 'watched').status?.restartCount === 1);
    w.advance(120, 2);
    const unwatched = jobOf(w, 'unwatched');
    assert.deepEqual(
      [unwatched.status.restartCount, conditionOf(unwatched, 'Running').status, conditionOf(unwatched, 'Completed')],
      [0, 'True', undefined],
      'hung for minutes, never detected',
    );
    assert.equal(eventsFor(w, 'unwatched').filter((e) => e.type === 'Warning').length, 0);

    w.cluster.objects.create(
      w.jobType,
      hyperPodJob('crashes', {
        command: torchrun,
        annotations: {
          'sandbox.instantstart.dev/crash-at-step': '2',
          'sandbox.instantstart.dev/crash-rank': '1',
          'sandbox.instantstart.dev/crash-runs': '1',
        },
        runPolicy: BUDGET,
      }),
    );
    until(w, () => conditionOf(jobOf(w, 'crashes'), 'Running')?.status === 'True');
    const firstUid = jobPods(w, 'crashes')[0].metadata.uid;
    until(w, () => jobOf(w, 'crashes').status.restartCount === 1);
    const job = jobOf(w, 'crashes');
    assert.equal(job.status.latestFaultyPodInstanceList.restartType, 'JLR');
    assert.equal(conditionOf(job, 'Running').reason, 'PodFailed');
    assert.ok(
      eventsFor(w, 'crashes').some(
        (e) => e.reason === 'PodFailed' && /runs no HyperPod elastic agent \(hyperpodrun\)/.test(e.message),
      ),
    );
    until(w, () => jobPods(w, 'crashes').length === 2 && jobPods(w, 'crashes')[0].metadata.uid !== firstUid);
  });

  it('a node fault restarts the whole job on healthy nodes: NodeFault, then Running once remediated', () => {
    const w = trainingWorld(3);
    w.cluster.objects.create(
      w.jobType,
      hyperPodJob('moved', { annotations: { 'sandbox.instantstart.dev/steps': '100' }, runPolicy: BUDGET }),
    );
    until(w, () => conditionOf(jobOf(w, 'moved'), 'Running')?.status === 'True');
    const victim = jobPods(w, 'moved')[0].spec.nodeName;
    const node = get(w, 'nodes', victim, undefined);
    w.cluster.objects.update(T.nodes, {
      ...node,
      metadata: {
        ...node.metadata,
        labels: { ...node.metadata.labels, 'sagemaker.amazonaws.com/node-health-status': 'UnschedulablePendingReboot' },
        resourceVersion: undefined,
      },
      spec: { ...node.spec, unschedulable: true },
    });
    until(w, () => jobOf(w, 'moved').status.restartCount === 1);
    const job = jobOf(w, 'moved');
    assert.equal(job.status.latestFaultyPodInstanceList.restartType, 'JLR');
    assert.ok(
      eventsFor(w, 'moved').some(
        (e) =>
          e.type === 'Warning' && e.reason === 'NodeFault' && e.message.startsWith(`Found unhealthy node ${victim}`),
      ),
    );
    until(w, () => conditionOf(jobOf(w, 'moved'), 'Running')?.status === 'True');
    assert.ok(jobPods(w, 'moved').every((p) => p.spec.nodeName !== victim));
    assert.ok(
      eventsFor(w, 'moved').some(
        (e) =>
          e.reason === 'Running' &&
          /^The fault of reason NodeFault was remediated in \d+ milliseconds\.$/.test(e.message),
      ),
    );
  });
});
