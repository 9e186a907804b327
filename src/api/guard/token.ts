import { createHash, timingSafeEqual } from 'node:crypto';
import type { TokenScope } from '../../domain/token-scopes.js';

/** One configured API token and what it may do (serve's --token, --operate-token, --read-token). */
export interface ApiToken {
  token: string;
  scope: TokenScope;
}

/**
 * Constant-time equality of a presented token and the server's: compared as SHA-256 digests, so
 * neither their content nor their length leaks through timing.
 */
export function sameToken(presented: string, expected: string): boolean {
  const digest = (s: string) => createHash('sha256').update(s, 'utf8').digest();
  return timingSafeEqual(digest(presented), digest(expected));
}

/**
 * The scope of the configured token `presented` is, or undefined when it is none of them. Every
 * token is compared (no early exit), each in constant time: the answer's timing says nothing of
 * which token matched or how close a guess came. Were one token configured twice, the wider scope wins.
 */
export function scopeOfToken(presented: string, tokens: readonly ApiToken[]): TokenScope | undefined {
  let scope: TokenScope | undefined;
  for (const t of tokens) {
    if (sameToken(presented, t.token) && (scope === undefined || RANK[t.scope] > RANK[scope])) scope = t.scope;
  }
  return scope;
}

const RANK: Readonly<Record<TokenScope, number>> = { read: 0, operate: 1, admin: 2 };
