/**
 * The token of an `Authorization: Bearer <token>` header value (scheme case-insensitive), if any —
 * what the request guard checks and what the MCP tools forward to the REST API.
 */
export function bearerToken(authorization: string | undefined): string | undefined {
  const match = /^Bearer[ \t]+(\S+)[ \t]*$/i.exec(authorization ?? '');
  return match?.[1];
}
