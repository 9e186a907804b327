import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { readLogs } from '../../sandbox/kube/controllers/logs.js';
import { T } from '../../sandbox/kube/controllers/util.js';
import type { KubeObject } from '../../sandbox/kube/types.js';
import { kuberayOperatorManifests } from '../../src/domain/features/install-pieces.js';
import { eventsFor, get, list, node, world, type World } from './controllers-fixtures.js';
import { until } from './controllers-training-fixtures.js';

/** A world where the KubeRay feature applied its CRDs, with a CPU node and two GPU nodes. */
function rayWorld(): World & { rc: any; rj: any } {
  const w = world();
  for (const o of kuberayOperatorManifests().filter((m) => m.kind === 'CustomResourceDefinition')) {
    w.cluster.objects.create(T.crds, {
      ...o,
      status: { conditions: [{ type: 'Established', status: 'True' }] },
    } as KubeObject);
  }
  w.cluster.objects.create(T.nodes, node('cpu-0', { cpu: '32', memory: '128Gi' }, { ip: '10.1.64.5' }));
  for (const i of [0, 1])
    w.cluster.objects.create(
      T.nodes,
      node(`gpu-${i}`, { cpu: '96', memory: '768Gi', 'nvidia.com/gpu': '8' }, { ip: `10.1.64.${10 + i}` }),
    );
  return Object.assign(w, {
    rc: w.cluster.findType('ray.io', 'v1', 'rayclusters')!,
    rj: w.cluster.findType('ray.io', 'v1', 'rayjobs')!,
  });
}

const group = (name: string, image: string, limits: Record<string, string>) => ({
  spec: { containers: [{ name, image, resources: { limits } }] },
});
const IMAGE = 'verlai/verl:app-verl0.5-vllm0.9.1';

function rayJob(
  name: string,
  extra: { annotations?: Record<string, string>; spec?: Record<string, unknown> } = {},
): KubeObject {
  return {
    apiVersion: 'ray.io/v1',
    kind: 'RayJob',
    metadata: {
      name,
      namespace: 'default',
      annotations: {
        'sandbox.instantstart.dev/steps': '4',
        'sandbox.instantstart.dev/step-seconds': '2',
        ...(extra.annotations ?? {}),
      },
    },
    spec: {
      entrypoint:
        'python3 -m verl.trainer.main_ppo algorithm.adv_estimator=grpo trainer.nnodes=2 trainer.n_gpus_per_node=8',
      shutdownAfterJobFinishes: true,
      rayClusterSpec: {
        rayVersion: '2.46.0',
        headGroupSpec: { rayStartParams: {}, template: group('ray-head', IMAGE, { cpu: '8', memory: '32Gi' }) },
        workerGroupSpecs: [
          {
            groupName: 'gpu',
            replicas: 2,
            minReplicas: 2,
            maxReplicas: 2,
            rayStartParams: {},
            template: group('ray-worker', IMAGE, { 'nvidia.com/gpu': '8', cpu: '64', memory: '512Gi' }),
          },
        ],
      },
      ...(extra.spec ?? {}),
    },
  };
}

describe('controllers: KubeRay', () => {
  it("runs a RayJob: a RayCluster with its head and workers, the submitter Job with the entrypoint's log, SUCCEEDED, then the cluster goes", () => {
    const w = rayWorld();
    w.cluster.objects.create(w.rj, rayJob('grpo'));
    w.tick();
    let rj = w.cluster.objects.get(w.rj, 'default', 'grpo') as any;
    assert.equal(rj.status.jobDeploymentStatus, 'Initializing');
    const clusterName = rj.status.rayClusterName;
    assert.match(clusterName, /^grpo-[a-z0-9]{5}$/);
    assert.equal(rj.status.dashboardURL, `${clusterName}-head-svc.default.svc.cluster.local:8265`);
    const rc = w.cluster.objects.get(w.rc, 'default', clusterName) as any;
    assert.deepEqual(
      [rc.metadata.labels['ray.io/originated-from-crd'], rc.metadata.labels['ray.io/originated-from-cr-name']],
      ['RayJob', 'grpo'],
    );
    const pods = list(w, 'pods', 'default').filter((p) => p.metadata.labels['ray.io/cluster'] === clusterName);
    assert.deepEqual(
      pods.map((p) => `${p.metadata.labels['ray.io/node-type']}/${p.metadata.labels['ray.io/group']}`).sort(),
      ['head/headgroup', 'worker/gpu', 'worker/gpu'],
    );
    assert.match(
      pods.find((p) => p.metadata.labels['ray.io/node-type'] === 'head').spec.containers[0].args[0],
      /ray start --head/,
    );
    assert.ok(get(w, 'services', `${clusterName}-head-svc`));

    until(w, () => (w.cluster.objects.get(w.rc, 'default', clusterName) as any).status?.state === 'ready');
    const ready = (w.cluster.objects.get(w.rc, 'default', clusterName) as any).status;
    assert.deepEqual(
      [
        ready.desiredWorkerReplicas,
        ready.availableWorkerReplicas,
        ready.desiredGPU,
        ready.desiredCPU,
        ready.desiredMemory,
      ],
      [2, 2, '16', '136', '1056Gi'],
    );
    assert.match(ready.head.podIP, /^10\.1\.64\.\d+$/);
    assert.match(ready.head.serviceIP, /^\d+\.\d+\.\d+\.\d+$/);
    assert.deepEqual(ready.endpoints, { 'gcs-server': '6379', dashboard: '8265', client: '10001', metrics: '8080' });

    until(w, () => (w.cluster.objects.get(w.rj, 'default', 'grpo') as any).status.jobStatus === 'RUNNING');
    const job = get(w, 'jobs', 'grpo');
    assert.deepEqual(
      [job.metadata.labels['ray.io/originated-from-crd'], job.metadata.labels['ray.io/originated-from-cr-name']],
      ['RayJob', 'grpo'],
    );
    rj = w.cluster.objects.get(w.rj, 'default', 'grpo');
    assert.equal(rj.status.jobDeploymentStatus, 'Running');

    until(w, () => (w.cluster.objects.get(w.rj, 'default', 'grpo') as any).status.jobDeploymentStatus === 'Complete');
    rj = w.cluster.objects.get(w.rj, 'default', 'grpo');
    assert.equal(rj.status.jobStatus, 'SUCCEEDED');
    assert.ok(rj.status.endTime >= rj.status.startTime);
    const submitter = list(w, 'pods', 'default').find(
      (p) => p.metadata.labels['batch.kubernetes.io/job-name'] === 'grpo',
    );
    const log = readLogs(w.cluster, submitter, {});
    assert.match(log, new RegExp(`Job '${rj.status.jobId}' submitted successfully`));
    assert.match(log, /\(TaskRunner pid=\d+\) Experiment configuration: \{'algorithm': \{'adv_estimator': 'grpo'\}/);
    assert.equal(log.split('\n').filter((l) => /step=\d+ loss=[\d.]+ tokens\/s=[\d.]+ lr=/.test(l)).length, 4);
    assert.match(log, new RegExp(`Job '${rj.status.jobId}' succeeded`));
    w.tick();
    assert.equal(
      w.cluster.objects.get(w.rc, 'default', clusterName),
      undefined,
      'shutdownAfterJobFinishes deleted the cluster',
    );
    assert.ok(
      eventsFor(w, 'grpo').some(
        (e) => e.reason === 'Deleted' && e.message === `Deleted RayCluster default/${clusterName}`,
      ),
    );
  });

  it('retries a failing RayJob with a new cluster within backoffLimit, then fails it (AppFailed)', () => {
    const w = rayWorld();
    w.cluster.objects.create(
      w.rj,
      rayJob('flaky', { annotations: { 'sandbox.instantstart.dev/crash-at-step': '2' }, spec: { backoffLimit: 1 } }),
    );
    w.tick();
    const first = (w.cluster.objects.get(w.rj, 'default', 'flaky') as any).status.rayClusterName;
    until(w, () => (w.cluster.objects.get(w.rj, 'default', 'flaky') as any).status.jobDeploymentStatus === 'Retrying');
    until(w, () => (w.cluster.objects.get(w.rj, 'default', 'flaky') as any).status.jobDeploymentStatus === 'Failed');
    const rj = w.cluster.objects.get(w.rj, 'default', 'flaky') as any;
    assert.deepEqual([rj.status.jobStatus, rj.status.failed, rj.status.reason], ['FAILED', 2, 'AppFailed']);
    assert.notEqual(rj.status.rayClusterName, first, 'the retry ran on a new cluster');
    assert.equal(w.cluster.objects.get(w.rc, 'default', first), undefined);
  });

  it('a standalone RayCluster scales its worker group and replaces a worker that was deleted', () => {
    const w = rayWorld();
    w.cluster.objects.create(w.rc, {
      apiVersion: 'ray.io/v1',
      kind: 'RayCluster',
      metadata: { name: 'dev', namespace: 'default' },
      spec: rayJob('x').spec && (rayJob('x').spec as any).rayClusterSpec,
    } as KubeObject);
    until(w, () => (w.cluster.objects.get(w.rc, 'default', 'dev') as any).status?.state === 'ready');
    const workers = () =>
      list(w, 'pods', 'default').filter(
        (p) => p.metadata.labels['ray.io/cluster'] === 'dev' && p.metadata.labels['ray.io/node-type'] === 'worker',
      );
    const gone = workers()[0];
    w.cluster.objects.remove(T.pods, 'default', gone.metadata.name);
    w.tick();
    assert.equal(workers().length, 2);
    assert.ok(workers().every((p) => p.metadata.name !== gone.metadata.name));
    const rc = w.cluster.objects.get(w.rc, 'default', 'dev') as any;
    w.cluster.objects.update(w.rc, {
      ...rc,
      metadata: { ...rc.metadata, resourceVersion: undefined },
      spec: { ...rc.spec, workerGroupSpecs: [{ ...rc.spec.workerGroupSpecs[0], replicas: 1, minReplicas: 1 }] },
    });
    w.tick();
    assert.equal(workers().length, 1);
    assert.equal((w.cluster.objects.get(w.rc, 'default', 'dev') as any).status.desiredWorkerReplicas, 1);
  });
});
