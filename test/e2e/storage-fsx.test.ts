import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { kubeAccess, type TestKubeCluster } from '../helpers/kube.js';
import type { TestSandbox } from '../helpers/sandbox.js';
import { startSandboxAndServer, stopAll, type TestServer } from '../helpers/server.js';

const url = '/api/v1/clusters/lus/storage';

/**
 * FSx for Lustre storage on the sandbox: an existing file system (the cluster's own) mounted as a
 * second storage, a new one made by a durable operation in the cluster's subnet and awaited AVAILABLE,
 * browsing answered as not possible (not a 5xx), S3 refused while its driver is off, a data delete by
 * name, and delete-cluster removing every file system the cluster made.
 */
describe('FSx for Lustre storage through REST on the sandbox', () => {
  let sb: TestSandbox;
  let server: TestServer;
  let kube: TestKubeCluster;
  let sharedFs: string;
  const fileSystems = async () => (await sb.aws(['fsx', 'describe-file-systems'])).json.FileSystems as any[];

  before(async () => {
    ({ sb, server } = await startSandboxAndServer(600));
    const created = await server.api('POST', '/api/v1/clusters', {
      name: 'lus',
      availabilityZone: 'us-west-2b',
      instanceType: 'ml.c5.xlarge',
      instanceCount: 1,
      storage: { s3: false, fsxLustre: { storageCapacityGiB: 1200 } },
    });
    assert.equal(created.status, 202, JSON.stringify(created.body));
    const op = await server.waitForOperation(created.body.operation.id);
    assert.equal(op.status, 'succeeded', JSON.stringify(op.error));
    sharedFs = op.result.fsxFileSystemId;
    kube = await kubeAccess(sb, 'lus-eks');
  });
  after(() => stopAll(server, sb));

  it("lists the cluster's file system, and refuses S3 while the S3 CSI driver is off", async () => {
    const list = (await server.api('GET', url)).body;
    assert.deepEqual(list.drivers, { 's3-csi-driver': false, 'fsx-csi-driver': true });
    const shared = list.storages.find((s: any) => s.name === 'shared-fsx');
    assert.deepEqual([shared.kind, shared.fileSystemId, shared.claimPhase], ['fsx', sharedFs, 'Bound']);
    const s3 = await server.api('POST', url, { kind: 's3', name: 'data', bucket: 'anything-at-all' });
    assert.equal(s3.status, 422);
    assert.equal(s3.body.errors[0].path, 'kind');
    assert.match(s3.body.detail, /s3-csi-driver/);
  });

  it('mounts an existing file system as another storage, after checking it', async () => {
    const missing = await server.api('POST', url, {
      kind: 'fsx',
      name: 'scratch',
      fileSystemId: 'fs-0123456789abcdef0',
    });
    assert.equal(missing.status, 422);
    assert.equal(missing.body.errors[0].path, 'fileSystemId');
    const noNamespace = await server.api('POST', url, {
      kind: 'fsx',
      name: 'scratch',
      namespace: 'team-a',
      fileSystemId: sharedFs,
    });
    assert.equal(noNamespace.status, 422);
    assert.equal(noNamespace.body.errors[0].path, 'namespace');
    await kube.kubectl(['create', 'namespace', 'team-a']);
    const r = await server.api('POST', url, {
      kind: 'fsx',
      name: 'scratch',
      namespace: 'team-a',
      fileSystemId: sharedFs,
    });
    assert.equal(r.status, 202, JSON.stringify(r.body));
    const op = await server.waitForOperation(r.body.operation.id);
    assert.equal(op.status, 'succeeded', JSON.stringify(op.error));
    const pvc = JSON.parse((await kube.kubectl(['get', 'pvc', 'scratch', '-n', 'team-a', '-o', 'json'])).stdout);
    assert.equal(pvc.status.phase, 'Bound');
  });

  it("makes a new file system in the cluster's subnet (a durable operation) and mounts it once AVAILABLE", async () => {
    const before = (await fileSystems()).length;
    const r = await server.api('POST', url, {
      kind: 'fsx',
      name: 'fast',
      createFileSystem: true,
      storageCapacityGiB: 2400,
    });
    assert.equal(r.status, 202, JSON.stringify(r.body));
    const op = await server.waitForOperation(r.body.operation.id);
    assert.equal(op.status, 'succeeded', JSON.stringify(op.error));
    // An FSx add has no S3 steps (issue 26: a phase a request does not need is not part of its operation).
    assert.deepEqual(op.phases.map((p: any) => p.name).sort(), ['file-system', 'volume']);
    const made = (await fileSystems()).find((f) => f.FileSystemId === op.result.fileSystemId);
    assert.equal((await fileSystems()).length, before + 1);
    assert.equal(made.Lifecycle, 'AVAILABLE');
    assert.equal(made.StorageCapacity, 2400);
    assert.ok(made.Tags.some((t: any) => t.Key === 'instantstart.io/cluster' && t.Value === 'lus'));
    const fast = (await server.api('GET', url)).body.storages.find((s: any) => s.name === 'fast');
    assert.deepEqual(
      [fast.fileSystemId, fast.claimPhase, fast.dataName],
      [made.FileSystemId, 'Bound', made.FileSystemId],
    );

    const browse = await server.api('GET', `${url}/fast/objects`);
    assert.equal(browse.status, 200, JSON.stringify(browse.body));
    assert.equal(browse.body.browsable, false);
    assert.match(browse.body.message, /cannot be browsed through AWS APIs/);
  });

  it('deletes a file system only when asked by its id, and refuses while another storage mounts it', async () => {
    const shared = await server.api('DELETE', `${url}/shared-fsx?deleteData=true&confirm=${sharedFs}`);
    assert.equal(shared.status, 422, JSON.stringify(shared.body));
    assert.equal(shared.body.errors[0].path, 'deleteData');
    assert.match(shared.body.detail, /team-a\/scratch/);

    const fastId = (await server.api('GET', url)).body.storages.find((s: any) => s.name === 'fast').fileSystemId;
    const r = await server.api('DELETE', `${url}/fast?deleteData=true&confirm=${fastId}`);
    assert.equal(r.status, 202, JSON.stringify(r.body));
    assert.equal((await server.waitForOperation(r.body.operation.id)).status, 'succeeded');
    assert.ok(
      !(await fileSystems()).some((f) => f.FileSystemId === fastId && f.Lifecycle !== 'DELETING'),
      'deleted as asked',
    );
  });

  it('deletes every file system the cluster made when the cluster is deleted', async () => {
    const r = await server.api('POST', url, { kind: 'fsx', name: 'extra', createFileSystem: true });
    assert.equal((await server.waitForOperation(r.body.operation.id)).status, 'succeeded');
    const del = await server.api('DELETE', '/api/v1/clusters/lus?confirm=true');
    assert.equal(del.status, 202, JSON.stringify(del.body));
    const op = await server.waitForOperation(del.body.operation.id);
    assert.equal(op.status, 'succeeded', JSON.stringify(op.error));
    assert.deepEqual(
      (await fileSystems()).filter((f) => f.Lifecycle !== 'DELETED'),
      [],
    );
  });
});
