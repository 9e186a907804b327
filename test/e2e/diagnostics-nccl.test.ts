import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { DiagnosisSchema, type Diagnosis } from '../../src/domain/schemas/diagnostics.js';
import type { TestSandbox } from '../helpers/sandbox.js';
import { startSandboxAndServer, stopAll, type TestServer } from '../helpers/server.js';
import { call } from '../mcp/client-helpers.js';

const SPEED = 600;
/** While the job runs (~1000 sandbox seconds) the clock slows, so that the fault hits a running rank. */
const RUN_SPEED = 40;
const CLUSTER = 'nccl';
const JOBS = `/api/v1/clusters/${CLUSTER}/jobs`;
const NCCL = (ns: string, job: string) => `/api/v1/clusters/${CLUSTER}/diagnostics/jobs/${ns}/${job}/nccl`;

/** Polls (real time) until `probe` gives a value. */
async function until<T>(probe: () => Promise<T | undefined | false>, what: string, seconds = 90): Promise<T> {
  const end = Date.now() + seconds * 1000;
  while (Date.now() < end) {
    const v = await probe().catch(() => undefined);
    if (v) return v;
    await new Promise((r) => setTimeout(r, 300));
  }
  throw new Error(`timed out waiting for ${what}`);
}

/**
 * diagnose_nccl end to end: a two-node GPU job submitted through REST (ml.g5.xlarge: no EFA settings), a staged NCCL
 * timeout (every rank's watchdog aborts it), then the diagnosis over REST and MCP names `nccl-timeout` with the
 * rank's log line as evidence — and the sandbox's call log shows no mutating call (AWS or Kubernetes) during it.
 */
describe('diagnose_nccl: a staged NCCL timeout is named, read-only (REST and MCP)', () => {
  let sb: TestSandbox;
  let server: TestServer;
  let mcp: Client;
  const clock = (speed: number) => sb.admin('/_sandbox/clock', { method: 'POST', body: { speed } });

  before(async () => {
    ({ sb, server } = await startSandboxAndServer(SPEED));
    mcp = new Client({ name: 'e2e-diagnostics-nccl', version: '1.0.0' });
    await mcp.connect(new StreamableHTTPClientTransport(new URL(`${server.url}/mcp`)));
    const created = await server.api('POST', '/api/v1/clusters', {
      name: CLUSTER,
      availabilityZone: 'us-west-2b',
      instanceType: 'ml.g5.xlarge',
      instanceCount: 2,
      storage: { s3: true },
    });
    assert.equal(created.status, 202, JSON.stringify(created.body));
    const op = await server.waitForOperation(created.body.operation.id);
    assert.equal(op.status, 'succeeded', JSON.stringify(op.error ?? op.phases));
  });
  after(() => stopAll(mcp, server, sb));

  it('names the timeout from the ranks’ logs, with the same findings on both faces and no mutating call', async () => {
    const group = (await server.api('GET', `/api/v1/clusters/${CLUSTER}`)).body.instanceGroups[0].name;
    await clock(RUN_SPEED);
    const submitted = await server.api('POST', JOBS, {
      name: 'allreduce',
      recipe: 'pytorch-script',
      params: { script: '/data/code/train.py', scriptArgs: ['--epochs', '1'] },
      instanceGroup: group,
      storage: 'shared-s3',
      nodes: 2,
      faultTolerance: { jobMaxRetryCount: 3 },
    });
    assert.equal(submitted.status, 201, JSON.stringify(submitted.body));
    await until(
      async () => (await server.api('GET', `${JOBS}/default/allreduce`)).body.phase === 'Running',
      'the job Running',
    );
    // Stop the clock (nearly) on a whole second before staging the fault: a container's finishedAt has whole seconds
    // (RFC 3339 as the kubelet writes it), and the sandbox cuts a run's log at its finishedAt, so a watchdog abort at
    // x.5 s would lose its own lines (reported; see the sandbox note in the report).
    await clock(0.000001);
    const now = Date.parse((await sb.admin('/_sandbox/clock', { method: 'GET' })).body.now);
    if (now % 1000) await sb.advance((1000 - (now % 1000)) / 1000);
    const fault = await sb.admin(`/_sandbox/kube/${CLUSTER}-eks/faults/training`, {
      method: 'POST',
      body: { job: 'allreduce', rank: 1, kind: 'nccl-timeout', timeoutSeconds: 30 },
    });
    assert.equal(fault.status, 201, JSON.stringify(fault.body));
    await sb.advance(35); // past the process group's timeout: each rank's watchdog aborts

    const mark = (await sb.calls()).at(-1)?.seq ?? 0;
    let last: unknown;
    const viaRest = await until(
      async () => {
        const r = await server.api('GET', NCCL('default', 'allreduce'));
        last = r.body;
        assert.equal(r.status, 200, JSON.stringify(r.body));
        const d = DiagnosisSchema.parse(r.body);
        return d.findings.some((f) => f.code === 'nccl-timeout') ? d : undefined;
      },
      'nccl-timeout in the diagnosis',
      30,
    ).catch((err) => {
      throw new Error(`${err.message}; the last answer: ${JSON.stringify(last).slice(0, 3000)}`);
    });
    const viaMcp = await call(mcp, 'diagnose_nccl', { cluster: CLUSTER, job: 'allreduce' });
    assert.equal(viaMcp.isError, undefined, viaMcp.text);
    const structured: Diagnosis = DiagnosisSchema.parse(viaMcp.structuredContent);
    const mutating = await sb.calls({ mutating: true, after: mark });
    assert.deepEqual(
      mutating.map((c) => `${c.service} ${c.operation} ${c.subject ?? ''}`),
      [],
      'no mutating call during diagnose_nccl',
    );

    assert.deepEqual(viaRest.subject, {
      kind: 'nccl',
      cluster: CLUSTER,
      region: viaRest.subject.region,
      id: 'default/allreduce',
    });
    assert.equal(viaRest.readOnly, true);
    const timeout = viaRest.findings.find((f) => f.code === 'nccl-timeout')!;
    assert.equal(timeout.severity, 'critical');
    assert.ok(
      timeout.evidence.some((e) => /Watchdog caught collective operation timeout/.test(e.detail)),
      JSON.stringify(timeout.evidence),
    );
    assert.match(viaRest.summary, /default\/allreduce/);
    assert.ok(
      structured.findings.some((f) => f.code === 'nccl-timeout'),
      'MCP names it too',
    );
    assert.match(viaMcp.text, /\[critical\] nccl-timeout/);
    assert.match(viaMcp.text, /Suggested \(not run/);
    assert.ok(
      viaRest.suggestions.some((s) => s.command.startsWith('get_job_logs ') && !s.mutating),
      'the previous run’s NCCL lines are suggested as a read',
    );
  });

  it('answers 404 for a job that does not exist and 400 naming a bad namespace, reading only', async () => {
    const mark = (await sb.calls()).at(-1)?.seq ?? 0;
    const missing = await server.api('GET', NCCL('default', 'no-such-job'));
    assert.equal(missing.status, 404, JSON.stringify(missing.body));
    assert.match(JSON.stringify(missing.body), /no-such-job/);
    const bad = await server.api('GET', NCCL('Bad_NS', 'allreduce'));
    assert.equal(bad.status, 400, JSON.stringify(bad.body));
    assert.equal(bad.body.errors[0].path, 'namespace');
    const viaMcp = await call(mcp, 'diagnose_nccl', { cluster: CLUSTER, job: 'no-such-job' });
    assert.equal(viaMcp.isError, true);
    assert.deepEqual(await sb.calls({ mutating: true, after: mark }), []);
  });
});
