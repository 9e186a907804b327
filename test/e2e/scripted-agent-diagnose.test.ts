import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import {
  DescribeClusterCommand,
  ListClusterNodesCommand,
  SageMakerClient,
  UpdateClusterCommand,
} from '@aws-sdk/client-sagemaker';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { Tool } from '@modelcontextprotocol/sdk/types.js';
import { DiagnosisSchema, type Diagnosis } from '../../src/domain/schemas/diagnostics.js';
import { SubmitTrainingJobRequestSchema } from '../../src/domain/schemas/training.js';
import { placementFor } from '../../src/domain/training/placement.js';
import { withSavedRequest } from '../../src/domain/training/resubmit.js';
import { trainingManifest } from '../../src/domain/training/submit.js';
import { kubeAccess } from '../helpers/kube.js';
import { ncclJobRequest, ncclTimeoutOnceRunning, RUN_SPEED } from '../helpers/nccl-job.js';
import { callMark, mutatingSince, ScriptedAgent, toolsNamed, until } from '../helpers/scripted-agent.js';
import { startTestSandbox, type TestSandbox } from '../helpers/sandbox.js';
import { startTestServer, stopAll, withToken, type TestServer } from '../helpers/server.js';

/**
 * The diagnose playbooks run by the scripted agent (test/helpers/scripted-agent.ts) on staged faults, through to the
 * user's yes: diagnose-nccl.md on a job whose NCCL timed out because its manifest lacks the EFA settings, and
 * diagnose-node-health.md on a node HyperPod marked for replacement. Until the yes the sandbox's call log shows no
 * mutating call; after it, exactly the suggested ones, and the fix is checked the way the playbook says.
 */

const SPEED = 600;
const USER_TOKEN = 'user-admin-token-1';
const READ_TOKEN = 'agent-read-token-1';
const CLUSTER = 'efa-pair';
// ml.g5.8xlarge: one A10G and one EFA interface (no GPUDirect RDMA); the sandbox's new-account quota allows two.
const TYPE = 'ml.g5.8xlarge';

describe('a scripted agent runs the diagnose playbooks on staged faults, and their fix after the yes', () => {
  let sb: TestSandbox;
  let server: TestServer;
  // The agent investigates with a read token; a command the user says yes to runs with the user's own token (a delete is
  // admin-scoped: docs/SECURITY.md → Token scopes).
  let client: Client;
  let approved: Client;
  let tools: Map<string, Tool>;
  let group = '';
  const clock = (speed: number) => sb.admin('/_sandbox/clock', { method: 'POST', body: { speed } });

  before(async () => {
    sb = await startTestSandbox({ speed: SPEED });
    // The test's own REST calls are the user's.
    server = withToken(
      await startTestServer(sb, { speed: SPEED, token: USER_TOKEN, readTokens: [READ_TOKEN] }),
      USER_TOKEN,
    );
    const session = async (name: string, token: string) => {
      const c = new Client({ name, version: '1.0.0' });
      await c.connect(
        new StreamableHTTPClientTransport(new URL(`${server.url}/mcp`), {
          requestInit: { headers: { authorization: `Bearer ${token}` } },
        }),
      );
      return c;
    };
    client = await session('e2e-scripted-agent-diagnose', READ_TOKEN);
    approved = await session('e2e-scripted-agent-diagnose-approved', USER_TOKEN);
    tools = new Map((await client.listTools()).tools.map((t) => [t.name, t]));
    const created = await server.api('POST', '/api/v1/clusters', {
      name: CLUSTER,
      availabilityZone: 'us-west-2b',
      instanceType: TYPE,
      instanceCount: 2,
      storage: { s3: true },
    });
    assert.equal(created.status, 202, JSON.stringify(created.body));
    const op = await server.waitForOperation(created.body.operation.id);
    assert.equal(op.status, 'succeeded', JSON.stringify(op.error ?? op.phases));
    group = (await server.api('GET', `/api/v1/clusters/${CLUSTER}`)).body.instanceGroups[0].name;
  });
  after(() => stopAll(client, approved, server, sb));

  /**
   * A two-rank job applied with kubectl from a manifest written for a type without EFA (InstantStart's own manifest
   * and request for the group, sized as if the type had no EFA: no FI_PROVIDER, no vpc.amazonaws.com/efa), then the
   * staged NCCL timeout.
   */
  async function jobWithoutEfaThatTimesOut(job: string): Promise<void> {
    const req = SubmitTrainingJobRequestSchema.parse(ncclJobRequest(job, group));
    const noEfa = placementFor(
      { name: group, instanceType: TYPE },
      {
        instanceType: TYPE,
        acceleratorName: 'A10G',
        acceleratorCount: 1,
        efaSupported: false,
        maximumEfaInterfaces: 0,
      },
    );
    const manifest = withSavedRequest(
      trainingManifest(req, {
        claimName: 'shared-s3',
        placement: noEfa,
        capacityType: 'on-demand',
        tieredCheckpointing: false,
      }),
      req,
    );
    const kube = await kubeAccess(sb, `${CLUSTER}-eks`);
    await clock(RUN_SPEED);
    await kube.kubectl(['create', '-f', '-'], { input: JSON.stringify(manifest) });
    await ncclTimeoutOnceRunning(sb, server, CLUSTER, job);
  }

  it('diagnose-nccl.md: the timeout and its cause (the missing EFA settings), nothing changed until the yes; then the suggested delete and resubmit, and the new job uses EFA', async () => {
    await jobWithoutEfaThatTimesOut('allreduce');
    const agent = new ScriptedAgent(client, tools, { delete_job: 'yes', submit_training_job: 'yes' }, approved);
    await agent.open('diagnose-nccl', `why did my job allreduce on ${CLUSTER} time out in NCCL?`);
    const mark = await callMark(sb);

    // Step 1, literally; the watchdog's lines reach the log a moment after the sandbox's clock moved past them.
    const step1 = agent.at(1);
    let d!: Diagnosis;
    await until(async () => {
      d = DiagnosisSchema.parse((await agent.call('diagnose_nccl', { cluster: CLUSTER, job: 'allreduce' })).data);
      return d.findings.some((f) => f.code === 'nccl-timeout');
    }, 'nccl-timeout in the diagnosis');
    const critical = d.findings.filter((f) => f.severity === 'critical').map((f) => f.code);
    const [symptomLine, causeLine] = ['the symptom:', 'the cause:'].map(
      (w) => step1.split('\n').find((l) => l.includes(w))!,
    );
    assert.ok(critical.includes('nccl-timeout') && symptomLine.includes('`nccl-timeout`'), JSON.stringify(critical));
    assert.ok(
      critical.includes('efa-setting-missing') && causeLine.includes('`efa-setting-missing`'),
      JSON.stringify(critical),
    );
    const missing = d.findings.find((f) => f.code === 'efa-setting-missing')!;
    assert.ok(
      missing.evidence.some((e) => /FI_PROVIDER is not set/.test(e.detail)) &&
        missing.evidence.some((e) => /requests 0 vpc\.amazonaws\.com\/efa \(the type has 1\)/.test(e.detail)),
      JSON.stringify(missing.evidence),
    );
    assert.match(d.summary, /timed out.*default\/allreduce.*likely cause:.*lack EFA settings ml\.g5\.8xlarge needs/i);

    // Step 2 only if the evidence is not enough: it is. Step 3 reports; step 4 stops until the yes.
    agent.at(3);
    const fix = d.suggestions.filter((s) => s.mutating).map((s) => s.command);
    const step4 = agent.at(4);
    assert.deepEqual(
      fix.map((c) => c.split(' ')[0]),
      ['delete_job', 'submit_training_job'],
      JSON.stringify(d.suggestions),
    );
    assert.deepEqual([...toolsNamed(step4, tools)].slice(0, 2), ['delete_job', 'submit_training_job']);
    agent.assertReadOnlySince();
    assert.deepEqual(await mutatingSince(sb, mark), [], 'nothing changed in AWS or Kubernetes before the yes');
    for (const command of fix) assert.equal(agent.askAbout(command, step4), 'yes');

    // After the yes: exactly those two, then wait_for_job (the submit's answer names it) until Running.
    await clock(RUN_SPEED);
    const afterYes = await callMark(sb);
    const deleted = await agent.runApproved(fix[0]!);
    assert.equal(deleted.data.deleted, true, deleted.text);
    const submitted = await agent.runApproved(fix[1]!);
    const job = submitted.data.job.name;
    assert.equal(job, 'allreduce-2');
    let next = submitted.data.next;
    for (let i = 0; i < 20 && next; i++) {
      assert.equal(next.tool, 'wait_for_job');
      const waited = await agent.call(next.tool, next.arguments);
      if (waited.data.job?.phase === 'Running' || waited.data.phase === 'Running') break;
      next = waited.data.next;
    }
    const made = await mutatingSince(sb, afterYes);
    assert.deepEqual(made, [
      'kubernetes delete hyperpodpytorchjobs default/allreduce',
      'kubernetes apply hyperpodpytorchjobs default/allreduce-2',
    ]);

    // Step 4's check: diagnose_nccl on the new job shows EFA in use and no timeout.
    let again!: Diagnosis;
    await until(async () => {
      again = DiagnosisSchema.parse((await agent.call('diagnose_nccl', { cluster: CLUSTER, job })).data);
      return again.findings.some((f) => f.code === 'efa-in-use');
    }, 'efa-in-use on the new job');
    assert.deepEqual(
      again.findings.filter((f) => f.severity === 'critical'),
      [],
      JSON.stringify(again.findings),
    );
    assert.ok(!again.findings.some((f) => f.code === 'nccl-timeout'));
    await clock(SPEED);
  });

  it('diagnose-node-health.md on a node marked for replacement: replace suggested, nothing changed until the yes; then exactly that replace, polled to its end, and the new node healthy', async () => {
    // Manual recovery, so the fault stays for the diagnosis (HyperPod would heal it by itself).
    const sm = new SageMakerClient({});
    await sm.send(new UpdateClusterCommand({ ClusterName: CLUSTER, NodeRecovery: 'None' }));
    await until(async () => {
      const c = await sm.send(new DescribeClusterCommand({ ClusterName: CLUSTER }));
      return c.NodeRecovery === 'None' && c.ClusterStatus === 'InService';
    }, 'node recovery None, in service');
    const node = (await server.api('GET', `/api/v1/clusters/${CLUSTER}/nodes`)).body.nodes[1].instanceId;
    const fault = await sb.admin('/_sandbox/faults', {
      method: 'POST',
      body: {
        type: 'node-fault',
        cluster: CLUSTER,
        instanceId: node,
        health: 'UnschedulablePendingReplacement',
        reason: 'EC2 system status check failed: hardware failure',
      },
    });
    assert.equal(fault.status, 201, JSON.stringify(fault.body));
    const agent = new ScriptedAgent(client, tools, { replace_nodes: 'yes' }, approved);
    await agent.open('diagnose-node-health', `what is wrong with node ${node} of ${CLUSTER}?`);
    const mark = await callMark(sb);
    // Step 1: the user named the node, so no list_nodes.
    assert.match(agent.at(1), /the one the user names, else `list_nodes`/);
    const step2 = agent.at(2);
    // HyperPod's label reaches the Kubernetes node on the sandbox's next tick: the script asks again until it shows.
    let d!: Diagnosis;
    await until(async () => {
      d = DiagnosisSchema.parse((await agent.call('diagnose_node', { cluster: CLUSTER, node })).data);
      return d.findings.some((f) => f.code === 'pending-replacement');
    }, 'the replacement label in the diagnosis');
    const critical = d.findings.find((f) => f.severity === 'critical');
    assert.equal(critical?.code, 'pending-replacement', JSON.stringify(d.findings));
    assert.ok(step2.includes('`pending-replacement`'));
    assert.ok(
      critical!.evidence.some((e) => /hardware failure/.test(e.detail)),
      JSON.stringify(critical!.evidence),
    );
    assert.equal(d.escalation?.stage, 'replace', JSON.stringify(d.escalation));

    // Step 4 reports the suggestion for the stage; step 5 stops until the yes.
    const step4 = agent.at(4);
    const replace = d.suggestions.find((s) => s.mutating)!;
    assert.match(replace.command, /^replace_nodes .*"confirm":true/);
    assert.ok(toolsNamed(step4, tools).has('replace_nodes'));
    agent.assertReadOnlySince();
    assert.deepEqual(await mutatingSince(sb, mark), [], 'nothing changed in AWS or Kubernetes before the yes');
    const step5 = agent.at(5);
    assert.match(step5, /Stop here/);
    assert.equal(agent.askAbout(replace.command, step4), 'yes');

    // After the yes: the one replace, polled with the tool its answer names, then diagnose_node on the new node.
    const afterYes = await callMark(sb);
    const end = await agent.pollFrom(await agent.runApproved(replace.command));
    assert.equal(end.status, 'succeeded', JSON.stringify(end));
    const [result] = end.result.results;
    assert.deepEqual([result.nodeId, result.outcome], [node, 'succeeded'], JSON.stringify(end.result));
    assert.deepEqual(
      (await mutatingSince(sb, afterYes)).map((c) => c.split(' ').slice(0, 2).join(' ')),
      ['sagemaker BatchReplaceClusterNodes'],
    );
    const healthy = DiagnosisSchema.parse(
      (await agent.call('diagnose_node', { cluster: CLUSTER, node: result.newInstanceId })).data,
    );
    assert.equal(healthy.escalation?.stage, 'none', JSON.stringify(healthy));
    const listed = (await sm.send(new ListClusterNodesCommand({ ClusterName: CLUSTER }))).ClusterNodeSummaries ?? [];
    const ids = listed.map((n) => n.InstanceId);
    assert.ok(ids.includes(result.newInstanceId) && !ids.includes(node), `the old instance is gone: ${ids}`);
  });
});
