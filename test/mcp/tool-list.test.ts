import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { after, before, describe, it } from 'node:test';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import type { Tool } from '@modelcontextprotocol/sdk/types.js';
import { hintsOf, inMemoryToolClient } from './client-helpers.js';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { CAPABILITY_TOOLS } from '../../src/capabilities/index.js';
import { RestClient } from '../../src/mcp/rest-client.js';
import { capabilityTools } from '../../src/mcp/server.js';
import { TOOL_NAMES } from '../../src/mcp/tool-list.js';
import {
  listedAnnotations,
  listedInputSchema,
  listedOutputSchema,
  SHARED_FIELDS,
} from '../../src/mcp/listed-schema.js';
import { OPERATION_KIND_NAMES } from '../../src/domain/operation-kinds.js';

/** Verbs that only read; every other verb changes something (the tool's annotations must agree). */
const READING_VERBS = /^(list|get|check|wait|browse|plan|invoke|diagnose)_/;
/** The tools whose answer is text (log lines): no output schema, no structured copy of the lines. */
const TEXT_ONLY = ['get_job_logs', 'get_operation_logs'];

/** The repository root, found from this compiled file (dist/test/mcp or .build-mcp/out/test/mcp). */
function repoRoot(): string {
  let dir = dirname(fileURLToPath(import.meta.url));
  while (!existsSync(join(dir, 'package.json'))) dir = dirname(dir);
  return dir;
}

describe('the MCP tool list', () => {
  let client: Client;
  let tools: Tool[];

  before(async () => {
    ({ client, tools } = await inMemoryToolClient());
  });
  after(() => client.close());

  it("lists every tool as the SDK's McpServer lists the same registrations, schemas in their listed form (built once, served from the cache)", async () => {
    const reference = new McpServer({ name: 'reference', version: '1' });
    for (const register of CAPABILITY_TOOLS) register(reference, new RestClient({ baseUrl: 'http://127.0.0.1:1' }));
    const [a, b] = InMemoryTransport.createLinkedPair();
    const other = new Client({ name: 'test', version: '1.0.0' });
    await Promise.all([reference.connect(a), other.connect(b)]);
    try {
      // The same tools, as a client receives them (JSON on the wire), with the schemas in their listed form
      // (src/mcp/listed-schema.ts), the title once, the hints MCP does not assume and no `execution` (its default is
      // what these tools do).
      const theirs = (await other.listTools()).tools.map(({ execution: _, annotations, ...tool }) => ({
        ...tool,
        inputSchema: listedInputSchema(tool.inputSchema, {
          describeFields: capabilityTools().argumentsOf(tool.name) === undefined,
        }),
        ...(tool.outputSchema ? { outputSchema: listedOutputSchema(tool.outputSchema) } : {}),
        annotations: listedAnnotations(annotations ?? {}),
      }));
      assert.deepEqual(JSON.parse(JSON.stringify(tools)), JSON.parse(JSON.stringify(theirs)));
    } finally {
      await other.close();
    }
    assert.equal(capabilityTools(), capabilityTools(), 'one tool set per process');
  });

  it('is pinned: agents and playbooks hard-code these names', () => {
    assert.deepEqual(tools.map((t) => t.name).sort(), [
      'add_instance_group',
      'add_storage',
      'assign_pool_worker',
      'browse_storage',
      'cancel_operation',
      'check_account',
      'check_cluster_request',
      'check_quotas',
      'create_cluster',
      'create_mlflow_server',
      'delete_cluster',
      'delete_endpoint',
      'delete_instance_group',
      'delete_job',
      'delete_mlflow_server',
      'delete_nodes',
      'deploy_container_endpoint',
      'deploy_managed_endpoint',
      'deploy_router',
      'diagnose_cluster_creation',
      'diagnose_nccl',
      'diagnose_node',
      'download_model',
      'forget_kept_storage',
      'get_active_cluster',
      'get_autoscaling',
      'get_cluster',
      'get_cluster_delete_plan',
      'get_endpoint',
      'get_features',
      'get_job',
      'get_job_logs',
      'get_job_metrics',
      'get_node',
      'get_operation',
      'get_operation_logs',
      'get_server_info',
      'invoke_endpoint',
      'list_audit_events',
      'list_availability_zones',
      'list_cluster_events',
      'list_clusters',
      'list_endpoints',
      'list_instance_groups',
      'list_instance_types',
      'list_jobs',
      'list_kubernetes_versions',
      'list_mlflow_servers',
      'list_model_downloads',
      'list_model_pool',
      'list_nodes',
      'list_operations',
      'list_recipes',
      'list_storage',
      'list_training_plans',
      'plan_cluster',
      'plan_features',
      'reboot_nodes',
      'remove_storage',
      'replace_nodes',
      'retry_operation_phase',
      'scale_endpoint',
      'scale_instance_group',
      'set_active_cluster',
      'set_autoscaling',
      'set_endpoint_autoscaling',
      'set_features',
      'start_deep_health_check',
      'submit_training_job',
      'update_instance_group',
      'wait_for_job',
      'wait_for_mlflow_server',
      'wait_for_operation',
    ]);
    assert.deepEqual([...TOOL_NAMES], tools.map((t) => t.name).sort());
  });

  it('gives every tool a "when to use" description, described inputs (the shared ones in the server instructions), an output schema (text-only log tools aside) and its hints', () => {
    for (const tool of tools) {
      assert.ok((tool.description ?? '').length >= 120, `${tool.name}: description too thin`);
      assert.match(
        tool.name,
        /^(list|get|check|browse|plan|diagnose|create|add|scale|delete|remove|forget|set|wait|retry|cancel|reboot|replace|start|update|download|submit|deploy|invoke|assign)_[a-z_]+$/,
        `${tool.name}: verb-first snake_case`,
      );
      assert.equal(tool.inputSchema.type, 'object');
      // A tool that takes another's arguments word for word (a dry run, a plan) lists them undescribed: the other
      // tool describes them, with the same fields.
      const source = capabilityTools().argumentsOf(tool.name);
      if (source) {
        const of = tools.find((t) => t.name === source);
        assert.ok(of, `${tool.name} takes the arguments of ${source}, a tool`);
        const fields = (t: Tool) => Object.keys(t.inputSchema.properties ?? {}).filter((f) => f !== 'idempotencyKey');
        assert.deepEqual(fields(tool).sort(), fields(of).sort(), `${tool.name} takes exactly ${source}'s arguments`);
        assert.match(tool.description ?? '', new RegExp(`${source}`), `${tool.name} says whose arguments it takes`);
      }
      for (const [field, schema] of Object.entries(tool.inputSchema.properties ?? {})) {
        const described = Boolean((schema as { description?: string }).description);
        // A field most tools share is described once, in the server instructions (SERVER_INSTRUCTIONS names it).
        const expected = !SHARED_FIELDS.has(field) && !source;
        assert.equal(described, expected, `${tool.name}.${field}: described ${described}`);
      }
      // Log lines are text: sent once, as text, never again as structured content (issue 26).
      if (TEXT_ONLY.includes(tool.name))
        assert.equal(tool.outputSchema, undefined, `${tool.name} answers its lines once, as text`);
      else assert.equal(tool.outputSchema?.type, 'object', `${tool.name}: no output schema`);
      // The hints MCP assumes when left out are left out (listed-schema.ts → listedAnnotations); a read tool says so.
      const a = tool.annotations ?? {};
      if (a.readOnlyHint !== true)
        assert.equal(a.readOnlyHint, undefined, `${tool.name}: readOnlyHint false is the default`);
      for (const [hint, assumed] of [
        ['destructiveHint', true],
        ['idempotentHint', false],
        ['openWorldHint', true],
      ] as const)
        assert.notEqual(a[hint], assumed, `${tool.name}: ${hint} ${assumed} is what MCP assumes: left out`);
    }
  });

  it('marks exactly the mutating tools as not read-only, and delete_cluster as destructive', () => {
    for (const tool of tools) {
      const mutating = !READING_VERBS.test(tool.name);
      assert.equal(hintsOf(tool).readOnlyHint, !mutating, tool.name);
      if (!mutating) assert.equal(hintsOf(tool).destructiveHint, false, tool.name);
    }
    const byName = new Map(tools.map((t) => [t.name, t]));
    assert.equal(hintsOf(byName.get('delete_cluster')!).destructiveHint, true);
    for (const name of ['replace_nodes', 'delete_nodes']) {
      assert.equal(hintsOf(byName.get(name)!).destructiveHint, true, name);
      assert.ok(byName.get(name)?.inputSchema.required?.includes('confirm'), `${name} requires confirm`);
      assert.match(
        byName.get(name)?.description ?? '',
        /investigate.*reboot_nodes.*replace_nodes/,
        `${name} carries the escalation order`,
      );
    }
    assert.equal(byName.get('reboot_nodes')?.inputSchema.required?.includes('confirm'), false);
    assert.equal(
      Object.hasOwn(byName.get('reboot_nodes')?.inputSchema.properties ?? {}, 'confirm'),
      false,
      'reboot_nodes has no "not needed" confirm field',
    );
    assert.match(byName.get('reboot_nodes')?.description ?? '', /fails for that node alone/);
    assert.equal(hintsOf(byName.get('create_cluster')!).destructiveHint, false);
    assert.deepEqual(byName.get('delete_cluster')?.inputSchema.required?.includes('confirm'), true);
  });

  it('gives every mutating tool an optional idempotencyKey, and no reading tool one', () => {
    for (const tool of tools) {
      const props = tool.inputSchema.properties ?? {};
      const mutating = !hintsOf(tool).readOnlyHint;
      assert.equal(
        'idempotencyKey' in props,
        mutating,
        `${tool.name}: idempotencyKey ${mutating ? 'missing' : 'on a reading tool'}`,
      );
      assert.equal(
        tool.inputSchema.required?.includes('idempotencyKey') ?? false,
        false,
        `${tool.name}: idempotencyKey must be optional`,
      );
    }
  });

  it('names a cluster `cluster` and a group `group` in every tool input (one name per concept)', () => {
    const CLUSTER_TOOLS = [
      'create_cluster',
      'plan_cluster',
      'check_cluster_request',
      'get_cluster',
      'delete_cluster',
      'set_active_cluster',
      'add_instance_group',
      'list_instance_groups',
      'scale_instance_group',
      'update_instance_group',
      'delete_instance_group',
      'get_autoscaling',
      'set_autoscaling',
      'get_features',
      'plan_features',
      'set_features',
      'list_nodes',
      'get_node',
      'list_cluster_events',
      'diagnose_node',
      'diagnose_cluster_creation',
      'start_deep_health_check',
      'download_model',
      'list_model_downloads',
      'submit_training_job',
      'list_jobs',
      'get_job',
      'get_job_metrics',
      'diagnose_nccl',
      'delete_job',
    ];
    const GROUP_TOOLS = [
      'add_instance_group',
      'scale_instance_group',
      'update_instance_group',
      'delete_instance_group',
      'start_deep_health_check',
    ];
    for (const tool of tools) {
      const props = Object.keys(tool.inputSchema.properties ?? {});
      for (const other of ['name', 'instanceGroupName', 'instanceGroup', 'instanceGroups', 'clusterName']) {
        assert.ok(!props.includes(other), `${tool.name} takes '${other}'; use cluster / group / groups`);
      }
      if (CLUSTER_TOOLS.includes(tool.name))
        assert.ok(tool.inputSchema.required?.includes('cluster'), `${tool.name} requires cluster`);
      if (GROUP_TOOLS.includes(tool.name))
        assert.ok(tool.inputSchema.required?.includes('group'), `${tool.name} requires group`);
    }
    const props = (name: string) => tools.find((t) => t.name === name)?.inputSchema.properties ?? {};
    assert.ok(
      'group' in props('list_nodes') && 'group' in props('list_cluster_events') && 'groups' in props('set_autoscaling'),
    );
    // Tools never fall back to the active cluster, and get_active_cluster does not claim they do.
    assert.match(
      tools.find((t) => t.name === 'get_active_cluster')?.description ?? '',
      /never default to the active cluster/,
    );
  });

  it("has one tool set a group's count: scale_instance_group, destructive, asking for confirm to shrink", () => {
    const byName = new Map(tools.map((t) => [t.name, t]));
    const counting = tools
      .filter((t) => 'instanceCount' in (t.inputSchema.properties ?? {}) && /instance_group/.test(t.name))
      .map((t) => t.name);
    assert.deepEqual(
      counting,
      ['add_instance_group', 'scale_instance_group'],
      'add sets the first count; afterwards only scale changes it',
    );
    const scale = byName.get('scale_instance_group')!;
    assert.equal(hintsOf(scale).destructiveHint, true);
    assert.ok('confirm' in (scale.inputSchema.properties ?? {}));
    assert.match(scale.description ?? '', /shrink.*confirm: true/is);
  });

  it('marks as destructive what interrupts running work or repeats changes: reboots, deep health checks, taints and patching, autoscaling, retries', () => {
    const byName = new Map(tools.map((t) => [t.name, t]));
    // Each stops pods on nodes (a training job there restarts or fails), terminates nodes on its own, or runs an
    // operation's mutations again.
    const WHY: Record<string, RegExp> = {
      reboot_nodes: /stops every pod on the nodes/,
      start_deep_health_check: /taken out of service.*pods are evicted/,
      update_instance_group: /NoExecute taint evicts running pods.*patching .*restart nodes/s,
      set_autoscaling: /terminates the groups' empty nodes/,
      retry_operation_phase: /runs the operation's mutations again/,
    };
    // Forgetting a kept storage lets the cluster's delete take data it would have kept.
    assert.equal(hintsOf(byName.get('forget_kept_storage')!).destructiveHint, true);
    for (const [name, why] of Object.entries(WHY)) {
      const tool = byName.get(name);
      assert.equal(tool && hintsOf(tool).destructiveHint, true, `${name} is destructive`);
      assert.match(tool?.description ?? '', why, `${name} says why`);
      assert.match(
        tool?.description ?? '',
        /get their yes first|get their yes before/,
        `${name} says to ask the user first`,
      );
    }
    // A repeat after success answers the finished download instead of downloading again (issue 26, item 3;
    // test/e2e/replays).
    assert.equal(hintsOf(byName.get('download_model')!).idempotentHint, true);
  });

  it('offers list_operations.kind as the enum of the operation kinds map', () => {
    const kind = (
      tools.find((t) => t.name === 'list_operations')?.inputSchema.properties as Record<string, { enum?: string[] }>
    ).kind;
    assert.deepEqual(kind?.enum, [...OPERATION_KIND_NAMES]);
  });

  it('has every operation tool name its status tool and say it is not done until it succeeds', () => {
    const operationTools = tools.filter((t) => t.outputSchema?.properties && 'statusTool' in t.outputSchema.properties);
    assert.ok(
      operationTools.length >= 9,
      `found the tools that answer with an operation: ${operationTools.map((t) => t.name).join(', ')}`,
    );
    for (const tool of operationTools) {
      const name = tool.name;
      assert.match(tool?.description ?? '', /wait_for_operation/, name);
      assert.match(tool?.description ?? '', /NOT (done|the end)|until it reports|until status/, name);
      assert.ok(
        tool?.outputSchema?.properties && 'statusTool' in tool.outputSchema.properties,
        `${name}: statusTool in output`,
      );
    }
  });

  it('carries the three workflow rules in the tool descriptions', () => {
    const text = (name: string) => tools.find((t) => t.name === name)?.description ?? '';
    assert.match(text('wait_for_operation'), /terminal/);
    assert.match(text('create_cluster'), /Ask the user ONLY for: availability zone, instance type, capacity type/);
    assert.match(text('create_cluster'), /list_clusters.*list_availability_zones.*list_instance_types/s);
    assert.match(text('list_clusters'), /check before create/);
  });

  it('is the list docs/MCP.md, the agent config and the playbook use', () => {
    const root = repoRoot();
    const doc = readFileSync(join(root, 'docs/MCP.md'), 'utf8');
    for (const name of TOOL_NAMES) assert.match(doc, new RegExp(`\\| \`${name}\` \\|`), `docs/MCP.md lacks ${name}`);
    const agent = JSON.parse(readFileSync(join(root, 'agent/hypd-inst-agent.json'), 'utf8')) as {
      name: string;
      allowedTools: string[];
    };
    assert.equal(agent.name, 'hypd-inst-agent');
    for (const allowed of agent.allowedTools.filter((t) => t.startsWith('@instantstart/'))) {
      const name = allowed.slice('@instantstart/'.length);
      assert.ok((TOOL_NAMES as readonly string[]).includes(name), `allowedTools names unknown tool ${name}`);
      assert.ok(READING_VERBS.test(name), `allowedTools auto-approves mutating tool ${name}`);
    }
  });

  it('lists every playbook in docs/MCP.md, and every playbook names only tools that exist', () => {
    const root = repoRoot();
    const doc = readFileSync(join(root, 'docs/MCP.md'), 'utf8');
    const agent = readFileSync(join(root, 'agent/hypd-inst-agent.json'), 'utf8');
    const playbooks = readdirSync(join(root, 'agent/skills')).filter((f) => f.endsWith('.md'));
    assert.ok(playbooks.length >= 6, playbooks.join(', '));
    const TOOLISH =
      /^(list|get|check|browse|plan|diagnose|create|add|scale|update|delete|remove|forget|set|wait|retry|cancel|reboot|replace|start|download|submit|deploy|invoke|assign)_[a-z_]+$/;
    for (const file of playbooks) {
      const name = file.replace(/\.md$/, '');
      assert.match(doc, new RegExp(`agent/skills/${name}\\.md`), `docs/MCP.md lists the playbook ${file}`);
      assert.match(agent, new RegExp(`\\b${name}\\b`), `the agent config names the playbook ${name}`);
      const text = readFileSync(join(root, 'agent/skills', file), 'utf8');
      // Every tool-like word, quoted or not: a playbook followed literally must never call a tool that does not exist.
      for (const word of new Set(text.match(/\b[a-z]+(?:_[a-z]+)+\b/g) ?? [])) {
        if (TOOLISH.test(word))
          assert.ok((TOOL_NAMES as readonly string[]).includes(word), `${file} names unknown tool ${word}`);
      }
    }
  });
});
