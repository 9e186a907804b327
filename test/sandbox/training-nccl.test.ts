import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { readLogs } from '../../sandbox/kube/controllers/logs.js';
import {
  injectTrainingFault,
  trainingFaultSchema,
  TrainingFaultError,
} from '../../sandbox/kube/controllers/training-faults.js';
import { T } from '../../sandbox/kube/controllers/util.js';
import { diagnoseNccl } from '../../src/domain/diagnostics/nccl.js';
import { ncclEvidenceFrom } from '../../src/domain/diagnostics/nccl-evidence-from.js';
import type { KubeObject } from '../../src/domain/kube-object.js';
import { nodeSecurityGroupRules } from '../../src/domain/network/completeness.js';
import { get } from '../kube/controllers-fixtures.js';
import {
  conditionOf,
  hyperPodJob,
  jobOf,
  jobPods,
  trainingWorld,
  until,
} from '../kube/controllers-training-fixtures.js';

/**
 * The sandbox's simulated trainers print NCCL's network choice from what the pod really has (FI_PROVIDER and the EFA
 * devices allocated to it), and a staged NCCL timeout (`kind: "nccl-timeout"`) freezes every running rank and, the
 * process group's timeout later, ends each with PyTorch's watchdog abort — which the training operator treats as any
 * crash. The fixture's nodes have 8 GPUs and 4 EFA interfaces each (a p4d.24xlarge's counts).
 */

const BUDGET = {
  jobMaxRetryCount: 10,
  restartPolicy: { numRestartBeforeFullJobRestart: 2, evalPeriodSeconds: 3600, maxFullJobRestarts: 1 },
};
const GPU_ONLY = { 'nvidia.com/gpu': '8' };

function withLimits(job: any, limits: Record<string, string>) {
  job.spec.replicaSpecs[0].template.spec.containers[0].resources = { limits };
  return job;
}

const log = (w: ReturnType<typeof trainingWorld>, pod: string, previous = false) =>
  readLogs(w.cluster, get(w, 'pods', pod), previous ? { previous: true } : {});

describe('sandbox trainers: NCCL network and a staged NCCL timeout', () => {
  it('EFA when the pod has EFA devices; FI_PROVIDER=efa without devices: the plugin fails and NCCL falls back to sockets', () => {
    const w = trainingWorld(3);
    w.cluster.objects.create(w.jobType, hyperPodJob('efa', { replicas: 1 }));
    w.cluster.objects.create(w.jobType, withLimits(hyperPodJob('nodev', { replicas: 1 }), GPU_ONLY));
    w.cluster.objects.create(w.jobType, withLimits(hyperPodJob('plain', { replicas: 1, env: [] }), GPU_ONLY));
    until(w, () => ['efa', 'nodev', 'plain'].every((j) => conditionOf(jobOf(w, j), 'Running')?.status === 'True'));
    w.advance(5);
    const efa = log(w, 'efa-pod-0');
    assert.match(efa, /NCCL INFO NET\/OFI Selected provider is efa, fabric is efa-direct \(found 4 nics\)/);
    assert.doesNotMatch(efa, /NET\/Socket/);
    const nodev = log(w, 'nodev-pod-0');
    assert.match(nodev, /NCCL WARN NET\/OFI OFI fi_getinfo\(\) call failed: No data available/);
    assert.match(nodev, /NCCL INFO NET\/Socket : Using \[0\]eth0:/);
    assert.match(nodev, /NCCL INFO Using network Socket/);
    assert.doesNotMatch(nodev, /Selected provider is efa/);
    const plain = log(w, 'plain-pod-0');
    assert.match(plain, /NCCL INFO Using network Socket/);
    assert.doesNotMatch(plain, /NET\/OFI/, 'no FI_PROVIDER and no device: nothing of the plugin');
  });

  it('a staged NCCL timeout freezes every rank, then the watchdog aborts each; with no retry budget the job fails — and diagnoseNccl names it with the missing EFA setting', () => {
    const w = trainingWorld();
    // The missing EFA setting: no FI_PROVIDER and no EFA devices requested on an EFA type.
    w.cluster.objects.create(
      w.jobType,
      withLimits(
        hyperPodJob('llama', {
          env: [],
          annotations: { 'sandbox.instantstart.dev/steps': '200' },
          // Keep the pods after the failure, to read their logs (the default cleanPodPolicy All deletes them).
          runPolicy: { cleanPodPolicy: 'None' },
        }),
        GPU_ONLY,
      ),
    );
    until(w, () => conditionOf(jobOf(w, 'llama'), 'Running')?.status === 'True');
    w.advance(10);
    const injected = injectTrainingFault(
      w.cluster,
      trainingFaultSchema.parse({ job: 'llama', rank: 1, kind: 'nccl-timeout', timeoutSeconds: 30 }),
    );
    assert.deepEqual([injected.kind, injected.pod, injected.ranks], ['nccl-timeout', 'llama-pod-1', [0, 1]]);
    assert.equal(Date.parse(injected.failsAt!) - Date.parse(injected.at), 30_000);
    w.tick();
    const frozen = log(w, 'llama-pod-0');
    w.advance(20);
    assert.equal(log(w, 'llama-pod-0'), frozen, 'no line while the collective waits');
    assert.equal(conditionOf(jobOf(w, 'llama'), 'Failed'), undefined);

    until(w, () => conditionOf(jobOf(w, 'llama'), 'Failed')?.status === 'True', 30);
    for (const [pod, rank] of [
      ['llama-pod-0', 0],
      ['llama-pod-1', 8],
    ] as const) {
      const text = log(w, pod);
      assert.match(
        text,
        new RegExp(
          `\\[rank${rank}\\]:\\[E\\d{4} [\\d:.]+ ProcessGroupNCCL\\.cpp:616\\] \\[Rank ${rank}\\] Watchdog caught collective operation timeout: WorkNCCL\\(SeqNum=\\d+, OpType=ALLREDUCE, NumelIn=\\d+, NumelOut=\\d+, Timeout\\(ms\\)=30000\\) ran for 300\\d\\d milliseconds before timing out\\.`,
        ),
      );
      assert.match(text, /To avoid data inconsistency, we are taking the entire process down\./);
      assert.match(text, /failed \(exitcode: -6\) local_rank: 0/);
    }
    const pod1 = get(w, 'pods', 'llama-pod-1');
    assert.equal(
      pod1.status.containerStatuses[0].state.terminated?.exitCode ??
        pod1.status.containerStatuses[0].lastState?.terminated?.exitCode,
      1,
    );
    assert.equal(conditionOf(jobOf(w, 'llama'), 'Failed').reason, 'JobMaxRetryCountExceeded');

    // What the diagnostics capability would gather (pods, logs, nodes, the security group) → the diagnosis.
    const pods = jobPods(w, 'llama');
    const evidence = ncclEvidenceFrom({
      cluster: 'ml',
      region: 'us-west-2',
      job: jobOf(w, 'llama'),
      pods,
      nodes: w.cluster.objects.list(T.nodes) as KubeObject[],
      logs: new Map(
        pods.map((p) => [
          p.metadata.name,
          { current: readLogs(w.cluster, p, { tailLines: 200 }).split('\n').filter(Boolean) },
        ]),
      ),
      logTailLines: 200,
      facts: {
        instanceType: 'ml.p4d.24xlarge',
        acceleratorName: 'A100',
        acceleratorCount: 8,
        efaSupported: true,
        maximumEfaInterfaces: 4,
      },
      securityGroup: { groupId: 'sg-1', rules: nodeSecurityGroupRules('sg-1') },
    });
    assert.deepEqual(
      evidence.ranks.map((r) => [r.rank, r.pod, r.efaRequested, r.gpusRequested, r.env.FI_PROVIDER]),
      [
        [0, 'llama-pod-0', 0, 8, undefined],
        [1, 'llama-pod-1', 0, 8, undefined],
      ],
    );
    const d = diagnoseNccl(evidence);
    const critical = d.findings.filter((f) => f.severity === 'critical').map((f) => f.code);
    assert.deepEqual(critical, ['nccl-timeout', 'efa-not-used', 'efa-setting-missing']);
    assert.match(d.summary, /likely cause: NCCL is not using EFA; The ranks lack EFA settings ml\.p4d\.24xlarge needs/);
  });

  it('with a restart budget the watchdog abort is a process-level restart; the previous run keeps the timeout', () => {
    const w = trainingWorld();
    w.cluster.objects.create(
      w.jobType,
      hyperPodJob('budget', { runPolicy: BUDGET, annotations: { 'sandbox.instantstart.dev/steps': '200' } }),
    );
    until(w, () => conditionOf(jobOf(w, 'budget'), 'Running')?.status === 'True');
    w.advance(6);
    injectTrainingFault(
      w.cluster,
      trainingFaultSchema.parse({ job: 'budget', rank: 0, kind: 'nccl-timeout', timeoutSeconds: 5 }),
    );
    until(w, () => (jobOf(w, 'budget').status?.restartCount ?? 0) >= 1, 30);
    assert.equal(jobOf(w, 'budget').status.latestFaultyPodInstanceList.restartType, 'PLR');
    until(w, () => get(w, 'pods', 'budget-pod-0').status.containerStatuses[0].restartCount >= 1, 30);
    assert.match(log(w, 'budget-pod-0', true), /Watchdog caught collective operation timeout: .*Timeout\(ms\)=5000\)/);
  });

  it('refuses timeoutSeconds on another kind (400 names the field), and a rank with no running process (409)', () => {
    const bad = trainingFaultSchema.safeParse({ job: 'x', rank: 0, kind: 'crash', timeoutSeconds: 5 });
    assert.equal(bad.success, false);
    assert.deepEqual(
      bad.error?.issues.map((i) => i.path.join('.')),
      ['timeoutSeconds'],
    );
    const w = trainingWorld(0);
    w.cluster.objects.create(w.jobType, hyperPodJob('stuck', { replicas: 1 }));
    w.advance(2);
    assert.throws(
      () => injectTrainingFault(w.cluster, trainingFaultSchema.parse({ job: 'stuck', rank: 0, kind: 'nccl-timeout' })),
      (e: unknown) => e instanceof TrainingFaultError && e.status === 409 && /no process to time out/.test(e.message),
    );
  });
});
