import assert from 'node:assert/strict';
import { createPublicKey, createVerify } from 'node:crypto';
import { request } from 'node:http';
import { after, before, describe, it } from 'node:test';
import { CreatePodIdentityAssociationCommand, DescribeClusterCommand, EKSClient } from '@aws-sdk/client-eks';
import { startTestSandbox, type TestSandbox } from '../helpers/sandbox.js';
import { kubeAccess, type TestKubeCluster } from '../helpers/kube.js';
import { activeCluster, buildEksWorld, type EksWorld } from '../sandbox/eks-fixtures.js';

/**
 * The identity side of a sandbox EKS cluster, seen with the real aws CLI and kubectl: its OIDC
 * issuer (discovery document and JWKS), an IAM OIDC provider for it, and the pod identity webhook
 * giving pods of annotated service accounts (IRSA) or associated ones (EKS Pod Identity) their
 * credentials env and projected token.
 */

const ROLE = 'arn:aws:iam::111122223333:role/irsa-reader';

const manifest = (sa: string, annotations: string) => `apiVersion: v1
kind: ServiceAccount
metadata: { name: ${sa}, namespace: default${annotations ? `, annotations: { ${annotations} }` : ''} }
---
apiVersion: v1
kind: Pod
metadata: { name: ${sa}-pod, namespace: default }
spec:
  serviceAccountName: ${sa}
  containers:
    - { name: main, image: public.ecr.aws/amazonlinux/amazonlinux:2023, env: [{ name: AWS_REGION, value: eu-west-1 }] }
`;

const DEPLOYMENT = `apiVersion: apps/v1
kind: Deployment
metadata: { name: both-deploy, namespace: default }
spec:
  replicas: 1
  selector: { matchLabels: { app: both-deploy } }
  template:
    metadata: { labels: { app: both-deploy } }
    spec:
      serviceAccountName: both
      containers: [{ name: web, image: nginx:1.27 }]
`;

type Container = {
  env?: Array<{ name: string; value: string }>;
  volumeMounts?: Array<{ name: string; mountPath: string; readOnly?: boolean }>;
};

describe('EKS cluster identity: OIDC issuer, IAM OIDC providers, IRSA and pod identity injection', () => {
  let sb: TestSandbox;
  let world: EksWorld;
  let k: TestKubeCluster;
  let issuer: string;

  before(async () => {
    sb = await startTestSandbox();
    world = await buildEksWorld('idp');
    await activeCluster(sb, world, 'idp');
    k = await kubeAccess(sb, 'idp');
    issuer = (await new EKSClient({}).send(new DescribeClusterCommand({ name: 'idp' }))).cluster!.identity!.oidc!
      .issuer!;
  });
  after(async () => {
    await sb?.dispose();
  });

  it('serves the issuer discovery document and a JWKS whose key verifies tokens the cluster signs', async () => {
    const hostPath = issuer.replace(/^https:\/\//, '');
    const discovery = await fetch(`${sb.url}/${hostPath}/.well-known/openid-configuration`);
    assert.equal(discovery.status, 200);
    const doc = (await discovery.json()) as Record<string, unknown>;
    assert.equal(doc.issuer, issuer);
    assert.equal(doc.jwks_uri, `${issuer}/keys`);
    assert.deepEqual(doc.id_token_signing_alg_values_supported, ['RS256']);

    const jwks = (await (await fetch(`${sb.url}/${hostPath}/keys`)).json()) as { keys: Array<Record<string, string>> };
    assert.equal(jwks.keys.length, 1);
    const jwk = jwks.keys[0]!;
    assert.deepEqual([jwk.kty, jwk.alg, jwk.use, jwk.e], ['RSA', 'RS256', 'sig', 'AQAB']);

    // The same document through the issuer's host name (Host header), as a client resolving it to the sandbox sees it.
    const url = new URL(sb.url);
    const viaHost = await new Promise<string>((resolve, reject) => {
      const req = request(
        {
          host: url.hostname,
          port: url.port,
          path: `${new URL(issuer).pathname}/keys`,
          headers: { host: new URL(issuer).host },
        },
        (res) => {
          let body = '';
          res.on('data', (d) => (body += d));
          res.on('end', () => resolve(body));
        },
      );
      req.on('error', reject);
      req.end();
    });
    assert.deepEqual(JSON.parse(viaHost), jwks);

    const id = issuer.slice(issuer.lastIndexOf('/') + 1);
    const token = sb.sandbox.runtime.oidcKeys.signJwt(id, {
      iss: issuer,
      sub: 'system:serviceaccount:default:reader',
      aud: 'sts.amazonaws.com',
    });
    const [header, payload, signature] = token.split('.');
    assert.equal(JSON.parse(Buffer.from(header!, 'base64url').toString()).kid, jwk.kid);
    const ok = createVerify('RSA-SHA256')
      .update(`${header}.${payload}`)
      .verify(createPublicKey({ key: jwk as never, format: 'jwk' }), Buffer.from(signature!, 'base64url'));
    assert.ok(ok, 'the JWKS key verifies the token');

    // Another issuer id of the region is not served.
    assert.equal((await fetch(`${sb.url}/${hostPath.replace(/[0-9A-F]{32}$/, '0'.repeat(32))}/keys`)).status, 404);
  });

  it('registers an IAM OIDC provider for the issuer with the real aws CLI', async () => {
    const created = await sb.aws([
      'iam',
      'create-open-id-connect-provider',
      '--url',
      issuer,
      '--client-id-list',
      'sts.amazonaws.com',
      '--tags',
      'Key=cluster,Value=idp',
    ]);
    const arn = created.json.OpenIDConnectProviderArn as string;
    assert.equal(
      arn,
      `arn:aws:iam::${world.podRoleArn.split(':')[4]}:oidc-provider/${issuer.replace(/^https:\/\//, '')}`,
    );
    const listed = await sb.aws(['iam', 'list-open-id-connect-providers']);
    assert.deepEqual(
      listed.json.OpenIDConnectProviderList.map((p: { Arn: string }) => p.Arn),
      [arn],
    );
    const again = await sb.aws(
      ['iam', 'create-open-id-connect-provider', '--url', issuer, '--client-id-list', 'sts.amazonaws.com'],
      { allowFailure: true },
    );
    assert.notEqual(again.code, 0);
    assert.match(again.stderr, /EntityAlreadyExists/);
  });

  it('injects IRSA credentials into a pod of a service account annotated with a role', async () => {
    await k.kubectl(['apply', '-f', '-'], { input: manifest('reader', `eks.amazonaws.com/role-arn: "${ROLE}"`) });
    const pod = JSON.parse((await k.kubectl(['get', 'pod', 'reader-pod', '-o', 'json'])).stdout);
    const main = pod.spec.containers[0] as Container;
    const env = Object.fromEntries((main.env ?? []).map((e) => [e.name, e.value]));
    assert.deepEqual(env, {
      AWS_REGION: 'eu-west-1', // the container's own value is kept
      AWS_STS_REGIONAL_ENDPOINTS: 'regional',
      AWS_DEFAULT_REGION: 'us-west-2',
      AWS_ROLE_ARN: ROLE,
      AWS_WEB_IDENTITY_TOKEN_FILE: '/var/run/secrets/eks.amazonaws.com/serviceaccount/token',
    });
    assert.deepEqual(
      main.volumeMounts?.find((m) => m.name === 'aws-iam-token'),
      { name: 'aws-iam-token', mountPath: '/var/run/secrets/eks.amazonaws.com/serviceaccount', readOnly: true },
    );
    assert.deepEqual(
      pod.spec.volumes.find((v: { name: string }) => v.name === 'aws-iam-token'),
      {
        name: 'aws-iam-token',
        projected: {
          defaultMode: 420,
          sources: [
            { serviceAccountToken: { audience: 'sts.amazonaws.com', expirationSeconds: 86400, path: 'token' } },
          ],
        },
      },
    );
  });

  it('leaves a pod of a plain service account alone', async () => {
    await k.kubectl(['apply', '-f', '-'], { input: manifest('plain', '') });
    const pod = JSON.parse((await k.kubectl(['get', 'pod', 'plain-pod', '-o', 'json'])).stdout);
    assert.deepEqual((pod.spec.containers[0] as Container).env, [{ name: 'AWS_REGION', value: 'eu-west-1' }]);
    assert.equal(
      (pod.spec.volumes ?? []).some((v: { name: string }) => v.name === 'aws-iam-token'),
      false,
    );
  });

  it('gives a pod identity association precedence over the IRSA annotation, for pods its controllers make too', async () => {
    await new EKSClient({}).send(
      new CreatePodIdentityAssociationCommand({
        clusterName: 'idp',
        namespace: 'default',
        serviceAccount: 'both',
        roleArn: world.podRoleArn,
      }),
    );
    await k.kubectl(['apply', '-f', '-'], { input: manifest('both', `eks.amazonaws.com/role-arn: "${ROLE}"`) });
    await k.kubectl(['apply', '-f', '-'], { input: DEPLOYMENT });
    await sb.advance(5);
    const deployed = JSON.parse((await k.kubectl(['get', 'pods', '-l', 'app=both-deploy', '-o', 'json'])).stdout).items;
    assert.ok(deployed.length > 0, 'the deployment made a pod');
    for (const pod of [JSON.parse((await k.kubectl(['get', 'pod', 'both-pod', '-o', 'json'])).stdout), ...deployed]) {
      const main = pod.spec.containers[0] as Container;
      const env = Object.fromEntries((main.env ?? []).map((e) => [e.name, e.value]));
      assert.equal(env.AWS_CONTAINER_CREDENTIALS_FULL_URI, 'http://169.254.170.23/v1/credentials');
      assert.equal(
        env.AWS_CONTAINER_AUTHORIZATION_TOKEN_FILE,
        '/var/run/secrets/pods.eks.amazonaws.com/serviceaccount/eks-pod-identity-token',
      );
      assert.equal(env.AWS_ROLE_ARN, undefined, 'container credentials take precedence over IRSA');
      assert.equal(env.AWS_DEFAULT_REGION, 'us-west-2');
      assert.deepEqual(
        main.volumeMounts?.find((m) => m.name === 'eks-pod-identity-token'),
        {
          name: 'eks-pod-identity-token',
          mountPath: '/var/run/secrets/pods.eks.amazonaws.com/serviceaccount',
          readOnly: true,
        },
      );
      assert.deepEqual(
        pod.spec.volumes.find((v: { name: string }) => v.name === 'eks-pod-identity-token')?.projected.sources,
        [
          {
            serviceAccountToken: {
              audience: 'pods.eks.amazonaws.com',
              expirationSeconds: 86400,
              path: 'eks-pod-identity-token',
            },
          },
        ],
      );
      assert.equal(
        (pod.spec.volumes as Array<{ name: string }>).some((v) => v.name === 'aws-iam-token'),
        false,
      );
    }
  });
});
