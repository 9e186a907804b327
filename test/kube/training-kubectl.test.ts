import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { CreateAddonCommand, EKSClient } from '@aws-sdk/client-eks';
import { stringify } from 'yaml';
import { makeKubeCluster, type KubeCluster } from '../../sandbox/kube/cluster.js';
import { T } from '../../sandbox/kube/controllers/util.js';
import type { ClusterKubeState } from '../../sandbox/kube/objects.js';
import { kuberayOperatorManifests } from '../../src/domain/features/install-pieces.js';
import { startKubeCluster, type TestKubeCluster } from '../helpers/kube.js';
import { eventually, startTestSandbox, type TestSandbox } from '../helpers/sandbox.js';
import { node } from './controllers-fixtures.js';
import { hyperPodJob } from './controllers-training-fixtures.js';

/**
 * The training operator and KubeRay of a sandbox EKS cluster, driven the way users drive them:
 * manifests applied and read back with the real kubectl, sandbox time moved through the admin API
 * (waits peek at the sandbox's stored objects between clock steps, so they cost no kubectl run).
 */
describe('training in a sandbox cluster, seen with kubectl', () => {
  let sb: TestSandbox;
  let k: TestKubeCluster;
  let cluster: KubeCluster;
  const json = async (args: string[]) => JSON.parse((await k.kubectl([...args, '-o', 'json'])).stdout);
  const apply = (...objects: object[]) =>
    k.kubectl(['apply', '-f', '-'], { input: objects.map((o) => stringify(o)).join('---\n') });
  const job = (name: string) => json(['get', 'hyperpodpytorchjob', name]);
  const stored = (group: string, resource: string, name: string): any =>
    cluster.objects.get(cluster.findType(group, 'v1', resource)!, 'default', name);
  const peek = (name: string) => stored('sagemaker.amazonaws.com', 'hyperpodpytorchjobs', name) ?? {};
  const condition = (j: any, type: string) =>
    (j.status?.conditions ?? []).find((c: { type: string }) => c.type === type);
  const until = <T>(probe: () => Promise<T | undefined | false>, what: string, stepSeconds = 5) =>
    eventually(probe, { sandbox: sb, stepSeconds, tries: 200, what });
  const BUDGET = {
    jobMaxRetryCount: 10,
    restartPolicy: { numRestartBeforeFullJobRestart: 2, evalPeriodSeconds: 3600, maxFullJobRestarts: 1 },
  };

  before(async () => {
    sb = await startTestSandbox();
    k = await startKubeCluster(sb, 'train');
    const eks = new EKSClient({});
    for (const addonName of ['cert-manager', 'eks-pod-identity-agent', 'amazon-sagemaker-hyperpod-training-operator'])
      await eks.send(new CreateAddonCommand({ clusterName: 'train', addonName }));
    await until(
      async () =>
        (await k.kubectl(['get', 'crd', 'hyperpodpytorchjobs.sagemaker.amazonaws.com'], { allowFailure: true }))
          .code === 0,
      'the training operator CRD',
      10,
    );
    // The KubeRay feature applies its CRDs and operator from manifests, server-side as the product does
    // (a client-side apply's last-applied annotation cannot hold CRDs this size: KubeRay's docs say --server-side too).
    await k.kubectl(['apply', '--server-side', '-f', '-'], {
      input: kuberayOperatorManifests()
        .map((o) => stringify(o))
        .join('---\n'),
    });
    // GPU nodes for the ranks (the Kubernetes side of a HyperPod group) and a CPU node.
    const data = (sb.sandbox.runtime.store.state as unknown as { kube: Record<string, ClusterKubeState> }).kube[k.arn]!;
    cluster = makeKubeCluster({ arn: k.arn, name: 'train', region: 'us-west-2' }, data, {
      now: () => sb.sandbox.runtime.clock.now(),
      changed: () => sb.sandbox.runtime.store.markDirty(),
    });
    for (let i = 0; i < 3; i++)
      cluster.objects.create(
        T.nodes,
        node(
          `gpu-${i}`,
          { cpu: '96', memory: '768Gi', 'nvidia.com/gpu': '8', 'vpc.amazonaws.com/efa': '4' },
          { ip: `10.0.1.${20 + i}` },
        ),
      );
    cluster.objects.create(T.nodes, node('cpu-0', { cpu: '32', memory: '128Gi' }, { ip: '10.0.1.40' }));
  });
  after(async () => sb?.dispose());

  it('a HyperPodPyTorchJob gets a pod per replica with the operator labels and env, and completes', async () => {
    await apply(hyperPodJob('llama', { runPolicy: { cleanPodPolicy: 'None' } }));
    await until(
      async () =>
        cluster.objects.list(T.pods, 'default').filter((p) => p.metadata.labels?.HPJob === 'llama').length === 2,
      'the job pods',
      1,
    );
    const pods = (await json(['get', 'pods', '-l', 'HPJob=llama'])).items;
    const rank1 = pods.find((p: any) => p.metadata.name === 'llama-pod-1');
    assert.deepEqual(
      [
        rank1.metadata.labels['sagemaker.amazonaws.com/replica-name'],
        rank1.metadata.labels['sagemaker.amazonaws.com/replica-index'],
      ],
      ['pod', '1'],
    );
    const env = Object.fromEntries(
      rank1.spec.containers[0].env.map((e: { name: string; value: string }) => [e.name, e.value]),
    );
    assert.deepEqual(
      [env.MASTER_ADDR, env.MASTER_PORT, env.WORLD_SIZE, env.NODE_RANK, env.JOB_NAME],
      ['llama-pod-0', '29500', '2', '1', 'llama'],
    );
    await until(async () => condition(peek('llama'), 'Running')?.status === 'True', 'llama Running', 2);
    const table = (await k.kubectl(['get', 'hyperpodpytorchjob', 'llama'])).stdout;
    assert.match(table, /^NAME\s+STATUS\s+RESTARTS\s+AGE\nllama\s+Running\s+0\s+/);
    await until(async () => condition(peek('llama'), 'Completed')?.status === 'True', 'llama Completed', 5);
    const done = await job('llama');
    assert.equal(done.status.conditions.at(-1).type, 'Completed');
    assert.ok(done.status.completionTime);
    const log = (await k.kubectl(['logs', 'llama-pod-1'])).stdout;
    assert.match(log, /NCCL INFO NET\/OFI Selected provider is efa/);
    assert.match(log, /Experiment configuration/);
    assert.equal(log.split('\n').filter((l) => /step=\d+ loss=[\d.]+ tokens\/s=[\d.]+ lr=/.test(l)).length, 5);
  });

  it("the API server holds a HyperPodPyTorchJob to upstream's types: a float metricThreshold refuses the whole job (422), unknown fields are refused under kubectl's strict validation and pruned without it", async () => {
    const rule = { name: 'Loss', logPattern: '.*loss=([0-9.]+).*', metricThreshold: 2.5, operator: 'gt' };
    const refused = await k.kubectl(['apply', '-f', '-'], {
      input: stringify(hyperPodJob('floaty', { runPolicy: { logMonitoringConfiguration: [rule] } })),
      allowFailure: true,
    });
    assert.notEqual(refused.code, 0);
    assert.match(
      refused.stderr,
      /The HyperPodPyTorchJob "floaty" is invalid: spec\.runPolicy\.logMonitoringConfiguration\[0\]\.metricThreshold: Invalid value: "number": spec\.runPolicy\.logMonitoringConfiguration\[0\]\.metricThreshold in body must be of type integer: "number"/,
    );
    assert.equal(peek('floaty').metadata, undefined, 'nothing was created');

    const typo = hyperPodJob('typo', { runPolicy: { jobMaxRetryCount: 3, retryBudget: 9 } });
    (typo.spec as any).elasticPolicy = { minReplicas: 1, maxReplicas: 2, minNodes: 1 };
    const strict = await k.kubectl(['apply', '-f', '-'], { input: stringify(typo), allowFailure: true });
    assert.notEqual(strict.code, 0);
    assert.match(strict.stderr, /unknown field "spec\.(runPolicy\.retryBudget|elasticPolicy\.minNodes)"/);
    await k.kubectl(['apply', '--validate=false', '-f', '-'], { input: stringify(typo) });
    const stored = (await job('typo')).spec;
    assert.deepEqual(
      [stored.runPolicy.jobMaxRetryCount, stored.runPolicy.retryBudget, stored.elasticPolicy],
      [3, undefined, { minReplicas: 1, maxReplicas: 2 }],
    );
    await k.kubectl(['delete', 'hyperpodpytorchjob', 'typo']);
  });

  it('a crashing rank is restarted in place, then the whole job, until maxFullJobRestarts is spent: Failed, naming it', async () => {
    await apply(
      hyperPodJob('crashy', {
        annotations: { 'sandbox.instantstart.dev/crash-at-step': '2', 'sandbox.instantstart.dev/crash-rank': '1' },
        runPolicy: BUDGET,
      }),
    );
    await until(async () => peek('crashy').status?.restartCount === 1, 'a process-level restart', 5);
    const plr = await job('crashy');
    assert.deepEqual(plr.status.latestFaultyPodInstanceList.faultyPodList, ['crashy-pod-1']);
    assert.equal(plr.status.latestFaultyPodInstanceList.restartType, 'PLR');
    await until(async () => peek('crashy').status?.restartCount === 3, 'a full job restart', 5);
    const jlr = await job('crashy');
    assert.equal(jlr.status.latestFaultyPodInstanceList.restartType, 'JLR');
    assert.equal(jlr.status.restartStatus.fullJobRestartCount, 1);
    await until(async () => condition(peek('crashy'), 'Failed'), 'crashy Failed', 5);
    const failed = await job('crashy');
    assert.equal(condition(failed, 'Failed').reason, 'MaxFullJobRestartsExceeded');
    assert.equal(failed.status.restartCount, 5);
    const events = (await json(['get', 'events'])).items.filter((e: any) => e.involvedObject.name === 'crashy');
    assert.ok(
      events.some((e: any) => e.reason === 'ProcessFault' && e.source.component === 'hyperpod-pytorch-job-controller'),
    );
  });

  it('a log rule with a 1 s start cut-off finds the job hanging: LogStateHanging_JobStart', async () => {
    await apply(
      hyperPodJob('stuck', {
        runPolicy: {
          logMonitoringConfiguration: [
            { name: 'JobStart', logPattern: '.*Experiment configuration.*', expectedStartCutOffInSeconds: 1 },
          ],
        },
      }),
    );
    await until(async () => condition(peek('stuck'), 'Failed'), 'stuck Failed', 2);
    const failed = await job('stuck');
    assert.equal(condition(failed, 'Failed').reason, 'JobMaxRetryCountExceeded');
    assert.match(condition(failed, 'Failed').message, /LogStateHanging_JobStart/);
    const events = (await json(['get', 'events'])).items.filter((e: any) => e.involvedObject.name === 'stuck');
    assert.ok(events.some((e: any) => e.type === 'Warning' && e.reason === 'LogStateHanging_JobStart'));
  });

  it('the training fault endpoint crashes rank 1 of a running job: a restart is counted and the job recovers', async () => {
    await apply(hyperPodJob('target', { annotations: { 'sandbox.instantstart.dev/steps': '200' }, runPolicy: BUDGET }));
    await until(async () => condition(peek('target'), 'Running')?.status === 'True', 'target Running', 2);
    const fault = await sb.admin('/_sandbox/kube/train/faults/training', {
      method: 'POST',
      body: { job: 'target', rank: 1, kind: 'crash' },
    });
    assert.equal(fault.status, 201);
    assert.deepEqual([fault.body.pod, fault.body.container, fault.body.run], ['target-pod-1', 'pytorch', 0]);
    await until(async () => peek('target').status?.restartCount === 1, 'the restart', 1);
    const restarted = await job('target');
    assert.deepEqual(restarted.status.latestFaultyPodInstanceList.faultyRankList, ['1']);
    assert.equal(restarted.status.latestFaultyPodInstanceList.restartType, 'PLR');
    await until(async () => condition(peek('target'), 'Running')?.status === 'True', 'target recovered', 5);
    const pod = await json(['get', 'pod', 'target-pod-1']);
    assert.equal(pod.status.containerStatuses[0].restartCount, 1);
    assert.equal(
      (
        await sb.admin('/_sandbox/kube/train/faults/training', {
          method: 'POST',
          body: { job: 'target', rank: 7, kind: 'hang' },
        })
      ).status,
      404,
    );
    assert.equal(
      (
        await sb.admin('/_sandbox/kube/nowhere/faults/training', {
          method: 'POST',
          body: { job: 'target', rank: 0, kind: 'hang' },
        })
      ).status,
      404,
    );
    assert.equal(
      (
        await sb.admin('/_sandbox/kube/train/faults/training', {
          method: 'POST',
          body: { job: 'target', rank: 0, kind: 'explode' },
        })
      ).status,
      400,
    );
  });

  it('a RayJob runs on its own RayCluster through a submitter Job, SUCCEEDED, and the cluster goes with shutdownAfterJobFinishes', async () => {
    const image = 'verlai/verl:app-verl0.5-vllm0.9.1';
    await apply({
      apiVersion: 'ray.io/v1',
      kind: 'RayJob',
      metadata: {
        name: 'grpo',
        namespace: 'default',
        annotations: { 'sandbox.instantstart.dev/steps': '4', 'sandbox.instantstart.dev/step-seconds': '2' },
      },
      spec: {
        entrypoint:
          'python3 -m verl.trainer.main_ppo algorithm.adv_estimator=grpo trainer.nnodes=1 trainer.n_gpus_per_node=8',
        shutdownAfterJobFinishes: true,
        rayClusterSpec: {
          headGroupSpec: {
            rayStartParams: {},
            template: {
              spec: { containers: [{ name: 'ray-head', image, resources: { limits: { cpu: '4', memory: '16Gi' } } }] },
            },
          },
          workerGroupSpecs: [
            {
              groupName: 'gpu',
              replicas: 1,
              minReplicas: 1,
              maxReplicas: 1,
              rayStartParams: {},
              template: {
                spec: { containers: [{ name: 'ray-worker', image, resources: { limits: { 'nvidia.com/gpu': '8' } } }] },
              },
            },
          ],
        },
      },
    });
    await until(async () => stored('ray.io', 'rayjobs', 'grpo')?.status?.jobStatus === 'RUNNING', 'grpo RUNNING', 2);
    const running = await json(['get', 'rayjob', 'grpo']);
    const clusterName = running.status.rayClusterName;
    assert.match(clusterName, /^grpo-[a-z0-9]{5}$/);
    const rc = await json(['get', 'raycluster', clusterName]);
    assert.deepEqual(
      [rc.status.state, rc.status.desiredWorkerReplicas, rc.status.availableWorkerReplicas],
      ['ready', 1, 1],
    );
    const rayPods = (await json(['get', 'pods', '-l', `ray.io/cluster=${clusterName}`])).items;
    assert.deepEqual(rayPods.map((p: any) => p.metadata.labels['ray.io/node-type']).sort(), ['head', 'worker']);
    const submitter = await json(['get', 'job', 'grpo']);
    assert.deepEqual(
      [
        submitter.metadata.labels['ray.io/originated-from-crd'],
        submitter.metadata.labels['ray.io/originated-from-cr-name'],
      ],
      ['RayJob', 'grpo'],
    );
    await until(
      async () => stored('ray.io', 'rayjobs', 'grpo')?.status?.jobDeploymentStatus === 'Complete',
      'grpo Complete',
      5,
    );
    const done = await json(['get', 'rayjob', 'grpo']);
    assert.equal(done.status.jobStatus, 'SUCCEEDED');
    const log = (await k.kubectl(['logs', 'job/grpo'])).stdout;
    assert.match(log, /submitted successfully/);
    assert.match(log, /Experiment configuration: \{'algorithm': \{'adv_estimator': 'grpo'\}/);
    assert.match(log, new RegExp(`Job '${done.status.jobId}' succeeded`));
    await until(async () => !stored('ray.io', 'rayclusters', clusterName), 'the RayCluster deleted', 1);
    assert.match((await k.kubectl(['get', 'raycluster', clusterName], { allowFailure: true })).stderr, /NotFound/);
  });
});
