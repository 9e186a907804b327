import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { PutObjectCommand, S3Client } from '@aws-sdk/client-s3';
import { kubeAccess, type TestKubeCluster } from '../helpers/kube.js';
import type { TestSandbox } from '../helpers/sandbox.js';
import { startSandboxAndServer, stopAll, type TestServer } from '../helpers/server.js';
import { call } from '../mcp/client-helpers.js';

const SPEED = 600;
const url = '/api/v1/clusters/stor/storage';
const ROLE = 'instantstart-stor-s3-csi';

const READER = `apiVersion: v1
kind: Pod
metadata: { name: reader, namespace: default }
spec:
  containers:
    - { name: main, image: busybox:1.36, command: [sleep, "3600"], volumeMounts: [{ name: models, mountPath: /models }] }
  volumes:
    - { name: models, persistentVolumeClaim: { claimName: models } }
`;

/** Real-time polling: the sandbox runs at 600× so minutes of cloud time pass in a second or so. */
async function until<T>(what: string, probe: () => Promise<T | undefined | false>, seconds = 60): Promise<T> {
  for (let i = 0; i < seconds * 2; i++) {
    const v = await probe();
    if (v) return v;
    await new Promise((r) => setTimeout(r, 500));
  }
  throw new Error(`timed out waiting for ${what}`);
}

/**
 * Storage end to end on the sandbox: the shared bucket create-cluster made is listed; bad input is
 * refused naming the field with nothing changed; an existing bucket with a prefix becomes a Bound
 * claim in kubectl that a pod mounts and runs with; its contents browse page by page; removal is
 * refused while the pod runs, then keeps the bucket; a new bucket is made and (asked by name)
 * deleted; MCP does the same through its tools.
 */
describe('storage through REST and MCP on the sandbox', () => {
  let sb: TestSandbox;
  let server: TestServer;
  let mcp: Client;
  let kube: TestKubeCluster;
  const storages = async () => (await server.api('GET', url)).body.storages as any[];

  before(async () => {
    ({ sb, server } = await startSandboxAndServer(SPEED));
    const created = await server.api('POST', '/api/v1/clusters', {
      name: 'stor',
      availabilityZone: 'us-west-2b',
      instanceType: 'ml.c5.xlarge',
      instanceCount: 1,
    });
    assert.equal(created.status, 202, JSON.stringify(created.body));
    assert.equal((await server.waitForOperation(created.body.operation.id)).status, 'succeeded');
    kube = await kubeAccess(sb, 'stor-eks');
    mcp = new Client({ name: 'e2e-storage', version: '1.0.0' });
    await mcp.connect(new StreamableHTTPClientTransport(new URL(`${server.url}/mcp`)));
    // A bucket of the user's with more than one page of objects under models/llama/.
    await sb.aws([
      's3api',
      'create-bucket',
      '--bucket',
      'team-models',
      '--create-bucket-configuration',
      'LocationConstraint=us-west-2',
    ]);
    const s3 = new S3Client({});
    for (let i = 0; i < 25; i++)
      await s3.send(
        new PutObjectCommand({
          Bucket: 'team-models',
          Key: `models/llama/shard-${String(i).padStart(2, '0')}.safetensors`,
          Body: 'x'.repeat(i + 1),
        }),
      );
    await s3.send(new PutObjectCommand({ Bucket: 'team-models', Key: 'models/README.md', Body: 'hello' }));
    await s3.send(new PutObjectCommand({ Bucket: 'team-models', Key: 'elsewhere/secret.txt', Body: 'no' }));
  });
  after(() => stopAll(mcp, server, sb));

  it('lists the shared bucket create-cluster made, Bound, and the drivers that are on', async () => {
    const r = await server.api('GET', url);
    assert.equal(r.status, 200, JSON.stringify(r.body));
    const shared = r.body.storages.find((s: any) => s.name === 'shared-s3');
    assert.ok(shared, JSON.stringify(r.body.storages));
    assert.deepEqual(
      [shared.namespace, shared.kind, shared.claimPhase, shared.access, shared.prefix],
      ['default', 's3', 'Bound', 'read-write', ''],
    );
    assert.match(shared.bucket, /^sagemaker-stor-/);
    assert.deepEqual(r.body.drivers, { 's3-csi-driver': true, 'fsx-csi-driver': false });
  });

  it('refuses bad input naming the field, before any change', async () => {
    const before = (await sb.calls({ mutating: true })).length;
    for (const [body, path, status] of [
      [{ kind: 's3', name: 'Bad_Name', bucket: 'team-models' }, 'name', 400],
      [{ kind: 's3', name: 'x', bucket: 'Team_Models' }, 'bucket', 400],
      [{ kind: 's3', name: 'x', bucket: 'team-models', prefix: '/models' }, 'prefix', 400],
      [{ kind: 's3', name: 'x' }, 'bucket', 400],
      [{ kind: 's3', name: 'x', bucket: 'team-models', fileSystemId: 'fs-0123456789abcdef0' }, 'fileSystemId', 400],
      [{ kind: 'nfs', name: 'x' }, 'kind', 400],
      [{ kind: 's3', name: 'x', bucket: 'no-such-bucket-here' }, 'bucket', 422],
      [{ kind: 'fsx', name: 'x', createFileSystem: true }, 'kind', 422],
    ] as const) {
      const r = await server.api('POST', url, body);
      assert.equal(r.status, status, `${JSON.stringify(body)} → ${JSON.stringify(r.body)}`);
      assert.equal(r.body.errors?.[0]?.path, path, JSON.stringify(r.body));
    }
    const fsx = await server.api('POST', url, { kind: 'fsx', name: 'x', createFileSystem: true });
    assert.match(fsx.body.detail, /fsx-csi-driver/);
    assert.match(fsx.body.remedy, /set_features/);
    assert.equal((await sb.calls({ mutating: true })).length, before, 'no AWS mutation for refused requests');
  });

  it('adds an existing bucket with a prefix: PVC Bound in kubectl, Mountpoint options, the driver role reaches it', async () => {
    const r = await server.api(
      'POST',
      url,
      { kind: 's3', name: 'models', bucket: 'team-models', prefix: 'models' },
      { 'idempotency-key': 'add-models-1' },
    );
    assert.equal(r.status, 202, JSON.stringify(r.body));
    assert.equal(r.body.statusTool, 'wait_for_operation');
    const op = await server.waitForOperation(r.body.operation.id);
    assert.equal(op.status, 'succeeded', JSON.stringify(op.error));
    // Only the steps of an S3 add of an existing bucket: no bucket to create, no FSx file system shown as "already
    // done".
    assert.deepEqual(
      op.phases.map((p: any) => p.name),
      ['driver-access', 'volume'],
    );

    const pvc = JSON.parse((await kube.kubectl(['get', 'pvc', 'models', '-o', 'json'])).stdout);
    assert.equal(pvc.status.phase, 'Bound');
    const pv = JSON.parse((await kube.kubectl(['get', 'pv', pvc.spec.volumeName, '-o', 'json'])).stdout);
    assert.deepEqual(pv.spec.mountOptions, ['allow-delete', 'allow-other', 'region us-west-2', 'prefix models/']);
    assert.equal(pv.spec.csi.volumeAttributes.bucketName, 'team-models');

    const policy = (
      await sb.aws([
        'iam',
        'get-role-policy',
        '--role-name',
        ROLE,
        '--policy-name',
        'instantstart-storage-default-models',
      ])
    ).json;
    assert.match(JSON.stringify(policy.PolicyDocument), /arn:aws:s3:::team-models\/models\/\*/);

    // The same request again (same key) is the same operation; without the key it changes nothing.
    const again = await server.api(
      'POST',
      url,
      { kind: 's3', name: 'models', bucket: 'team-models', prefix: 'models' },
      { 'idempotency-key': 'add-models-1' },
    );
    assert.equal(again.body.operation.id, r.body.operation.id);
    const mutations = (await sb.calls({ mutating: true })).length;
    const repeat = await server.api('POST', url, {
      kind: 's3',
      name: 'models',
      bucket: 'team-models',
      prefix: 'models/',
    });
    assert.equal(repeat.status, 202, JSON.stringify(repeat.body));
    assert.equal((await server.waitForOperation(repeat.body.operation.id)).status, 'succeeded');
    assert.equal(
      (await sb.calls({ mutating: true })).length,
      mutations,
      'a repeat of an add that happened changes nothing',
    );
    const other = await server.api('POST', url, {
      kind: 's3',
      name: 'models',
      bucket: 'team-models',
      prefix: 'elsewhere',
    });
    assert.equal(other.status, 409);
    assert.equal(other.body.errors[0].path, 'name');
  });

  it('runs a pod that mounts it, lists where it is mounted, and refuses to remove it while the pod runs', async () => {
    await kube.kubectl(['apply', '-f', '-'], { input: READER });
    await until(
      'the reader pod running',
      async () =>
        JSON.parse((await kube.kubectl(['get', 'pod', 'reader', '-o', 'json'])).stdout).status.phase === 'Running',
    );
    const models = (await storages()).find((s) => s.name === 'models');
    assert.equal(models.mounts.length, 1);
    assert.equal(models.mounts[0].pod, 'reader');
    assert.ok(models.mounts[0].node, 'the node it runs on');

    const refused = await server.api('DELETE', `${url}/models`);
    assert.equal(refused.status, 422, JSON.stringify(refused.body));
    assert.equal(refused.body.errors[0].path, 'force');
    assert.match(refused.body.errors[0].message, /default\/reader/);
  });

  it("browses the storage's folders and objects page by page, only under its prefix", async () => {
    const top = await server.api('GET', `${url}/models/objects`);
    assert.equal(top.status, 200, JSON.stringify(top.body));
    assert.deepEqual(top.body.folders, [{ name: 'llama/', path: 'llama/' }]);
    assert.deepEqual(
      top.body.objects.map((o: any) => [o.name, o.size]),
      [['README.md', 5]],
    );
    assert.ok(Date.parse(top.body.objects[0].lastModified) > 0);

    const names: string[] = [];
    let pageToken: string | undefined;
    let pages = 0;
    do {
      const page = await server.api(
        'GET',
        `${url}/models/objects?path=llama&limit=10${pageToken ? `&pageToken=${encodeURIComponent(pageToken)}` : ''}`,
      );
      assert.equal(page.status, 200, JSON.stringify(page.body));
      assert.equal(page.body.prefix, 'models/llama/');
      names.push(...page.body.objects.map((o: any) => o.name));
      pageToken = page.body.nextToken;
      pages++;
    } while (pageToken);
    assert.equal(pages, 3);
    assert.deepEqual(
      names,
      Array.from({ length: 25 }, (_, i) => `shard-${String(i).padStart(2, '0')}.safetensors`),
    );

    const bad = await server.api('GET', `${url}/models/objects?path=/abs`);
    assert.equal(bad.status, 400);
    assert.equal(bad.body.errors[0].path, 'path');
    const missing = await server.api('GET', `${url}/nope/objects`);
    assert.equal(missing.status, 404);
  });

  it('does the same through MCP: list_storage, add_storage (read-only), browse_storage, remove_storage', async () => {
    const added = await call(mcp, 'add_storage', {
      cluster: 'stor',
      storage: 'models-ro',
      kind: 's3',
      bucket: 'team-models',
      prefix: 'models/llama/',
      readOnly: true,
    });
    assert.ok(!added.isError, added.text);
    const op = await server.waitForOperation((added.structuredContent as any).operationId);
    assert.equal(op.status, 'succeeded', JSON.stringify(op.error));

    const listed = await call(mcp, 'list_storage', { cluster: 'stor' });
    assert.match(listed.text, /default\/models-ro: s3:\/\/team-models\/models\/llama\/, read-only, claim Bound/);
    const pv = JSON.parse((await kube.kubectl(['get', 'pv', 'instantstart-default-models-ro', '-o', 'json'])).stdout);
    assert.ok(
      pv.spec.mountOptions.includes('read-only') && !pv.spec.mountOptions.includes('allow-delete'),
      JSON.stringify(pv.spec.mountOptions),
    );

    const browsed = await call(mcp, 'browse_storage', { cluster: 'stor', storage: 'models-ro', limit: 5 });
    assert.match(browsed.text, /shard-00\.safetensors 1 bytes/);
    assert.match(browsed.text, /More: call again with pageToken/);

    const bad = await call(mcp, 'add_storage', {
      cluster: 'stor',
      storage: 'x',
      kind: 's3',
      bucket: 'team-models',
      prefix: '/abs',
    });
    assert.ok(bad.isError);
    assert.match(bad.text, /- prefix: must not start with \//);

    const removed = await call(mcp, 'remove_storage', { cluster: 'stor', storage: 'models-ro' });
    assert.ok(!removed.isError, removed.text);
    assert.equal((await server.waitForOperation((removed.structuredContent as any).operationId)).status, 'succeeded');
    assert.ok(!(await storages()).some((s) => s.name === 'models-ro'));
  });

  it('removes a storage and keeps its bucket; a data delete must name the data', async () => {
    await kube.kubectl(['delete', 'pod', 'reader', '--wait=false']);
    await until(
      'the reader pod gone',
      async () => (await kube.kubectl(['get', 'pod', 'reader'], { allowFailure: true })).code !== 0,
    );
    const wrong = await server.api('DELETE', `${url}/models?deleteData=true&confirm=team-models`);
    assert.equal(wrong.status, 400);
    assert.equal(wrong.body.errors[0].path, 'confirm');
    assert.match(wrong.body.errors[0].message, /team-models\/models\//);

    const r = await server.api('DELETE', `${url}/models`);
    assert.equal(r.status, 202, JSON.stringify(r.body));
    const removed = await server.waitForOperation(r.body.operation.id);
    assert.equal(removed.status, 'succeeded');
    // The data is kept: no "Delete the data" step; a "keep" step lists it as kept; the result says what was kept.
    assert.deepEqual(
      removed.phases.map((p: any) => p.name),
      ['claim', 'volume', 'driver-access', 'keep'],
    );
    assert.deepEqual([removed.result.data, removed.result.dataDeleted], ['team-models/models/', false]);
    assert.notEqual(
      (await kube.kubectl(['get', 'pvc', 'models'], { allowFailure: true })).code,
      0,
      'the claim is gone',
    );
    assert.notEqual(
      (await kube.kubectl(['get', 'pv', 'instantstart-default-models'], { allowFailure: true })).code,
      0,
      'the volume is gone',
    );
    assert.equal(
      (await sb.aws(['s3api', 'head-bucket', '--bucket', 'team-models'], { allowFailure: true })).code,
      0,
      'the bucket is kept',
    );
    assert.equal(
      (
        await sb.aws(['s3api', 'head-object', '--bucket', 'team-models', '--key', 'models/README.md'], {
          allowFailure: true,
        })
      ).code,
      0,
      'and its objects',
    );
    const policy = await sb.aws(
      ['iam', 'get-role-policy', '--role-name', ROLE, '--policy-name', 'instantstart-storage-default-models'],
      { allowFailure: true },
    );
    assert.notEqual(policy.code, 0, "the driver's access to it is withdrawn");
    assert.equal(
      (
        await sb.aws(['iam', 'get-role-policy', '--role-name', ROLE, '--policy-name', 'instantstart-permissions'], {
          allowFailure: true,
        })
      ).code,
      0,
      "the role's own policy stays",
    );
  });

  it("makes a new bucket tagged as the cluster's, and deletes it only when asked by name", async () => {
    const r = await server.api('POST', url, { kind: 's3', name: 'scratch', createBucket: true });
    assert.equal(r.status, 202, JSON.stringify(r.body));
    const added = await server.waitForOperation(r.body.operation.id);
    assert.equal(added.status, 'succeeded');
    assert.deepEqual(
      added.phases.map((p: any) => [p.name, p.title]),
      [
        ['bucket', 'Create the S3 bucket'],
        ['driver-access', 'Let the S3 CSI driver reach the bucket'],
        ['volume', 'PersistentVolume and claim'],
      ],
    );
    const scratch = (await storages()).find((s) => s.name === 'scratch');
    assert.match(scratch.bucket, /^sagemaker-stor-scratch-/);
    assert.equal(scratch.claimPhase, 'Bound');
    const tags = (await sb.aws(['s3api', 'get-bucket-tagging', '--bucket', scratch.bucket])).json.TagSet;
    assert.ok(
      tags.some((t: any) => t.Key === 'instantstart.io/cluster' && t.Value === 'stor'),
      JSON.stringify(tags),
    );

    const gone = await server.api('DELETE', `${url}/scratch?deleteData=true&confirm=${scratch.bucket}`);
    assert.equal(gone.status, 202, JSON.stringify(gone.body));
    const deleted = await server.waitForOperation(gone.body.operation.id);
    assert.equal(deleted.status, 'succeeded');
    assert.deepEqual(
      deleted.phases.map((p: any) => [p.name, p.status]).at(-1),
      ['data', 'succeeded'],
      'asked to, it deletes the data',
    );
    assert.notEqual(
      (await sb.aws(['s3api', 'head-bucket', '--bucket', scratch.bucket], { allowFailure: true })).code,
      0,
      'deleted as asked',
    );
  });
});
