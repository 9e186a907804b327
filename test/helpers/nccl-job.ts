import assert from 'node:assert/strict';
import type { TestSandbox } from './sandbox.js';
import type { TestServer } from './server.js';

/** While the job runs (~1000 sandbox seconds) the clock slows, so that the fault hits a running rank. */
export const RUN_SPEED = 40;

/** Polls (real time) until `probe` gives a value. */
export async function until<T>(probe: () => Promise<T | undefined | false>, what: string, seconds = 90): Promise<T> {
  const end = Date.now() + seconds * 1000;
  while (Date.now() < end) {
    const v = await probe().catch(() => undefined);
    if (v) return v;
    await new Promise((r) => setTimeout(r, 300));
  }
  throw new Error(`timed out waiting for ${what}`);
}

/** A cluster of two ml.g5.xlarge nodes (one GPU each, no EFA) with the shared S3 storage, made through REST. */
export async function createGpuCluster(server: TestServer, cluster: string): Promise<void> {
  const created = await server.api('POST', '/api/v1/clusters', {
    name: cluster,
    availabilityZone: 'us-west-2b',
    instanceType: 'ml.g5.xlarge',
    instanceCount: 2,
    storage: { s3: true },
  });
  assert.equal(created.status, 202, JSON.stringify(created.body));
  const op = await server.waitForOperation(created.body.operation.id);
  assert.equal(op.status, 'succeeded', JSON.stringify(op.error ?? op.phases));
}

/**
 * A two-rank HyperPodPyTorchJob submitted through REST (no EFA settings: the type has none), and, once it runs, a
 * staged NCCL timeout (POST /_sandbox/kube/<eks>/faults/training) with the clock moved past the process group's
 * timeout, so that each rank's watchdog has aborted it. The clock is left nearly stopped.
 */
/** The two-rank pytorch-script job the NCCL tests run on a group (its submit request). */
export const ncclJobRequest = (job: string, group: string) => ({
  name: job,
  recipe: 'pytorch-script',
  params: { script: '/data/code/train.py', scriptArgs: ['--epochs', '1'] },
  instanceGroup: group,
  storage: 'shared-s3',
  nodes: 2,
  faultTolerance: { jobMaxRetryCount: 3 },
});

export async function jobWithNcclTimeout(sb: TestSandbox, server: TestServer, cluster: string, job: string) {
  const clock = (speed: number) => sb.admin('/_sandbox/clock', { method: 'POST', body: { speed } });
  const group = (await server.api('GET', `/api/v1/clusters/${cluster}`)).body.instanceGroups[0].name;
  await clock(RUN_SPEED);
  const submitted = await server.api('POST', `/api/v1/clusters/${cluster}/jobs`, ncclJobRequest(job, group));
  assert.equal(submitted.status, 201, JSON.stringify(submitted.body));
  await ncclTimeoutOnceRunning(sb, server, cluster, job);
}

/**
 * Once the job (submitted with the clock at RUN_SPEED) runs: the staged NCCL timeout on rank 1, the clock moved past
 * the process group's timeout, and left nearly stopped.
 */
export async function ncclTimeoutOnceRunning(sb: TestSandbox, server: TestServer, cluster: string, job: string) {
  const clock = (speed: number) => sb.admin('/_sandbox/clock', { method: 'POST', body: { speed } });
  await until(
    async () => (await server.api('GET', `/api/v1/clusters/${cluster}/jobs/default/${job}`)).body.phase === 'Running',
    `${job} Running`,
  );
  // Stop the clock (nearly) on a whole second before staging the fault: a container's finishedAt has whole seconds
  // (RFC 3339 as the kubelet writes it), and the sandbox cuts a run's log at its finishedAt, so a watchdog abort at
  // x.5 s would lose its own lines (a sandbox limitation, reported).
  await clock(0.000001);
  const now = Date.parse((await sb.admin('/_sandbox/clock', { method: 'GET' })).body.now);
  if (now % 1000) await sb.advance((1000 - (now % 1000)) / 1000);
  const fault = await sb.admin(`/_sandbox/kube/${cluster}-eks/faults/training`, {
    method: 'POST',
    body: { job, rank: 1, kind: 'nccl-timeout', timeoutSeconds: 30 },
  });
  assert.equal(fault.status, 201, JSON.stringify(fault.body));
  await sb.advance(35); // past the process group's timeout: each rank's watchdog aborts
}
