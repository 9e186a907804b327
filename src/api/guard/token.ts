import { createHash, timingSafeEqual } from 'node:crypto';

/**
 * The bearer-token half of the request guard. Tokens are compared as SHA-256 digests in constant
 * time, so neither their content nor their length leaks through timing.
 */

/** The token of `Authorization: Bearer <token>` (scheme case-insensitive), if any. */
export function bearerToken(authorization: string | undefined): string | undefined {
  const match = /^Bearer[ \t]+(\S+)[ \t]*$/i.exec(authorization ?? '');
  return match?.[1];
}

/** Constant-time equality of a presented token and the server's. */
export function sameToken(presented: string, expected: string): boolean {
  const digest = (s: string) => createHash('sha256').update(s, 'utf8').digest();
  return timingSafeEqual(digest(presented), digest(expected));
}
