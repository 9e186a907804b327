import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { DiagnosisSchema, type Diagnosis } from '../../src/domain/schemas/diagnostics.js';
import { callMark, mutatingSince } from '../helpers/call-log.js';
import type { TestSandbox } from '../helpers/sandbox.js';
import { startSandboxAndServer, stopAll, type TestServer } from '../helpers/server.js';
import { call } from '../mcp/client-helpers.js';

const SPEED = 600;
const create = (name: string, zone: string, instanceType: string) => ({
  name,
  availabilityZone: zone,
  instanceType,
  instanceCount: 1,
  storage: { s3: false },
});

/** Polls (real time; the sandbox runs at SPEED) until `probe` gives a value. */
async function until<T>(probe: () => Promise<T | undefined | false>, what: string, seconds = 60): Promise<T> {
  const end = Date.now() + seconds * 1000;
  while (Date.now() < end) {
    const v = await probe().catch(() => undefined);
    if (v) return v;
    await new Promise((r) => setTimeout(r, 300));
  }
  throw new Error(`timed out waiting for ${what}`);
}

describe('diagnostics: each staged fault is named by its finding, suggested and not acted on (REST and MCP)', () => {
  let sb: TestSandbox;
  let server: TestServer;
  let mcp: Client;
  const failed: Record<string, string> = {};
  let nodeId = '';

  /** The diagnosis over REST and over MCP, checking that neither made a mutating call (AWS or Kubernetes). */
  async function diagnose(path: string, tool: string, args: Record<string, unknown>): Promise<Diagnosis> {
    const mark = await callMark(sb);
    const r = await server.api('GET', path);
    assert.equal(r.status, 200, JSON.stringify(r.body));
    const viaRest = DiagnosisSchema.parse(r.body);
    const viaMcp = await call(mcp, tool, args);
    assert.equal(viaMcp.isError, undefined, viaMcp.text);
    const structured = DiagnosisSchema.parse(viaMcp.structuredContent);
    assert.deepEqual(
      structured.findings.map((f) => f.code),
      viaRest.findings.map((f) => f.code),
      'the same diagnosis on both faces',
    );
    assert.deepEqual(await mutatingSince(sb, mark), [], `no mutating call during ${tool}`);
    assert.equal(viaRest.readOnly, true);
    assert.match(viaMcp.text, /Suggested \(not run/);
    return viaRest;
  }

  const critical = (d: Diagnosis) => d.findings.find((f) => f.severity === 'critical');

  before(async () => {
    ({ sb, server } = await startSandboxAndServer(SPEED));
    mcp = new Client({ name: 'e2e-diagnostics', version: '1.0.0' });
    await mcp.connect(new StreamableHTTPClientTransport(new URL(`${server.url}/mcp`)));

    // Quota: AWS refuses CreateCluster as it does when another create took the quota after the preflight (the error
    // fault is not per name, so this create runs alone).
    const quota = await sb.admin('/_sandbox/faults', {
      method: 'POST',
      body: {
        type: 'error',
        service: 'sagemaker',
        operation: 'CreateCluster',
        code: 'ResourceLimitExceeded',
        status: 400,
        message:
          "The account-level service limit 'ml.c5.xlarge for cluster usage' is 10 Instances, with current utilization of 10 Instances and a request delta of 1 Instances. Please use AWS Service Quotas to request an increase for this quota.",
        count: 1,
      },
    });
    assert.equal(quota.status, 201, JSON.stringify(quota.body));
    const q = await server.api('POST', '/api/v1/clusters', create('quota', 'us-west-2b', 'ml.c5.xlarge'));
    assert.equal(q.status, 202, JSON.stringify(q.body));
    assert.equal((await server.waitForOperation(q.body.operation.id)).status, 'failed');
    failed.quota = q.body.operation.id;

    // Capacity (no ml.c5.2xlarge left in us-west-2c), a HyperPod create that fails, and a healthy cluster, side by side.
    for (const body of [
      { type: 'insufficient-capacity', availabilityZone: 'us-west-2c', instanceType: 'ml.c5.2xlarge', available: 0 },
      {
        type: 'create-failure',
        service: 'sagemaker',
        name: 'flaky',
        message: 'Lifecycle script on_create.sh exited 1',
      },
    ]) {
      const r = await sb.admin('/_sandbox/faults', { method: 'POST', body });
      assert.equal(r.status, 201, JSON.stringify(r.body));
    }
    const started = await Promise.all(
      [
        create('starved', 'us-west-2c', 'ml.c5.2xlarge'),
        create('flaky', 'us-west-2b', 'ml.c5.xlarge'),
        create('steady', 'us-west-2b', 'ml.c5.xlarge'),
      ].map((b) => server.api('POST', '/api/v1/clusters', b)),
    );
    for (const s of started) assert.equal(s.status, 202, JSON.stringify(s.body));
    const ends = await Promise.all(started.map((s) => server.waitForOperation(s.body.operation.id)));
    assert.deepEqual(
      ends.map((e) => e.status),
      ['failed', 'failed', 'succeeded'],
    );
    failed.starved = ends[0].id;
    failed.flaky = ends[1].id;
    // Manual recovery, so the fault stays for the diagnosis (HyperPod would heal it within a minute of sandbox time).
    await sb.aws(['sagemaker', 'update-cluster', '--cluster-name', 'steady', '--node-recovery', 'None']);
    await until(async () => {
      const c = await sb.aws(['sagemaker', 'describe-cluster', '--cluster-name', 'steady']);
      return c.json.NodeRecovery === 'None' && c.json.ClusterStatus === 'InService';
    }, 'node recovery None in service');
    const nodes = await until(async () => {
      const r = await server.api('GET', '/api/v1/clusters/steady/nodes');
      return r.body.counts?.healthy === 1 && r.body.nodes[0].instanceStatus.status === 'Running' && r.body.nodes;
    }, 'a healthy node');
    nodeId = nodes[0].instanceId;
  });
  after(() => stopAll(mcp, server, sb));

  it('names a quota shortfall, with the quota read back and the increase request as a suggestion', async () => {
    const d = await diagnose('/api/v1/clusters/quota/diagnostics/creation', 'diagnose_cluster_creation', {
      cluster: 'quota',
    });
    assert.equal(d.subject.id, failed.quota);
    assert.equal(critical(d)?.code, 'quota-exceeded', JSON.stringify(d.findings));
    assert.ok(
      critical(d)!.evidence.some((e) => /ResourceLimitExceeded/.test(e.detail)),
      'the error is evidence',
    );
    assert.ok(
      critical(d)!.evidence.some(
        (e) => /^servicequotas:/.test(e.source) && /ml\.c5\.xlarge for cluster usage/.test(e.detail),
      ),
      JSON.stringify(critical(d)!.evidence),
    );
    const retry = d.suggestions.find((s) => s.command.startsWith('retry_operation_phase'));
    assert.equal(retry?.mutating, true);
    assert.match(retry!.command, new RegExp(`"operationId":"${failed.quota}","phase":"hyperpod"`));
    assert.ok(
      d.findings.some((f) => f.code === 'left-behind'),
      'the VPC, roles and EKS cluster are left behind',
    );
    assert.ok(d.suggestions.some((s) => s.command.startsWith('delete_cluster') && s.mutating));
  });

  it('names a capacity shortage from HyperPod’s FailureMessage', async () => {
    const d = await diagnose(
      `/api/v1/clusters/starved/diagnostics/creation?operationId=${failed.starved}`,
      'diagnose_cluster_creation',
      { cluster: 'starved', operationId: failed.starved },
    );
    assert.equal(critical(d)?.code, 'insufficient-capacity', JSON.stringify(d.findings));
    assert.ok(
      critical(d)!.evidence.some((e) => /insufficient ml\.c5\.2xlarge capacity in us-west-2c/.test(e.detail)),
      JSON.stringify(critical(d)!.evidence),
    );
    assert.ok(d.suggestions.every((s) => !/^(reboot|replace)_nodes/.test(s.command)));
  });

  it('names a failed HyperPod create with its message, and suggests retrying the phase', async () => {
    const d = await diagnose('/api/v1/clusters/flaky/diagnostics/creation', 'diagnose_cluster_creation', {
      cluster: 'flaky',
    });
    assert.equal(critical(d)?.code, 'hyperpod-create-failed', JSON.stringify(d.findings));
    assert.ok(
      critical(d)!.evidence.some((e) => e.source === 'sagemaker:DescribeCluster' && /on_create\.sh/.test(e.detail)),
    );
    assert.ok(d.suggestions.some((s) => s.mutating && s.command.startsWith('retry_operation_phase')));
    // The operation is still failed: the diagnosis retried nothing.
    assert.equal((await server.api('GET', `/api/v1/operations/${failed.flaky}`)).body.status, 'failed');
  });

  it('answers a succeeded create with nothing to diagnose, and refuses an operation of another cluster', async () => {
    const ok = await server.api('GET', '/api/v1/clusters/steady/diagnostics/creation');
    assert.equal(ok.status, 200, JSON.stringify(ok.body));
    assert.equal(ok.body.findings[0].code, 'creation-succeeded');
    const other = await server.api('GET', `/api/v1/clusters/steady/diagnostics/creation?operationId=${failed.flaky}`);
    assert.equal(other.status, 400, JSON.stringify(other.body));
    assert.match(JSON.stringify(other.body), /operationId/);
    const none = await server.api('GET', '/api/v1/clusters/never/diagnostics/creation');
    assert.equal(none.status, 404, JSON.stringify(none.body));
  });

  it('a healthy node: nothing to do', async () => {
    const d = await diagnose(`/api/v1/clusters/steady/diagnostics/nodes/${nodeId}`, 'diagnose_node', {
      cluster: 'steady',
      node: nodeId,
    });
    assert.equal(d.escalation?.stage, 'none', JSON.stringify(d.escalation));
    assert.equal(critical(d), undefined, JSON.stringify(d.findings));
    assert.ok(d.suggestions.every((s) => !s.mutating));
  });

  it('a node marked for a reboot: reboot suggested (not run), replace next', async () => {
    const fault = await sb.admin('/_sandbox/faults', {
      method: 'POST',
      body: {
        type: 'node-fault',
        cluster: 'steady',
        instanceId: nodeId,
        health: 'UnschedulablePendingReboot',
        // An instance fault HyperPod sees itself (a GPU fault needs the health agent on a GPU node: sandbox health-agent.ts).
        reason: 'Instance status check failed: the instance is unreachable',
      },
    });
    assert.equal(fault.status, 201, JSON.stringify(fault.body));
    await until(
      async () => {
        const r = await server.api('GET', `/api/v1/clusters/steady/nodes/${nodeId}`);
        return r.body.node?.labels?.healthStatus === 'UnschedulablePendingReboot';
      },
      `the fault label (fault: ${JSON.stringify(fault.body)})`,
      20,
    );
    const d = await diagnose(`/api/v1/clusters/steady/diagnostics/nodes/${nodeId}`, 'diagnose_node', {
      cluster: 'steady',
      node: nodeId,
    });
    assert.equal(critical(d)?.code, 'pending-reboot', JSON.stringify(d.findings));
    assert.ok(
      critical(d)!.evidence.some((e) => /Instance status check failed: the instance is unreachable/.test(e.detail)),
      JSON.stringify(critical(d)!.evidence),
    );
    assert.deepEqual([d.escalation?.stage, d.escalation?.next], ['reboot', 'replace']);
    assert.match(d.escalation!.why, /recovery is off/);
    const reboot = d.suggestions[0]!;
    assert.equal(reboot.mutating, true);
    assert.equal(reboot.command, `reboot_nodes {"cluster":"steady","region":"us-west-2","nodeIds":["${nodeId}"]}`);
    assert.ok(d.suggestions.some((s) => s.kind === 'kubectl' && !s.mutating));
    assert.equal(
      (await server.api('GET', `/api/v1/operations?kind=reboot-nodes&limit=5`)).body.operations.length,
      0,
      'nothing was rebooted',
    );
  });

  it('a node marked for replacement: replace suggested, with confirm, not run', async () => {
    const fault = await sb.admin('/_sandbox/faults', {
      method: 'POST',
      body: {
        type: 'node-fault',
        cluster: 'steady',
        instanceId: nodeId,
        health: 'UnschedulablePendingReplacement',
        reason: 'EC2 system status check failed: hardware failure',
      },
    });
    assert.equal(fault.status, 201, JSON.stringify(fault.body));
    await until(async () => {
      const r = await server.api('GET', `/api/v1/clusters/steady/nodes/${nodeId}`);
      return r.body.node?.labels?.healthStatus === 'UnschedulablePendingReplacement';
    }, 'the replacement label');
    const d = await diagnose(`/api/v1/clusters/steady/diagnostics/nodes/${nodeId}`, 'diagnose_node', {
      cluster: 'steady',
      node: nodeId,
    });
    assert.equal(critical(d)?.code, 'pending-replacement', JSON.stringify(d.findings));
    assert.equal(d.escalation?.stage, 'replace');
    assert.match(d.suggestions[0]!.command, /^replace_nodes .*"confirm":true/);
    assert.equal(d.suggestions[0]!.mutating, true);
  });
});
