import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { tagged } from '../helpers/inventory.js';
import type { TestSandbox } from '../helpers/sandbox.js';
import { startSandboxAndServer, stopAll, type TestServer } from '../helpers/server.js';

const SPEED = 600;
const NAME = 'stubborn';
const request = {
  name: NAME,
  availabilityZone: 'us-west-2c',
  instanceType: 'ml.g5.8xlarge',
  instanceCount: 1,
  storage: { s3: true },
};

describe('delete goes on past a phase that cannot finish, says what remains and why; a retry finishes (sandbox)', () => {
  let sb: TestSandbox;
  let server: TestServer;
  before(async () => {
    ({ sb, server } = await startSandboxAndServer(SPEED));
  });
  after(() => stopAll(server, sb));

  let createId = '';
  it('refuses the same Idempotency-Key with a different body (409 naming the key and its operation); the same body gets the operation back', async () => {
    const first = await server.api('POST', '/api/v1/clusters', request, { 'idempotency-key': 'create-stubborn' });
    assert.equal(first.status, 202, JSON.stringify(first.body));
    createId = first.body.operation.id;

    const other = await server.api(
      'POST',
      '/api/v1/clusters',
      { ...request, instanceCount: 2 },
      { 'idempotency-key': 'create-stubborn' },
    );
    assert.equal(other.status, 409, JSON.stringify(other.body));
    assert.match(other.headers.get('content-type') ?? '', /application\/problem\+json/);
    assert.deepEqual(
      other.body.errors.map((e: any) => e.path),
      ['Idempotency-Key'],
    );
    assert.ok(other.body.detail.includes(createId), other.body.detail);
    assert.match(other.body.detail, /already used for another request \(POST \/api\/v1\/clusters, operation /);

    const same = await server.api('POST', '/api/v1/clusters', request, { 'idempotency-key': 'create-stubborn' });
    assert.equal(same.status, 202);
    assert.deepEqual([same.body.existing, same.body.operation.id], [true, createId]);
    const created = await server.waitForOperation(createId);
    assert.equal(created.status, 'succeeded', JSON.stringify(created.error ?? created.phases));
    assert.equal(created.input.instanceCount, 1, 'the second body changed nothing');
  });

  let deleteId = '';
  it('HyperPod refuses the deletion: EKS, roles, storage and the NAT gateway still go; the operation fails listing what remains and why', async () => {
    const fault = await sb.admin('/_sandbox/faults', {
      method: 'POST',
      body: {
        type: 'error',
        service: 'sagemaker',
        operation: 'DeleteCluster',
        code: 'AccessDeniedException',
        status: 400,
        message: 'User is not authorized to perform: sagemaker:DeleteCluster',
        count: 1000,
      },
    });
    assert.equal(fault.status, 201, JSON.stringify(fault.body));
    const del = await server.api('DELETE', `/api/v1/clusters/${NAME}?confirm=true`);
    assert.equal(del.status, 202, JSON.stringify(del.body));
    deleteId = del.body.operation.id;
    const failed = await server.waitForOperation(deleteId);

    assert.equal(failed.status, 'failed');
    const byName = Object.fromEntries(failed.phases.map((p: any) => [p.name, p]));
    assert.deepEqual(
      failed.phases.map((p: any) => [p.name, p.status]),
      [
        ['load-balancers', 'skipped'],
        ['hyperpod', 'failed'],
        ['mlflow', 'skipped'],
        ['storage', 'succeeded'],
        ['eks', 'succeeded'],
        ['iam', 'succeeded'],
        ['network', 'failed'],
        ['verify', 'failed'],
      ],
    );
    assert.equal(byName.hyperpod.error.code, 'AccessDeniedException');
    assert.equal(byName.network.error.code, 'DependencyViolation');
    assert.match(
      byName.network.error.message,
      /HyperPod cluster .* still has nodes in them, because phase 'hyperpod' failed \(AccessDeniedException\)/,
    );
    assert.equal(failed.error.phase, 'verify');
    assert.match(failed.error.message, /These resources of stubborn still exist: HyperPod cluster stubborn/);
    assert.match(
      failed.error.message,
      /'hyperpod' \(AccessDeniedException: User is not authorized to perform: sagemaker:DeleteCluster\)/,
    );
    assert.doesNotMatch(
      failed.error.message,
      /EKS cluster|IAM role|NAT gateway|Elastic IP|S3 bucket/,
      'what could go is gone',
    );

    // Seen from the cloud itself, with the aws CLI.
    const eks = await sb.aws(['eks', 'list-clusters']);
    assert.ok(!eks.json.clusters.some((c: string) => c.startsWith(NAME)), JSON.stringify(eks.json));
    const nat = await sb.aws([
      'ec2',
      'describe-nat-gateways',
      '--filter',
      `Name=tag:instantstart.io/cluster,Values=${NAME}`,
    ]);
    assert.ok(
      nat.json.NatGateways.every((g: any) => ['deleting', 'deleted'].includes(g.State)),
      JSON.stringify(nat.json.NatGateways),
    );
    const eips = await sb.aws([
      'ec2',
      'describe-addresses',
      '--filters',
      `Name=tag:instantstart.io/cluster,Values=${NAME}`,
    ]);
    assert.deepEqual(eips.json.Addresses, []);
    const left = tagged(await sb.inventory(), NAME);
    assert.ok(
      left.some((t) => t.startsWith('sagemaker/')),
      `the HyperPod cluster remains: ${left.join(', ')}`,
    );
    assert.ok(
      !left.some((t) => t.startsWith('eks/') || t.startsWith('iam/') || t.startsWith('s3/')),
      `left: ${left.join(', ')}`,
    );
  });

  it('once the cause is fixed, retrying a failed phase re-runs every failed phase, then verify, and nothing remains', async () => {
    await sb.admin('/_sandbox/faults', { method: 'DELETE' });
    const retried = await server.api('POST', `/api/v1/operations/${deleteId}/phases/hyperpod/retry`);
    assert.equal(retried.status, 202, JSON.stringify(retried.body));
    const done = await server.waitForOperation(deleteId);
    assert.equal(done.status, 'succeeded', JSON.stringify(done.error ?? done.phases));
    assert.deepEqual(
      done.phases.map((p: any) => [p.name, p.attempts]),
      [
        ['load-balancers', 1],
        ['hyperpod', 2],
        ['mlflow', 1],
        ['storage', 1],
        ['eks', 1],
        ['iam', 1],
        ['network', 2],
        ['verify', 2],
      ],
    );
    assert.deepEqual(tagged(await sb.inventory(), NAME), []);
    const eksDeletes = (await sb.calls({ service: 'eks', operation: 'DeleteCluster' })).filter((c) => c.status < 300);
    assert.equal(eksDeletes.length, 1, 'completed phases were not run again');
  });
});
