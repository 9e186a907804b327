import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { GetCallerIdentityCommand, STSClient } from '@aws-sdk/client-sts';
import { SignatureV4 } from '@smithy/signature-v4';
import { Sha256 } from '@aws-crypto/sha256-js';
import { HttpRequest } from '@smithy/protocol-http';
import { startTestSandbox, type TestSandbox } from '../helpers/sandbox.js';

describe('STS and SigV4 verification', () => {
  let sb: TestSandbox;
  before(async () => {
    sb = await startTestSandbox();
  });
  after(async () => sb.dispose());

  it('answers GetCallerIdentity to an SDK client configured only by AWS_ENDPOINT_URL and the sandbox keys', async () => {
    const out = await new STSClient({}).send(new GetCallerIdentityCommand({}));
    assert.equal(out.Account, '000000000000');
    assert.equal(out.Arn, 'arn:aws:iam::000000000000:user/sandbox-admin');
  });

  it('rejects a wrong secret with SignatureDoesNotMatch, as STS does', async () => {
    const client = new STSClient({
      credentials: { accessKeyId: 'AKIASANDBOX000000000', secretAccessKey: 'not-the-secret' },
    });
    await assert.rejects(
      client.send(new GetCallerIdentityCommand({})),
      (e: Error) => e.name === 'SignatureDoesNotMatch',
    );
  });

  it('rejects an unknown access key with InvalidClientTokenId', async () => {
    const client = new STSClient({
      credentials: { accessKeyId: 'AKIAUNKNOWN000000000', secretAccessKey: 'sandbox-secret' },
    });
    await assert.rejects(
      client.send(new GetCallerIdentityCommand({})),
      (e: Error) => e.name === 'InvalidClientTokenId',
    );
  });

  it('answers a presigned GET URL (the EKS token form) and refuses it once tampered with', async () => {
    const url = new URL(sb.url);
    const signer = new SignatureV4({
      service: 'sts',
      region: 'us-west-2',
      sha256: Sha256,
      credentials: { accessKeyId: 'AKIASANDBOX000000000', secretAccessKey: 'sandbox-secret' },
    });
    const request = new HttpRequest({
      method: 'GET',
      protocol: 'http:',
      hostname: url.hostname,
      port: Number(url.port),
      path: '/',
      query: { Action: 'GetCallerIdentity', Version: '2011-06-15' },
      headers: { host: url.host, 'x-k8s-aws-id': 'my-cluster' },
    });
    const signed = await signer.presign(request, { expiresIn: 60 });
    const qs = new URLSearchParams(signed.query as Record<string, string>).toString();
    const ok = await fetch(`${sb.url}/?${qs}`, { headers: { 'x-k8s-aws-id': 'my-cluster' } });
    assert.equal(ok.status, 200);
    assert.match(await ok.text(), /<Arn>arn:aws:iam::000000000000:user\/sandbox-admin<\/Arn>/);

    const wrongCluster = await fetch(`${sb.url}/?${qs}`, { headers: { 'x-k8s-aws-id': 'other-cluster' } });
    assert.equal(wrongCluster.status, 403);
    assert.match(await wrongCluster.text(), /<Code>SignatureDoesNotMatch<\/Code>/);
  });

  it('refuses an unsigned request with MissingAuthenticationToken', async () => {
    const res = await fetch(`${sb.url}/`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: 'Action=GetCallerIdentity&Version=2011-06-15',
    });
    assert.equal(res.status, 403);
    assert.match(await res.text(), /<Code>MissingAuthenticationToken<\/Code>/);
  });

  it('works with the real aws CLI, and the CLI sees a wrong secret rejected', async () => {
    const ok = await sb.aws(['sts', 'get-caller-identity']);
    assert.equal(ok.json.Account, '000000000000');
    const bad = await sb.aws(['sts', 'get-caller-identity'], {
      allowFailure: true,
      env: { AWS_SECRET_ACCESS_KEY: 'wrong' },
    });
    assert.notEqual(bad.code, 0);
    assert.match(bad.stderr, /SignatureDoesNotMatch/);
  });
});
