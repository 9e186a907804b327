import assert from 'node:assert/strict';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { after, before, describe, it } from 'node:test';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import WebSocket from 'ws';
import { stringify } from 'yaml';
import { hyperpodPyTorchJobManifest } from '../../src/domain/kube/hyperpod-pytorch-job.js';
import { kubeAccess, type TestKubeCluster } from '../helpers/kube.js';
import type { TestSandbox } from '../helpers/sandbox.js';
import { startSandboxAndServer, stopAll, type TestServer } from '../helpers/server.js';
import { call } from '../mcp/client-helpers.js';

const SPEED = 600;
const CLUSTER = 'logs';
const logsPath = (job: string) => `/api/v1/clusters/${CLUSTER}/jobs/default/${job}/logs`;
const STEP = /step=(\d+) loss=/;

/** A two-rank HyperPodPyTorchJob on the cluster's CPU nodes, built by the domain's manifest builder; the sandbox's trainer prints a step every `stepSeconds`. */
function trainingJob(name: string, stepSeconds: string, steps = 0) {
  const template = {
    metadata: {
      annotations: {
        'sandbox.instantstart.dev/steps': String(steps),
        'sandbox.instantstart.dev/step-seconds': stepSeconds,
      },
    },
    spec: {
      containers: [
        {
          name: 'pytorch',
          image: '763104351884.dkr.ecr.us-west-2.amazonaws.com/pytorch-training:2.5.1-cpu-py311',
          command: ['hyperpodrun', '--nnodes=2', '--nproc-per-node=1', '/workspace/train.py'],
        },
      ],
    },
  };
  return hyperpodPyTorchJobManifest({
    name,
    namespace: 'default',
    labels: {},
    nprocPerNode: '1',
    replicaSpecs: [{ name: 'pod', replicas: 2, template }],
    runPolicy: {
      cleanPodPolicy: 'None',
      jobMaxRetryCount: 10,
      restartPolicy: { numRestartBeforeFullJobRestart: 5, evalPeriodSeconds: 3600, maxFullJobRestarts: 1 },
    },
  });
}

/** A follow WebSocket as a browser would hold it, keeping every message. */
class Follow {
  readonly messages: any[] = [];
  readonly closed: Promise<{ code: number; reason: string }>;
  bytes = 0;
  private constructor(readonly ws: WebSocket) {
    ws.on('message', (data) => {
      this.bytes += (data as Buffer).length;
      this.messages.push(JSON.parse(String(data)));
    });
    this.closed = new Promise((resolve) => ws.on('close', (code, reason) => resolve({ code, reason: String(reason) })));
  }

  static open(server: TestServer, job: string, query = ''): Promise<Follow> {
    const ws = new WebSocket(`${server.url.replace(/^http/, 'ws')}${logsPath(job)}/follow${query}`, {
      origin: server.url,
    });
    return new Promise((resolve, reject) => {
      ws.once('open', () => resolve(new Follow(ws)));
      ws.once('unexpected-response', (_req, res) => {
        let body = '';
        res.on('data', (c: Buffer) => (body += String(c)));
        res.on('end', () =>
          reject(
            Object.assign(new Error(`HTTP ${res.statusCode}`), {
              status: res.statusCode,
              body: body ? JSON.parse(body) : undefined,
            }),
          ),
        );
      });
      ws.once('error', reject);
    });
  }

  async waitFor(probe: (m: any[]) => boolean, what: string, ms = 60_000): Promise<void> {
    const deadline = Date.now() + ms;
    while (!probe(this.messages)) {
      if (Date.now() > deadline)
        throw new Error(`follow: timed out waiting for ${what}; got ${JSON.stringify(this.messages.slice(-5))}`);
      await new Promise((r) => setTimeout(r, 50));
    }
  }

  close(): void {
    this.ws.terminate();
  }
}

const stepsOf = (lines: Array<{ rank: number; text: string }>, rank: number) =>
  lines.filter((l) => l.rank === rank && STEP.test(l.text)).map((l) => Number(STEP.exec(l.text)![1]));

/**
 * Training job logs end to end on the sandbox: a two-rank HyperPodPyTorchJob (the training operator
 * turned on through the features API) whose simulated trainers print a step line at a steady pace.
 * The REST tail (merge, caps, grep, previous, download), the follow WebSocket (tail, then live lines,
 * a crashed rank's restart), MCP get_job_logs, and a client that stops reading being dropped.
 */
describe('training job logs: REST tail, WebSocket follow, MCP', () => {
  let sb: TestSandbox;
  let server: TestServer;
  let kube: TestKubeCluster;
  let mcp: Client;
  const sockets: Follow[] = [];
  const follow = async (job: string, query = '') => {
    const f = await Follow.open(server, job, query);
    sockets.push(f);
    return f;
  };
  const tail = (job: string, query = '') => server.api('GET', `${logsPath(job)}${query}`);
  const apply = (o: object) => kube.kubectl(['apply', '-f', '-'], { input: stringify(o) });

  before(async () => {
    ({ sb, server } = await startSandboxAndServer(SPEED));
    const created = await server.api('POST', '/api/v1/clusters', {
      name: CLUSTER,
      availabilityZone: 'us-west-2a',
      instanceType: 'ml.c5.xlarge',
      instanceCount: 1,
      storage: { s3: false },
    });
    assert.equal(created.status, 202, JSON.stringify(created.body));
    assert.equal((await server.waitForOperation(created.body.operation.id)).status, 'succeeded');
    // The training operator (a default feature of a new cluster): asked for all the same, as a user would.
    const features = await server.api('PATCH', `/api/v1/clusters/${CLUSTER}/features`, { 'training-operator': true });
    if (features.status === 202)
      assert.equal((await server.waitForOperation(features.body.operation.id)).status, 'succeeded');
    else assert.equal(features.body.noOp, true, JSON.stringify(features.body));
    kube = await kubeAccess(sb, `${CLUSTER}-eks`);
    // 30 s a step at SPEED 600: 20 lines a second per rank, steady, never ending.
    await apply(trainingJob('llama', '30'));
    // Thousands of lines a second per rank (the slow-client test): far more than a paused client's buffers hold. Lines
    // are
    // computed when read, so it costs nothing until then.
    await apply(trainingJob('flood', '0.01'));
    mcp = new Client({ name: 'e2e-training-logs', version: '1.0.0' });
    await mcp.connect(new StreamableHTTPClientTransport(new URL(`${server.url}/mcp`)));
    const deadline = Date.now() + 60_000;
    for (;;) {
      const r = await tail('llama');
      if (r.status === 200 && stepsOf(r.body.lines, 0).length >= 60 && stepsOf(r.body.lines, 1).length >= 60) break;
      if (Date.now() > deadline)
        throw new Error(`the job's ranks never printed steps: ${JSON.stringify(r.body).slice(0, 600)}`);
      await new Promise((r) => setTimeout(r, 200));
    }
  });
  after(async () => {
    for (const s of sockets) s.close();
    await stopAll(mcp, server, sb);
  });

  it('tails all ranks merged by time with their pods, one rank alone, capped by lines and bytes (truncated), and greps plain text', async () => {
    const all = await tail('llama', '?tailLines=20');
    assert.equal(all.status, 200, JSON.stringify(all.body));
    assert.deepEqual(all.body.ranks, [
      { rank: 0, pod: 'llama-pod-0' },
      { rank: 1, pod: 'llama-pod-1' },
    ]);
    assert.equal(all.body.lines.length, 40, '20 lines per rank');
    assert.equal(all.body.truncated, true, 'the ranks printed more than 20 lines');
    const times = all.body.lines.map((l: any) => Date.parse(l.time));
    assert.deepEqual(
      times,
      [...times].sort((a, b) => a - b),
      'merged oldest first',
    );
    assert.ok(all.body.lines.every((l: any) => l.pod === `llama-pod-${l.rank}`));
    for (const rank of [0, 1]) {
      const steps = stepsOf(all.body.lines, rank);
      assert.deepEqual(
        steps,
        steps.map((_, i) => steps[0]! + i),
        `rank ${rank}: consecutive steps, none lost in the merge`,
      );
    }

    const one = await tail('llama', '?rank=1&tailLines=5');
    assert.deepEqual([one.body.lines.length, new Set(one.body.lines.map((l: any) => l.rank))], [5, new Set([1])]);
    const small = await tail('llama', '?tailLines=10000&limitBytes=1024');
    const smallBytes = small.body.lines.reduce(
      (n: number, l: any) => n + Buffer.byteLength(`[rank ${l.rank}] ${l.text}\n`),
      0,
    );
    assert.ok(
      smallBytes <= 1024 && smallBytes > 512,
      `the whole answer (both ranks merged) fills limitBytes and no more: ${smallBytes} bytes`,
    );
    assert.deepEqual(
      new Set(small.body.lines.map((l: any) => l.rank)),
      new Set([0, 1]),
      'the newest lines of both ranks',
    );
    assert.equal(small.body.truncated, true);
    assert.ok(
      stepsOf(small.body.lines, 0).at(-1)! >= stepsOf(all.body.lines, 0).at(-1)!,
      'the newest lines are kept, the oldest dropped',
    );

    const grep = await tail('llama', `?grep=${encodeURIComponent('step=1 ')}`);
    assert.deepEqual(
      grep.body.lines.map((l: any) => [l.rank, STEP.exec(l.text)?.[1]]).sort(),
      [
        [0, '1'],
        [1, '1'],
      ],
      'only the lines containing the text, from each rank',
    );
    const dot = await tail('llama', `?grep=${encodeURIComponent('step=.')}`);
    assert.equal(dot.body.lines.length, 0, 'a dot is a dot: grep is not a regular expression');
  });

  it('refuses bad input naming the field (400) and a job that does not exist (404 naming it)', async () => {
    const missing = await tail('nope');
    assert.equal(missing.status, 404, JSON.stringify(missing.body));
    assert.match(missing.body.detail, /default\/nope/);
    for (const [query, field] of [
      ['?rank=first', 'rank'],
      ['?tailLines=0', 'tailLines'],
      ['?limitBytes=10', 'limitBytes'],
      ['?format=text&limitBytes=4096', 'limitBytes'],
      ['?rank=7', 'rank'],
      ['?color=red', 'color'],
    ] as const) {
      const r = await tail('llama', query);
      assert.equal(r.status, 400, `${query}: ${JSON.stringify(r.body)}`);
      assert.ok(
        r.body.errors.some((e: any) => e.path === field),
        `${query} names ${field}: ${JSON.stringify(r.body.errors)}`,
      );
    }
    const doc = (await server.api('GET', '/api/openapi.json')).body;
    const documented = doc.paths['/api/v1/clusters/{name}/jobs/{namespace}/{job}/logs'].get.parameters.map(
      (p: any) => p.name,
    );
    for (const name of ['rank', 'tailLines', 'sinceSeconds', 'limitBytes', 'grep', 'previous', 'format'])
      assert.ok(documented.includes(name), `OpenAPI documents ${name}`);
    assert.equal(
      (await server.api('GET', `${logsPath('llama')}/follow`)).status,
      426,
      'the follow path without an upgrade says it is a WebSocket',
    );
    const ws = await Follow.open(server, 'nope').then(
      () => undefined,
      (err) => err,
    );
    assert.equal(ws?.status, 404, 'the follow refuses before the upgrade');
    const previous = await Follow.open(server, 'llama', '?previous=true').then(
      () => undefined,
      (err) => err,
    );
    assert.equal(previous?.status, 400);
    assert.equal(previous.body.errors[0].path, 'previous');
  });

  it("downloads every rank's lines merged as [rank N] text, as an attachment", async () => {
    const res = await fetch(`${server.url}${logsPath('llama')}?format=text&tailLines=50`);
    assert.equal(res.status, 200);
    assert.match(res.headers.get('content-type') ?? '', /^text\/plain/);
    assert.match(res.headers.get('content-disposition') ?? '', /^attachment; filename="llama-all-ranks\.log"$/);
    const lines = (await res.text()).trimEnd().split('\n');
    assert.equal(lines.length, 100);
    assert.ok(
      lines.every((l) => /^\[rank [01]\] /.test(l)),
      lines.slice(0, 3).join('\n'),
    );
    assert.ok(lines.some((l) => l.startsWith('[rank 0] ')) && lines.some((l) => l.startsWith('[rank 1] ')));
  });

  it('follows over a WebSocket: the capped tail, tail-end, then new lines of every rank with nothing lost or repeated; grep applies', async () => {
    const f = await follow('llama', '?tailLines=5&grep=loss%3D');
    await f.waitFor((m) => m.some((x) => x.type === 'tail-end'), 'tail-end');
    const end = f.messages.findIndex((m) => m.type === 'tail-end');
    assert.equal(end, 10, 'five tail lines per rank come first');
    assert.deepEqual(f.messages[end].ranks, [
      { rank: 0, pod: 'llama-pod-0' },
      { rank: 1, pod: 'llama-pod-1' },
    ]);
    await f.waitFor(
      (m) => m.slice(end + 1).filter((x) => x.type === 'line' && x.rank === 1).length >= 10,
      'ten live lines of rank 1',
    );
    const lines = f.messages.filter((m) => m.type === 'line');
    assert.ok(
      lines.every((l) => l.text.includes('loss=')),
      'grep applies to the live lines too',
    );
    for (const rank of [0, 1]) {
      const steps = stepsOf(lines, rank);
      assert.deepEqual(
        steps,
        steps.map((_, i) => steps[0]! + i),
        `rank ${rank}: the live lines continue the tail exactly (${steps.join(',')})`,
      );
    }
    f.close();
  });

  it('a crashed rank: the follow says it ended and restarted, goes on with the new run, and previous=true reads the crashed run', async () => {
    const f = await follow('llama', '?rank=1&tailLines=1');
    await f.waitFor((m) => m.some((x) => x.type === 'tail-end'), 'tail-end');
    // A live line proves the follow is attached to the running container before it is crashed.
    await f.waitFor(
      (m) => m.slice(m.findIndex((x) => x.type === 'tail-end') + 1).some((x) => x.type === 'line'),
      'a live line',
    );
    const fault = await sb.admin(`/_sandbox/kube/${CLUSTER}-eks/faults/training`, {
      method: 'POST',
      body: { job: 'llama', rank: 1, kind: 'crash' },
    });
    assert.equal(fault.status, 201, JSON.stringify(fault.body));
    await f.waitFor((m) => m.some((x) => x.type === 'rank-started'), 'rank-started');
    const ended = f.messages.find((m) => m.type === 'rank-ended');
    assert.deepEqual([ended.rank, ended.pod], [1, 'llama-pod-1']);
    assert.match(ended.reason, /exit code|restarted/);
    const started = f.messages.findIndex((m) => m.type === 'rank-started');
    assert.deepEqual(f.messages[started], { type: 'rank-started', rank: 1, pod: 'llama-pod-1' });
    await f.waitFor(
      (m) => m.slice(started).some((x) => x.type === 'line' && STEP.test(x.text)),
      'a step of the new run',
    );
    const newRun = stepsOf(
      f.messages.slice(started).filter((x) => x.type === 'line'),
      1,
    );
    const oldRun = stepsOf(
      f.messages.slice(0, started).filter((x) => x.type === 'line'),
      1,
    );
    assert.ok(newRun[0]! < oldRun.at(-1)!, `the new run starts over (${newRun[0]} after ${oldRun.at(-1)})`);
    f.close();

    const previous = await tail('llama', '?rank=1&previous=true&tailLines=10000');
    assert.equal(previous.status, 200, JSON.stringify(previous.body));
    assert.ok(stepsOf(previous.body.lines, 1).at(-1)! >= oldRun.at(-1)!, "the crashed run's last steps");
    const both = await tail('llama', '?previous=true&tailLines=3');
    assert.deepEqual(
      both.body.ranks.find((r: any) => r.rank === 0),
      { rank: 0, pod: 'llama-pod-0', error: 'no previous run: the container has not restarted' },
    );
  });

  it('follows a job from its start: each rank starts (rank-started), prints its whole run once and ends (rank-ended, Completed)', async () => {
    await apply(trainingJob('short', '30', 3));
    const f = await follow('short');
    await f.waitFor((m) => m.filter((x) => x.type === 'rank-ended').length === 2, 'both ranks ended');
    const tailEnd = f.messages.find((m) => m.type === 'tail-end');
    for (const rank of [0, 1]) {
      // Its pod had not started when the follow opened (the usual case: rank-started), or had just (in the tail).
      const inTail = tailEnd.ranks.some((r: any) => r.rank === rank);
      const started = f.messages.findIndex((m) => m.type === 'rank-started' && m.rank === rank);
      assert.ok(
        inTail !== started >= 0,
        `rank ${rank} is followed once: ${JSON.stringify(f.messages.filter((m) => m.type !== 'line'))}`,
      );
      const lines = f.messages.filter((m) => m.type === 'line' && m.rank === rank);
      assert.deepEqual(stepsOf(lines, rank), [1, 2, 3], `rank ${rank}: every step of its run, once`);
      const ended = f.messages.findIndex((m) => m.type === 'rank-ended' && m.rank === rank);
      assert.ok(f.messages.indexOf(lines.at(-1)) < ended, 'its lines come before rank-ended');
      assert.match(f.messages[ended].reason, /Completed \(exit code 0\)/);
    }
    const full = await tail('short', '?tailLines=10000');
    assert.deepEqual(
      f.messages.filter((m) => m.type === 'line' && m.rank === 0).map((m) => m.text),
      full.body.lines.filter((l: any) => l.rank === 0).map((l: any) => l.text),
      'the follow showed exactly the log',
    );
  });

  it("reads a RayJob's ranks: the head is rank 0, the worker rank 1, the submitter (the driver's output) rank 2", async () => {
    const features = await server.api('PATCH', `/api/v1/clusters/${CLUSTER}/features`, { 'kuberay-operator': true });
    assert.equal(features.status, 202, JSON.stringify(features.body));
    assert.equal((await server.waitForOperation(features.body.operation.id)).status, 'succeeded');
    const image = 'verlai/verl:app-verl0.5-vllm0.9.1';
    const group = (name: string) => ({ rayStartParams: {}, template: { spec: { containers: [{ name, image }] } } });
    await apply({
      apiVersion: 'ray.io/v1',
      kind: 'RayJob',
      metadata: {
        name: 'grpo',
        namespace: 'default',
        annotations: { 'sandbox.instantstart.dev/steps': '0', 'sandbox.instantstart.dev/step-seconds': '30' },
      },
      spec: {
        entrypoint: 'python3 -m verl.trainer.main_ppo algorithm.adv_estimator=grpo trainer.nnodes=1',
        rayClusterSpec: {
          headGroupSpec: group('ray-head'),
          workerGroupSpecs: [{ groupName: 'cpu', replicas: 1, minReplicas: 1, maxReplicas: 1, ...group('ray-worker') }],
        },
      },
    });
    const deadline = Date.now() + 60_000;
    let r = await tail('grpo');
    while (
      !(
        r.status === 200 &&
        r.body.ranks.length === 3 &&
        r.body.ranks.every((x: any) => !x.error) &&
        [0, 1, 2].every((rank) => r.body.lines.some((l: any) => l.rank === rank))
      )
    ) {
      if (Date.now() > deadline)
        throw new Error(
          `the Ray cluster's pods and the submitter never printed: ${JSON.stringify(r.body).slice(0, 800)}`,
        );
      await new Promise((res) => setTimeout(res, 200));
      r = await tail('grpo');
    }
    const cluster = JSON.parse((await kube.kubectl(['get', 'rayjob', 'grpo', '-o', 'json'])).stdout).status
      .rayClusterName;
    const pods = JSON.parse(
      (await kube.kubectl(['get', 'pods', '-l', `ray.io/cluster=${cluster}`, '-o', 'json'])).stdout,
    ).items;
    const head = pods.find((p: any) => p.metadata.labels['ray.io/node-type'] === 'head').metadata.name;
    const worker = pods.find((p: any) => p.metadata.labels['ray.io/node-type'] === 'worker').metadata.name;
    const submitter = JSON.parse(
      (await kube.kubectl(['get', 'pods', '-l', 'batch.kubernetes.io/job-name=grpo', '-o', 'json'])).stdout,
    ).items[0].metadata.name;
    assert.deepEqual(r.body.ranks, [
      { rank: 0, pod: head },
      { rank: 1, pod: worker },
      { rank: 2, pod: submitter },
    ]);
    const headLog = (await kube.kubectl(['logs', head])).stdout.trimEnd().split('\n');
    assert.deepEqual(
      r.body.lines.filter((l: any) => l.rank === 0).map((l: any) => l.text),
      headLog.slice(-r.body.lines.filter((l: any) => l.rank === 0).length),
      "rank 0 is the head's log, as kubectl shows it",
    );
    const driver = r.body.lines.filter((l: any) => l.rank === 2).map((l: any) => l.text);
    assert.ok(
      driver.some((t: string) => /ray job submit|Job '.*' submitted|submission/i.test(t)),
      `rank 2 is the submitter's output: ${driver.slice(0, 5).join(' | ')}`,
    );
    const jobLog = (await kube.kubectl(['logs', 'job/grpo'])).stdout.trimEnd().split('\n');
    // kubectl reads later than the tail did: the tail is a stretch of the submitter's log as kubectl shows it.
    const at = jobLog.indexOf(driver[0]);
    assert.ok(at >= 0, `the first line of rank 2 is in kubectl logs job/grpo: ${driver[0]}`);
    assert.deepEqual(jobLog.slice(at, at + driver.length), driver, 'rank 2 is what kubectl logs job/<job> shows');
    const view = await server.api('GET', `/api/v1/clusters/${CLUSTER}/jobs/default/grpo`);
    assert.deepEqual(
      view.body.ranks.map((x: any) => [x.rank, x.role]),
      [
        [0, 'head'],
        [1, 'cpu'],
        [2, 'submitter'],
      ],
      'get_job lists the submitter as the last rank',
    );
  });

  it('answers get_job_logs over MCP with [rank N] lines, saying when it cut and how to see more', async () => {
    const r = await call(mcp, 'get_job_logs', { cluster: CLUSTER, namespace: 'default', job: 'llama', tailLines: 3 });
    assert.equal(r.isError, undefined, r.text);
    const body = r.text.split('\n');
    assert.match(body[0]!, /^6 line\(s\) of job llama \(all ranks\)/);
    assert.equal(body.filter((l: string) => /^\[rank 0\] /.test(l)).length, 3);
    assert.equal(body.filter((l: string) => /^\[rank 1\] /.test(l)).length, 3);
    assert.match(r.text, /truncated: .*tailLines=3.*format=text/s);
    // limitBytes also caps the whole answer (every rank merged) as sent: the newest lines that fit, each once, as text
    // only.
    const capped = await call(mcp, 'get_job_logs', {
      cluster: CLUSTER,
      namespace: 'default',
      job: 'llama',
      tailLines: 1000,
      limitBytes: 4096,
    });
    assert.equal(capped.structuredContent, undefined, 'the lines are not sent twice');
    const sent = Buffer.byteLength(JSON.stringify({ content: capped.content }));
    assert.ok(sent <= 4096, `the whole answer fits limitBytes: ${sent} bytes`);
    assert.match(capped.text, /truncated: /);
    const kept = capped.text
      .split('\n')
      .flatMap((l) => ((m) => (m ? [{ rank: Number(m[1]), text: m[2]! }] : []))(/^\[rank (\d+)\] (.*)$/.exec(l)));
    const keptBytes = kept.reduce((n, l) => n + Buffer.byteLength(`[rank ${l.rank}] ${l.text}\n`), 0);
    assert.ok(
      keptBytes > 3072,
      `the lines kept fill what the cap leaves beside the head and the notes: ${keptBytes} bytes in ${kept.length} lines`,
    );
    const full = (await tail('llama', '?tailLines=1000')).body.lines as Array<{ rank: number; text: string }>;
    // Read after it, the REST tail holds each rank's kept lines as one stretch of that rank's log, with older lines
    // before it: the newest were kept. (Per rank: the ranks of a running job are read at slightly different moments,
    // so a later read may put a rank's newer line between two kept lines of the merge.)
    for (const rank of [0, 1]) {
      const ofRank = (lines: Array<{ rank: number; text: string }>) =>
        lines.filter((l) => l.rank === rank).map((l) => l.text);
      const keptOf = ofRank(kept);
      const fullOf = ofRank(full);
      const at = fullOf.indexOf(keptOf[0]!);
      assert.ok(at > 0, `rank ${rank}: its first kept line is in the REST tail, after older lines that were dropped`);
      assert.deepEqual(
        fullOf.slice(at, at + keptOf.length),
        keptOf,
        `rank ${rank}: the kept lines are one stretch of its log`,
      );
    }
    assert.ok(new Set(kept.map((l) => l.rank)).size === 2, "both ranks' newest lines are in it");
    const grep = await call(mcp, 'get_job_logs', {
      cluster: CLUSTER,
      namespace: 'default',
      job: 'llama',
      rank: 0,
      grep: 'NCCL',
      tailLines: 1000,
    });
    assert.ok(
      grep.text
        .split('\n')
        .slice(1)
        .every((l: string) => l.startsWith('[rank 0] ') && l.includes('NCCL')),
      grep.text,
    );
    const missing = await call(mcp, 'get_job_logs', { cluster: CLUSTER, namespace: 'default', job: 'nope' });
    assert.equal(missing.isError, true);
    assert.match(missing.text, /default\/nope/);
  });

  it('waits for a job over MCP: wait_for_job until Running at once, until Succeeded for a short one, with progress', async () => {
    const running = await call(mcp, 'wait_for_job', { cluster: CLUSTER, namespace: 'default', job: 'llama' });
    assert.equal(running.isError, undefined, running.text);
    assert.deepEqual(
      [(running.structuredContent as any).reached, (running.structuredContent as any).phase],
      [true, 'Running'],
    );
    await apply(trainingJob('waited', '150', 20));
    const progress: string[] = [];
    const done = await mcp.callTool(
      {
        name: 'wait_for_job',
        arguments: {
          cluster: CLUSTER,
          namespace: 'default',
          job: 'waited',
          until: ['Succeeded', 'Failed'],
          timeoutSeconds: 120,
        },
      },
      undefined,
      { onprogress: (p) => progress.push(p.message ?? ''), timeout: 180_000 },
    );
    const data = done.structuredContent as any;
    assert.deepEqual([data.reached, data.phase], [true, 'Succeeded'], JSON.stringify(done.content));
    assert.ok(
      progress.some((m) => /job default\/waited is (Pending|Running)/.test(m)),
      `progress while it waited: ${JSON.stringify(progress)}`,
    );
  });

  it("drops a client that stops reading (dropped, then closed) and the server's memory stays flat", async (t) => {
    const t0 = Date.now();
    const deadline = Date.now() + 60_000;
    while (!(await tail('flood', '?tailLines=1')).body.lines?.some((l: any) => STEP.test(l.text))) {
      if (Date.now() > deadline) throw new Error('the flood job never printed');
      await new Promise((r) => setTimeout(r, 200));
    }
    const started = Date.now() - t0;
    setFlagsFromString('--expose-gc');
    const gc = runInNewContext('gc') as () => void;
    gc();
    const heapBefore = process.memoryUsage().heapUsed;
    const f = await follow('flood', '?tailLines=1');
    // The client stops reading: its socket is paused, so the TCP window fills and the server's send buffer grows.
    (f.ws as unknown as { _socket: import('node:net').Socket })._socket.pause();
    // What the server keeps, not what the collector has yet to reclaim: each sample follows a full collection, so
    // buffered data (held) counts and garbage (how lazily a loaded machine collects) does not.
    let peak = heapBefore;
    const sampler = setInterval(() => {
      gc();
      peak = Math.max(peak, process.memoryUsage().heapUsed);
    }, 250);
    // Longer than a moment: the close frame waits behind what the client has not read, and a client that reads again
    // seconds later still gets `dropped` and close 4008 as documented (it once got 1006: the socket was cut after 5 s).
    await new Promise((r) => setTimeout(r, 8000));
    clearInterval(sampler);
    (f.ws as unknown as { _socket: import('node:net').Socket })._socket.resume();
    const closed = await f.closed;
    assert.equal(closed.code, 4008, `closed as dropped: ${JSON.stringify(closed)}`);
    assert.equal(f.messages.at(-1).type, 'dropped');
    assert.match(f.messages.at(-1).reason, /did not keep up/);
    assert.ok(
      f.bytes < 32 * 1024 * 1024,
      `what reached the client is bounded (${f.bytes} bytes): the server stopped sending`,
    );
    gc();
    const heapAfter = process.memoryUsage().heapUsed;
    const mib = (n: number) => (n / 1048576).toFixed(1);
    t.diagnostic(
      `flood running after ${started} ms; heap held +${mib(peak - heapBefore)} MiB at the peak, +${mib(heapAfter - heapBefore)} MiB after the drop; the client got ${mib(f.bytes)} MiB, then dropped; ${Date.now() - t0} ms in all`,
    );
    assert.ok(
      peak - heapBefore < 96 * 1024 * 1024,
      `no unbounded buffering while the client stalled: heap +${Math.round((peak - heapBefore) / 1048576)} MiB at the peak`,
    );
    assert.ok(
      heapAfter - heapBefore < 32 * 1024 * 1024,
      `nothing kept after the drop: heap +${Math.round((heapAfter - heapBefore) / 1048576)} MiB`,
    );
  });
});
