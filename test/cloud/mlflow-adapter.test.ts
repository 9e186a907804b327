import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { CreateBucketCommand, S3Client } from '@aws-sdk/client-s3';
import { CreateRoleCommand, IAMClient } from '@aws-sdk/client-iam';
import { SageMakerClient, StopMlflowTrackingServerCommand } from '@aws-sdk/client-sagemaker';
import { AwsClients } from '../../src/cloud/aws/clients.js';
import { MlflowAdapter } from '../../src/cloud/aws/mlflow.js';
import { mlflowEndpoint, parseTrackingServerArn } from '../../src/cloud/aws/mlflow-rest.js';
import { InputError, NotFoundError, PreconditionError } from '../../src/domain/errors.js';
import { mlflowCall } from '../helpers/mlflow.js';
import { startTestSandbox, type TestSandbox } from '../helpers/sandbox.js';

const trust = JSON.stringify({
  Version: '2012-10-17',
  Statement: [{ Effect: 'Allow', Principal: { Service: 'sagemaker.amazonaws.com' }, Action: 'sts:AssumeRole' }],
});

describe('MLflow adapter against the sandbox (tracking servers, runs, paged metric history)', () => {
  let sb: TestSandbox;
  let roleArn = '';
  let arn = '';
  let runId = '';
  const mlflow = () => new MlflowAdapter(new AwsClients({ defaultRegion: 'us-west-2' }));
  const adapter = mlflow();

  before(async () => {
    sb = await startTestSandbox();
    await new S3Client({}).send(
      new CreateBucketCommand({
        Bucket: 'ml-artifacts',
        CreateBucketConfiguration: { LocationConstraint: 'us-west-2' },
      }),
    );
    roleArn = (
      await new IAMClient({}).send(new CreateRoleCommand({ RoleName: 'mlflow', AssumeRolePolicyDocument: trust }))
    ).Role!.Arn!;
  });
  after(async () => sb.dispose());

  it('creates, lists and describes tracking servers; a server still Creating answers no MLflow read', async () => {
    arn = await adapter.createTrackingServer('us-west-2', {
      name: 'research',
      artifactStoreUri: 's3://ml-artifacts/mlflow',
      roleArn,
      size: 'Small',
      tags: { team: 'research' },
    });
    assert.equal(arn, 'arn:aws:sagemaker:us-west-2:000000000000:mlflow-tracking-server/research');
    const listed = await adapter.listTrackingServers('us-west-2');
    assert.deepEqual(
      listed.map((s) => [s.name, s.status, s.active]),
      [['research', 'Creating', false]],
    );
    await assert.rejects(
      adapter.findRun({ trackingServerArn: arn, experimentName: 'x', runName: 'y' }),
      (e: Error) =>
        e instanceof PreconditionError && /is Creating/.test(e.message) && /Wait until/.test(e.remedy ?? ''),
    );
    await sb.advance(30 * 60);
    const server = await adapter.describeTrackingServer('us-west-2', 'research');
    assert.deepEqual(
      [server?.status, server?.active, server?.artifactStoreUri],
      ['Created', true, 's3://ml-artifacts/mlflow'],
    );
    assert.equal(await adapter.describeTrackingServer('us-west-2', 'nobody'), undefined);
  });

  it('finds a run by its name and by its tags; a missing experiment or run is no run', async () => {
    const call = (method: 'GET' | 'POST', path: string, body: unknown) =>
      mlflowCall(sb.url, method, path, { arn, body });
    const experimentId = (await call('POST', 'experiments/create', { name: 'llama-sft' })).body.experiment_id;
    await call('POST', 'runs/create', {
      experiment_id: experimentId,
      run_name: 'job-7',
      start_time: 1_000,
      tags: [{ key: 'attempt', value: '1' }],
    });
    runId = (
      await call('POST', 'runs/create', {
        experiment_id: experimentId,
        run_name: 'job-7',
        start_time: 2_000,
        tags: [{ key: 'attempt', value: '2' }],
      })
    ).body.run.info.run_id;
    await call('POST', 'runs/create', { experiment_id: experimentId, run_name: 'job-8', start_time: 3_000 });

    const run = await adapter.findRun({ trackingServerArn: arn, experimentName: 'llama-sft', runName: 'job-7' });
    assert.equal(run?.id, runId, 'the newest run of that name');
    assert.deepEqual(
      [run?.name, run?.status, run?.tags.find((t) => t.key === 'attempt')?.value],
      ['job-7', 'RUNNING', '2'],
    );
    const tagged = await adapter.searchRuns({
      trackingServerArn: arn,
      experimentName: 'llama-sft',
      tags: [{ key: 'attempt', value: '1' }],
    });
    assert.deepEqual(
      tagged.map((r) => [r.name, r.startTime]),
      [['job-7', 1_000]],
    );
    assert.deepEqual(
      (await adapter.searchRuns({ trackingServerArn: arn, experimentName: 'llama-sft' })).map((r) => r.name),
      ['job-8', 'job-7', 'job-7'],
    );
    assert.equal(
      await adapter.findRun({ trackingServerArn: arn, experimentName: 'llama-sft', runName: "it's not there" }),
      undefined,
    );
    assert.equal(
      await adapter.findExperiment({ trackingServerArn: arn, experimentName: 'no-such-experiment' }),
      undefined,
    );
    assert.equal(
      await adapter.findRun({ trackingServerArn: arn, experimentName: 'no-such-experiment', runName: 'job-7' }),
      undefined,
    );
  });

  it('reads a long metric history page by page, sorted by step, and says when it capped it', async () => {
    // 2,500 points logged out of order, in batches of at most 1,000 (LogBatch's limit).
    const points = Array.from({ length: 2500 }, (_, i) => ({
      key: 'throughput',
      value: 10_000 + i,
      timestamp: 5_000 + i,
      step: (i * 7919) % 2500,
    }));
    for (let i = 0; i < points.length; i += 1000) {
      assert.equal(
        (
          await mlflowCall(sb.url, 'POST', 'runs/log-batch', {
            arn,
            body: { run_id: runId, metrics: points.slice(i, i + 1000) },
          })
        ).status,
        200,
      );
    }
    const before = (await sb.calls({ service: 'sagemaker-mlflow', operation: 'GetMetricHistory' })).length;
    const history = await adapter.metricHistory({
      trackingServerArn: arn,
      runId,
      metricKey: 'throughput',
      pageSize: 1000,
    });
    assert.equal(history.pages, 3);
    assert.equal(
      (await sb.calls({ service: 'sagemaker-mlflow', operation: 'GetMetricHistory' })).length - before,
      3,
      'one call per page',
    );
    assert.equal(history.truncated, false);
    assert.deepEqual(
      history.points.map((p) => p.step),
      Array.from({ length: 2500 }, (_, i) => i),
      'every point once, by step',
    );
    assert.equal(history.points[0]!.value, 10_000, 'step 0 was the first logged');

    const capped = await adapter.metricHistory({
      trackingServerArn: arn,
      runId,
      metricKey: 'throughput',
      pageSize: 1000,
      maxPoints: 1200,
    });
    assert.deepEqual([capped.truncated, capped.limit, capped.points.length, capped.pages], [true, 1200, 1200, 2]);
    const empty = await adapter.metricHistory({ trackingServerArn: arn, runId, metricKey: 'never-logged' });
    assert.deepEqual([empty.points, empty.truncated, empty.pages], [[], false, 1]);
    await assert.rejects(
      adapter.metricHistory({ trackingServerArn: arn, runId: 'f'.repeat(32), metricKey: 'loss' }),
      (e: Error) => e instanceof NotFoundError && /MLflow run/.test(e.message),
    );
  });

  it('names what is wrong: a malformed ARN, a server that does not exist, a server that is stopped', async () => {
    await assert.rejects(
      adapter.findRun({
        trackingServerArn: 'arn:aws:sagemaker:us-west-2:000000000000:cluster/abc',
        experimentName: 'e',
        runName: 'r',
      }),
      (e: Error) => e instanceof InputError && e.problems[0]?.path === 'trackingServerArn',
    );
    await assert.rejects(
      adapter.findRun({ trackingServerArn: arn.replace('research', 'gone'), experimentName: 'e', runName: 'r' }),
      (e: Error) => e instanceof NotFoundError && /'gone' does not exist/.test(e.message),
    );
    await new SageMakerClient({}).send(new StopMlflowTrackingServerCommand({ TrackingServerName: 'research' }));
    await sb.advance(10 * 60);
    // A fresh adapter: the first one keeps a server's Describe for a few seconds.
    await assert.rejects(
      mlflow().findRun({ trackingServerArn: arn, experimentName: 'llama-sft', runName: 'job-7' }),
      (e: Error) => e instanceof PreconditionError && /is Stopped/.test(e.message) && /Start it/.test(e.remedy ?? ''),
    );
    await adapter.deleteTrackingServer('us-west-2', 'never-existed');
  });

  it("sends MLflow calls where the standard endpoint settings say, else to AWS's regional MLflow host", () => {
    const ref = parseTrackingServerArn('arn:aws:sagemaker:eu-west-1:123456789012:mlflow-tracking-server/team')!;
    const url = 'https://t-abc.eu-west-1.experiments.sagemaker.aws';
    assert.equal(mlflowEndpoint(ref, url, {}), 'https://eu-west-1.experiments.sagemaker.aws');
    assert.equal(mlflowEndpoint(ref, url, { AWS_ENDPOINT_URL: 'http://127.0.0.1:4566/' }), 'http://127.0.0.1:4566');
    assert.equal(
      mlflowEndpoint(ref, url, { AWS_ENDPOINT_URL: 'http://a', AWS_ENDPOINT_URL_SAGEMAKER_MLFLOW: 'http://b' }),
      'http://b',
    );
    assert.equal(
      mlflowEndpoint(ref, url, { AWS_ENDPOINT_URL: 'http://a', AWS_IGNORE_CONFIGURED_ENDPOINT_URLS: 'true' }),
      'https://eu-west-1.experiments.sagemaker.aws',
    );
    assert.equal(
      mlflowEndpoint(ref, url, {
        SAGEMAKER_MLFLOW_CUSTOM_ENDPOINT: 'https://proxy.example',
        AWS_ENDPOINT_URL: 'http://a',
      }),
      'https://proxy.example',
    );
    assert.equal(parseTrackingServerArn('arn:aws:sagemaker:eu-west-1:123456789012:cluster/x'), undefined);
  });
});
