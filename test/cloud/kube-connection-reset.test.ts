import assert from 'node:assert/strict';
import { mkdtempSync } from 'node:fs';
import { createServer, type Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { CertificateAuthority } from '../../sandbox/core/certificate-authority.js';
import { AwsClients } from '../../src/cloud/aws/clients.js';
import { EksAdapter } from '../../src/cloud/aws/eks.js';
import { KubeClusterClient } from '../../src/cloud/k8s/cluster-client.js';
import { CloudError } from '../../src/domain/errors.js';
import { NAMESPACE } from '../../src/domain/kube/namespace.js';
import { startTestSandbox, type TestSandbox } from '../helpers/sandbox.js';
import { activeCluster, buildEksWorld } from '../sandbox/eks-fixtures.js';

/**
 * A keep-alive connection the API server closes just as a request is sent on it ends that request
 * with ECONNRESET and no answer. It happened under CI load (a node list answered 502 "socket hang
 * up"); the `connection-reset` fault makes it happen on demand. A read is sent again once; a write
 * is not (the server may have acted on it) and fails as a retryable outage.
 */
describe('a Kubernetes request whose connection is reset before the answer', () => {
  let sb: TestSandbox;
  let kube: KubeClusterClient;
  const reset = async (operation: string, count = 1) => {
    const r = await sb.admin('/_sandbox/faults', {
      method: 'POST',
      body: { type: 'connection-reset', service: 'kubernetes', operation, count },
    });
    assert.equal(r.status, 201, JSON.stringify(r.body));
  };
  const pendingResets = async () =>
    (await sb.admin('/_sandbox/faults')).body.faults.filter((f: { type: string }) => f.type === 'connection-reset')
      .length;

  before(async () => {
    sb = await startTestSandbox({ speed: 600 });
    await activeCluster(sb, await buildEksWorld('reset'), 'reset');
    const c = (await new EksAdapter(new AwsClients({ defaultRegion: 'us-west-2' })).describeCluster(
      'us-west-2',
      'reset',
    ))!;
    kube = new KubeClusterClient(
      {
        clusterName: 'reset',
        region: 'us-west-2',
        endpoint: c.endpoint!,
        certificateAuthorityData: c.certificateAuthority!.data!,
      },
      {},
    );
  });
  after(async () => {
    await sb.admin('/_sandbox/faults', { method: 'DELETE' });
    await sb.dispose();
  });

  it('a read is sent again once and answers as if nothing happened', async () => {
    await reset('GET');
    const namespaces = await kube.list(NAMESPACE);
    assert.ok(namespaces.some((n) => n.metadata.name === 'kube-system'));
    assert.equal(await pendingResets(), 0, 'the reset happened (the fault is spent)');
  });

  it('a read reset twice in a row fails as a retryable NetworkingError naming the cluster: sent again once, not in a loop', async () => {
    await reset('GET', 2);
    await assert.rejects(kube.list(NAMESPACE), (err: unknown) => {
      assert.ok(err instanceof CloudError, String(err));
      assert.equal(err.code, 'NetworkingError');
      assert.equal(err.retryable, true);
      assert.match(err.message, /could not reach the Kubernetes API of EKS cluster reset \(ECONNRESET\)/);
      return true;
    });
    assert.equal(await pendingResets(), 0, 'both resets were used: one try and one more');
    assert.ok((await kube.list(NAMESPACE)).length > 0);
  });

  it('a write is not sent again: it fails as a retryable NetworkingError and the object was not made', async () => {
    await reset('PATCH');
    const manifest = {
      apiVersion: 'v1',
      kind: 'ConfigMap',
      metadata: { name: 'after-reset', namespace: 'default' },
      data: { a: '1' },
    };
    await assert.rejects(
      kube.applyAll([manifest]),
      (err: unknown) => err instanceof CloudError && err.code === 'NetworkingError' && err.retryable,
    );
    assert.equal(await kube.current(manifest), undefined, 'the reset call never reached the API');
    await kube.applyAll([manifest]);
    assert.equal(
      ((await kube.current(manifest)) as { data?: Record<string, string> } | undefined)?.data?.a,
      '1',
      'the caller’s retry makes it',
    );
  });

  it('an AWS call whose connection is reset is retried by the AWS SDK', async () => {
    const r = await sb.admin('/_sandbox/faults', {
      method: 'POST',
      body: { type: 'connection-reset', service: 'eks', operation: 'DescribeCluster' },
    });
    assert.equal(r.status, 201);
    assert.equal(
      (await new EksAdapter(new AwsClients({ defaultRegion: 'us-west-2' })).describeCluster('us-west-2', 'reset'))
        ?.status,
      'ACTIVE',
    );
    assert.equal(await pendingResets(), 0, 'the reset happened');
  });
});

/**
 * The reset above is avoided, not only survived: an API server that says how long it keeps an idle
 * connection (`Keep-Alive: timeout=N`, as Node servers such as the sandbox do) gets no request on a
 * connection older than that, so no write meets a connection being closed.
 */
describe('an idle Kubernetes connection is closed before the server would close it', () => {
  let server: Server;
  let connections = 0;
  let kube: KubeClusterClient;
  before(async () => {
    const dir = mkdtempSync(join(tmpdir(), 'kube-keepalive-'));
    const ca = await CertificateAuthority.loadOrCreate(dir);
    const tls = await ca.issueServerCertificate({ commonName: 'keepalive', ipAddresses: ['127.0.0.1'] });
    server = createServer({ cert: tls.certificatePem, key: tls.privateKeyPem }, (_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ kind: 'NamespaceList', apiVersion: 'v1', metadata: {}, items: [] }));
    });
    server.keepAliveTimeout = 2_999; // answers carry `Keep-Alive: timeout=2`; the server closes after 3 s
    server.on('secureConnection', () => connections++);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const endpoint = `https://127.0.0.1:${(server.address() as AddressInfo).port}`;
    kube = new KubeClusterClient(
      { clusterName: 'keepalive', region: 'us-west-2', endpoint, certificateAuthorityData: ca.base64Data },
      {
        credentials: async () => ({ accessKeyId: 'AKIASANDBOX000000000', secretAccessKey: 'sandbox-secret' }),
      },
    );
  });
  after(() => new Promise<void>((resolve) => server.close(() => resolve())));

  it('reuses a connection while it is fresh, and opens a new one once the hint says the server may close it', async () => {
    await kube.list(NAMESPACE);
    await kube.list(NAMESPACE);
    assert.equal(connections, 1, 'back-to-back requests share one connection');
    await new Promise((resolve) => setTimeout(resolve, 2_000)); // past the hint less a second (1 s), before the server's close (3 s)
    await kube.list(NAMESPACE);
    assert.equal(connections, 2, 'the connection idle for 2 s was closed by the client, not reused');
  });
});
