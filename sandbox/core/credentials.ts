/**
 * The sandbox's documented, throwaway identity. Nothing here is secret: it exists so that the
 * product's real SigV4 signing runs unchanged, and so a wrong secret is caught like AWS catches it.
 */
export const SANDBOX_ACCOUNT_ID = '000000000000';
export const SANDBOX_ACCESS_KEY_ID = 'AKIASANDBOX000000000';
export const SANDBOX_SECRET_ACCESS_KEY = 'sandbox-secret';
export const SANDBOX_DEFAULT_REGION = 'us-west-2';

/** Who the sandbox credentials are, as STS GetCallerIdentity reports it. */
export interface Principal {
  accountId: string;
  arn: string;
  userId: string;
}

export const SANDBOX_PRINCIPAL: Principal = {
  accountId: SANDBOX_ACCOUNT_ID,
  arn: `arn:aws:iam::${SANDBOX_ACCOUNT_ID}:user/sandbox-admin`,
  userId: 'AIDASANDBOXADMIN00000',
};

/**
 * A second documented identity with no special standing, so access entries and access policies can
 * be tried with someone who is not the cluster creator (e.g. a read-only viewer).
 */
export const SANDBOX_VIEWER_ACCESS_KEY_ID = 'AKIASANDBOXVIEWER000';
export const SANDBOX_VIEWER_SECRET_ACCESS_KEY = 'sandbox-viewer-secret';
export const SANDBOX_VIEWER_PRINCIPAL: Principal = {
  accountId: SANDBOX_ACCOUNT_ID,
  arn: `arn:aws:iam::${SANDBOX_ACCOUNT_ID}:user/sandbox-viewer`,
  userId: 'AIDASANDBOXVIEWER0000',
};

const KEYS: Record<string, { secret: string; principal: Principal }> = {
  [SANDBOX_ACCESS_KEY_ID]: { secret: SANDBOX_SECRET_ACCESS_KEY, principal: SANDBOX_PRINCIPAL },
  [SANDBOX_VIEWER_ACCESS_KEY_ID]: { secret: SANDBOX_VIEWER_SECRET_ACCESS_KEY, principal: SANDBOX_VIEWER_PRINCIPAL },
};

/** Looks up the secret and principal of an access key id; undefined when the key is unknown. */
export function lookupAccessKey(accessKeyId: string): { secret: string; principal: Principal } | undefined {
  return KEYS[accessKeyId];
}
