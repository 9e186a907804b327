import { createHash } from 'node:crypto';
import { Sha256 } from '@aws-crypto/sha256-js';
import { HttpRequest } from '@smithy/protocol-http';
import { SignatureV4 } from '@smithy/signature-v4';
import { SANDBOX_ACCESS_KEY_ID, SANDBOX_SECRET_ACCESS_KEY } from '../../sandbox/core/credentials.js';

export interface MlflowCallOptions {
  /** The tracking server's ARN (the routing header). */
  arn: string;
  body?: unknown;
  query?: Record<string, string>;
  /** Signed as the sagemaker-mlflow plugin signs (default), not at all, or with a wrong secret. */
  sign?: 'good' | 'none' | 'wrong-secret';
  region?: string;
}

/**
 * One call to the sandbox's MLflow REST API, made the way AWS's sagemaker-mlflow plugin makes it
 * (SigV4 `sagemaker-mlflow`, `x-amz-content-sha256`, `x-mlflow-sm-tracking-server-arn`), signed by
 * the test itself so the product's client is not what proves the endpoint right.
 */
export async function mlflowCall(
  sandboxUrl: string,
  method: 'GET' | 'POST',
  path: string,
  options: MlflowCallOptions,
): Promise<{ status: number; body: any }> {
  const url = new URL(sandboxUrl);
  const body = options.body === undefined ? '' : JSON.stringify(options.body);
  const query = options.query ?? {};
  const headers: Record<string, string> = {
    host: url.host,
    'x-amz-content-sha256': createHash('sha256').update(body).digest('hex'),
    'x-mlflow-sm-tracking-server-arn': options.arn,
    ...(body ? { 'content-type': 'application/json' } : {}),
  };
  let sent = headers;
  if ((options.sign ?? 'good') !== 'none') {
    const secretAccessKey = options.sign === 'wrong-secret' ? 'not-the-secret' : SANDBOX_SECRET_ACCESS_KEY;
    const signer = new SignatureV4({
      service: 'sagemaker-mlflow',
      region: options.region ?? 'us-west-2',
      sha256: Sha256,
      credentials: { accessKeyId: SANDBOX_ACCESS_KEY_ID, secretAccessKey },
    });
    const signed = await signer.sign(
      new HttpRequest({
        method,
        protocol: 'http:',
        hostname: url.hostname,
        port: Number(url.port),
        path: `/api/2.0/mlflow/${path}`,
        query,
        headers,
        ...(body ? { body } : {}),
      }),
    );
    sent = signed.headers;
  }
  const qs = new URLSearchParams(query).toString().replaceAll('+', '%20');
  const res = await fetch(`${sandboxUrl}/api/2.0/mlflow/${path}${qs ? `?${qs}` : ''}`, {
    method,
    headers: Object.fromEntries(Object.entries(sent).filter(([k]) => k !== 'host')),
    ...(body ? { body } : {}),
  });
  return { status: res.status, body: (await res.json()) as any };
}
