import { Sha256 } from '@aws-crypto/sha256-js';
import { HttpRequest } from '@smithy/protocol-http';
import { SignatureV4 } from '@smithy/signature-v4';

/**
 * The EKS bearer token, as `aws eks get-token` makes it: a presigned STS GetCallerIdentity URL whose
 * signed headers include `x-k8s-aws-id: <cluster>`, base64url-encoded behind `k8s-aws-v1.`. The
 * cluster's authenticator replays the signature check, so the same code serves real EKS and the
 * sandbox. Nothing is sent anywhere to make it.
 */

export interface AwsCredentials {
  accessKeyId: string;
  secretAccessKey: string;
  sessionToken?: string;
}

/** The AWS SDK's provider shape: `forceRefresh` asks a caching provider to fetch the credentials again. */
export type CredentialsProvider = (options?: { forceRefresh?: boolean }) => Promise<AwsCredentials>;

/** EKS accepts a token for 15 minutes after signing; the kubeconfig's exec plugin reports it expiring a minute early, as the AWS CLI does. */
export const EKS_TOKEN_LIFETIME_MS = 14 * 60 * 1000;

/**
 * The server's own clients sign a new token after 12 minutes: three minutes of margin cover a
 * clock a little behind the cluster's and a long request started just before the renewal.
 */
export const EKS_TOKEN_RENEW_AFTER_MS = 12 * 60 * 1000;

/**
 * The static keys in the environment, when the SDK's default chain would take them: it reads AWS_ACCESS_KEY_ID /
 * AWS_SECRET_ACCESS_KEY (and AWS_SESSION_TOKEN) first, unless AWS_PROFILE names a profile
 * (@aws-sdk/credential-provider-node `defaultProvider`). kubectl runs the token command before every call, and the
 * whole chain costs a fifth of a second of module loading that these keys do not need; otherwise undefined (use the chain).
 */
export function environmentKeys(env: NodeJS.ProcessEnv): CredentialsProvider | undefined {
  const {
    AWS_ACCESS_KEY_ID: accessKeyId,
    AWS_SECRET_ACCESS_KEY: secretAccessKey,
    AWS_SESSION_TOKEN: sessionToken,
  } = env;
  if (env.AWS_PROFILE || !accessKeyId || !secretAccessKey) return undefined;
  const keys: AwsCredentials = { accessKeyId, secretAccessKey, ...(sessionToken ? { sessionToken } : {}) };
  return async () => keys;
}

export async function createEksToken(options: {
  clusterName: string;
  region: string;
  credentials?: CredentialsProvider;
  now?: Date;
}): Promise<{ token: string; expiresAt: Date }> {
  const now = options.now ?? new Date();
  const hostname = `sts.${options.region}.amazonaws.com`;
  const signer = new SignatureV4({
    service: 'sts',
    region: options.region,
    sha256: Sha256,
    credentials: options.credentials ?? (await import('@aws-sdk/credential-provider-node')).defaultProvider(),
  });
  const request = new HttpRequest({
    method: 'GET',
    protocol: 'https:',
    hostname,
    path: '/',
    query: { Action: 'GetCallerIdentity', Version: '2011-06-15' },
    headers: { host: hostname, 'x-k8s-aws-id': options.clusterName },
  });
  // 60 s is what the AWS CLI signs for; the authenticator applies its own 15-minute limit.
  const signed = await signer.presign(request, { expiresIn: 60, signingDate: now });
  const query = new URLSearchParams(signed.query as Record<string, string>).toString();
  const url = `https://${hostname}/?${query}`;
  return {
    token: `k8s-aws-v1.${Buffer.from(url).toString('base64url')}`,
    expiresAt: new Date(now.getTime() + EKS_TOKEN_LIFETIME_MS),
  };
}

/** The ExecCredential a kubeconfig's exec plugin prints (client.authentication.k8s.io/v1beta1). */
export function execCredential(token: { token: string; expiresAt: Date }): Record<string, unknown> {
  return {
    kind: 'ExecCredential',
    apiVersion: 'client.authentication.k8s.io/v1beta1',
    spec: {},
    status: { expirationTimestamp: token.expiresAt.toISOString().replace(/\.\d{3}Z$/, 'Z'), token: token.token },
  };
}
