import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { mlflowCall, type MlflowCallOptions } from '../helpers/mlflow.js';
import { startTestSandbox, type TestSandbox } from '../helpers/sandbox.js';

const trust = JSON.stringify({
  Version: '2012-10-17',
  Statement: [{ Effect: 'Allow', Principal: { Service: 'sagemaker.amazonaws.com' }, Action: 'sts:AssumeRole' }],
});

/**
 * SageMaker managed MLflow in the sandbox, seen with the real AWS CLI (the tracking-server
 * control plane) and with raw signed HTTP (the MLflow REST API behind SigV4 `sagemaker-mlflow`).
 */
describe('sandbox SageMaker MLflow tracking servers and their MLflow API', () => {
  let sb: TestSandbox;
  let roleArn = '';

  const mlflow = (method: 'GET' | 'POST', path: string, options: MlflowCallOptions) =>
    mlflowCall(sb.url, method, path, options);

  const describeServer = async (name: string) =>
    (await sb.aws(['sagemaker', 'describe-mlflow-tracking-server', '--tracking-server-name', name])).json;
  const createServer = (name: string, extra: string[] = []) =>
    sb.aws(
      [
        'sagemaker',
        'create-mlflow-tracking-server',
        '--tracking-server-name',
        name,
        '--artifact-store-uri',
        's3://mlflow-artifacts/runs',
        '--role-arn',
        roleArn,
        ...extra,
      ],
      { allowFailure: true },
    );

  before(async () => {
    sb = await startTestSandbox();
    await sb.aws([
      's3api',
      'create-bucket',
      '--bucket',
      'mlflow-artifacts',
      '--create-bucket-configuration',
      'LocationConstraint=us-west-2',
    ]);
    roleArn = (
      await sb.aws(['iam', 'create-role', '--role-name', 'mlflow-artifacts', '--assume-role-policy-document', trust])
    ).json.Role.Arn;
  });
  after(async () => sb.dispose());

  it('refuses a tracking server whose artifact store or role is wrong, naming it, and creates nothing', async () => {
    // The CLI would fetch an https:// parameter value itself: the JSON input passes it as text.
    const input = JSON.stringify({
      TrackingServerName: 'bad',
      ArtifactStoreUri: 'https://example.com/x',
      RoleArn: roleArn,
    });
    const https = await sb.aws(['sagemaker', 'create-mlflow-tracking-server', '--cli-input-json', input], {
      allowFailure: true,
    });
    assert.match(
      https.stderr,
      /ValidationException.*ArtifactStoreUri 'https:\/\/example\.com\/x' must be an Amazon S3 URI/s,
    );
    const noBucket = await sb.aws(
      [
        'sagemaker',
        'create-mlflow-tracking-server',
        '--tracking-server-name',
        'bad',
        '--artifact-store-uri',
        's3://no-such-bucket/x',
        '--role-arn',
        roleArn,
      ],
      { allowFailure: true },
    );
    assert.match(noBucket.stderr, /ValidationException.*bucket 'no-such-bucket' in ArtifactStoreUri does not exist/s);
    const noRole = await sb.aws(
      [
        'sagemaker',
        'create-mlflow-tracking-server',
        '--tracking-server-name',
        'bad',
        '--artifact-store-uri',
        's3://mlflow-artifacts/x',
        '--role-arn',
        'arn:aws:iam::000000000000:role/missing',
      ],
      { allowFailure: true },
    );
    assert.match(
      noRole.stderr,
      /ValidationException.*role 'arn:aws:iam::000000000000:role\/missing' in RoleArn does not exist/s,
    );
    const badName = await createServer('bad_name');
    assert.match(badName.stderr, /ValidationException.*trackingServerName/s);
    assert.deepEqual((await sb.aws(['sagemaker', 'list-mlflow-tracking-servers'])).json.TrackingServerSummaries, []);
  });

  it('creates a server that is Creating, then Created with its URL, on the sandbox clock', async () => {
    const created = await createServer('team-a', [
      '--tracking-server-size',
      'Medium',
      '--mlflow-version',
      '3.0',
      '--tags',
      'Key=team,Value=a',
    ]);
    assert.equal(created.code, 0, created.stderr);
    assert.equal(
      created.json.TrackingServerArn,
      'arn:aws:sagemaker:us-west-2:000000000000:mlflow-tracking-server/team-a',
    );
    const creating = await describeServer('team-a');
    assert.equal(creating.TrackingServerStatus, 'Creating');
    assert.equal(creating.IsActive, 'Inactive');
    assert.match(creating.TrackingServerUrl, /^https:\/\/t-[a-z0-9]{12}\.us-west-2\.experiments\.sagemaker\.aws$/);
    assert.deepEqual(
      [creating.TrackingServerSize, creating.MlflowVersion, creating.ArtifactStoreUri, creating.RoleArn],
      ['Medium', '3.0', 's3://mlflow-artifacts/runs', roleArn],
    );
    assert.equal(
      (await createServer('team-a')).stderr.includes('ResourceInUse'),
      true,
      'a second server of the same name is refused',
    );
    await sb.advance(10 * 60);
    assert.equal((await describeServer('team-a')).TrackingServerStatus, 'Creating', 'still creating after 10 minutes');
    await sb.advance(16 * 60);
    const ready = await describeServer('team-a');
    assert.deepEqual([ready.TrackingServerStatus, ready.IsActive], ['Created', 'Active']);
  });

  it('lists servers newest first, page by page, and filters by status', async () => {
    for (const name of ['team-b', 'team-c']) {
      await sb.advance(60);
      assert.equal((await createServer(name)).code, 0);
    }
    const first = (await sb.aws(['sagemaker', 'list-mlflow-tracking-servers', '--max-results', '2', '--no-paginate']))
      .json;
    assert.deepEqual(
      first.TrackingServerSummaries.map((s: { TrackingServerName: string }) => s.TrackingServerName),
      ['team-c', 'team-b'],
    );
    assert.ok(first.NextToken, 'a token for the rest');
    const second = (
      await sb.aws([
        'sagemaker',
        'list-mlflow-tracking-servers',
        '--max-results',
        '2',
        '--next-token',
        first.NextToken,
        '--no-paginate',
      ])
    ).json;
    assert.deepEqual(
      second.TrackingServerSummaries.map((s: { TrackingServerName: string }) => s.TrackingServerName),
      ['team-a'],
    );
    assert.equal(second.NextToken, undefined);
    const created = (await sb.aws(['sagemaker', 'list-mlflow-tracking-servers', '--tracking-server-status', 'Created']))
      .json.TrackingServerSummaries;
    assert.deepEqual(
      created.map((s: { TrackingServerName: string; IsActive: string }) => [s.TrackingServerName, s.IsActive]),
      [['team-a', 'Active']],
    );
    const bad = await sb.aws(['sagemaker', 'list-mlflow-tracking-servers', '--next-token', 'not-ours'], {
      allowFailure: true,
    });
    assert.match(bad.stderr, /ValidationException.*NextToken/s);
  });

  it('stops and starts a server through Stopping/Stopped and Starting/Started, refusing moves its status does not allow', async () => {
    const notStopped = await sb.aws(['sagemaker', 'start-mlflow-tracking-server', '--tracking-server-name', 'team-a'], {
      allowFailure: true,
    });
    assert.match(notStopped.stderr, /ConflictException.*is Created; only a Stopped server can be started/s);
    await sb.aws(['sagemaker', 'stop-mlflow-tracking-server', '--tracking-server-name', 'team-a']);
    assert.equal((await describeServer('team-a')).TrackingServerStatus, 'Stopping');
    await sb.advance(7 * 60);
    assert.deepEqual(
      [(await describeServer('team-a')).TrackingServerStatus, (await describeServer('team-a')).IsActive],
      ['Stopped', 'Inactive'],
    );
    const stopped = await mlflow('GET', 'experiments/get-by-name', {
      arn: 'arn:aws:sagemaker:us-west-2:000000000000:mlflow-tracking-server/team-a',
      query: { experiment_name: 'Default' },
    });
    assert.deepEqual(
      [stopped.status, stopped.body.error_code],
      [503, 'TEMPORARILY_UNAVAILABLE'],
      'a stopped server answers no MLflow call',
    );
    await sb.aws(['sagemaker', 'start-mlflow-tracking-server', '--tracking-server-name', 'team-a']);
    assert.equal((await describeServer('team-a')).TrackingServerStatus, 'Starting');
    await sb.advance(16 * 60);
    assert.equal((await describeServer('team-a')).TrackingServerStatus, 'Started');
  });

  it('updates what may change and hands out a presigned UI URL within its limits', async () => {
    await sb.aws([
      'sagemaker',
      'update-mlflow-tracking-server',
      '--tracking-server-name',
      'team-a',
      '--tracking-server-size',
      'Large',
      '--weekly-maintenance-window-start',
      'Sun:02:00',
    ]);
    assert.equal((await describeServer('team-a')).TrackingServerStatus, 'Updating');
    await sb.advance(11 * 60);
    const updated = await describeServer('team-a');
    assert.deepEqual(
      [updated.TrackingServerStatus, updated.TrackingServerSize, updated.WeeklyMaintenanceWindowStart],
      ['Updated', 'Large', 'Sun:02:00'],
    );
    const url = (
      await sb.aws([
        'sagemaker',
        'create-presigned-mlflow-tracking-server-url',
        '--tracking-server-name',
        'team-a',
        '--expires-in-seconds',
        '60',
      ])
    ).json.AuthorizedUrl;
    assert.ok(url.startsWith(`${updated.TrackingServerUrl}/auth?authToken=`), url);
    const tooLong = await sb.aws(
      [
        'sagemaker',
        'create-presigned-mlflow-tracking-server-url',
        '--tracking-server-name',
        'team-a',
        '--expires-in-seconds',
        '301',
      ],
      { allowFailure: true },
    );
    assert.match(tooLong.stderr, /ValidationException.*expiresInSeconds/s);
  });

  it("serves MLflow REST only to requests signed for sagemaker-mlflow, in MLflow's error shape", async () => {
    const arn = 'arn:aws:sagemaker:us-west-2:000000000000:mlflow-tracking-server/team-a';
    const unsigned = await mlflow('POST', 'experiments/create', { arn, body: { name: 'sneaky' }, sign: 'none' });
    assert.deepEqual([unsigned.status, unsigned.body.error_code], [401, 'UNAUTHENTICATED']);
    assert.match(unsigned.body.message, /missing Authentication Token/i);
    const forged = await mlflow('POST', 'experiments/create', { arn, body: { name: 'sneaky' }, sign: 'wrong-secret' });
    assert.deepEqual([forged.status, forged.body.error_code], [403, 'PERMISSION_DENIED']);
    const otherRegion = await mlflow('POST', 'experiments/create', {
      arn,
      body: { name: 'sneaky' },
      region: 'us-east-1',
    });
    assert.deepEqual([otherRegion.status, otherRegion.body.error_code], [403, 'PERMISSION_DENIED']);
    const missing = await mlflow('GET', 'experiments/get-by-name', { arn, query: { experiment_name: 'sneaky' } });
    assert.deepEqual(
      [missing.status, missing.body.error_code],
      [404, 'RESOURCE_DOES_NOT_EXIST'],
      'nothing was created by the refused calls',
    );

    const created = await mlflow('POST', 'experiments/create', { arn, body: { name: 'llama-sft' } });
    assert.equal(created.status, 200);
    const again = await mlflow('POST', 'experiments/create', { arn, body: { name: 'llama-sft' } });
    assert.deepEqual([again.status, again.body.error_code], [400, 'RESOURCE_ALREADY_EXISTS']);
    assert.equal((await createServer('team-d')).code, 0);
    const creating = await mlflow('GET', 'experiments/get-by-name', {
      arn: arn.replace('team-a', 'team-d'),
      query: { experiment_name: 'llama-sft' },
    });
    assert.deepEqual(
      [creating.status, creating.body.error_code],
      [503, 'TEMPORARILY_UNAVAILABLE'],
      'a server still Creating answers nothing',
    );
    const otherServer = await mlflow('GET', 'experiments/get-by-name', {
      arn: arn.replace('team-a', 'team-b'),
      query: { experiment_name: 'llama-sft' },
    });
    assert.deepEqual(
      [otherServer.status, otherServer.body.error_code],
      [404, 'RESOURCE_DOES_NOT_EXIST'],
      'each server has its own experiments',
    );
    const noRun = await mlflow('POST', 'runs/log-metric', {
      arn,
      body: { run_id: 'x', key: 'loss', value: 1, timestamp: 1 },
    });
    assert.deepEqual([noRun.status, noRun.body.error_code], [404, 'RESOURCE_DOES_NOT_EXIST']);
    const unknownPath = await mlflow('GET', 'model-versions/get', { arn, query: {} });
    assert.deepEqual([unknownPath.status, unknownPath.body.error_code], [404, 'ENDPOINT_NOT_FOUND']);
  });

  it('keeps experiments, runs and paged metric histories as MLflow does', async () => {
    const arn = 'arn:aws:sagemaker:us-west-2:000000000000:mlflow-tracking-server/team-a';
    const experiment = (
      await mlflow('GET', 'experiments/get-by-name', { arn, query: { experiment_name: 'llama-sft' } })
    ).body.experiment;
    assert.equal(experiment.artifact_location, `s3://mlflow-artifacts/runs/${experiment.experiment_id}`);
    const run = (
      await mlflow('POST', 'runs/create', {
        arn,
        body: {
          experiment_id: experiment.experiment_id,
          run_name: 'job-1',
          start_time: 1_000,
          tags: [{ key: 'team', value: 'a' }],
        },
      })
    ).body.run;
    assert.deepEqual([run.info.run_name, run.info.status], ['job-1', 'RUNNING']);
    const metrics = Array.from({ length: 250 }, (_, i) => ({
      key: 'loss',
      value: 3 - i / 100,
      timestamp: 2_000 + i,
      step: 250 - i,
    }));
    assert.equal(
      (
        await mlflow('POST', 'runs/log-batch', {
          arn,
          body: { run_id: run.info.run_id, metrics, params: [{ key: 'lr', value: '3e-4' }] },
        })
      ).status,
      200,
    );
    const changed = await mlflow('POST', 'runs/log-batch', {
      arn,
      body: { run_id: run.info.run_id, params: [{ key: 'lr', value: '1e-4' }] },
    });
    assert.deepEqual(
      [changed.status, changed.body.error_code],
      [400, 'INVALID_PARAMETER_VALUE'],
      'params never change',
    );

    const steps: number[] = [];
    let token: string | undefined;
    let pages = 0;
    do {
      const page = (
        await mlflow('GET', 'metrics/get-history', {
          arn,
          query: {
            run_id: run.info.run_id,
            metric_key: 'loss',
            max_results: '100',
            ...(token ? { page_token: token } : {}),
          },
        })
      ).body;
      steps.push(...page.metrics.map((m: { step: number }) => m.step));
      token = page.next_page_token;
      pages++;
    } while (token);
    assert.equal(pages, 3);
    assert.deepEqual(
      steps,
      Array.from({ length: 250 }, (_, i) => i + 1),
      'every point once, by step',
    );
    const whole = (
      await mlflow('GET', 'metrics/get-history', { arn, query: { run_id: run.info.run_id, metric_key: 'loss' } })
    ).body;
    assert.equal(whole.metrics.length, 250, 'without max_results the history is not paginated');
    assert.equal(whole.next_page_token, undefined);

    const found = (
      await mlflow('POST', 'runs/search', {
        arn,
        body: {
          experiment_ids: [experiment.experiment_id],
          filter: "tags.\"mlflow.runName\" = 'job-1' AND tags.team = 'a'",
        },
      })
    ).body.runs;
    assert.equal(found.length, 1);
    assert.deepEqual(
      found[0].data.metrics,
      [{ key: 'loss', value: 3, timestamp: 2_000, step: 250 }],
      'the latest value is the greatest step',
    );
    const none = (
      await mlflow('POST', 'runs/search', {
        arn,
        body: { experiment_ids: [experiment.experiment_id], filter: "attributes.run_name = 'job-2'" },
      })
    ).body;
    assert.deepEqual(none, {}, 'no hits is an empty object, as protobuf JSON writes it');
    const finished = await mlflow('POST', 'runs/update', {
      arn,
      body: { run_id: run.info.run_id, status: 'FINISHED', end_time: 9_000 },
    });
    assert.deepEqual([finished.body.run_info.status, finished.body.run_info.end_time], ['FINISHED', 9_000]);
    const calls = await sb.calls({ service: 'sagemaker-mlflow', operation: 'GetMetricHistory' });
    assert.ok(calls.length >= 4, 'MLflow calls are in the sandbox call log');
  });

  it('deletes a server through Deleting, and its data with it', async () => {
    await sb.aws(['sagemaker', 'delete-mlflow-tracking-server', '--tracking-server-name', 'team-a']);
    assert.equal((await describeServer('team-a')).TrackingServerStatus, 'Deleting');
    await sb.advance(11 * 60);
    const gone = await sb.aws(['sagemaker', 'describe-mlflow-tracking-server', '--tracking-server-name', 'team-a'], {
      allowFailure: true,
    });
    assert.match(gone.stderr, /ResourceNotFound/);
    const rest = await mlflow('GET', 'experiments/get-by-name', {
      arn: 'arn:aws:sagemaker:us-west-2:000000000000:mlflow-tracking-server/team-a',
      query: { experiment_name: 'llama-sft' },
    });
    assert.deepEqual([rest.status, rest.body.error_code], [404, 'RESOURCE_DOES_NOT_EXIST']);
  });
});
