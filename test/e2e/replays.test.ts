import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import BetterSqlite3 from 'better-sqlite3';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { kubeAccess } from '../helpers/kube.js';
import { findDatabase } from '../helpers/database-file.js';
import { startTestSandbox, type TestSandbox } from '../helpers/sandbox.js';
import { startTestServer, stopAll, type TestServer } from '../helpers/server.js';
import { call, hintsOf } from '../mcp/client-helpers.js';

const SPEED = 600;
const CLUSTER = 'rp';
const ZONE = 'us-west-2b';

type Call = Awaited<ReturnType<TestSandbox['calls']>>[number];

/**
 * An agent's replay is a replay (issue 26, item 3): every mutating MCP tool — the tools whose
 * readOnlyHint is false, read from the server's own tool list — is sent twice with one
 * idempotencyKey. The second call answers what the first did and changes nothing: the sandbox's call
 * log (AWS, and Kubernetes writes) shows no mutation between the two answers, and the call each tool
 * exists to make happened once. The same key with another request, or another kind of request, is a
 * 409 naming the key. Also: a remove of storage sy under sx's key removes nothing; a training submit
 * interrupted between its apply and its recorded answer, retried with its key, answers its job.
 */
describe('replays: every mutating tool sent twice with one idempotencyKey mutates once', () => {
  let sb: TestSandbox;
  let server: TestServer;
  let mcp: Client;
  let dataDir: string;
  let mutatingTools: string[] = [];
  let mainGroup = '';
  let bucket = '';
  const replayed = new Set<string>();

  const lastSeq = async () =>
    Math.max(
      0,
      ...(await sb.calls()).map((c) => c.seq),
      ...(await sb.calls({ service: 'kubernetes' })).map((c) => c.seq),
    );
  /** Mutating calls after `seq`: AWS's, and every Kubernetes write. */
  const mutationsAfter = async (seq: number): Promise<Call[]> => [
    ...(await sb.calls({ mutating: true, after: seq })),
    ...(await sb.calls({ service: 'kubernetes', after: seq })),
  ];
  const connect = async () => {
    mcp = new Client({ name: 'e2e-replays', version: '1.0.0' });
    await mcp.connect(new StreamableHTTPClientTransport(new URL(`${server.url}/mcp`)));
  };
  const operationOf = (data: any): string | undefined => data?.operationId ?? data?.operation?.id;
  const settle = async (id: string | undefined) => {
    if (id) return server.waitForOperation(id);
  };

  /**
   * Sends `tool` twice with one key; the first answer's operation (if any) is awaited before the
   * replay, so that whatever it does is done. Asserts: no mutation between the replay and its answer;
   * each `principal` call ([service, operation]) made exactly once (successfully) over both; the replay
   * answers the same (the same operation, `existing: true`; or the same data).
   */
  async function replay(
    tool: string,
    args: Record<string, unknown>,
    principal: Array<[string, string]>,
    expect: 'succeeded' | 'failed' | 'cancelled' = 'succeeded',
  ) {
    const idempotencyKey = `replay-${tool}`;
    const start = await lastSeq();
    const first = await call(mcp, tool, { ...args, idempotencyKey });
    assert.ok(!first.isError, `${tool}: ${first.text}`);
    const id = operationOf(first.structuredContent);
    const ended = await settle(id);
    if (ended) assert.equal(ended.status, expect, `${tool}: ${JSON.stringify(ended.error ?? ended.phases)}`);
    const between = await lastSeq();
    assert.ok(
      (await mutationsAfter(start)).length > 0 || principal.length === 0,
      `${tool}: the first call changed something (the log sees it)`,
    );
    const second = await call(mcp, tool, { ...args, idempotencyKey });
    assert.ok(!second.isError, `${tool} replayed: ${second.text}`);
    await settle(operationOf(second.structuredContent));
    const made = await mutationsAfter(between);
    assert.deepEqual(
      made.map((c) => `${c.service} ${c.operation} ${c.subject ?? ''}`),
      [],
      `${tool}: the replay changed nothing`,
    );
    if (id) {
      const again = second.structuredContent as any;
      assert.deepEqual(
        [operationOf(again), again.existing],
        [id, true],
        `${tool}: the replay answers the first call's operation`,
      );
      assert.match(second.text, /already answered by operation|already under way/);
    } else {
      assert.deepEqual(
        second.structuredContent,
        first.structuredContent,
        `${tool}: the replay answers the first answer`,
      );
    }
    for (const [service, operation] of principal) {
      const done = (
        service === 'kubernetes'
          ? await sb.calls({ service, after: start })
          : await sb.calls({ service, operation, after: start })
      ).filter((c) => c.operation === operation && c.status < 300);
      assert.equal(done.length, 1, `${tool}: ${service} ${operation} once: ${JSON.stringify(done)}`);
    }
    replayed.add(tool);
    return { first, second, operationId: id };
  }

  const nodesOf = async (group: string): Promise<string[]> => {
    const r = await server.api('GET', `/api/v1/clusters/${CLUSTER}/nodes`);
    assert.equal(r.status, 200, JSON.stringify(r.body));
    return r.body.nodes
      .filter((n: any) => n.instanceGroupName === group)
      .map((n: any) => n.instanceId)
      .sort();
  };

  before(async () => {
    sb = await startTestSandbox({ speed: SPEED });
    dataDir = mkdtempSync(join(tmpdir(), 'instantstart-replays-'));
    server = await startTestServer(sb, { speed: SPEED, dataDir });
    await connect();
    const { tools } = await mcp.listTools();
    mutatingTools = tools
      .filter((t) => !hintsOf(t).readOnlyHint)
      .map((t) => t.name)
      .sort();
    assert.ok(mutatingTools.length >= 20, mutatingTools.join(', '));
  });
  after(async () => {
    await stopAll(mcp, server, sb);
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('create_cluster and set_active_cluster', async () => {
    await replay(
      'create_cluster',
      {
        cluster: CLUSTER,
        availabilityZone: ZONE,
        instanceType: 'ml.g5.xlarge',
        instanceCount: 2,
        storage: { s3: true },
      },
      [['sagemaker', 'CreateCluster']],
    );
    const cluster = (await server.api('GET', `/api/v1/clusters/${CLUSTER}`)).body;
    mainGroup = cluster.instanceGroups[0].name;
    bucket = cluster.storage.s3Bucket;
    // InstantStart's own setting: no cloud call to count; the replay answers the same and the setting holds.
    await replay('set_active_cluster', { cluster: CLUSTER }, []);
    const active = await server.api('GET', '/api/v1/active-cluster');
    assert.equal(active.body.name, CLUSTER, JSON.stringify(active.body));
  });

  it('instance groups: add, update, scale', async () => {
    await replay(
      'add_instance_group',
      { cluster: CLUSTER, group: 'extra', availabilityZone: ZONE, instanceType: 'ml.c5.xlarge', instanceCount: 1 },
      [['sagemaker', 'UpdateCluster']],
    );
    await replay('update_instance_group', { cluster: CLUSTER, group: 'extra', labels: { team: 'replays' } }, [
      ['sagemaker', 'UpdateCluster'],
    ]);
    // Growth of a Continuous-mode cluster's group is BatchAddClusterNodes
    // (src/capabilities/instance-groups/workflows/changes).
    await replay('scale_instance_group', { cluster: CLUSTER, group: 'extra', instanceCount: 2 }, [
      ['sagemaker', 'BatchAddClusterNodes'],
    ]);
  });

  it('nodes: deep health check, reboot, replace, delete; then the group is deleted', async () => {
    // The group's nodes join HyperPod's list a moment after the scale.
    const deadline = Date.now() + 60_000;
    while ((await nodesOf('extra')).length < 2 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 250));
    const [a, b] = await nodesOf('extra');
    assert.ok(a && b, JSON.stringify((await server.api('GET', `/api/v1/clusters/${CLUSTER}/nodes`)).body));
    await replay(
      'start_deep_health_check',
      { cluster: CLUSTER, group: 'extra', nodeIds: [a], checks: ['InstanceStress'] },
      [['sagemaker', 'StartClusterHealthCheck']],
    );
    await replay('reboot_nodes', { cluster: CLUSTER, nodeIds: [a] }, [['sagemaker', 'BatchRebootClusterNodes']]);
    await replay('replace_nodes', { cluster: CLUSTER, nodeIds: [a], confirm: true }, [
      ['sagemaker', 'BatchReplaceClusterNodes'],
    ]);
    await replay('delete_nodes', { cluster: CLUSTER, nodeIds: [b], confirm: true }, [
      ['sagemaker', 'BatchDeleteClusterNodes'],
    ]);
    await replay('delete_instance_group', { cluster: CLUSTER, group: 'extra', confirm: true }, [
      ['sagemaker', 'UpdateCluster'],
    ]);
  });

  it('set_features', async () => {
    await replay('set_features', { cluster: CLUSTER, changes: { 'kuberay-operator': true } }, []);
    const features = (await server.api('GET', `/api/v1/clusters/${CLUSTER}/features`)).body;
    assert.equal(JSON.stringify(features).includes('kuberay-operator'), true);
  });

  it('storage: add (the same key for another storage or another kind is 409 naming the key), a failed add retried, remove', async () => {
    await replay('add_storage', { cluster: CLUSTER, storage: 'sx', kind: 's3', createBucket: true }, [
      ['s3', 'CreateBucket'],
    ]);
    const before = await lastSeq();
    const otherBody = await call(mcp, 'add_storage', {
      cluster: CLUSTER,
      storage: 'sz',
      kind: 's3',
      createBucket: true,
      idempotencyKey: 'replay-add_storage',
    });
    assert.equal(otherBody.isError, true, otherBody.text);
    assert.match(
      otherBody.text,
      /idempotencyKey: .*already used for another request \(POST \/api\/v1\/clusters\/rp\/storage/,
    );
    const otherKind = await call(mcp, 'remove_storage', {
      cluster: CLUSTER,
      storage: 'sx',
      idempotencyKey: 'replay-add_storage',
    });
    assert.equal(otherKind.isError, true, otherKind.text);
    assert.match(otherKind.text, /idempotencyKey: /);
    assert.deepEqual(await mutationsAfter(before), [], 'a refused key changes nothing');

    // sy's bucket cannot be made at first: its add fails in the bucket phase, and the phase is retried (twice, one
    // key).
    await sb.admin('/_sandbox/faults', {
      method: 'POST',
      body: {
        type: 'error',
        service: 's3',
        operation: 'CreateBucket',
        code: 'AccessDenied',
        status: 403,
        message: 'Access Denied',
        count: 1,
      },
    });
    const failed = await call(mcp, 'add_storage', { cluster: CLUSTER, storage: 'sy', kind: 's3', createBucket: true });
    const failedOp = await server.waitForOperation(operationOf(failed.structuredContent)!);
    assert.equal(failedOp.status, 'failed', JSON.stringify(failedOp.phases));
    await replay('retry_operation_phase', { operationId: failedOp.id, phase: failedOp.error.phase }, [
      ['s3', 'CreateBucket'],
    ]);

    // One key for two removes: sx is removed, sy is refused (409) and stays.
    await replay('remove_storage', { cluster: CLUSTER, storage: 'sx' }, [
      ['kubernetes', 'delete persistentvolumeclaims'],
    ]);
    const sy = await server.api('DELETE', `/api/v1/clusters/${CLUSTER}/storage/sy`, undefined, {
      'idempotency-key': 'replay-remove_storage',
    });
    assert.equal(sy.status, 409, JSON.stringify(sy.body));
    assert.equal(sy.body.errors[0].path, 'Idempotency-Key');
    assert.match(sy.body.detail, /DELETE \/api\/v1\/clusters\/rp\/storage\/sx/);
    const storages = (await server.api('GET', `/api/v1/clusters/${CLUSTER}/storage`)).body.storages.map(
      (s: any) => s.name,
    );
    assert.ok(storages.includes('sy') && !storages.includes('sx'), storages.join(', '));

    // sx was removed keeping its data: it is listed as kept until forgotten, and forgetting it is replayed too.
    const kept = async () =>
      (await server.api('GET', `/api/v1/clusters/${CLUSTER}/storage`)).body.kept.map((k: any) => k.name);
    assert.deepEqual(await kept(), ['sx']);
    const forgetting = await lastSeq();
    await replay('forget_kept_storage', { cluster: CLUSTER, storage: 'sx' }, []);
    assert.ok(
      (await sb.calls({ service: 's3', mutating: true, after: forgetting })).length > 0,
      'forgetting released the bucket InstantStart made (its tags)',
    );
    assert.deepEqual(await kept(), []);
  });

  it('model downloads: a replay, a repeat without a key after it landed, and a cancel', async () => {
    const { operationId } = await replay(
      'download_model',
      { cluster: CLUSTER, modelId: 'openai-community/gpt2', storage: 'shared-s3' },
      [['kubernetes', 'apply jobs']],
    );
    const before = await lastSeq();
    const again = await call(mcp, 'download_model', {
      cluster: CLUSTER,
      modelId: 'openai-community/gpt2',
      storage: 'shared-s3',
    });
    assert.ok(!again.isError, again.text);
    assert.deepEqual(
      [(again.structuredContent as any).operationId, (again.structuredContent as any).existing],
      [operationId, true],
      'what landed answers the finished download',
    );
    assert.deepEqual(await mutationsAfter(before), [], 'nothing downloaded again');

    // A download slow enough to cancel (the sandbox clock at real time), cancelled twice with one key.
    await sb.admin('/_sandbox/clock', { method: 'POST', body: { speed: 1 } });
    try {
      const slow = await call(mcp, 'download_model', {
        cluster: CLUSTER,
        modelId: 'Qwen/Qwen2.5-0.5B-Instruct',
        storage: 'shared-s3',
      });
      assert.ok(!slow.isError, slow.text);
      await replay('cancel_operation', { operationId: operationOf(slow.structuredContent) }, [], 'cancelled');
    } finally {
      await sb.admin('/_sandbox/clock', { method: 'POST', body: { speed: SPEED } });
    }
  });

  const submit = {
    cluster: CLUSTER,
    group: '',
    storage: 'shared-s3',
    recipe: 'pytorch-script',
    params: { script: '/data/code/train.py' },
  };

  it('training: submit and delete a job', async () => {
    submit.group = mainGroup;
    await replay('submit_training_job', { ...submit, job: 'rp-job' }, [['kubernetes', 'apply hyperpodpytorchjobs']]);
    await replay('delete_job', { cluster: CLUSTER, job: 'rp-job', confirm: true }, [
      ['kubernetes', 'delete hyperpodpytorchjobs'],
    ]);
  });

  it('a submit interrupted between its apply and its recorded answer, retried with its key, answers the job it made (never 409)', async () => {
    const url = `/api/v1/clusters/${CLUSTER}/jobs`;
    const body = {
      name: 'rp-crash',
      recipe: submit.recipe,
      params: submit.params,
      instanceGroup: mainGroup,
      storage: 'shared-s3',
    };
    const first = await server.api('POST', url, body, { 'idempotency-key': 'crash-submit' });
    assert.equal(first.status, 201, JSON.stringify(first.body));
    // What a crash right after the apply leaves: the key recorded as begun (it is written before the
    // request runs), its answer never written. Stop the server and put the journal in that state.
    await mcp.close();
    await server.close();
    const db = new BetterSqlite3(findDatabase(dataDir));
    assert.equal(
      db
        .prepare('UPDATE idempotency_keys SET status = NULL, answer = NULL, answered_at = NULL WHERE key = ?')
        .run('crash-submit').changes,
      1,
    );
    db.close();
    server = await startTestServer(sb, { speed: SPEED, dataDir });
    await connect();

    const before = await lastSeq();
    const retried = await server.api('POST', url, body, { 'idempotency-key': 'crash-submit' });
    assert.equal(retried.status, 201, `the retry answers the job, not "name taken": ${JSON.stringify(retried.body)}`);
    assert.deepEqual([retried.body.job.name, retried.body.job.namespace], ['rp-crash', 'default']);
    assert.deepEqual(
      (await sb.calls({ service: 'kubernetes', after: before })).filter(
        (c) => c.operation === 'apply hyperpodpytorchjobs',
      ),
      [],
      'not applied again',
    );
    const taken = await server.api('POST', url, body, { 'idempotency-key': 'another-key' });
    assert.equal(taken.status, 409, 'under another key the name is taken, as before');
    assert.equal(taken.body.errors[0].path, 'name');
    const kube = await kubeAccess(sb, `${CLUSTER}-eks`);
    const annotations = JSON.parse(
      (await kube.kubectl(['get', 'hyperpodpytorchjobs', 'rp-crash', '-o', 'json'])).stdout,
    ).metadata.annotations;
    assert.match(
      annotations['instantstart.dev/idempotency-key'],
      /^[0-9a-f]{32}$/,
      'the job carries a digest of its key, not the key',
    );
  });

  it('create_mlflow_server, delete_job and a template create interrupted before their recorded answers, retried with their keys, answer as the first run would have', async () => {
    const jobs = `/api/v1/clusters/${CLUSTER}/jobs`;
    const made = await server.api('POST', jobs, {
      name: 'rp-gone',
      recipe: submit.recipe,
      params: submit.params,
      instanceGroup: mainGroup,
      storage: 'shared-s3',
    });
    assert.equal(made.status, 201, JSON.stringify(made.body));
    const requests: Array<{
      key: string;
      method: string;
      url: string;
      body?: unknown;
      status: number;
      promised?: boolean;
    }> = [
      {
        key: 'crash-mlflow',
        method: 'POST',
        url: '/api/v1/mlflow/tracking-servers',
        body: { name: 'rp-crash-mlflow', artifactStoreUri: `s3://${bucket}/crash` },
        status: 201,
      },
      // A delete promises its answer before it acts: the crash leaves that promise beside the key.
      {
        key: 'crash-delete',
        method: 'DELETE',
        url: `${jobs}/default/rp-gone?confirm=true`,
        status: 200,
        promised: true,
      },
      {
        key: 'crash-template',
        method: 'POST',
        url: `/api/v1/clusters/${CLUSTER}/training-templates`,
        body: {
          name: 'rp-tpl',
          request: { recipe: submit.recipe, params: submit.params, instanceGroup: mainGroup, storage: 'shared-s3' },
        },
        status: 201,
      },
    ];
    const firsts = [];
    for (const r of requests) {
      const first = await server.api(r.method, r.url, r.body, { 'idempotency-key': r.key });
      assert.equal(first.status, r.status, JSON.stringify(first.body));
      firsts.push(first.body);
    }
    // What a crash right after each change leaves: the key begun, its answer never recorded.
    await mcp.close();
    await server.close();
    const db = new BetterSqlite3(findDatabase(dataDir));
    for (const r of requests) {
      const reset = r.promised
        ? 'UPDATE idempotency_keys SET status = NULL, answered_at = NULL WHERE key = ?'
        : 'UPDATE idempotency_keys SET status = NULL, answer = NULL, answered_at = NULL WHERE key = ?';
      assert.equal(db.prepare(reset).run(r.key).changes, 1, r.key);
    }
    db.close();
    server = await startTestServer(sb, { speed: SPEED, dataDir });
    await connect();

    const before = await lastSeq();
    const retried = [];
    for (const r of requests) retried.push(await server.api(r.method, r.url, r.body, { 'idempotency-key': r.key }));
    assert.equal(
      retried[0]!.status,
      201,
      `the MLflow retry answers its server, not "name in use": ${JSON.stringify(retried[0]!.body)}`,
    );
    assert.deepEqual([retried[0]!.body.name, retried[0]!.body.arn], [firsts[0].name, firsts[0].arn]);
    assert.equal(
      retried[1]!.status,
      200,
      `the delete retry answers the deleted job, not 404: ${JSON.stringify(retried[1]!.body)}`,
    );
    assert.deepEqual(retried[1]!.body, {
      job: 'rp-gone',
      namespace: 'default',
      kind: 'HyperPodPyTorchJob',
      deleted: true,
    });
    assert.equal(
      retried[2]!.status,
      201,
      `the template retry answers the template, not 409: ${JSON.stringify(retried[2]!.body)}`,
    );
    assert.deepEqual([retried[2]!.body.name, retried[2]!.body.createdAt], [firsts[2].name, firsts[2].createdAt]);
    const after = (await sb.calls({ after: before })).concat(await sb.calls({ service: 'kubernetes', after: before }));
    assert.deepEqual(
      after
        .filter((c) => c.operation === 'CreateMlflowTrackingServer' || c.operation.startsWith('delete '))
        .map((c) => c.operation),
      [],
      'nothing made or deleted again',
    );
    // Without the interrupted key, the same requests are refused as before: the name is taken, the job is gone.
    assert.equal(
      (await server.api('POST', requests[0]!.url, requests[0]!.body, { 'idempotency-key': 'other-mlflow' })).status >=
        400,
      true,
    );
    assert.equal(
      (await server.api('DELETE', requests[1]!.url, undefined, { 'idempotency-key': 'other-delete' })).status,
      404,
    );
    assert.equal(
      (await server.api('POST', requests[2]!.url, requests[2]!.body, { 'idempotency-key': 'other-template' })).status,
      409,
    );
    const tags = (await sb.aws(['sagemaker', 'list-tags', '--resource-arn', firsts[0].arn])).json.Tags as Array<{
      Key: string;
      Value: string;
    }>;
    assert.match(
      tags.find((t) => t.Key === 'instantstart.io/idempotency-key')?.Value ?? '',
      /^[0-9a-f]{32}$/,
      'the server carries a digest of its key, not the key',
    );
    await server.api('DELETE', '/api/v1/mlflow/tracking-servers/rp-crash-mlflow?confirm=true');
  });

  it('MLflow: create and delete a tracking server', async () => {
    await replay('create_mlflow_server', { server: 'rp-mlflow', artifactStoreUri: `s3://${bucket}/mlflow` }, [
      ['sagemaker', 'CreateMlflowTrackingServer'],
    ]);
    const deadline = Date.now() + 60_000;
    while (
      Date.now() < deadline &&
      (await server.api('GET', '/api/v1/mlflow/tracking-servers/rp-mlflow')).body.status === 'Creating'
    )
      await new Promise((r) => setTimeout(r, 200));
    await replay('delete_mlflow_server', { server: 'rp-mlflow', confirm: true }, [
      ['sagemaker', 'DeleteMlflowTrackingServer'],
    ]);
  });

  it('inference: each deploy, the router, scale, autoscaling, a pool worker and a delete, replayed, make one set of objects', async () => {
    const features = await server.api('PATCH', `/api/v1/clusters/${CLUSTER}/features`, { 'inference-operator': true });
    assert.equal(features.status, 202, JSON.stringify(features.body));
    assert.equal((await server.waitForOperation(features.body.operation.id)).status, 'succeeded');
    const at = { cluster: CLUSTER, endpoint: 'rp-sg' };
    await replay(
      'deploy_container_endpoint',
      { ...at, engine: 'sglang', model: 'Qwen/Qwen3-0.6B', group: mainGroup, gpus: 1 },
      [
        ['kubernetes', 'apply deployments'],
        ['kubernetes', 'apply services'],
      ],
    );
    await replay('deploy_router', at, [
      ['kubernetes', 'apply serviceaccounts'],
      ['kubernetes', 'apply roles'],
      ['kubernetes', 'apply rolebindings'],
    ]);
    await replay('scale_endpoint', { ...at, replicas: 2 }, [['kubernetes', 'patch deployments/scale']]);
    await replay(
      'set_endpoint_autoscaling',
      {
        ...at,
        autoscaling: { min: 1, max: 2, threshold: 5, prometheusUrl: 'http://prometheus.monitoring.svc.cluster.local' },
      },
      [['kubernetes', 'apply scaledobjects']],
    );
    await replay(
      'deploy_managed_endpoint',
      {
        cluster: CLUSTER,
        endpoint: 'rp-managed',
        model: { source: 'huggingface', modelId: 'Qwen/Qwen3-0.6B' },
        instanceTypes: ['ml.g5.xlarge'],
        worker: { image: 'vllm/vllm-openai:v0.10.1', gpus: 0, args: ['--port', '8080'] },
      },
      [['kubernetes', 'apply inferenceendpointconfigs']],
    );
    // The pool and its endpoint are set up without keys: the replay is of the reassignment.
    const pool = await server.api('POST', `/api/v1/clusters/${CLUSTER}/model-pools`, {
      name: 'rp-pool',
      engine: 'vllm',
      model: 'Qwen/Qwen3-0.6B',
      instanceGroup: mainGroup,
      gpus: 0,
      workers: 1,
    });
    assert.equal(pool.status, 201, JSON.stringify(pool.body));
    const poolEndpoint = await server.api('POST', `/api/v1/clusters/${CLUSTER}/endpoints/container`, {
      name: 'rp-pooled',
      engine: 'vllm',
      model: 'Qwen/Qwen3-0.6B',
      instanceGroup: mainGroup,
      gpus: 0,
      service: { variant: 'pool', pool: 'rp-pool' },
    });
    assert.equal(poolEndpoint.status, 201, JSON.stringify(poolEndpoint.body));
    let worker = '';
    const deadline = Date.now() + 60_000;
    while (!worker && Date.now() < deadline) {
      worker =
        (await server.api('GET', `/api/v1/clusters/${CLUSTER}/model-pools/default/rp-pool`)).body.workers[0]?.pod ?? '';
      if (!worker) await new Promise((r) => setTimeout(r, 200));
    }
    await replay('assign_pool_worker', { cluster: CLUSTER, pool: 'rp-pool', pod: worker, endpoint: 'rp-pooled' }, [
      ['kubernetes', 'patch pods'],
    ]);
    await replay('delete_endpoint', { ...at, confirm: true }, [['kubernetes', 'delete scaledobjects']]);
  });

  it('a deploy interrupted between its apply and its recorded answer, retried with its key, answers the endpoint it made without applying again', async () => {
    const url = `/api/v1/clusters/${CLUSTER}/endpoints/container`;
    const body = { name: 'rp-crash-ep', engine: 'vllm', model: 'Qwen/Qwen3-0.6B', instanceGroup: mainGroup, gpus: 0 };
    const first = await server.api('POST', url, body, { 'idempotency-key': 'crash-deploy' });
    assert.equal(first.status, 201, JSON.stringify(first.body));
    await mcp.close();
    await server.close();
    const db = new BetterSqlite3(findDatabase(dataDir));
    assert.equal(
      db
        .prepare('UPDATE idempotency_keys SET status = NULL, answer = NULL, answered_at = NULL WHERE key = ?')
        .run('crash-deploy').changes,
      1,
    );
    db.close();
    server = await startTestServer(sb, { speed: SPEED, dataDir });
    await connect();
    const before = await lastSeq();
    const retried = await server.api('POST', url, body, { 'idempotency-key': 'crash-deploy' });
    assert.equal(retried.status, 201, JSON.stringify(retried.body));
    assert.equal(retried.body.name, 'rp-crash-ep');
    assert.deepEqual(await sb.calls({ service: 'kubernetes', after: before }), [], 'nothing applied again');
    const kube = await kubeAccess(sb, `${CLUSTER}-eks`);
    const annotations = JSON.parse((await kube.kubectl(['get', 'service', 'rp-crash-ep', '-o', 'json'])).stdout)
      .metadata.annotations;
    assert.match(annotations['instantstart.dev/idempotency-key'], /^[0-9a-f]{32}$/, 'a digest of the key, not the key');
  });

  it('set_autoscaling, then delete_cluster', async () => {
    await replay('set_autoscaling', { cluster: CLUSTER, enabled: true, groups: [mainGroup] }, [
      ['sagemaker', 'UpdateCluster'],
    ]);
    await replay('delete_cluster', { cluster: CLUSTER, confirm: true }, [['sagemaker', 'DeleteCluster']]);
  });

  it('exercised every mutating tool of the tool list', () => {
    assert.deepEqual(
      [...replayed].sort(),
      mutatingTools,
      'each tool whose readOnlyHint is false was sent twice with one key',
    );
  });
});
