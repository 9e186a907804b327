import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { availableParallelism, totalmem } from 'node:os';
import { parseArgs } from 'node:util';
import { measureCreate } from './create.js';
import { endpointList } from './endpoint-list.js';
import { inferenceStream } from './inference-stream.js';
import { inferenceWorld } from './inference-world.js';
import { jobLogs } from './job-logs.js';
import { killChildren, removeDir, ROOT, tempDir } from './lib/processes.js';
import { logIn, SandboxAdmin, startServe, useSandbox } from './lib/servers.js';
import { progress } from './lib/stats.js';
import { mcpVsRest } from './mcp.js';
import { nodes5000 } from './nodes-5000.js';
import { restReads } from './rest-reads.js';
import { startup } from './startup.js';

/**
 * `npm run bench [-- --only a,c] [--quick] [--json FILE]`: the figures of docs/BENCHMARKS.md, each
 * measured side by side with its reference in the same run. Never part of `npm test`.
 *   a  REST reads vs a bare Fastify serving the same bodies
 *   b  MCP tool calls vs the REST calls they wrap
 *   c  create-cluster end to end vs the sandbox's own service time, AWS calls per resource-minute
 *   d  the node table of a 5,000-node cluster, /healthz while it ticks, server RSS
 *   e  start-up time and idle RSS
 *   f  1 M job log lines through the follow WebSocket vs a bare Fastify relay, server RSS
 *   g  a streamed chat completion through our API and the service proxy vs straight to the model server
 *   h  the endpoint list of 10 clusters with 100 endpoints each vs a bare Fastify serving the same bodies
 */
const USAGE = `usage: npm run bench -- [--only a,b,c,d,e,f,g,h] [--quick] [--nodes N] [--json FILE]
  --quick   fewer and shorter samples, sandbox speed 100 for the create, 1,000 nodes, 100,000 log lines, 10 streamed rounds,
            3 endpoint clusters of 100: under 4 minutes
  --nodes   nodes in the large cluster of (d) (default 5000; 1000 with --quick)
  --json    also write every figure as JSON to FILE`;

// The SDK's notice about its future Node.js support is noise here (the sandbox fixtures use the SDK).
process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED = 'true';

const { values } = parseArgs({
  options: {
    only: { type: 'string', default: 'a,b,c,d,e,f,g,h' },
    quick: { type: 'boolean', default: false },
    nodes: { type: 'string' },
    json: { type: 'string' },
    help: { type: 'boolean', short: 'h' },
  },
  strict: true,
});
if (values.help) {
  process.stdout.write(`${USAGE}\n`);
  process.exit(0);
}
const only = new Set(values.only.split(',').map((s) => s.trim().toLowerCase()));
for (const g of only)
  if (!'abcdefgh'.includes(g) || g.length !== 1) throw new Error(`--only takes letters a–h, got '${g}'\n${USAGE}`);
const quick = values.quick;

/** Sample sizes: the full run takes under ~10 minutes on 2 cores, the quick one under 2. */
const settings = quick
  ? {
      speed: 100,
      reads: { connections: 10, rounds: 1, seconds: 1, warmupSeconds: 1 },
      mcpCalls: 30,
      nodes: { total: 1000, restarts: 0, warmReads: 5, refreshReads: 0, quietSeconds: 5 },
      start: { runs: 2, idleSeconds: 1 },
      stream: { pairs: 10 },
      list: { clusters: 3, perCluster: 100, rounds: 3, connections: 10, seconds: 1 },
    }
  : {
      speed: 20,
      reads: { connections: 10, rounds: 3, seconds: 3, warmupSeconds: 1 },
      mcpCalls: 100,
      nodes: { total: 5000, restarts: 2, warmReads: 10, refreshReads: 2, quietSeconds: 15 },
      start: { runs: 5, idleSeconds: 5 },
      stream: { pairs: 40 },
      list: { clusters: 10, perCluster: 100, rounds: 10, connections: 10, seconds: 3 },
    };
if (values.nodes) settings.nodes.total = Number(values.nodes);

const git = (args: string[]) => {
  try {
    return execFileSync('git', args, { cwd: ROOT, encoding: 'utf8' }).trim();
  } catch {
    return '?';
  }
};
const started = Date.now();
process.stdout.write(
  `# InstantStart bench — ${new Date().toISOString()}\n` +
    `commit ${git(['rev-parse', '--short', 'HEAD'])}${git(['status', '--porcelain']) ? ' (with uncommitted changes)' : ''}, node ${process.version}, ` +
    `${availableParallelism()} CPUs, ${Math.round(totalmem() / 2 ** 30)} GiB; ${quick ? 'quick' : 'full'} run of ${[...only].sort().join(',')}\n`,
);

// Interrupted: stop the servers this run started (they would outlive it otherwise).
for (const sig of ['SIGINT', 'SIGTERM'] as const) {
  process.on(sig, () => {
    killChildren();
    process.exit(130);
  });
}

const results: Record<string, unknown> = { quick, only: [...only] };
const ZONE = 'us-west-2b';
/** Tokens in each streamed answer of (g): several hundred, as a long chat answer has. */
const ANSWER_TOKENS = 400;

if (only.has('a') || only.has('b') || only.has('c')) {
  // One server for a, b and c: the create (c) makes the cluster that a and b read.
  const dir = tempDir('main');
  const served = await startServe({ dataDir: `${dir}/data`, speed: settings.speed, logFile: logIn(dir, 'serve') });
  try {
    useSandbox(served.sandboxUrl);
    const admin = new SandboxAdmin(served.sandboxUrl);
    progress(`(c) creating a cluster through the REST API at sandbox speed ${settings.speed}`);
    const created = await measureCreate(
      served,
      admin,
      { name: 'bench', availabilityZone: ZONE, instanceType: 'ml.g5.8xlarge', instanceCount: 1 },
      settings.speed,
      only.has('c'),
    );
    results.create = created;
    const common = { cluster: 'bench', operationId: created.operationId, zone: ZONE };
    if (only.has('a')) results.reads = await restReads(served, admin, { dir, ...common, ...settings.reads });
    if (only.has('b')) results.mcp = await mcpVsRest(served, { ...common, calls: settings.mcpCalls });
  } finally {
    await served.stop();
    removeDir(dir);
  }
}
if (only.has('d')) results.nodes = await nodes5000({ ...settings.nodes, speed: 20 });
if (only.has('e')) results.startup = await startup(settings.start);
if (only.has('f')) results.logs = await jobLogs({ lines: quick ? 100_000 : 1_000_000, speed: 100 });
if (only.has('g') || only.has('h')) {
  // One server for g and h: h's fleet copies the endpoint g streams from.
  const dir = tempDir('inference');
  const served = await startServe({ dataDir: `${dir}/data`, speed: 100, logFile: logIn(dir, 'serve') });
  try {
    useSandbox(served.sandboxUrl);
    const world = await inferenceWorld(served, dir, ANSWER_TOKENS);
    if (only.has('g')) results.stream = await inferenceStream(served, world, settings.stream);
    if (only.has('h')) results.endpoints = await endpointList(served, world, { dir, ...settings.list });
  } finally {
    await served.stop();
    removeDir(dir);
  }
}

process.stdout.write(`\nbench finished in ${Math.round((Date.now() - started) / 1000)} s\n`);
if (values.json) writeFileSync(values.json, JSON.stringify(results, null, 2));
