import assert from 'node:assert/strict';
import { request } from 'node:https';
import { after, before, describe, it } from 'node:test';
import {
  AssociateAccessPolicyCommand,
  CreateAccessEntryCommand,
  DeleteClusterCommand,
  EKSClient,
} from '@aws-sdk/client-eks';
import { createEksToken, environmentKeys } from '../../src/cloud/aws/eks-token.js';
import { verifyEksToken } from '../../sandbox/kube/auth.js';
import { SANDBOX_VIEWER_ACCESS_KEY_ID, SANDBOX_VIEWER_SECRET_ACCESS_KEY } from '../../sandbox/core/credentials.js';
import { startTestSandbox, type TestSandbox } from '../helpers/sandbox.js';
import { startKubeCluster, type TestKubeCluster } from '../helpers/kube.js';

const admin = async () => ({ accessKeyId: 'AKIASANDBOX000000000', secretAccessKey: 'sandbox-secret' });
const viewer = async () => ({
  accessKeyId: SANDBOX_VIEWER_ACCESS_KEY_ID,
  secretAccessKey: SANDBOX_VIEWER_SECRET_ACCESS_KEY,
});

describe('EKS token authentication (product token code ↔ sandbox authenticator)', () => {
  it('accepts the product token for its cluster only, within 15 minutes, and only with the right secret', async () => {
    const now = new Date();
    const { token, expiresAt } = await createEksToken({
      clusterName: 'alpha',
      region: 'us-west-2',
      credentials: admin,
      now,
    });
    assert.match(token, /^k8s-aws-v1\.[A-Za-z0-9_-]+$/);
    assert.equal(
      expiresAt.getTime() - now.getTime(),
      14 * 60 * 1000,
      'refreshed a minute before EKS stops accepting it',
    );
    assert.equal(
      verifyEksToken(`Bearer ${token}`, 'alpha', now.getTime() + 1000),
      'arn:aws:iam::000000000000:user/sandbox-admin',
    );
    assert.equal(
      verifyEksToken(`Bearer ${token}`, 'beta', now.getTime() + 1000),
      undefined,
      'a token names its cluster',
    );
    assert.equal(
      verifyEksToken(`Bearer ${token}`, 'alpha', now.getTime() + 14 * 60 * 1000),
      'arn:aws:iam::000000000000:user/sandbox-admin',
    );
    assert.equal(
      verifyEksToken(`Bearer ${token}`, 'alpha', now.getTime() + 16 * 60 * 1000),
      undefined,
      'expired after 15 minutes',
    );
    const wrong = await createEksToken({
      clusterName: 'alpha',
      region: 'us-west-2',
      credentials: async () => ({ accessKeyId: 'AKIASANDBOX000000000', secretAccessKey: 'nope' }),
    });
    assert.equal(verifyEksToken(`Bearer ${wrong.token}`, 'alpha'), undefined, 'a wrong secret proves nothing');
    assert.equal(verifyEksToken('Bearer k8s-aws-v1.bm90LWEtdXJs', 'alpha'), undefined);
    assert.equal(verifyEksToken(undefined, 'alpha'), undefined);
  });
});

describe("the token command's credentials (kubectl runs it before every call)", () => {
  it("takes the environment's static keys as the SDK's default chain would, and leaves a named profile to the chain", async () => {
    const keys = { AWS_ACCESS_KEY_ID: 'AKIAEXAMPLE000000000', AWS_SECRET_ACCESS_KEY: 'secret' };
    assert.deepEqual(await environmentKeys(keys)!(), {
      accessKeyId: keys.AWS_ACCESS_KEY_ID,
      secretAccessKey: 'secret',
    });
    assert.deepEqual(await environmentKeys({ ...keys, AWS_SESSION_TOKEN: 'session' })!(), {
      accessKeyId: keys.AWS_ACCESS_KEY_ID,
      secretAccessKey: 'secret',
      sessionToken: 'session',
    });
    assert.equal(environmentKeys({ ...keys, AWS_PROFILE: 'dev' }), undefined, 'AWS_PROFILE skips fromEnv in the chain');
    assert.equal(
      environmentKeys({ AWS_ACCESS_KEY_ID: keys.AWS_ACCESS_KEY_ID }),
      undefined,
      'half a key pair is no key',
    );
  });
});

describe('EKS access to the sandbox Kubernetes API', () => {
  let sb: TestSandbox;
  let kc: TestKubeCluster;
  let ca: string;
  before(async () => {
    sb = await startTestSandbox();
    kc = await startKubeCluster(sb, 'auth');
    ca = Buffer.from(kc.kubeConfig().getCurrentCluster()!.caData!, 'base64').toString();
  });
  after(async () => sb.dispose());

  function call(
    path: string,
    token: string | undefined,
    method = 'GET',
    body?: unknown,
  ): Promise<{ status: number; json: any }> {
    const url = new URL(kc.endpoint + path);
    return new Promise((resolve, reject) => {
      const req = request(
        {
          host: url.hostname,
          port: url.port,
          path: url.pathname + url.search,
          method,
          ca,
          headers: { ...(token ? { authorization: `Bearer ${token}` } : {}), 'content-type': 'application/json' },
        },
        (res) => {
          let text = '';
          res.on('data', (d) => (text += d));
          res.on('end', () => resolve({ status: res.statusCode!, json: text ? JSON.parse(text) : undefined }));
        },
      );
      req.on('error', reject);
      req.end(body === undefined ? undefined : JSON.stringify(body));
    });
  }

  it('answers 401 Unauthorized (a Status) without a token, with a bad one, or for a principal with no access entry', async () => {
    for (const token of [
      undefined,
      'k8s-aws-v1.garbage',
      (await createEksToken({ clusterName: 'someone-else', region: 'us-west-2', credentials: admin })).token,
      (await createEksToken({ clusterName: 'auth', region: 'us-west-2', credentials: viewer })).token,
    ]) {
      const res = await call('/api/v1/namespaces', token);
      assert.equal(res.status, 401);
      assert.equal(res.json.kind, 'Status');
      assert.equal(res.json.reason, 'Unauthorized');
    }
  });

  it('lets the cluster creator in as admin, and a viewer with AmazonEKSViewPolicy read but not write (403 Status)', async () => {
    const adminToken = (await createEksToken({ clusterName: 'auth', region: 'us-west-2', credentials: admin })).token;
    const created = await call('/api/v1/namespaces', adminToken, 'POST', {
      apiVersion: 'v1',
      kind: 'Namespace',
      metadata: { name: 'team-a' },
    });
    assert.equal(created.status, 201, JSON.stringify(created.json));

    const eks = new EKSClient({});
    const viewerArn = 'arn:aws:iam::000000000000:user/sandbox-viewer';
    await eks.send(new CreateAccessEntryCommand({ clusterName: 'auth', principalArn: viewerArn }));
    await eks.send(
      new AssociateAccessPolicyCommand({
        clusterName: 'auth',
        principalArn: viewerArn,
        policyArn: 'arn:aws:eks::aws:cluster-access-policy/AmazonEKSViewPolicy',
        accessScope: { type: 'cluster' },
      }),
    );
    const viewerToken = (await createEksToken({ clusterName: 'auth', region: 'us-west-2', credentials: viewer })).token;
    const list = await call('/api/v1/namespaces', viewerToken);
    assert.equal(list.status, 200);
    assert.ok(list.json.items.some((n: any) => n.metadata.name === 'team-a'));
    const denied = await call('/api/v1/namespaces/team-a/configmaps', viewerToken, 'POST', {
      apiVersion: 'v1',
      kind: 'ConfigMap',
      metadata: { name: 'x' },
    });
    assert.equal(denied.status, 403);
    assert.equal(denied.json.reason, 'Forbidden');
    assert.match(
      denied.json.message,
      /User "arn:aws:iam::000000000000:user\/sandbox-viewer" cannot create resource "configmaps" in API group "" in the namespace "team-a"/,
    );
    const secrets = await call('/api/v1/namespaces/team-a/secrets', viewerToken);
    assert.equal(secrets.status, 403, 'the view policy does not read secrets');
  });

  it('accepts a token made by the real aws CLI (aws eks get-token)', async () => {
    const out = await sb.aws(['eks', 'get-token', '--cluster-name', 'auth']);
    const res = await call('/api/v1/namespaces', out.json.status.token);
    assert.equal(res.status, 200, JSON.stringify(res.json));
  });

  it('serves the endpoint only while the cluster exists: unknown endpoints answer 404', async () => {
    const other = kc.endpoint.replace(/[0-9a-f]{32}$/, '0'.repeat(32));
    const res = await new Promise<number>((resolve, reject) => {
      const url = new URL(`${other}/version`);
      request({ host: url.hostname, port: url.port, path: url.pathname, ca }, (r) => resolve(r.statusCode!))
        .on('error', reject)
        .end();
    });
    assert.equal(res, 404);
  });

  it('takes the endpoint away with the cluster: after DeleteCluster it answers 404', async () => {
    const token = (await createEksToken({ clusterName: 'auth', region: 'us-west-2', credentials: admin })).token;
    assert.equal((await call('/api/v1/namespaces', token)).status, 200);
    await new EKSClient({}).send(new DeleteClusterCommand({ name: 'auth' }));
    const gone = await call('/api/v1/namespaces', token);
    assert.equal(gone.status, 404);
    assert.match(gone.json.message, /no sandbox EKS cluster serves this endpoint/);
  });
});
