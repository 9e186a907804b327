import { paramsDigest } from './ids.js';
import { keyed, type Keyed } from './keyed.js';
import type { AwsError } from './errors.js';
import type { RequestContext } from './service.js';

/**
 * Client tokens (`clientRequestToken`, `ClientToken`): the same token with the same parameters
 * returns the resource made the first time; with different parameters it is an error, as on AWS.
 */
interface TokenRecord {
  digest: string;
  resourceId: string;
}

function tokens(ctx: RequestContext): Keyed<TokenRecord> {
  return (ctx.state.clientTokens ??= {}) as Keyed<TokenRecord>;
}

const tokenKey = (ctx: RequestContext, token: string) => `${ctx.service}:${ctx.region}:${ctx.operation}:${token}`;

/** Returns the resource id created earlier with this token, or undefined; throws on a parameter mismatch. */
export function lookupClientToken(
  ctx: RequestContext,
  token: string | undefined,
  params: unknown,
  mismatch: () => AwsError,
): string | undefined {
  if (!token) return undefined;
  const rec = keyed.get(tokens(ctx), tokenKey(ctx, token));
  if (!rec) return undefined;
  if (rec.digest !== paramsDigest(params)) throw mismatch();
  return rec.resourceId;
}

export function rememberClientToken(
  ctx: RequestContext,
  token: string | undefined,
  params: unknown,
  resourceId: string,
): void {
  if (!token) return;
  keyed.set(tokens(ctx), tokenKey(ctx, token), { digest: paramsDigest(params), resourceId });
}
