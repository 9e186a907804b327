import assert from 'node:assert/strict';
import { createServer } from 'node:net';
import { after, before, describe, it } from 'node:test';
import {
  AssociateAccessPolicyCommand,
  CreateAccessEntryCommand,
  DeleteClusterCommand,
  EKSClient,
} from '@aws-sdk/client-eks';
import { AwsClients, Cloud } from '../../src/cloud/index.js';
import { KubeClients } from '../../src/cloud/k8s/client-cache.js';
import { KubeClusterClient, type EksEndpoint } from '../../src/cloud/k8s/cluster-client.js';
import type { AwsCredentials } from '../../src/cloud/aws/eks-token.js';
import { CloudError } from '../../src/domain/errors.js';
import { KubeApiUnavailable, KubeForbidden, KubeUnauthorized } from '../../src/domain/kube/errors.js';
import { NAMESPACE } from '../../src/domain/kube/namespace.js';
import { SANDBOX_VIEWER_ACCESS_KEY_ID, SANDBOX_VIEWER_SECRET_ACCESS_KEY } from '../../sandbox/core/credentials.js';
import { eventually, startTestSandbox, type TestSandbox } from '../helpers/sandbox.js';
import { activeCluster, buildEksWorld } from '../sandbox/eks-fixtures.js';

const REGION = 'us-west-2';
const admin: AwsCredentials = { accessKeyId: 'AKIASANDBOX000000000', secretAccessKey: 'sandbox-secret' };
const viewer: AwsCredentials = {
  accessKeyId: SANDBOX_VIEWER_ACCESS_KEY_ID,
  secretAccessKey: SANDBOX_VIEWER_SECRET_ACCESS_KEY,
};
const stale: AwsCredentials = { accessKeyId: 'AKIASANDBOX000000000', secretAccessKey: 'rotated-away' };
const MINUTE = 60_000;

const configMap = (name: string) => ({
  apiVersion: 'v1',
  kind: 'ConfigMap',
  metadata: { name, namespace: 'default' },
  data: { a: '1' },
});

/**
 * The server's Kubernetes clients: one per cluster from one DescribeCluster, forgotten when the
 * cluster goes; EKS tokens renewed before the cluster would refuse them, and once more on a 401.
 */
describe('Kubernetes clients of EKS clusters (cache and tokens) on the sandbox', () => {
  let sb: TestSandbox;
  let endpoint: EksEndpoint;
  const describeCalls = async () => (await sb.calls({ service: 'eks', operation: 'DescribeCluster' })).length;

  before(async () => {
    sb = await startTestSandbox({ speed: 600 });
    await activeCluster(sb, await buildEksWorld('kc'), 'kc');
    await sb.advance(1);
    const c = (await new Cloud(new AwsClients({ defaultRegion: REGION })).eks.describeCluster(REGION, 'kc'))!;
    endpoint = {
      clusterName: 'kc',
      region: REGION,
      endpoint: c.endpoint!,
      certificateAuthorityData: c.certificateAuthority!.data!,
    };
  });
  after(async () => sb.dispose());

  it('asks DescribeCluster once per cluster however many reads use its client, and again after forgetKube', async () => {
    const cloud = new Cloud(new AwsClients({ defaultRegion: REGION }));
    const before = await describeCalls();
    const lists = await Promise.all(
      Array.from({ length: 8 }, async () => (await cloud.kube(REGION, 'kc')).list(NAMESPACE)),
    );
    for (let i = 0; i < 5; i++) assert.ok(await (await cloud.kube(REGION, 'kc')).find(NAMESPACE, 'default'));
    assert.ok(lists.every((l) => l.some((n) => n.metadata.name === 'kube-system')));
    assert.equal((await describeCalls()) - before, 1, 'one DescribeCluster for 13 uses');
    cloud.forgetKube(REGION, 'kc');
    await (await cloud.kube(REGION, 'kc')).list(NAMESPACE);
    assert.equal((await describeCalls()) - before, 2, 'a forgotten cluster is described again');
  });

  it('renews the token before EKS would refuse it, and the requests after carry the new one', async () => {
    const world = Date.now();
    let clock = world - 13 * MINUTE; // the first token is signed 13 minutes "ago": the cluster still takes it
    const signedWith: string[] = [];
    // The credentials change after the first signing, so which token a request carries shows in what it may do.
    const credentials = async () => {
      signedWith.push(signedWith.length === 0 ? 'admin' : 'viewer');
      return signedWith.length === 1 ? admin : viewer;
    };
    const eks = new EKSClient({});
    const viewerArn = 'arn:aws:iam::000000000000:user/sandbox-viewer';
    await eks.send(new CreateAccessEntryCommand({ clusterName: 'kc', principalArn: viewerArn }));
    await eks.send(
      new AssociateAccessPolicyCommand({
        clusterName: 'kc',
        principalArn: viewerArn,
        policyArn: 'arn:aws:eks::aws:cluster-access-policy/AmazonEKSViewPolicy',
        accessScope: { type: 'cluster' },
      }),
    );

    const kube = new KubeClusterClient(endpoint, { credentials, now: () => clock });
    await kube.applyAll([configMap('renewal-1')]);
    clock += 5 * MINUTE;
    await kube.applyAll([configMap('renewal-2')]);
    assert.deepEqual(signedWith, ['admin'], 'a 5-minute-old token is reused');

    clock += 7.5 * MINUTE; // 12.5 minutes after signing: renewed before the 15 at which EKS refuses it
    assert.ok((await kube.list(NAMESPACE)).length > 0, 'reads work with the renewed token');
    assert.deepEqual(signedWith, ['admin', 'viewer'], 'renewed once, before any refusal');
    await assert.rejects(kube.applyAll([configMap('renewal-3')]), (err: unknown) => {
      assert.ok(err instanceof KubeForbidden, String(err));
      assert.deepEqual(err.object, { cluster: 'kc', kind: 'ConfigMap', namespace: 'default', name: 'renewal-3' });
      assert.equal(err.httpStatus, 403);
      assert.match(err.message, /sandbox-viewer/, 'the request carried the renewed (viewer) token');
      assert.match(err.remedy!, /access entry on kc/);
      return true;
    });
    assert.deepEqual(signedWith, ['admin', 'viewer'], 'a 403 is no reason to sign again');
  });

  it('on a 401 signs once more with credentials fetched afresh, and succeeds when they work', async () => {
    const asked: Array<boolean | undefined> = [];
    const credentials = async (options?: { forceRefresh?: boolean }) => {
      asked.push(options?.forceRefresh);
      return options?.forceRefresh ? admin : stale;
    };
    const kube = new KubeClusterClient(endpoint, { credentials });
    assert.ok(await kube.find(NAMESPACE, 'default'));
    assert.deepEqual(asked, [undefined, true], 'the stale token was refused (401), the fresh one taken');
    await kube.find(NAMESPACE, 'default');
    assert.equal(asked.length, 2, 'the renewed token is kept');
  });

  it('renews only once on a 401: credentials the cluster never accepts end in KubeUnauthorized naming the cluster', async () => {
    let signings = 0;
    const kube = new KubeClusterClient(endpoint, { credentials: async () => (signings++, stale) });
    await assert.rejects(kube.list(NAMESPACE), (err: unknown) => {
      assert.ok(err instanceof KubeUnauthorized, String(err));
      assert.equal(err.object.cluster, 'kc');
      assert.match(err.message, /EKS cluster kc did not accept this server's AWS identity/);
      return true;
    });
    assert.equal(signings, 2);
  });

  it('forgets a cluster whose endpoint stops serving, and one DescribeCluster no longer finds', async () => {
    await activeCluster(sb, await buildEksWorld('brief'), 'brief');
    await activeCluster(sb, await buildEksWorld('brief2'), 'brief2');
    await sb.advance(1);
    const cloud = new Cloud(new AwsClients({ defaultRegion: REGION }));
    const kube = await cloud.kube(REGION, 'brief');
    await cloud.kube(REGION, 'brief2');
    assert.ok((await kube.list(NAMESPACE)).length > 0);

    await new EKSClient({}).send(new DeleteClusterCommand({ name: 'brief' }));
    await assert.rejects(kube.list(NAMESPACE), (err: unknown) => {
      assert.ok(err instanceof CloudError, String(err));
      assert.equal(err.code, 'NetworkingError');
      assert.equal(err.retryable, true);
      assert.match(err.message, /endpoint of EKS cluster brief no longer serves a Kubernetes API/);
      return true;
    });
    const before = await describeCalls();
    await assert.rejects(
      cloud.kube(REGION, 'brief'),
      (err: unknown) => err instanceof KubeApiUnavailable && err.status === 'DELETING' && !err.retryable,
    );
    assert.equal((await describeCalls()) - before, 1, 'described again, not served from the cache');

    await new EKSClient({}).send(new DeleteClusterCommand({ name: 'brief2' }));
    await eventually(async () => (await cloud.eks.describeCluster(REGION, 'brief2')) === undefined, {
      sandbox: sb,
      stepSeconds: 60,
      what: 'brief2 gone',
    });
    const counted = await describeCalls();
    await assert.rejects(
      cloud.kube(REGION, 'brief2'),
      (err: unknown) => err instanceof KubeApiUnavailable && /does not exist/.test(err.message),
    );
    assert.equal((await describeCalls()) - counted, 1, 'the not-found answer dropped the cached client');
  });

  it('forgets a client whose endpoint refuses connections, and finds the cluster where it lives now', async () => {
    const closed = await new Promise<number>((resolve) => {
      const probe = createServer().listen(0, '127.0.0.1', () => {
        const { port } = probe.address() as { port: number };
        probe.close(() => resolve(port));
      });
    });
    const eks = new Cloud(new AwsClients({ defaultRegion: REGION })).eks;
    let described = 0;
    // The first answer is an address nothing listens on any more (the cluster moved); the next is the real one.
    const clients = new KubeClients(async (region, name) => {
      const c = await eks.describeCluster(region, name);
      return described++ === 0 ? { ...c, endpoint: c!.endpoint!.replace(/:\d+\//, `:${closed}/`) } : c;
    });
    const stale = await clients.get(REGION, 'kc');
    await assert.rejects(
      stale.list(NAMESPACE),
      (err: unknown) =>
        err instanceof CloudError &&
        err.code === 'NetworkingError' &&
        err.retryable &&
        /ECONNREFUSED/.test(err.message),
    );
    const fresh = await clients.get(REGION, 'kc');
    assert.notEqual(fresh, stale);
    assert.ok((await fresh.list(NAMESPACE)).length > 0);
    assert.equal(described, 2);
  });
});
