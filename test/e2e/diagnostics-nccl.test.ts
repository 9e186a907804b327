import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { DiagnosisSchema, type Diagnosis } from '../../src/domain/schemas/diagnostics.js';
import { createGpuCluster, jobWithNcclTimeout, until } from '../helpers/nccl-job.js';
import { callMark, mutatingSince } from '../helpers/call-log.js';
import type { TestSandbox } from '../helpers/sandbox.js';
import { startSandboxAndServer, stopAll, type TestServer } from '../helpers/server.js';
import { call } from '../mcp/client-helpers.js';

const SPEED = 600;
const CLUSTER = 'nccl';
const NCCL = (ns: string, job: string) => `/api/v1/clusters/${CLUSTER}/diagnostics/jobs/${ns}/${job}/nccl`;

/**
 * diagnose_nccl end to end: a two-node GPU job submitted through REST (ml.g5.xlarge: no EFA settings), a staged NCCL
 * timeout (every rank's watchdog aborts it), then the diagnosis over REST and MCP names `nccl-timeout` with the
 * rank's log line as evidence — and the sandbox's call log shows no mutating call (AWS or Kubernetes) during it.
 */
describe('diagnose_nccl: a staged NCCL timeout is named, read-only (REST and MCP)', () => {
  let sb: TestSandbox;
  let server: TestServer;
  let mcp: Client;

  before(async () => {
    ({ sb, server } = await startSandboxAndServer(SPEED));
    mcp = new Client({ name: 'e2e-diagnostics-nccl', version: '1.0.0' });
    await mcp.connect(new StreamableHTTPClientTransport(new URL(`${server.url}/mcp`)));
    await createGpuCluster(server, CLUSTER);
  });
  after(() => stopAll(mcp, server, sb));

  it('names the timeout from the ranks’ logs, with the same findings on both faces and no mutating call', async () => {
    await jobWithNcclTimeout(sb, server, CLUSTER, 'allreduce');

    const mark = await callMark(sb);
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
    assert.deepEqual(await mutatingSince(sb, mark), [], 'no mutating call during diagnose_nccl');

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
    const mark = await callMark(sb);
    const missing = await server.api('GET', NCCL('default', 'no-such-job'));
    assert.equal(missing.status, 404, JSON.stringify(missing.body));
    assert.match(JSON.stringify(missing.body), /no-such-job/);
    const bad = await server.api('GET', NCCL('Bad_NS', 'allreduce'));
    assert.equal(bad.status, 400, JSON.stringify(bad.body));
    assert.equal(bad.body.errors[0].path, 'namespace');
    const viaMcp = await call(mcp, 'diagnose_nccl', { cluster: CLUSTER, job: 'no-such-job' });
    assert.equal(viaMcp.isError, true);
    assert.deepEqual(await mutatingSince(sb, mark), []);
  });
});
