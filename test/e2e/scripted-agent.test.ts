import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { Tool } from '@modelcontextprotocol/sdk/types.js';
import { DiagnosisSchema } from '../../src/domain/schemas/diagnostics.js';
import { callMark, mutatingSince, NO, ScriptedAgent, toolsNamed, until } from '../helpers/scripted-agent.js';
import { startTestSandbox, type TestSandbox } from '../helpers/sandbox.js';
import { startTestServer, stopAll, withToken, type TestServer } from '../helpers/server.js';
import { call } from '../mcp/client-helpers.js';

/**
 * The seed's sentence run end to end by a scripted agent: no model, a script that reads the playbook the server
 * serves as an MCP prompt and follows it step by step. Every tool it calls must be named by the step it is on (or by
 * the previous tool's answer: statusTool, next), every question it asks must be one the playbook allows and one the
 * sentence left open, and during a diagnosis nothing in the sandbox may change until a yes — which never comes.
 */

const SPEED = 600;
const OPERATE_TOKEN = 'agent-operate-token-1';
// The user's own token: a reboot stops pods (admin scope), so the command the user says yes to runs with it.
const USER_TOKEN = 'user-admin-token-1';
const SENTENCE =
  'create a cluster with two on-demand GPU nodes in us-west-2b with automatic node recovery, dependencies installed and a shared S3 bucket';
// The same ask in a zone where the sandbox has no capacity for the type (staged below).
const STARVED_SENTENCE =
  'create a cluster with one on-demand GPU node in us-west-2c with automatic node recovery, dependencies installed and a shared S3 bucket';
// What the script's "user" answers when asked; the type is the one thing the sentence leaves open. (The sandbox's
// new-account quota is 2 for each small g5 type: the starved create takes another type so its preflight passes.)
const USER_ANSWERS: Record<string, string> = { 'instance type': 'ml.g5.8xlarge', confirm: 'yes' };
const STARVED_ANSWERS: Record<string, string> = { ...USER_ANSWERS, 'instance type': 'ml.g5.xlarge' };

/** What the script's reading of a request gives; the fields it does not find are left open. */
interface Reading {
  availabilityZone?: string;
  instanceCount?: number;
  capacityType?: 'on-demand' | 'spot' | 'training-plan';
  acceleratorsOnly: boolean;
  instanceType?: string;
  wants: string[];
}

const NUMBERS: Record<string, number> = { one: 1, two: 2, three: 3, four: 4 };
function read(sentence: string): Reading {
  const count = /\b(one|two|three|four|\d+)\b[^,]*?\bnodes?\b/.exec(sentence)?.[1];
  const capacity = /\b(on-demand|spot|training plan)\b/.exec(sentence)?.[1];
  return {
    availabilityZone: /\b([a-z]{2}-[a-z]+-\d[a-z])\b/.exec(sentence)?.[1],
    instanceCount: count ? (NUMBERS[count] ?? Number(count)) : undefined,
    capacityType: capacity === 'training plan' ? 'training-plan' : (capacity as Reading['capacityType']),
    acceleratorsOnly: /\bGPU\b/.test(sentence),
    instanceType: /\bml\.[a-z0-9]+\.[a-z0-9]+\b/.exec(sentence)?.[0],
    wants: ['automatic node recovery', 'dependencies', 'S3 bucket'].filter((w) => sentence.includes(w)),
  };
}

describe('a scripted agent follows the playbooks, served as MCP prompts, through the MCP tools on the sandbox', () => {
  let sb: TestSandbox;
  let server: TestServer;
  let client: Client;
  /** The user's own session: a command the user says yes to runs in it. */
  let userSession: Client;
  let tools: Map<string, Tool>;
  before(async () => {
    // The agent holds an operate token (issue 29: with an operate token the seed's sentence builds a cluster end to end).
    sb = await startTestSandbox({ speed: SPEED });
    server = withToken(
      await startTestServer(sb, { speed: SPEED, token: USER_TOKEN, operateTokens: [OPERATE_TOKEN] }),
      USER_TOKEN,
    );
    client = new Client({ name: 'e2e-scripted-agent', version: '1.0.0' });
    await client.connect(
      new StreamableHTTPClientTransport(new URL(`${server.url}/mcp`), {
        requestInit: { headers: { authorization: `Bearer ${OPERATE_TOKEN}` } },
      }),
    );
    tools = new Map((await client.listTools()).tools.map((t) => [t.name, t]));
    userSession = new Client({ name: 'e2e-scripted-agent-user', version: '1.0.0' });
    await userSession.connect(
      new StreamableHTTPClientTransport(new URL(`${server.url}/mcp`), {
        requestInit: { headers: { authorization: `Bearer ${USER_TOKEN}` } },
      }),
    );
  });
  after(() => stopAll(client, userSession, server, sb));

  /**
   * create-cluster.md, steps 0–8, literally. Returns the final wait answer; `failed` is left for the caller
   * (step 9), `succeeded` for step 10.
   */
  async function createFromSentence(agent: ScriptedAgent, sentence: string, proposedName: string) {
    await agent.open('create-cluster', sentence);
    const pb = agent.playbook;
    const allowedQuestions = pb.item('Rules', 2);
    const reading = read(sentence);

    agent.at(0);
    for (const status of ['running', 'failed']) {
      const ops = await agent.call('list_operations', { kind: 'create-cluster', status });
      assert.ok(
        !ops.data.operations.some((o: any) => o.target.endsWith(`/${proposedName}`)),
        'nothing to resume for this cluster',
      );
    }

    agent.at(1);
    const info = await agent.call('get_server_info', {});
    assert.equal(info.data.cloud, 'sandbox', 'no cost warning needed');

    agent.at(2);
    const clusters = await agent.call('list_clusters', {});
    assert.ok(!clusters.data.clusters.some((c: any) => c.name === proposedName), 'the proposed name is free');

    const step3 = agent.at(3);
    // No name given: the playbook says propose one, not ask.
    assert.match(step3, /If no name was given,\s+propose one[\s\S]*instead of asking/);
    // What the sentence wants beyond the four questions must be what the playbook says a create does anyway.
    for (const want of reading.wants) {
      const byDefault = {
        'automatic node recovery': /`hyperpod`[^\n]*with automatic node recovery/,
        dependencies: /`dependencies`[^\n]*the default features/,
        'S3 bucket': /S3 is on by default/,
      }[want]!;
      assert.match(pb.text, byDefault, `the playbook says "${want}" comes with every create`);
    }
    assert.doesNotMatch(step3, /ask[^.]*Kubernetes version/i);

    const step4 = agent.at(4);
    const zones = await agent.call('list_availability_zones', {});
    const zone = reading.availabilityZone ?? agent.ask('availability zone', allowedQuestions, reading.availabilityZone);
    assert.ok(
      zones.data.availabilityZones.some((z: any) => z.name === zone),
      `${zone} is listed, so step 4 asks nothing about it`,
    );
    let instanceType = reading.instanceType;
    if (!instanceType) {
      // Only a kind was given ("GPU nodes"): step 4 says list the accelerated types there and ask which.
      assert.match(step4, /Only a kind of instance given[\s\S]*acceleratorsOnly[\s\S]*ask which type/);
      const offered = await agent.call('list_instance_types', {
        availabilityZone: zone,
        acceleratorsOnly: reading.acceleratorsOnly,
      });
      const names = offered.data.instanceTypes.map((t: any) => t.instanceType);
      instanceType = agent.ask('instance type', allowedQuestions, reading.instanceType);
      assert.ok(names.includes(instanceType), `the answer is one of the offered types: ${names.join(', ')}`);
      assert.ok(
        offered.data.instanceTypes.every((t: any) => t.acceleratorCount > 0),
        'only accelerated types',
      );
    }
    const capacityType = reading.capacityType ?? agent.ask('capacity type', allowedQuestions, reading.capacityType);
    const instanceCount = reading.instanceCount ?? agent.ask('instance count', allowedQuestions, reading.instanceCount);

    agent.at(5);
    assert.equal(capacityType, 'on-demand', 'step 5 has nothing for on-demand');

    agent.at(6);
    const quotas = await agent.call('check_quotas', { instanceType, instanceCount, capacityType });
    assert.equal(quotas.data.ok, true, quotas.text);

    const step7 = agent.at(7);
    const request = { cluster: proposedName, availabilityZone: zone, instanceType, capacityType, instanceCount };
    const check = await agent.call('check_cluster_request', request);
    assert.equal(check.data.ok, true, check.text);
    // The plan's hourly cost goes into the one confirmation (a read: nothing is made).
    const plan = await agent.call('plan_cluster', request);
    assert.ok(plan.data.cost.totalHourlyUsd > 0, plan.text);
    assert.ok(plan.data.mutations.length > 0, plan.text);
    assert.match(step7, /confirm once.*hourly\s+cost/s);
    assert.equal(agent.ask('confirm', step7, undefined), 'yes');

    agent.at(8);
    const started = await agent.call('create_cluster', { ...request, idempotencyKey: `create-${proposedName}-1` });
    assert.equal(started.data.done, false);
    return agent.pollFrom(started);
  }

  let happy = '';
  it(`"${SENTENCE}": create-cluster.md step by step ends InService with automatic node recovery and storage Bound`, async () => {
    const agent = new ScriptedAgent(client, tools, USER_ANSWERS);
    happy = 'g5-pair';
    const end = await createFromSentence(agent, SENTENCE, happy);
    assert.equal(end.status, 'succeeded', JSON.stringify(end));

    const step10 = agent.at(10);
    assert.equal(end.next.tool, 'get_cluster', 'the answer names the step-10 call');
    const cluster = await agent.call(end.next.tool, end.next.arguments);
    assert.match(step10, /node recovery/);
    assert.equal(cluster.data.status, 'InService');
    assert.equal(cluster.data.nodeRecovery, 'Automatic', JSON.stringify(cluster.data));
    const active = await agent.call('get_active_cluster', {});
    assert.equal(active.data.name, happy);
    const features = await agent.call('get_features', { cluster: happy });
    assert.ok(!/\bfailed\b/i.test(features.text), features.text);
    const nodes = await agent.call('list_nodes', { cluster: happy });
    assert.equal(nodes.data.nodes.length, 2, nodes.text);
    assert.ok(nodes.data.nodes.every((n: any) => n.instanceType === 'ml.g5.8xlarge'));
    const storage = await agent.call('list_storage', { cluster: happy });
    const s3 = storage.data.storages.find((s: any) => s.name === 'shared-s3');
    assert.equal(s3?.claimPhase, 'Bound', storage.text);

    // Only the open question and the one confirmation were asked; the zone, count and capacity type came from the sentence.
    assert.deepEqual(
      agent.asked.map((a) => [a.step, a.question]),
      [
        ['Steps 4', 'instance type'],
        ['Steps 7', 'confirm'],
      ],
    );
    assert.equal(agent.calls.filter((c) => c.tool === 'create_cluster').length, 1);
  });

  it('heal-node.md on a healthy node (nothing to suggest) and on a node marked for a reboot (suggested, not run): zero mutating calls', async () => {
    const agent = new ScriptedAgent(client, tools, USER_ANSWERS);
    await agent.open('heal-node', `is a node of ${happy} unhealthy?`);
    const mark = await callMark(sb);
    agent.at(1);
    for (const health of ['failed', 'degraded']) {
      const listed = await agent.call('list_nodes', { cluster: happy, health });
      assert.deepEqual(listed.data.nodes, [], listed.text);
      assert.deepEqual(listed.data.shortfalls ?? [], [], listed.text);
    }
    // None failed or degraded; the user asks about one node anyway (step 2: "each node the user cares about").
    const node = (await agent.call('list_nodes', { cluster: happy })).data.nodes[0].instanceId;
    agent.at(2);
    const d = DiagnosisSchema.parse((await agent.call('diagnose_node', { cluster: happy, node })).data);
    assert.equal(d.escalation?.stage, 'none', JSON.stringify(d));
    assert.ok(d.suggestions.every((s) => !s.mutating));
    assert.deepEqual(await mutatingSince(sb, mark), []);

    // Now a fault HyperPod leaves to the operator (node recovery None): step 1 finds it, step 2 suggests the reboot,
    // and the script's user does not say yes.
    await sb.aws(['sagemaker', 'update-cluster', '--cluster-name', happy, '--node-recovery', 'None']);
    await until(async () => {
      const c = await sb.aws(['sagemaker', 'describe-cluster', '--cluster-name', happy]);
      return c.json.NodeRecovery === 'None' && c.json.ClusterStatus === 'InService';
    }, 'node recovery None, in service');
    const fault = await sb.admin('/_sandbox/faults', {
      method: 'POST',
      body: {
        type: 'node-fault',
        cluster: happy,
        instanceId: node,
        health: 'UnschedulablePendingReboot',
        reason: 'Instance status check failed: the instance is unreachable',
      },
    });
    assert.equal(fault.status, 201, JSON.stringify(fault.body));
    await until(async () => {
      // The node list is a read cache of a few seconds (src/capabilities/nodes/views.ts): wait until it shows the fault.
      const r = await server.api('GET', `/api/v1/clusters/${happy}/nodes?health=failed`);
      return r.body.nodes?.some((n: any) => n.instanceId === node);
    }, 'the fault in the node list');

    const healer = new ScriptedAgent(client, tools, USER_ANSWERS);
    await healer.open('heal-node', `a node of ${happy} is failing`);
    const faultMark = await callMark(sb);
    healer.at(1);
    const failed = await healer.call('list_nodes', { cluster: happy, health: 'failed' });
    assert.deepEqual(
      failed.data.nodes.map((n: any) => [n.instanceId, n.health.suggestedAction]),
      [[node, 'reboot']],
      failed.text,
    );
    healer.at(2);
    const faulted = DiagnosisSchema.parse((await healer.call('diagnose_node', { cluster: happy, node })).data);
    assert.equal(faulted.escalation?.stage, 'reboot', JSON.stringify(faulted.escalation));
    const reboot = faulted.suggestions[0]!;
    assert.ok(reboot.mutating && reboot.command.startsWith('reboot_nodes '), reboot.command);
    // Rule 2: reading tools only until a yes to that command; the script's user answers no, so the script stops.
    assert.equal(healer.ask('reboot_nodes', healer.playbook.item('Rules', 2), undefined), NO);
    for (const c of [...agent.calls, ...healer.calls]) {
      assert.equal(tools.get(c.tool)?.annotations?.readOnlyHint, true, `${c.tool} only reads`);
    }
    assert.deepEqual(await mutatingSince(sb, faultMark), [], 'nothing changed in AWS or Kubernetes');
    const list = await call(client, 'list_operations', { kind: 'reboot-nodes' });
    assert.deepEqual((list.structuredContent as any).operations, [], 'nothing was rebooted');
    marked = { node, reboot: reboot.command };
  });

  let marked: { node: string; reboot: string } | undefined;
  it('heal-node.md, the yes: the suggested reboot runs exactly as suggested, is polled to its end, and the node is healthy again', async () => {
    assert.ok(marked, 'the previous test left a node marked for a reboot');
    const { node, reboot } = marked;
    const healer = new ScriptedAgent(client, tools, { reboot_nodes: 'yes' }, userSession);
    await healer.open('heal-node', `a node of ${happy} is failing`);
    healer.at(2);
    const d = DiagnosisSchema.parse((await healer.call('diagnose_node', { cluster: happy, node })).data);
    assert.equal(d.suggestions[0]?.command, reboot, 'the same suggestion as before');
    const mark = await callMark(sb);
    assert.equal(healer.askAbout(reboot, healer.playbook.item('Rules', 2)), 'yes');
    healer.assertReadOnlySince();
    assert.deepEqual(await mutatingSince(sb, mark), [], 'nothing changed before the yes');

    // Step 3: the reboot exactly as suggested, then wait_for_operation (its answer names it) until it ends.
    const step3 = healer.at(3);
    assert.ok(step3.includes('`reboot_nodes`') && step3.includes('`wait_for_operation`'), step3);
    const started = await healer.runApproved(reboot);
    const end = await healer.pollFrom(started);
    assert.equal(end.status, 'succeeded', JSON.stringify(end));
    assert.deepEqual(
      end.result.results.map((r: any) => [r.nodeId, r.outcome]),
      [[node, 'succeeded']],
      JSON.stringify(end.result),
    );
    // After the yes: the one reboot HyperPod was asked for, and nothing else that changes.
    assert.deepEqual(
      (await mutatingSince(sb, mark)).filter((c) => !c.startsWith('sagemaker BatchRebootClusterNodes')),
      [],
    );
    assert.equal((await mutatingSince(sb, mark)).length, 1);
    // And step 3's last words: diagnose_node again says the node is healthy.
    const again = DiagnosisSchema.parse((await healer.call('diagnose_node', { cluster: happy, node })).data);
    assert.equal(again.escalation?.stage, 'none', JSON.stringify(again));
    assert.ok(!again.findings.some((f) => f.severity === 'critical'), JSON.stringify(again.findings));
  });

  it(`"${STARVED_SENTENCE}" with no capacity there: the create fails, diagnose-cluster-creation.md names the cause and stops before any change`, async () => {
    const fault = await sb.admin('/_sandbox/faults', {
      method: 'POST',
      body: {
        type: 'insufficient-capacity',
        availabilityZone: 'us-west-2c',
        instanceType: 'ml.g5.xlarge',
        available: 0,
      },
    });
    assert.equal(fault.status, 201, JSON.stringify(fault.body));
    const agent = new ScriptedAgent(client, tools, STARVED_ANSWERS);
    const name = 'g5-west2c';
    const end = await createFromSentence(agent, STARVED_SENTENCE, name);
    assert.equal(end.status, 'failed', JSON.stringify(end));

    // create-cluster.md step 9 hands over to the diagnose playbook.
    const step9 = agent.at(9);
    assert.ok(toolsNamed(step9, tools).has('diagnose_cluster_creation'));
    assert.match(step9, /diagnose-cluster-creation playbook/);
    const mark = await callMark(sb);
    await agent.open('diagnose-cluster-creation', `why did ${name} fail?`);
    const since = agent.calls.length;

    agent.at(1);
    const ops = await agent.call('list_operations', { kind: 'create-cluster', status: 'failed' });
    const op = ops.data.operations.find((o: any) => o.target.endsWith(`/${name}`));
    assert.equal(op?.id, end.operationId);

    agent.at(2);
    const d = DiagnosisSchema.parse((await agent.call('diagnose_cluster_creation', { cluster: name })).data);
    const critical = d.findings.find((f) => f.severity === 'critical');
    assert.equal(critical?.code, 'insufficient-capacity', JSON.stringify(d.findings));
    assert.ok(critical!.evidence.length > 0, 'the cause comes with evidence');
    assert.ok(
      critical!.evidence.some((e) => /ml\.g5\.xlarge/.test(e.detail) && /us-west-2c/.test(e.detail)),
      JSON.stringify(critical!.evidence),
    );
    assert.ok(
      d.findings.some((f) => f.code === 'left-behind'),
      'what stays is named',
    );

    // Step 3 is only if the evidence is not enough: it is, so the script goes on to step 4.
    const step4 = agent.at(4);
    const fixLine = step4.split('\n').find((l) => l.includes(`\`${critical!.code}\``));
    assert.ok(fixLine, `step 4 says what to suggest for ${critical!.code}`);
    const fixTools = toolsNamed(fixLine, tools);
    const offered = d.suggestions.filter((s) => fixTools.has(s.command.split(' ')[0]!));
    assert.ok(offered.length > 0, `a suggestion is one of ${[...fixTools]}: ${JSON.stringify(d.suggestions)}`);
    assert.ok(offered.every((s) => s.mutating));
    assert.match(
      offered.find((s) => s.command.startsWith('retry_operation_phase'))?.command ?? '',
      new RegExp(`"operationId":"${end.operationId}","phase":"${end.failedPhase}"`),
    );

    // Step 5: stop unless the user says yes to one command. The script's user does not.
    const step5 = agent.at(5);
    assert.match(step5, /Stop here/);
    assert.equal(agent.ask('retry_operation_phase', step5, undefined), NO);

    for (const c of agent.calls.slice(since)) {
      assert.equal(tools.get(c.tool)?.annotations?.readOnlyHint, true, `${c.tool} only reads`);
    }
    assert.deepEqual(await mutatingSince(sb, mark), [], 'nothing changed in AWS or Kubernetes from the diagnosis on');
    assert.deepEqual(
      agent.asked.map((a) => [a.step, a.question, a.answer]),
      [
        ['Steps 4', 'instance type', 'ml.g5.xlarge'],
        ['Steps 7', 'confirm', 'yes'],
        ['Steps 5', 'retry_operation_phase', 'no'],
      ],
      'the open type, the one confirmation, and the yes the diagnosis waits for (not given)',
    );
    const still = await call(client, 'get_operation', { operationId: end.operationId });
    assert.equal((still.structuredContent as any).status, 'failed', 'nothing was retried');
  });
});
