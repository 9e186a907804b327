import type { SandboxAdmin, SandboxCall, Served } from './lib/servers.js';
import { int, ratio, report, table } from './lib/stats.js';
import { createThroughRest, type CreateRequest } from './lib/world.js';

/**
 * (c) create-cluster end to end against the sandbox's own service time.
 *
 * The sandbox records when each slow resource was created and when it was done (`/_sandbox/inventory`:
 * NAT gateways, VPC endpoints, the EKS cluster, each add-on, the HyperPod cluster). From those:
 * - the sequential sum: the stages one after another, as the phases ran on main at the time of writing;
 * - the critical path, from what AWS requires (shared/reference/hyperpod-apis.md §5): EKS needs the
 *   subnets, not the NAT gateway, so the NAT wait can overlap it; every add-on needs an ACTIVE EKS
 *   cluster and nothing else of ours, so base and dependency add-ons can install together; HyperPod
 *   needs the NAT route, the add-ons (the chart is installed before CreateCluster) and EKS.
 *     critical path = max(network, EKS) + max(base add-ons, dependency add-ons) + HyperPod
 * Each stage lasts as long as its slowest resource (resources of one stage are created together).
 * Instant resources (VPC, subnets, roles, the bucket) add nothing.
 */

const BASE_ADDONS = new Set(['vpc-cni', 'kube-proxy', 'coredns', 'eks-pod-identity-agent']);

type Stage = 'network' | 'eks' | 'base add-ons' | 'dependency add-ons' | 'hyperpod';

interface Timed {
  stage: Stage;
  what: string;
  seconds: number;
}

const iso = (v: string | undefined) => (v ? Date.parse(v) : Number.NaN);

/** Every resource created within [from, to] (sandbox ms) that took time, with its own service time. */
export function serviceTimes(inventory: Record<string, Record<string, any[]>>, from: number, to: number): Timed[] {
  const within = (t: number) => t >= from && t <= to;
  const out: Timed[] = [];
  const add = (stage: Stage, what: string, created: number, done: number) => {
    if (within(created) && Number.isFinite(done)) out.push({ stage, what, seconds: (done - created) / 1000 });
  };
  for (const n of inventory.ec2?.natGateways ?? [])
    add('network', `NAT gateway ${n.natGatewayId}`, n.createTime, n.readyAt);
  for (const e of inventory.ec2?.vpcEndpoints ?? [])
    add('network', `VPC endpoint ${e.serviceName}`, e.createdAt, e.readyAt);
  for (const c of inventory.eks?.clusters ?? []) add('eks', `EKS cluster ${c.name}`, iso(c.createdAt), iso(c.activeAt));
  for (const a of inventory.eks?.addons ?? [])
    add(
      BASE_ADDONS.has(a.addonName) ? 'base add-ons' : 'dependency add-ons',
      `add-on ${a.addonName}`,
      iso(a.createdAt),
      iso(a.activeAt),
    );
  for (const h of inventory.sagemaker?.clusters ?? []) {
    // Done when InService and every node runs (with continuous provisioning InService comes first).
    const running = (inventory.sagemaker?.nodes ?? []).filter((n) => n.cluster === h.name).map((n) => iso(n.runningAt));
    add(
      'hyperpod',
      `HyperPod cluster ${h.name} and its ${running.length} node(s)`,
      iso(h.createdAt),
      Math.max(iso(h.inServiceAt), ...running),
    );
  }
  return out;
}

export function stageSeconds(resources: Timed[]): Record<Stage, number> {
  const longest = (stage: Stage) => Math.max(0, ...resources.filter((r) => r.stage === stage).map((r) => r.seconds));
  return {
    network: longest('network'),
    eks: longest('eks'),
    'base add-ons': longest('base add-ons'),
    'dependency add-ons': longest('dependency add-ons'),
    hyperpod: longest('hyperpod'),
  };
}

export interface CreateFigures {
  operationId: string;
  endToEndSeconds: number;
  sequentialSeconds: number;
  criticalPathSeconds: number;
  callsPerResourceMinute: number;
}

export async function measureCreate(
  served: Served,
  admin: SandboxAdmin,
  request: CreateRequest,
  speed: number,
  print: boolean,
): Promise<CreateFigures> {
  const seq0 = Math.max(0, ...(await admin.calls()).map((c) => c.seq));
  const clock0 = await admin.clock();
  const { operation, elapsedMs } = await createThroughRest(served.url, request);
  const clock1 = await admin.clock();
  const calls: SandboxCall[] = await admin.calls(seq0);
  const resources = serviceTimes(await admin.inventory(), clock0, clock1);
  const s = stageSeconds(resources);
  const sequential = s.network + s.eks + s['base add-ons'] + s['dependency add-ons'] + s.hyperpod;
  const critical = Math.max(s.network, s.eks) + Math.max(s['base add-ons'], s['dependency add-ons']) + s.hyperpod;
  const endToEnd = elapsedMs / 1000;
  const resourceMinutes = resources.reduce((sum, r) => sum + r.seconds, 0) / 60;
  const figures: CreateFigures = {
    operationId: operation.id,
    endToEndSeconds: endToEnd,
    sequentialSeconds: sequential / speed,
    criticalPathSeconds: critical / speed,
    callsPerResourceMinute: calls.length / resourceMinutes,
  };
  if (!print) return figures;

  const real = (sandboxSeconds: number) => `${(sandboxSeconds / speed).toFixed(1)} s`;
  const minutes = (sandboxSeconds: number) => `${(sandboxSeconds / 60).toFixed(1)} min`;
  const phases = (operation.phases as any[]).map((p) => {
    const start = (Date.parse(p.startedAt) - Date.parse(operation.createdAt)) / 1000;
    return [
      p.name,
      p.status,
      `+${start.toFixed(1)} s`,
      `${((p.durationMs ?? 0) / 1000).toFixed(1)} s`,
      minutes(((p.durationMs ?? 0) / 1000) * speed),
    ];
  });
  const byOperation = new Map<string, number>();
  for (const c of calls)
    byOperation.set(`${c.service} ${c.operation}`, (byOperation.get(`${c.service} ${c.operation}`) ?? 0) + 1);
  const top = [...byOperation].sort((a, b) => b[1] - a[1]).slice(0, 8);
  const reads = calls.filter((c) => !c.mutating).length;
  report(
    `(c) create-cluster end to end vs the sandbox's service time (speed ${speed}, ${request.instanceCount} × ${request.instanceType})`,
    [
      table([
        ['figure', 'real time', 'AWS time'],
        ['end to end (POST → succeeded, seen by the client)', `${endToEnd.toFixed(1)} s`, minutes(endToEnd * speed)],
        ['sandbox service time, stages in sequence', real(sequential), minutes(sequential)],
        ['sandbox service time, critical path', real(critical), minutes(critical)],
      ]),
      '',
      `end to end / critical path: ${ratio(endToEnd / (critical / speed))}   end to end / sequential sum: ${ratio(endToEnd / (sequential / speed))}   critical path / sequential sum: ${ratio(critical / sequential)}`,
      '',
      table([
        ['stage (sandbox)', 'slowest resource', 'AWS time'],
        ...(Object.keys(s) as Stage[]).map((st) => [
          st,
          resources.filter((r) => r.stage === st).sort((a, b) => b.seconds - a.seconds)[0]?.what ?? '–',
          minutes(s[st]),
        ]),
      ]),
      '',
      table([['phase (ours)', 'status', 'started', 'took', 'as AWS time'], ...phases]),
      '',
      `AWS calls during the create: ${int(calls.length)} (${int(reads)} reads) over ${resourceMinutes.toFixed(1)} resource-minutes ` +
        `(${resources.length} resources that take time) → ${(calls.length / resourceMinutes).toFixed(2)} calls per resource-minute (${(reads / resourceMinutes).toFixed(2)} reads)`,
      `most called: ${top.map(([k, n]) => `${k} ${n}`).join(', ')}`,
    ].join('\n'),
  );
  return figures;
}
