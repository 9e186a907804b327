/**
 * What an API token may do. Scopes are ordered: each one may do everything the one before it may.
 * - `read`: look only — GET/HEAD (and the read WebSockets), plus the POSTs that change nothing (checks, plans).
 * - `operate`: every change except the destructive ones (create, deploy, scale, submit, retry, cancel).
 * - `admin`: also what destroys or replaces: every DELETE, and the POSTs/PUTs a route declares destructive.
 * The server decides per route (src/api/guard/scopes.ts); docs/SECURITY.md → Token scopes.
 */
export const TOKEN_SCOPES = ['read', 'operate', 'admin'] as const;
export type TokenScope = (typeof TOKEN_SCOPES)[number];

/** True when a token of scope `has` may call a route that needs `needs`. */
export function scopeCovers(has: TokenScope, needs: TokenScope): boolean {
  return TOKEN_SCOPES.indexOf(has) >= TOKEN_SCOPES.indexOf(needs);
}

/** What a token of each scope may do, as the end of "This token …". */
export const SCOPE_ALLOWS: Readonly<Record<TokenScope, string>> = {
  read: 'may only read',
  operate: 'may read and make changes, but not destroy or replace',
  admin: 'may do everything',
};
