import { GetCallerIdentityCommand, STSClient } from '@aws-sdk/client-sts';
import { defaultProvider } from '@aws-sdk/credential-provider-node';
import { credentialsProblem } from '../../domain/cloud-access.js';
import type { CloudAccessProblem } from '../../domain/schemas/config.js';
import { resolveCloudTimeouts, type CloudTimeouts } from '../timeouts.js';
import type { AwsClients } from './clients.js';
import { awsCall, toCloudError } from './errors.js';

export interface CallerIdentity {
  accountId: string;
  arn: string;
}

/** STS codes that mean "these credentials are not good", as opposed to "AWS did not answer". */
const REJECTED = new Set([
  'ExpiredToken',
  'ExpiredTokenException',
  'InvalidClientTokenId',
  'SignatureDoesNotMatch',
  'UnrecognizedClientException',
  'AccessDenied',
  'AccessDeniedException',
  'InvalidSignatureException',
  'IncompleteSignature',
  'AuthFailure',
]);

/**
 * Who the default credential chain says we are (STS GetCallerIdentity), or why it cannot say.
 *
 * The chain is built afresh for every check with the shared files re-read (the SDK otherwise caches
 * ~/.aws/config and ~/.aws/credentials for the life of the process), so `aws sso login` or an edited
 * credentials file after the server started is seen by the next check — and, since re-reading refreshes
 * the SDK's file cache, by the clients built after it.
 *
 * @example
 * const r = await checkCallerIdentity('us-west-2');
 * if (r.ok) console.log(r.identity.accountId); else console.log(r.problem.remedy);
 */
export async function checkCallerIdentity(
  region: string,
  timeouts: Partial<CloudTimeouts> = {},
): Promise<{ ok: true; identity: CallerIdentity } | { ok: false; problem: CloudAccessProblem }> {
  // A deadline like every other call's: a silent STS endpoint must not hold the server's start.
  const { connectMs, requestMs } = resolveCloudTimeouts(timeouts);
  const sts = new STSClient({
    region,
    credentials: defaultProvider({ ignoreCache: true }),
    maxAttempts: 2,
    requestHandler: { connectionTimeout: connectMs, requestTimeout: requestMs, throwOnRequestTimeout: true },
  });
  try {
    const r = await sts.send(new GetCallerIdentityCommand({}), { abortSignal: AbortSignal.timeout(requestMs) });
    if (!r.Account)
      return {
        ok: false,
        problem: credentialsProblem('CloudUnreachable', 'STS GetCallerIdentity answered without an account.'),
      };
    return { ok: true, identity: { accountId: r.Account, arn: r.Arn ?? '' } };
  } catch (err) {
    return { ok: false, problem: identityProblem(err) };
  } finally {
    sts.destroy();
  }
}

/** Who the server's clients' credentials are (STS GetCallerIdentity through its own clients: observed and timed). */
export async function callerOf(clients: AwsClients): Promise<CallerIdentity> {
  const r = await awsCall('sts', 'GetCallerIdentity', () => clients.sts().send(new GetCallerIdentityCommand({})));
  return { accountId: r.Account!, arn: r.Arn ?? '' };
}

/** The account of the server's clients' credentials (STS GetCallerIdentity through its own clients, so observed and timed like every call). */
export async function callerAccount(clients: AwsClients): Promise<string> {
  const r = await awsCall('sts', 'GetCallerIdentity', () => clients.sts().send(new GetCallerIdentityCommand({})));
  return r.Account!;
}

/** Sorts a failed identity check into no credentials / rejected / unreachable, keeping the SDK's words. */
export function identityProblem(err: unknown): CloudAccessProblem {
  const name = (err as { name?: string })?.name;
  // The credential chain itself failed: nothing configured, a missing profile, an expired SSO session.
  if (name === 'CredentialsProviderError' || name === 'TokenProviderError') {
    return credentialsProblem('NoCredentials', (err as Error).message);
  }
  const cloud = toCloudError(err, 'sts', 'GetCallerIdentity');
  const detail = `${cloud.code}: ${cloud.message}`;
  if (
    REJECTED.has(cloud.code) ||
    (cloud.httpStatus !== undefined && cloud.httpStatus >= 400 && cloud.httpStatus < 500 && cloud.httpStatus !== 429)
  ) {
    return credentialsProblem('CredentialsRejected', detail);
  }
  return credentialsProblem('CloudUnreachable', detail);
}
