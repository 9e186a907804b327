import assert from 'node:assert/strict';
import { after, before, beforeEach, describe, it } from 'node:test';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import type { CallToolResult, Progress } from '@modelcontextprotocol/sdk/types.js';
import type { MlflowTrackingServerView } from '../../src/domain/schemas/mlflow.js';
import type { TrainingJobView, TrainingLogsAnswer } from '../../src/domain/schemas/training.js';
import { createMcpServer } from '../../src/mcp/server.js';
import { startFakeRest, type FakeRest } from './fake-rest.js';

const JOB_PATH = '/api/v1/clusters/demo/jobs/default/llama';
const SERVER_PATH = '/api/v1/mlflow/tracking-servers/team';

function jobView(phase: TrainingJobView['phase'], extra: Partial<TrainingJobView> = {}): TrainingJobView {
  return {
    name: 'llama',
    namespace: 'default',
    kind: 'HyperPodPyTorchJob',
    nodes: 2,
    phase,
    recovery: { exhausted: false },
    health: { state: phase === 'Running' ? 'healthy' : 'transitional', code: phase, reason: phase },
    ranks: [],
    conditions: [],
    paths: { checkpoints: '/data/checkpoints/llama', outputs: '/data/outputs/llama' },
    ...extra,
  };
}

function mlflowServer(status: string): MlflowTrackingServerView {
  return {
    name: 'team',
    arn: 'arn:aws:sagemaker:us-west-2:000000000000:mlflow-tracking-server/team',
    status,
    ready: status === 'Created',
    isActive: 'Active',
  };
}

/** Answers the routes' bodies in turn, repeating the last. */
const sequence = <T>(...bodies: T[]) => {
  let i = 0;
  return () => ({ body: bodies[Math.min(i++, bodies.length - 1)] });
};

/**
 * The wait tools an agent calls after submit_training_job and create_mlflow_server (issue 26): they
 * read REST until the job or server gets where the agent waits for it, with progress while they
 * wait, bounded by timeoutSeconds; and get_job_logs answers each line once, within its cap.
 */
describe('MCP wait_for_job, wait_for_mlflow_server and get_job_logs', () => {
  let rest: FakeRest;
  let client: Client;

  const callWithProgress = async (name: string, args: Record<string, unknown>) => {
    const progress: Progress[] = [];
    const result = (await client.callTool({ name, arguments: args }, undefined, {
      onprogress: (p) => progress.push(p),
      timeout: 60_000,
    })) as CallToolResult;
    const text = result.content.map((c) => (c.type === 'text' ? c.text : '')).join('\n');
    return { result, text, data: result.structuredContent as Record<string, any>, progress };
  };

  before(async () => {
    rest = await startFakeRest();
    const server = createMcpServer({ baseUrl: rest.url });
    const [a, b] = InMemoryTransport.createLinkedPair();
    client = new Client({ name: 'test', version: '1.0.0' });
    await Promise.all([server.connect(a), client.connect(b)]);
  });
  after(async () => {
    await client.close();
    await rest.close();
  });
  beforeEach(() => {
    rest.requests.length = 0;
    rest.routes.clear();
  });

  it('wait_for_job reads the job until it is Running, sending progress meanwhile', async () => {
    rest.routes.set(
      `GET ${JOB_PATH}`,
      sequence(jobView('Pending', { pending: 'waiting for a node' }), jobView('Pending'), jobView('Running')),
    );
    const { result, text, data, progress } = await callWithProgress('wait_for_job', { cluster: 'demo', job: 'llama' });
    assert.equal(result.isError, undefined, text);
    assert.equal(rest.requests.length, 3, 'read until Running, then no more');
    assert.equal(data.reached, true);
    assert.equal(data.phase, 'Running');
    assert.match(text, /^Reached Running after \d+ s\./);
    assert.equal(progress.length, 2, 'one progress notification per read that found it not there yet');
    assert.match(progress[0]!.message ?? '', /job default\/llama is Pending \(waiting for a node\)/);
  });

  it('wait_for_job ends on Failed whatever it waited for, and names get_job_logs', async () => {
    rest.routes.set(
      `GET ${JOB_PATH}`,
      sequence(jobView('Running'), jobView('Failed', { reason: 'BackoffLimitExceeded' })),
    );
    const { text, data } = await callWithProgress('wait_for_job', {
      cluster: 'demo',
      job: 'llama',
      until: ['Succeeded'],
    });
    assert.equal(data.reached, false);
    assert.equal(data.phase, 'Failed');
    assert.equal(data.next.tool, 'get_job_logs');
    assert.match(text, /ended Failed without reaching Succeeded/);
  });

  it('wait_for_job stops at timeoutSeconds and says to call it again', async () => {
    rest.routes.set(`GET ${JOB_PATH}`, sequence(jobView('Pending')));
    const started = Date.now();
    const { text, data } = await callWithProgress('wait_for_job', { cluster: 'demo', job: 'llama', timeoutSeconds: 2 });
    const took = Date.now() - started;
    assert.ok(took >= 1900 && took < 6000, `bounded by timeoutSeconds: took ${took} ms`);
    assert.equal(data.reached, false);
    assert.deepEqual(data.next, {
      tool: 'wait_for_job',
      arguments: { cluster: 'demo', namespace: 'default', job: 'llama', until: ['Running', 'Succeeded', 'Failed'] },
    });
    assert.match(text, /NOT there yet: Pending/);
  });

  it('wait_for_mlflow_server waits through Creating to Created, and through Deleting until it is gone', async () => {
    rest.routes.set(
      `GET ${SERVER_PATH}`,
      sequence(mlflowServer('Creating'), mlflowServer('Creating'), mlflowServer('Created')),
    );
    const created = await callWithProgress('wait_for_mlflow_server', { server: 'team' });
    assert.equal(created.result.isError, undefined, created.text);
    assert.deepEqual([created.data.settled, created.data.status, created.data.ready], [true, 'Created', true]);
    assert.match(created.text, /Created: ready/);
    assert.ok(created.progress.some((p) => /team is Creating/.test(p.message ?? '')));

    let reads = 0;
    rest.routes.set(`GET ${SERVER_PATH}`, () =>
      reads++ === 0
        ? { body: mlflowServer('Deleting') }
        : {
            status: 404,
            contentType: 'application/problem+json',
            body: { title: 'Not Found', status: 404, detail: 'no server team' },
          },
    );
    const deleted = await callWithProgress('wait_for_mlflow_server', { server: 'team' });
    assert.deepEqual([deleted.data.settled, deleted.data.gone], [true, true]);

    rest.routes.set(`GET ${SERVER_PATH}`, sequence(mlflowServer('CreateFailed')));
    rest.requests.length = 0;
    const failed = await callWithProgress('wait_for_mlflow_server', { server: 'team' });
    assert.deepEqual(
      [failed.data.settled, failed.data.ready, failed.data.next.tool],
      [true, false, 'list_mlflow_servers'],
    );
    assert.equal(rest.requests.length, 1, 'a failed create is settled at the first read');

    rest.routes.clear();
    const unknown = await callWithProgress('wait_for_mlflow_server', { server: 'team' });
    assert.equal(unknown.result.isError, true, 'a server never seen is a 404, not "gone"');
  });

  it('submit_training_job and create_mlflow_server name their wait tool as the next call', async () => {
    rest.routes.set('POST /api/v1/clusters/demo/jobs', () => ({ status: 201, body: { job: jobView('Pending') } }));
    const submitted = await callWithProgress('submit_training_job', {
      cluster: 'demo',
      job: 'llama',
      group: 'gpu',
      storage: 'shared-s3',
      recipe: 'pytorch-script',
      params: { script: '/data/train.py' },
    });
    assert.equal(submitted.result.isError, undefined, submitted.text);
    assert.deepEqual(submitted.data.next, {
      tool: 'wait_for_job',
      arguments: { cluster: 'demo', namespace: 'default', job: 'llama' },
    });
    assert.match(submitted.text, /NOT running yet until wait_for_job/);

    rest.routes.set('POST /api/v1/mlflow/tracking-servers', () => ({ status: 201, body: mlflowServer('Creating') }));
    const created = await callWithProgress('create_mlflow_server', {
      server: 'team',
      artifactStoreUri: 's3://bucket/mlflow',
    });
    assert.equal(created.result.isError, undefined, created.text);
    assert.deepEqual(created.data.next, { tool: 'wait_for_mlflow_server', arguments: { server: 'team' } });
    assert.match(created.text, /wait_for_mlflow_server/);
  });

  it('get_job_logs sends each line once (text, no structured copy) and the whole answer within its 64 KiB cap', async () => {
    // What the REST tail answers at its cap: 64 KiB of `[rank N] …` lines — with quotes, which JSON escapes.
    const lines: TrainingLogsAnswer['lines'] = [];
    for (let bytes = 0, i = 0; ; i++) {
      const text = `step=${i} loss=1.${i} msg="a quoted \\ value" ${'x'.repeat(40)}`;
      const size = Buffer.byteLength(`[rank ${i % 2}] ${text}\n`);
      if (bytes + size > 64 * 1024) break;
      bytes += size;
      lines.push({ rank: i % 2, pod: `llama-pod-${i % 2}`, time: new Date(1_700_000_000_000 + i).toISOString(), text });
    }
    const answer: TrainingLogsAnswer = {
      job: 'llama',
      lines,
      truncated: true,
      ranks: [
        { rank: 0, pod: 'llama-pod-0' },
        { rank: 1, pod: 'llama-pod-1' },
      ],
    };
    rest.routes.set(`GET ${JOB_PATH}/logs`, () => ({ body: answer }));
    const { result, text } = await callWithProgress('get_job_logs', { cluster: 'demo', job: 'llama' });
    assert.equal(result.isError, undefined, text);
    assert.equal(result.structuredContent, undefined, 'the lines are not sent a second time as structured content');
    const sent = Buffer.byteLength(JSON.stringify({ jsonrpc: '2.0', id: 1, result }));
    assert.ok(sent <= 64 * 1024, `the whole answer fits 64 KiB: ${sent} bytes`);
    const shown = text.split('\n').filter((l) => l.startsWith('[rank '));
    assert.ok(shown.length > lines.length * 0.8, `most lines are kept: ${shown.length} of ${lines.length}`);
    assert.equal(new Set(shown).size, shown.length, 'each line once');
    assert.equal(
      shown.at(-1),
      `[rank ${lines.at(-1)!.rank}] ${lines.at(-1)!.text}`,
      'the newest line is kept; older ones go first',
    );
    assert.match(text.split('\n')[0]!, new RegExp(`^${shown.length} line\\(s\\) of job llama`));
    assert.match(text, /truncated: /);
  });
});
