import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { CreateBucketCommand, S3Client } from '@aws-sdk/client-s3';
import { CreateRoleCommand, IAMClient } from '@aws-sdk/client-iam';
import { makeKubeCluster, type KubeCluster } from '../../sandbox/kube/cluster.js';
import { metricsOfLine } from '../../sandbox/kube/controllers/mlflow-reporter.js';
import { T } from '../../sandbox/kube/controllers/util.js';
import type { ClusterKubeState } from '../../sandbox/kube/objects.js';
import { AwsClients } from '../../src/cloud/aws/clients.js';
import { MlflowAdapter } from '../../src/cloud/aws/mlflow.js';
import { eventually, startTestSandbox, type TestSandbox } from '../helpers/sandbox.js';
import { activeCluster, buildEksWorld } from '../sandbox/eks-fixtures.js';
import { node, pod } from './controllers-fixtures.js';

const trust = JSON.stringify({
  Version: '2012-10-17',
  Statement: [{ Effect: 'Allow', Principal: { Service: 'sagemaker.amazonaws.com' }, Action: 'sts:AssumeRole' }],
});
const IMAGE = 'public.ecr.aws/example/pytorch-training:2.5';

describe('simulated trainers report their metric lines to SageMaker managed MLflow', () => {
  let sb: TestSandbox;
  let kube: KubeCluster;
  let arn = '';
  const mlflow = new MlflowAdapter(new AwsClients({ defaultRegion: 'us-west-2' }));

  /** A trainer pod: the sandbox's `training` program, `steps` metric lines 10 s apart, the MLflow settings a recipe gets. */
  const trainer = (name: string, env: Record<string, string>, annotations: Record<string, string> = {}) =>
    pod(
      name,
      {
        restartPolicy: 'Never',
        nodeName: 'worker-1',
        containers: [
          {
            name: 'pytorch',
            image: IMAGE,
            command: ['torchrun', 'train.py'],
            env: Object.entries(env).map(([k, v]) => ({ name: k, value: v })),
            resources: { requests: { cpu: '1' } },
          },
        ],
      },
      { 'sandbox.instantstart.dev/steps': '30', 'sandbox.instantstart.dev/step-seconds': '10', ...annotations },
    );
  const settings = (runName: string, extra: Record<string, string> = {}) => ({
    MLFLOW_TRACKING_URI: arn,
    MLFLOW_EXPERIMENT_NAME: 'llama-sft',
    MLFLOW_RUN_NAME: runName,
    ...extra,
  });
  const findRun = (runName: string) => mlflow.findRun({ trackingServerArn: arn, experimentName: 'llama-sft', runName });

  before(async () => {
    sb = await startTestSandbox();
    await new S3Client({}).send(
      new CreateBucketCommand({
        Bucket: 'ml-artifacts',
        CreateBucketConfiguration: { LocationConstraint: 'us-west-2' },
      }),
    );
    const roleArn = (
      await new IAMClient({}).send(new CreateRoleCommand({ RoleName: 'mlflow', AssumeRolePolicyDocument: trust }))
    ).Role!.Arn!;
    arn = await mlflow.createTrackingServer('us-west-2', {
      name: 'training',
      artifactStoreUri: 's3://ml-artifacts/mlflow',
      roleArn,
    });
    const world = await buildEksWorld('mlf');
    await activeCluster(sb, world, 'train');
    await sb.advance(30 * 60);
    assert.equal((await mlflow.describeTrackingServer('us-west-2', 'training'))?.status, 'Created');
    const eksArn = 'arn:aws:eks:us-west-2:000000000000:cluster/train';
    const data = (sb.sandbox.runtime.store.state as unknown as { kube: Record<string, ClusterKubeState> }).kube[
      eksArn
    ]!;
    kube = makeKubeCluster({ arn: eksArn, name: 'train', region: 'us-west-2' }, data, {
      now: () => sb.sandbox.runtime.clock.now(),
      changed: () => sb.sandbox.runtime.store.markDirty(),
    });
    kube.objects.create(T.nodes, node('worker-1', { cpu: '16', memory: '64Gi' }));
  });
  after(async () => sb.dispose());

  it('reads the metrics of a line whatever prefix a recipe gives it', () => {
    assert.deepEqual(metricsOfLine('[rank0]: step=12 loss=2.0413 tokens/s=11873 lr=3.0e-04'), [
      { key: 'loss', step: 12, value: 2.0413 },
      { key: 'throughput', step: 12, value: 11873 },
      { key: 'learning_rate', step: 12, value: 0.0003 },
    ]);
    assert.deepEqual(metricsOfLine('Loaded dataset: 128 shards'), []);
  });

  it('logs rank 0 of a job as one run: loss going down, throughput and learning rate by step, FINISHED when the pod succeeds', async () => {
    kube.objects.create(T.pods, trainer('job-1-worker-0', settings('job-1', { NODE_RANK: '0' })));
    kube.objects.create(T.pods, trainer('job-1-worker-1', settings('job-1', { NODE_RANK: '1' })));
    await sb.advance(60);
    const running = await eventually(() => findRun('job-1'), { sandbox: sb, stepSeconds: 10, what: 'the run appears' });
    assert.equal(running.status, 'RUNNING');
    await sb.advance(330);
    const run = await eventually(
      async () => {
        const r = await findRun('job-1');
        return r?.status === 'FINISHED' ? r : undefined;
      },
      { sandbox: sb, stepSeconds: 10, what: 'the run FINISHED' },
    );
    assert.deepEqual(run.latestMetrics.map((m) => m.key).sort(), ['learning_rate', 'loss', 'throughput']);
    assert.ok(run.endTime !== undefined && run.startTime !== undefined && run.endTime > run.startTime);
    assert.equal(
      (await mlflow.searchRuns({ trackingServerArn: arn, experimentName: 'llama-sft', runName: 'job-1' })).length,
      1,
      'rank 1 logs nothing of its own',
    );

    const loss = await mlflow.metricHistory({ trackingServerArn: arn, runId: run.id, metricKey: 'loss', pageSize: 7 });
    assert.deepEqual(
      loss.points.map((p) => p.step),
      Array.from({ length: 30 }, (_, i) => i + 1),
      'each step once: rank 1 did not log into the run',
    );
    assert.equal(loss.pages, 5);
    const mean = (from: number, to: number) =>
      loss.points.slice(from, to).reduce((s, p) => s + p.value, 0) / (to - from);
    assert.ok(
      mean(0, 10) > mean(10, 20) && mean(10, 20) > mean(20, 30),
      `loss goes down: ${loss.points.map((p) => p.value.toFixed(3)).join(' ')}`,
    );
    assert.deepEqual(
      loss.points.slice(1).map((p, i) => p.timestamp - loss.points[i]!.timestamp),
      Array(29).fill(10_000),
      'timed when each line was printed',
    );
    const throughput = await mlflow.metricHistory({ trackingServerArn: arn, runId: run.id, metricKey: 'throughput' });
    assert.ok(throughput.points.length === 30 && throughput.points.every((p) => p.value > 5_000));
    const lr = await mlflow.metricHistory({ trackingServerArn: arn, runId: run.id, metricKey: 'learning_rate' });
    // The trainers warm the learning rate up, then decay it (cosine): positive throughout, ending well below its peak.
    const peak = Math.max(...lr.points.map((p) => p.value));
    assert.ok(lr.points.length === 30 && lr.points.every((p) => p.value > 0), lr.points.map((p) => p.value).join(' '));
    assert.ok(
      lr.points.at(-1)!.value < peak / 2,
      `the learning rate decays: ${lr.points.map((p) => p.value).join(' ')}`,
    );
  });

  it('marks a run FAILED when its pod fails, and KILLED when its pod goes while running', async () => {
    kube.objects.create(
      T.pods,
      trainer('job-2-worker-0', settings('job-2'), { 'sandbox.instantstart.dev/program': 'failing' }),
    );
    kube.objects.create(
      T.pods,
      trainer('job-3-worker-0', settings('job-3'), { 'sandbox.instantstart.dev/steps': '0' }),
    );
    const failed = await eventually(
      async () => {
        const r = await findRun('job-2');
        return r?.status === 'FAILED' ? r : undefined;
      },
      { sandbox: sb, stepSeconds: 10, what: 'job-2 FAILED' },
    );
    assert.deepEqual(failed.latestMetrics, [], 'a crash before any metrics line logs none');
    await eventually(async () => ((await findRun('job-3'))?.latestMetrics.length ?? 0) > 0, {
      sandbox: sb,
      stepSeconds: 10,
      what: 'job-3 logging',
    });
    kube.objects.remove(T.pods, 'default', 'job-3-worker-0');
    const killed = await eventually(
      async () => {
        const r = await findRun('job-3');
        return r?.status === 'KILLED' ? r : undefined;
      },
      { sandbox: sb, stepSeconds: 5, what: 'job-3 KILLED' },
    );
    assert.ok(killed.endTime !== undefined);
  });
});
