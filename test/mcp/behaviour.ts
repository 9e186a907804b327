import assert from 'node:assert/strict';
import { after, before, beforeEach, describe, it } from 'node:test';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { call } from './client-helpers.js';
import { accepted, operation, problem, startFakeRest, type FakeRest } from './fake-rest.js';

/** Opens an MCP client whose server's tools call `restUrl`; returns the client and how to shut it down. */
export type Connect = (restUrl: string) => Promise<{ client: Client; close(): Promise<void> }>;

const CREATE_ARGS = {
  cluster: 'demo',
  availabilityZone: 'us-west-2b',
  instanceType: 'ml.g5.8xlarge',
  instanceCount: 2,
};
/** The REST body of CREATE_ARGS: the API calls the new cluster's name `name`. */
const CREATE_BODY = { name: 'demo', availabilityZone: 'us-west-2b', instanceType: 'ml.g5.8xlarge', instanceCount: 2 };

/**
 * The behaviour every transport must show, run once over streamable HTTP and once over stdio:
 * the same tools, the same REST calls, the same wording of operations and errors.
 */
export function describeToolBehaviour(transport: string, connect: Connect): void {
  describe(`MCP tools over ${transport}`, () => {
    let rest: FakeRest;
    let client: Client;
    let close: () => Promise<void>;

    before(async () => {
      rest = await startFakeRest();
      ({ client, close } = await connect(rest.url));
    });
    after(async () => {
      await close();
      await rest.close();
    });
    beforeEach(() => {
      rest.requests.length = 0;
      rest.routes.clear();
    });

    it('create_cluster posts the request (with the schema defaults) and names wait_for_operation', async () => {
      rest.routes.set('POST /api/v1/clusters', () => accepted(operation({ status: 'pending' })));
      const result = await call(client, 'create_cluster', CREATE_ARGS);
      assert.equal(result.isError, undefined, result.text);
      assert.equal(rest.requests.length, 1);
      const [req] = rest.requests;
      assert.equal(req.headers['content-type'], 'application/json');
      assert.deepEqual(req.body, {
        ...CREATE_BODY,
        capacityType: 'on-demand',
        deepHealthChecks: false,
        storage: { s3: true },
      });
      assert.equal(req.headers['idempotency-key'], undefined, 'no key unless the agent sends one');
      const data = result.structuredContent as Record<string, unknown>;
      assert.equal(data.statusTool, 'wait_for_operation');
      assert.deepEqual(data.statusToolArguments, { operationId: 'op-123' });
      assert.equal(data.done, false);
      assert.match(result.text, /NOT done/);
      assert.match(result.text, /wait_for_operation with \{"operationId":"op-123"\}/);
    });

    it('idempotencyKey travels as the Idempotency-Key header of the mutation, never in its body', async () => {
      rest.routes.set('POST /api/v1/clusters', () => accepted(operation({ status: 'pending' })));
      const result = await call(client, 'create_cluster', { ...CREATE_ARGS, idempotencyKey: 'agent-try-1' });
      assert.equal(result.isError, undefined, result.text);
      assert.equal(rest.requests[0].headers['idempotency-key'], 'agent-try-1');
      assert.equal((rest.requests[0].body as Record<string, unknown>).idempotencyKey, undefined);
      rest.routes.set('PATCH /api/v1/clusters/demo/instance-groups/gpu', () =>
        accepted(operation({ kind: 'scale-instance-group' })),
      );
      const scaled = await call(client, 'scale_instance_group', {
        cluster: 'demo',
        group: 'gpu',
        instanceCount: 3,
        idempotencyKey: 'scale-1',
      });
      assert.equal(scaled.isError, undefined, scaled.text);
      assert.equal(rest.requests[1].headers['idempotency-key'], 'scale-1');
      assert.deepEqual(rest.requests[1].body, { instanceCount: 3 });
      const bad = await call(client, 'create_cluster', { ...CREATE_ARGS, idempotencyKey: 'has space' });
      assert.equal(bad.isError, true);
      assert.match(bad.text, /idempotencyKey/);
      assert.equal(rest.requests.length, 2, 'a bad key is refused before any request');
    });

    it('a repeat the server answers with the succeeded operation says nothing new was started', async () => {
      rest.routes.set('POST /api/v1/clusters', () =>
        accepted(operation({ status: 'succeeded', currentPhase: undefined, runningPhases: [] }), true),
      );
      const result = await call(client, 'create_cluster', CREATE_ARGS);
      assert.equal(result.isError, undefined, result.text);
      assert.equal((result.structuredContent as Record<string, unknown>).existing, true);
      assert.match(result.text, /already answered by operation op-123 .* which succeeded; nothing new was started/);
    });

    it("a problem the API reports on its own field name reads as the tool's input name (name → cluster)", async () => {
      rest.routes.set('POST /api/v1/clusters', () => problem(422, 'name', 'a cluster named demo already exists'));
      const result = await call(client, 'create_cluster', CREATE_ARGS);
      assert.equal(result.isError, true);
      assert.match(result.text, /- cluster: a cluster named demo already exists/);
    });

    it('scale_instance_group is the one count tool: a shrink carries confirm, update_instance_group takes no count', async () => {
      rest.routes.set('PATCH /api/v1/clusters/demo/instance-groups/gpu', () =>
        accepted(operation({ kind: 'scale-instance-group' })),
      );
      const shrink = await call(client, 'scale_instance_group', {
        cluster: 'demo',
        group: 'gpu',
        instanceCount: 0,
        confirm: true,
      });
      assert.equal(shrink.isError, undefined, shrink.text);
      assert.deepEqual(rest.requests[0].body, { instanceCount: 0, confirm: true });
      const count = await call(client, 'update_instance_group', {
        cluster: 'demo',
        group: 'gpu',
        instanceCount: 1,
      } as never);
      assert.equal(count.isError, true);
      assert.match(count.text, /instanceCount/);
      assert.equal(rest.requests.length, 1);
    });

    it('a problem+json 400 becomes an isError result naming the field', async () => {
      rest.routes.set('POST /api/v1/clusters', () => problem(400, 'instanceType', 'is not offered in us-west-2b'));
      const result = await call(client, 'create_cluster', CREATE_ARGS);
      assert.equal(result.isError, true);
      assert.match(result.text, /HTTP 400/);
      assert.match(result.text, /- instanceType: is not offered in us-west-2b/);
      assert.equal(result.structuredContent, undefined);
    });

    it('input the shared schema rejects never reaches the REST API, and the error names the field', async () => {
      const result = await call(client, 'create_cluster', { ...CREATE_ARGS, instanceCount: 0 });
      assert.equal(result.isError, true);
      assert.match(result.text, /instanceCount/);
      assert.equal(rest.requests.length, 0);
    });

    it('wait_for_operation passes timeoutSeconds and reports a terminal success', async () => {
      rest.routes.set('GET /api/v1/operations/op-123/wait', () => ({
        body: operation({
          status: 'succeeded',
          currentPhase: undefined,
          runningPhases: [],
          phases: [
            {
              name: 'network',
              title: 'Network',
              status: 'succeeded',
              attempts: 1,
              expectedSeconds: 600,
              durationMs: 4000,
              finishedAt: '2026-01-01T00:10:00.000Z',
              retryable: false,
            },
          ],
        }),
      }));
      const result = await call(client, 'wait_for_operation', { operationId: 'op-123', timeoutSeconds: 7 });
      assert.equal(result.isError, undefined, result.text);
      assert.equal(rest.requests[0].query.timeoutSeconds, '7');
      const data = result.structuredContent as Record<string, unknown>;
      assert.equal(data.terminal, true);
      assert.equal(data.succeeded, true);
      assert.match(result.text, /SUCCEEDED — 1\/1 phases done/);
    });

    it('wait_for_operation answers compactly: phases as name, status and progress, the failure in one line', async () => {
      rest.routes.set('GET /api/v1/operations/op-123/wait', () => ({
        body: operation({
          status: 'failed',
          currentPhase: 'hyperpod',
          phases: [
            {
              name: 'network',
              title: 'Network',
              status: 'succeeded',
              attempts: 1,
              expectedSeconds: 600,
              durationMs: 4000,
              finishedAt: '2026-01-01T00:10:00.000Z',
              retryable: false,
            },
            {
              name: 'hyperpod',
              title: 'HyperPod cluster',
              status: 'failed',
              attempts: 2,
              expectedSeconds: 900,
              retryable: true,
              error: { code: 'ResourceLimitExceeded', message: 'quota' },
            },
          ],
        }),
      }));
      const result = await call(client, 'wait_for_operation', { operationId: 'op-123', timeoutSeconds: 1 });
      assert.equal(result.isError, undefined, result.text);
      const data = result.structuredContent as Record<string, unknown>;
      assert.deepEqual(data.phases, [
        { name: 'network', status: 'succeeded' },
        { name: 'hyperpod', status: 'failed' },
      ]);
      assert.deepEqual(
        [data.failedPhase, data.retryable, data.error, data.phasesDone],
        ['hyperpod', true, 'ResourceLimitExceeded: quota', 1],
      );
      assert.equal(data.operation, undefined, 'no operation view: get_operation has the full report');
      assert.match(
        result.text,
        /Failed: \[failed\] hyperpod — HyperPod cluster, attempt 2: ResourceLimitExceeded: quota/,
      );
      assert.match(result.text, /retry_operation_phase \{"operationId":"op-123","phase":"hyperpod"\}/);
    });

    it('answers carry their data once: a short text for the model, the data as structuredContent', async () => {
      rest.routes.set('GET /api/v1/operations/op-123', () => ({ body: operation() }));
      rest.routes.set('GET /api/v1/clusters', () => ({ body: { clusters: [] } }));
      for (const [tool, args] of [
        ['get_operation', { operationId: 'op-123' }],
        ['list_clusters', {}],
      ] as const) {
        const result = await call(client, tool, args);
        assert.equal(result.isError, undefined, result.text);
        assert.equal(result.content.length, 1, `${tool}: one text block`);
        assert.ok(result.structuredContent, `${tool}: structured content`);
        assert.throws(() => JSON.parse(result.text), `${tool}: the text is not the JSON again`);
      }
    });

    it('an unknown tool is an error result, not a protocol failure', async () => {
      const result = await call(client, 'make_coffee');
      assert.equal(result.isError, true);
      assert.match(result.text, /make_coffee not found/);
    });

    it('wait_for_operation says to call again while the operation runs', async () => {
      rest.routes.set('GET /api/v1/operations/op-123/wait', () => ({ body: operation() }));
      const result = await call(client, 'wait_for_operation', { operationId: 'op-123', timeoutSeconds: 1 });
      const data = result.structuredContent as Record<string, unknown>;
      assert.equal(data.terminal, false);
      assert.deepEqual(data.next, { tool: 'wait_for_operation', arguments: { operationId: 'op-123' } });
      assert.match(result.text, /NOT finished/);
      assert.match(result.text, /EKS cluster CREATING/);
    });

    it('wait_for_operation and get_operation show phases running side by side; the report says what a pending phase runs after', async () => {
      const running = operation({
        currentPhase: 'nat-ready',
        runningPhases: ['nat-ready', 'eks'],
        phases: [
          {
            name: 'nat-ready',
            title: 'NAT gateway available',
            status: 'awaiting',
            attempts: 1,
            expectedSeconds: 120,
            after: ['network'],
            progress: 'NAT gateway pending',
            retryable: false,
          },
          {
            name: 'eks',
            title: 'EKS control plane',
            status: 'awaiting',
            attempts: 1,
            expectedSeconds: 600,
            after: ['network', 'iam'],
            progress: 'EKS cluster CREATING',
            retryable: false,
          },
          {
            name: 'hyperpod',
            title: 'HyperPod cluster',
            status: 'pending',
            attempts: 0,
            expectedSeconds: 900,
            after: ['nat-ready', 'eks-addons', 'dependencies'],
            retryable: false,
          },
        ],
      });
      rest.routes.set('GET /api/v1/operations/op-123/wait', () => ({ body: running }));
      rest.routes.set('GET /api/v1/operations/op-123', () => ({ body: running }));
      const waited = await call(client, 'wait_for_operation', { operationId: 'op-123', timeoutSeconds: 1 });
      assert.deepEqual((waited.structuredContent as Record<string, unknown>).runningPhases, ['nat-ready', 'eks']);
      assert.match(waited.text, /2 running side by side/);
      assert.match(waited.text, /Now: .*nat-ready.*NAT gateway pending/);
      assert.match(waited.text, /Now: .*eks.*EKS cluster CREATING/);
      assert.match(waited.text, /NOT finished \(running, phases nat-ready, eks\)/);

      const report = await call(client, 'get_operation', { operationId: 'op-123' });
      assert.deepEqual((report.structuredContent as Record<string, unknown>).runningPhases, ['nat-ready', 'eks']);
      assert.match(report.text, /2 phases running side by side \(nat-ready, eks\)/);
      assert.match(report.text, /hyperpod — HyperPod cluster \(after nat-ready, eks-addons, dependencies\)/);
    });

    it('a 409 because another operation runs names it and wait_for_operation', async () => {
      const detail =
        'delete-cluster on cluster/us-west-2/demo cannot start: add-instance-group operation op-9 (running) on cluster/us-west-2/demo/instance-group/gpu shares cluster/us-west-2/demo. Wait until it ends — wait_for_operation {"operationId":"op-9"} or GET /api/v1/operations/op-9 — then send this request again.';
      rest.routes.set('DELETE /api/v1/clusters/demo', () => ({
        status: 409,
        contentType: 'application/problem+json',
        body: {
          type: 'https://instantstart.dev/problems/conflict',
          title: 'Conflict',
          status: 409,
          detail,
          operation: {
            id: 'op-9',
            kind: 'add-instance-group',
            status: 'running',
            target: 'cluster/us-west-2/demo/instance-group/gpu',
            statusUrl: '/api/v1/operations/op-9',
            statusTool: 'wait_for_operation',
          },
        },
      }));
      const result = await call(client, 'delete_cluster', { cluster: 'demo', confirm: true });
      assert.equal(result.isError, true);
      assert.match(result.text, /HTTP 409/);
      assert.match(result.text, /op-9/);
      assert.match(result.text, /wait_for_operation \{"operationId":"op-9"\}/);
    });

    it('a cloud outage on a read says what failed and to try again; a server bug says to read the state first', async () => {
      const detail =
        'list Node: could not reach the Kubernetes API of EKS cluster demo-eks (ECONNRESET): socket hang up';
      rest.routes.set('GET /api/v1/clusters/demo/nodes', () => ({
        status: 502,
        contentType: 'application/problem+json',
        body: { type: 'https://instantstart.dev/problems/cloud', title: 'Cloud request failed', status: 502, detail },
      }));
      const outage = await call(client, 'list_nodes', { cluster: 'demo' });
      assert.equal(outage.isError, true);
      assert.match(outage.text, /HTTP 502 Cloud request failed — list Node: could not reach the Kubernetes API/);
      assert.match(outage.text, /Try again shortly/);
      assert.doesNotMatch(outage.text, /get_operation_logs/, 'a read has no operation to read logs of');

      rest.routes.set('GET /api/v1/clusters/demo/nodes', () => ({
        status: 500,
        contentType: 'application/problem+json',
        body: {
          type: 'https://instantstart.dev/problems/internal',
          title: 'Internal error',
          status: 500,
          detail: 'The server failed unexpectedly; see its log for the request id.',
        },
      }));
      const bug = await call(client, 'list_nodes', { cluster: 'demo' });
      assert.equal(bug.isError, true);
      assert.match(bug.text, /Read the current state \(get_cluster, list_operations\) before calling again/);
    });

    it('a failed operation names the phase to retry, and retry_operation_phase posts to it', async () => {
      const failed = operation({
        status: 'failed',
        phases: [
          {
            name: 'hyperpod',
            title: 'HyperPod cluster',
            status: 'failed',
            attempts: 1,
            expectedSeconds: 900,
            retryable: true,
            error: { code: 'ResourceLimitExceeded', message: 'quota' },
          },
        ],
      });
      rest.routes.set('GET /api/v1/operations/op-123', () => ({ body: failed }));
      rest.routes.set('POST /api/v1/operations/op-123/phases/hyperpod/retry', () =>
        accepted(operation({ status: 'running' })),
      );
      const report = await call(client, 'get_operation', { operationId: 'op-123' });
      assert.equal((report.structuredContent as Record<string, unknown>).failedPhase, 'hyperpod');
      assert.match(report.text, /retry_operation_phase \{"operationId":"op-123","phase":"hyperpod"\}/);
      const retry = await call(client, 'retry_operation_phase', { operationId: 'op-123', phase: 'hyperpod' });
      assert.equal(retry.isError, undefined, retry.text);
      assert.match(retry.text, /wait_for_operation/);
    });

    it('delete_cluster requires confirm: true and then sends confirm=true', async () => {
      const refused = await call(client, 'delete_cluster', { cluster: 'demo' });
      assert.equal(refused.isError, true);
      assert.match(refused.text, /confirm/);
      assert.equal(rest.requests.length, 0);
      rest.routes.set('DELETE /api/v1/clusters/demo', () => accepted(operation({ kind: 'delete-cluster' })));
      const result = await call(client, 'delete_cluster', { cluster: 'demo', confirm: true });
      assert.equal(result.isError, undefined, result.text);
      assert.deepEqual(rest.requests[0].query, { confirm: 'true', keepStorage: 'false' });
    });

    it('set_active_cluster puts the selection; an answer off the contract is an error, not a crash', async () => {
      rest.routes.set('PUT /api/v1/active-cluster', (req) => ({
        body: { name: (req.body as { name: string }).name, region: 'us-west-2' },
      }));
      const set = await call(client, 'set_active_cluster', { cluster: 'demo' });
      assert.equal(set.isError, undefined, set.text);
      assert.deepEqual(rest.requests[0].body, { name: 'demo' });
      assert.match(set.text, /Active cluster is now demo/);

      rest.routes.set('GET /api/v1/clusters', () => ({ body: { clusters: [{ name: 'demo' }] } }));
      const listed = await call(client, 'list_clusters');
      assert.equal(listed.isError, true);
      assert.match(listed.text, /does not match the documented shape/);
    });

    it('list tools pass their query and summarise the answer', async () => {
      rest.routes.set('GET /api/v1/instance-types', () => ({
        body: {
          region: 'us-west-2',
          availabilityZone: 'us-west-2b',
          instanceTypes: [
            {
              instanceType: 'ml.p5.48xlarge',
              availabilityZones: ['us-west-2b'],
              acceleratorName: 'H100',
              acceleratorCount: 8,
              efaSupported: true,
              spotSupported: false,
              clusterUsageQuota: 4,
              newField: 'dropped',
            },
          ],
        },
      }));
      const result = await call(client, 'list_instance_types', { availabilityZone: 'us-west-2b' });
      assert.equal(result.isError, undefined, result.text);
      assert.deepEqual(rest.requests[0].query, { availabilityZone: 'us-west-2b' });
      assert.match(result.text, /ml\.p5\.48xlarge: 8× H100/);
      // Fields the schema does not know are dropped, so a newer server cannot fail the client's validation.
      const types = (result.structuredContent as { instanceTypes: Record<string, unknown>[] }).instanceTypes;
      assert.equal(types[0].newField, undefined);
    });
  });
}
