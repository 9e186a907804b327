import {
  CreateClusterCommand,
  DescribeClusterCommand,
  ListClusterNodesCommand,
  SageMakerClient,
} from '@aws-sdk/client-sagemaker';
import { buildPrereqs, ensureQuota, group, type HyperPodPrereqs } from '../../test/sandbox/sagemaker-fixtures.js';
import { http, type SandboxAdmin } from './servers.js';
import { progress } from './stats.js';

/**
 * What the figures need to exist: clusters made through our REST API (as a user makes them) and
 * clusters made straight on the sandbox with the AWS SDK (as a user with existing clusters has
 * them; the same fixtures the sandbox tests use).
 */

export const TERMINAL = ['succeeded', 'failed', 'cancelled'];

/** Follows an operation through the REST wait endpoint until it is terminal; returns its view. */
export async function waitForOperation(url: string, id: string, timeoutMs = 15 * 60_000): Promise<any> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    const r = await http(`${url}/api/v1/operations/${id}/wait?timeoutSeconds=30`);
    if (r.status !== 200) throw new Error(`wait for ${id}: ${r.status} ${r.text.slice(0, 500)}`);
    if (TERMINAL.includes(r.body.status)) return r.body;
  }
  throw new Error(`operation ${id} did not finish within ${timeoutMs / 1000} s`);
}

export interface CreateRequest {
  name: string;
  availabilityZone: string;
  instanceType: string;
  instanceCount: number;
  storage?: { s3: boolean };
}

/** POST /api/v1/clusters, then wait; the operation must succeed. */
export async function createThroughRest(
  url: string,
  request: CreateRequest,
): Promise<{ operation: any; elapsedMs: number }> {
  const started = performance.now();
  const posted = await http(`${url}/api/v1/clusters`, { method: 'POST', body: request });
  if (posted.status !== 202) throw new Error(`create ${request.name}: ${posted.status} ${posted.text.slice(0, 800)}`);
  const operation = await waitForOperation(url, posted.body.operation.id);
  const elapsedMs = performance.now() - started;
  if (operation.status !== 'succeeded')
    throw new Error(
      `create ${request.name} ${operation.status}: ${JSON.stringify(operation.error ?? operation.phases)}`,
    );
  return { operation, elapsedMs };
}

/** Advances sandbox time in steps until every named HyperPod cluster is InService. */
async function untilInService(
  admin: SandboxAdmin,
  names: string[],
  stepSeconds: number,
  log?: (line: string) => void,
): Promise<void> {
  const sm = new SageMakerClient({});
  for (let step = 1; step <= 200; step++) {
    const t0 = performance.now();
    await admin.advance(stepSeconds);
    const advancedMs = performance.now() - t0;
    const described = await Promise.all(names.map((n) => sm.send(new DescribeClusterCommand({ ClusterName: n }))));
    const failed = described.find((d) => d.ClusterStatus === 'Failed');
    if (failed) throw new Error(`HyperPod cluster ${failed.ClusterName} failed: ${failed.FailureMessage}`);
    log?.(
      `step ${step}: advancing ${stepSeconds} s took ${Math.round(advancedMs)} ms; ${described.map((d) => `${d.ClusterName} ${d.ClusterStatus} ${(d.InstanceGroups ?? []).map((g) => `${g.CurrentCount}/${g.TargetCount}`).join('+')}`).join(', ')}`,
    );
    if (described.every((d) => d.ClusterStatus === 'InService')) return;
  }
  throw new Error(`clusters ${names.join(', ')} not InService after 200 steps`);
}

/** `count` more HyperPod clusters (one ml.c5.xlarge node each), each on its own EKS cluster, made with the SDK. */
export async function extraClusters(admin: SandboxAdmin, count: number, prefix = 'extra'): Promise<string[]> {
  const sm = new SageMakerClient({});
  const names: string[] = [];
  for (let i = 1; i <= count; i++) {
    const name = `${prefix}-${i}`;
    const p = await buildPrereqs(admin, name);
    await sm.send(
      new CreateClusterCommand({
        ClusterName: name,
        InstanceGroups: [group(p, 'workers', 'ml.c5.xlarge', 1)],
        VpcConfig: { SecurityGroupIds: [p.securityGroupId], Subnets: p.privateSubnets },
        Orchestrator: { Eks: { ClusterArn: p.eksClusterArn } },
      }),
    );
    names.push(name);
  }
  await untilInService(admin, names, 120);
  return names;
}

/**
 * The large cluster of `test/web/nodes-5000.test.ts`: two instance groups of ml.c5.xlarge (3/5 and
 * 2/5 of `total`) made with the SDK after raising the quotas through Service Quotas, then sandbox
 * time jumped until every node runs; two nodes get a health fault so a health filter finds something.
 */
export async function bigCluster(
  admin: SandboxAdmin,
  name: string,
  total: number,
): Promise<{ faulted: string[]; setupMs: number; groups: Record<string, number> }> {
  const started = performance.now();
  const type = 'ml.c5.xlarge';
  const groups = { alpha: Math.round((total * 3) / 5), beta: total - Math.round((total * 3) / 5) };
  const p: HyperPodPrereqs = await buildPrereqs(admin, name);
  await ensureQuota(admin, `${type} for cluster usage`, total);
  await ensureQuota(admin, 'Maximum number of instances allowed per SageMaker HyperPod cluster', total);
  await ensureQuota(admin, 'Total number of instances allowed across SageMaker HyperPod clusters', total + 100);
  const sm = new SageMakerClient({});
  await sm.send(
    new CreateClusterCommand({
      ClusterName: name,
      InstanceGroups: Object.entries(groups).map(([g, n]) => group(p, g, type, n)),
      VpcConfig: { SecurityGroupIds: [p.securityGroupId], Subnets: p.privateSubnets },
      Orchestrator: { Eks: { ClusterArn: p.eksClusterArn } },
      NodeRecovery: 'None',
    }),
  );
  await untilInService(admin, [name], 120, progress);
  const first = await sm.send(new ListClusterNodesCommand({ ClusterName: name, MaxResults: 10 }));
  const faulted = first.ClusterNodeSummaries!.slice(0, 2).map((n) => n.InstanceId!);
  for (const instanceId of faulted) {
    await admin.fault({
      type: 'node-fault',
      cluster: name,
      instanceId,
      health: 'UnschedulablePendingReplacement',
      reason: 'Xid 48: double-bit ECC error',
    });
  }
  await admin.advance(1);
  return { faulted, setupMs: performance.now() - started, groups };
}
