import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { SANDBOX_HF_TOKEN } from '../../sandbox/services/huggingface/access.js';
import { kubeAccess, type TestKubeCluster } from '../helpers/kube.js';
import { startTestSandbox, type TestSandbox } from '../helpers/sandbox.js';
import { startTestServer, stopAll, type TestServer } from '../helpers/server.js';
import { call } from '../mcp/client-helpers.js';

const SPEED = 600;
const downloads = '/api/v1/clusters/models/model-downloads';
const LABEL = 'instantstart.dev/model-download';

/**
 * Model downloads end to end on the sandbox: the product checks the model on the Hub simulation
 * (HF_ENDPOINT), a Job runs `hf download` in the cluster and the files land in the cluster's shared
 * S3 storage (seen with the real aws CLI); refusals create nothing (kubectl); a token lives only in a
 * Secret referenced by the Job and never comes back in any answer or the server's log.
 */
describe('model downloads through REST and MCP on the sandbox', () => {
  let sb: TestSandbox;
  let server: TestServer;
  let kube: TestKubeCluster;
  let mcp: Client;
  let bucket: string;
  const serverLog: string[] = [];

  before(async () => {
    sb = await startTestSandbox({ speed: SPEED });
    server = await startTestServer(sb, { speed: SPEED, logLines: serverLog });
    const created = await server.api('POST', '/api/v1/clusters', {
      name: 'models',
      availabilityZone: 'us-west-2b',
      instanceType: 'ml.c5.xlarge',
      instanceCount: 1,
      storage: { s3: true },
    });
    assert.equal(created.status, 202, JSON.stringify(created.body));
    assert.equal((await server.waitForOperation(created.body.operation.id)).status, 'succeeded');
    bucket = (await server.api('GET', '/api/v1/clusters/models')).body.storage.s3Bucket;
    kube = await kubeAccess(sb, 'models-eks');
    mcp = new Client({ name: 'e2e-model-downloads', version: '1.0.0' });
    await mcp.connect(new StreamableHTTPClientTransport(new URL(`${server.url}/mcp`)));
  });
  after(() => stopAll(mcp, server, sb));

  const jobsAndSecrets = async () => ({
    jobs: (await kube.kubectl(['get', 'jobs', '-n', 'default', '-o', 'name'])).stdout.trim(),
    secrets: (await kube.kubectl(['get', 'secrets', '-n', 'default', '-l', LABEL, '-o', 'name'])).stdout.trim(),
  });

  it('downloads a public model into the shared S3 storage: the files are in S3 and the result lists them', async () => {
    const started = await server.api('POST', downloads, { modelId: 'openai-community/gpt2', storage: 'shared-s3' });
    assert.equal(started.status, 202, JSON.stringify(started.body));
    const op = await server.waitForOperation(started.body.operation.id);
    assert.equal(op.status, 'succeeded', JSON.stringify(op.error));
    assert.equal(op.result.destination, `s3://${bucket}/models/openai-community/gpt2/main/`);

    const listed = await sb.aws(['s3', 'ls', '--recursive', `s3://${bucket}/models/openai-community/gpt2/main/`]);
    const inS3 = new Map(
      listed.stdout
        .trim()
        .split('\n')
        .map((l) => l.trim().split(/\s+/))
        .map(([, , size, key]) => [key!.slice('models/openai-community/gpt2/main/'.length), Number(size)] as const)
        .filter(([path]) => !path.startsWith('.cache/')),
    );
    const hub = (await (
      await fetch(`${sb.env.HF_ENDPOINT}/api/models/openai-community/gpt2?blobs=true`)
    ).json()) as any;
    assert.deepEqual(
      [...inS3.keys()].sort(),
      hub.siblings.map((s: any) => s.rfilename).sort(),
      'every file of the model is in S3',
    );
    for (const s of hub.siblings) assert.equal(inS3.get(s.rfilename), s.size, `${s.rfilename} has the Hub's size`);
    assert.deepEqual(
      op.result.files,
      [...inS3].map(([path, size]) => ({ path, size })).sort((a, b) => a.path.localeCompare(b.path)),
    );
    assert.equal(op.result.totalFiles, hub.siblings.length);

    const copied = await sb.aws(['s3', 'cp', `s3://${bucket}/models/openai-community/gpt2/main/config.json`, '-']);
    assert.equal(
      copied.stdout,
      await (await fetch(`${sb.env.HF_ENDPOINT}/openai-community/gpt2/resolve/main/config.json`)).text(),
      "the bytes are the Hub's",
    );

    const list = await server.api('GET', downloads);
    assert.equal(list.status, 200);
    const d = list.body.downloads.find((x: any) => x.operationId === op.id);
    assert.equal(d.status, 'succeeded');
    assert.deepEqual(d.progress, {
      files: hub.siblings.length,
      totalFiles: hub.siblings.length,
      bytes: op.result.totalBytes,
      totalBytes: op.result.totalBytes,
    });
    assert.equal(d.job.state, 'Succeeded', 'the Job is read live from Kubernetes');
    assert.match((await kube.kubectl(['get', 'job', d.job.name, '-o', 'jsonpath={.status.succeeded}'])).stdout, /^1$/);
  });

  it('refuses a gated model without a token, naming token, and creates no Job and no Secret', async () => {
    const before = await jobsAndSecrets();
    const r = await server.api('POST', downloads, { modelId: 'meta-llama/Llama-3.2-1B', storage: 'shared-s3' });
    assert.equal(r.status, 422, JSON.stringify(r.body));
    assert.equal(r.body.errors[0].path, 'token');
    assert.match(r.body.detail, /gated/);
    const notGranted = await server.api('POST', downloads, {
      modelId: 'meta-llama/Llama-3.2-1B',
      storage: 'shared-s3',
      token: 'hf_SomeoneElsesTokenWithoutAnyGrants000000',
    });
    assert.equal(notGranted.status, 422, JSON.stringify(notGranted.body));
    assert.equal(notGranted.body.errors[0].path, 'token');
    assert.match(notGranted.body.detail, /not in the authorized list|not granted/);
    assert.doesNotMatch(JSON.stringify(notGranted.body), /hf_SomeoneElsesToken/, 'a refused token is not echoed');
    assert.deepEqual(await jobsAndSecrets(), before, 'no Job and no Secret were created');
  });

  it('refuses a model or revision the Hub does not have, naming the field, and bad input before the Hub', async () => {
    const missing = await server.api('POST', downloads, { modelId: 'no-such-org/no-such-model', storage: 'shared-s3' });
    assert.equal(missing.status, 422, JSON.stringify(missing.body));
    assert.equal(missing.body.errors[0].path, 'modelId');
    const revision = await server.api('POST', downloads, {
      modelId: 'Qwen/Qwen2.5-0.5B-Instruct',
      revision: 'v9.9',
      storage: 'shared-s3',
    });
    assert.equal(revision.status, 422, JSON.stringify(revision.body));
    assert.equal(revision.body.errors[0].path, 'revision');
    const shape = await server.api('POST', downloads, { modelId: 'gpt2', storage: 'shared-s3' });
    assert.equal(shape.status, 400);
    assert.equal(shape.body.errors[0].path, 'modelId');
    const storage = await server.api('POST', downloads, { modelId: 'openai-community/gpt2', storage: 'nope' });
    assert.equal(storage.status, 422, JSON.stringify(storage.body));
    assert.equal(storage.body.errors[0].path, 'storage');
    assert.match(storage.body.detail, /shared-s3/, 'names the storages there are');
  });

  it('downloads a gated model with a granted token kept only in a Secret the Job references, then deleted; the token is in no answer, log or Job spec', async () => {
    const logStart = serverLog.length;
    const started = await server.api(
      'POST',
      downloads,
      { modelId: 'meta-llama/Llama-3.2-1B', storage: 'shared-s3', token: SANDBOX_HF_TOKEN },
      { 'idempotency-key': 'gated-1' },
    );
    assert.equal(started.status, 202, JSON.stringify(started.body));
    const input = started.body.operation.input;
    assert.ok(input.tokenSecret, 'the input names the Secret');
    // While it runs, the Job takes the token from the Secret by reference only.
    const jobJson = (await kube.kubectl(['get', 'job', input.jobName, '-o', 'json'])).stdout;
    const container = JSON.parse(jobJson).spec.template.spec.containers[0];
    assert.deepEqual(container.command, [
      'hf',
      'download',
      'meta-llama/Llama-3.2-1B',
      '--revision',
      input.commit,
      '--local-dir',
      '/data/models/meta-llama/Llama-3.2-1B/main',
    ]);
    assert.equal(container.image, 'vllm/vllm-openai:v0.11.0');
    const env = container.env;
    assert.deepEqual(
      env.find((e: any) => e.name === 'HF_TOKEN'),
      { name: 'HF_TOKEN', valueFrom: { secretKeyRef: { name: input.tokenSecret, key: 'HF_TOKEN' } } },
    );
    assert.ok(!jobJson.includes(SANDBOX_HF_TOKEN), 'the token is not in the Job spec');
    const repeat = await server.api(
      'POST',
      downloads,
      { modelId: 'meta-llama/Llama-3.2-1B', storage: 'shared-s3', token: SANDBOX_HF_TOKEN },
      { 'idempotency-key': 'gated-1' },
    );
    assert.equal(repeat.body.operation.id, started.body.operation.id);
    assert.equal(repeat.body.existing, true);

    const op = await server.waitForOperation(started.body.operation.id);
    assert.equal(op.status, 'succeeded', JSON.stringify(op.error));
    assert.ok(op.result.files.some((f: any) => f.path === 'model.safetensors'));
    const s3 = await sb.aws(['s3', 'ls', '--recursive', `s3://${bucket}/models/meta-llama/Llama-3.2-1B/main/`]);
    assert.match(s3.stdout, /model\.safetensors/);
    const secret = await kube.kubectl(['get', 'secret', input.tokenSecret], { allowFailure: true });
    assert.notEqual(secret.code, 0, 'the Secret is gone once the download ended');
    assert.match(secret.stderr, /NotFound/);

    const answers = [
      JSON.stringify(started.body),
      JSON.stringify(repeat.body),
      JSON.stringify((await server.api('GET', `/api/v1/operations/${op.id}`)).body),
      JSON.stringify((await server.api('GET', `/api/v1/operations/${op.id}/events`)).body),
      JSON.stringify((await server.api('GET', downloads)).body),
      JSON.stringify((await server.api('GET', '/api/v1/operations?kind=model-download')).body),
      (await kube.kubectl(['get', 'job', input.jobName, '-o', 'yaml'])).stdout,
      (await kube.kubectl(['logs', `job/${input.jobName}`])).stdout,
    ];
    for (const text of answers)
      assert.ok(!text.includes(SANDBOX_HF_TOKEN), `the token appears in: ${text.slice(0, 300)}`);
    assert.ok(serverLog.length > logStart, 'the server logged the requests');
    assert.ok(!serverLog.join('\n').includes(SANDBOX_HF_TOKEN), 'the token is not in the server log');
  });

  it('downloads through MCP: download_model names its status tool, list_model_downloads shows what landed; a gated model without token is refused naming token', async () => {
    const started = await call(mcp, 'download_model', {
      cluster: 'models',
      modelId: 'Qwen/Qwen2.5-0.5B-Instruct',
      revision: 'v1.0',
      storage: 'shared-s3',
      prefix: 'checkpoints/qwen-base',
    });
    assert.ok(!started.isError, started.text);
    const sc = started.structuredContent as any;
    assert.equal(sc.statusTool, 'wait_for_operation');
    assert.match(started.text, /wait_for_operation/);
    const waited = await call(mcp, 'wait_for_operation', { operationId: sc.operationId, timeoutSeconds: 120 });
    assert.match(waited.text, /SUCCEEDED/);
    const listedS3 = await sb.aws(['s3', 'ls', '--recursive', `s3://${bucket}/checkpoints/qwen-base/`]);
    assert.match(listedS3.stdout, /checkpoints\/qwen-base\/model\.safetensors/);
    assert.doesNotMatch(listedS3.stdout, /checkpoints\/qwen-base\/LICENSE/, 'the v1.0 tag has no LICENSE (main has)');

    const list = await call(mcp, 'list_model_downloads', { cluster: 'models' });
    assert.ok(!list.isError, list.text);
    assert.match(
      list.text,
      /Qwen\/Qwen2\.5-0\.5B-Instruct@v1\.0 → s3:\/\/[^ ]+\/checkpoints\/qwen-base\/ \(shared-s3\): succeeded; 8\/8 files/,
    );

    const gated = await call(mcp, 'download_model', {
      cluster: 'models',
      modelId: 'meta-llama/Llama-3.2-1B',
      storage: 'shared-s3',
    });
    assert.equal(gated.isError, true);
    assert.match(gated.text, /token/);
  });

  it("a Job that fails fails the operation with its pod's last log lines, and deletes the Secret: here the server reaches the Hub but the cluster does not", async () => {
    // The server's own HF_ENDPOINT (localhost) reaches the Hub simulation; pods are given the same
    // URL, which the sandbox's pods cannot reach (only the simulation's own address works there).
    const saved = process.env.HF_ENDPOINT!;
    const elsewhere = saved.replace('127.0.0.1', 'localhost');
    process.env.HF_ENDPOINT = elsewhere;
    const other = await startTestServer(sb, { speed: SPEED });
    try {
      // The server reads HF_ENDPOINT when its service is first used: by this request.
      const started = await other.api('POST', downloads, {
        modelId: 'sentence-transformers/all-MiniLM-L6-v2',
        storage: 'shared-s3',
        token: SANDBOX_HF_TOKEN,
      });
      process.env.HF_ENDPOINT = saved;
      assert.equal(started.status, 202, JSON.stringify(started.body));
      assert.equal(started.body.operation.input.hubEndpoint, elsewhere);
      const op = await other.waitForOperation(started.body.operation.id);
      assert.equal(op.status, 'failed');
      assert.equal(op.error.code, 'ModelDownloadFailed');
      assert.match(op.error.message, /BackoffLimitExceeded/);
      assert.match(op.error.message, /Its pod's last lines:[\s\S]*ConnectionError/);
      const secret = await kube.kubectl(['get', 'secret', started.body.operation.input.tokenSecret], {
        allowFailure: true,
      });
      assert.notEqual(secret.code, 0, 'the Secret is deleted when the download fails too');
      const listed = (await other.api('GET', downloads)).body.downloads.find((d: any) => d.operationId === op.id);
      assert.equal(listed.status, 'failed');
      assert.equal(listed.error.code, 'ModelDownloadFailed');
      assert.equal(listed.job.state, 'Failed', 'the Job as Kubernetes reports it');
      assert.equal(listed.progress, undefined);
    } finally {
      process.env.HF_ENDPOINT = saved;
      await other.close();
    }
  });
});
