/**
 * Which names this server answers to, and which browser origins may act on it — the DNS-rebinding
 * and cross-site half of the request guard, as pure functions over header values.
 *
 * A rebinding page's requests carry its own name in Host (`evil.example:3099`) even though they reach
 * 127.0.0.1, and a same-origin check alone is fooled because Origin then equals Host. So the Host
 * must be one we were told about, and a browser's Origin must be that very Host.
 */

/** Loopback names every server answers to. */
export const LOOPBACK_NAMES: readonly string[] = ['127.0.0.1', 'localhost', '[::1]'];

const WILDCARD_BINDS = new Set(['0.0.0.0', '::', '[::]']);

export interface HostPolicy {
  /** Lower-case host names (no port); undefined when any Host is accepted. */
  readonly names: ReadonlySet<string> | undefined;
}

/**
 * The Host allowlist: loopback names, the bound address (unless it is a wildcard) and the configured
 * names. A wildcard bind with no configured names cannot know its public names: it accepts any Host,
 * which is safe only because such a server must have a token (checked at start).
 *
 * @example
 * hostPolicy({ bind: '127.0.0.1', configured: ['ops.example.com'] }).names // 127.0.0.1, localhost, [::1],
 * ops.example.com
 */
export function hostPolicy({ bind, configured = [] }: { bind: string; configured?: readonly string[] }): HostPolicy {
  const wildcard = WILDCARD_BINDS.has(bind);
  if (wildcard && configured.length === 0) return { names: undefined };
  const names = new Set(LOOPBACK_NAMES);
  if (!wildcard)
    names.add(hostnameOf(bind.includes(':') && !bind.startsWith('[') ? `[${bind}]` : bind) ?? bind.toLowerCase());
  for (const name of configured) {
    const parsed = hostnameOf(name);
    if (parsed) names.add(parsed);
  }
  return { names };
}

/** The name part of a Host header value, lower-case ('[::1]' keeps its brackets); undefined when malformed. */
export function hostnameOf(hostHeader: string): string | undefined {
  if (!hostHeader || /[\s/\\@?#]/.test(hostHeader)) return undefined;
  try {
    return new URL(`http://${hostHeader}`).hostname.toLowerCase() || undefined;
  } catch {
    return undefined;
  }
}

/** Why this Host is refused, or undefined when it is one of ours. */
export function refuseHost(policy: HostPolicy, host: string | undefined): string | undefined {
  if (!host) return 'The request has no Host header.';
  if (!policy.names) return undefined;
  const name = hostnameOf(host);
  if (name && policy.names.has(name)) return undefined;
  return `Host '${clip(host)}' is not a name of this server (DNS rebinding protection); start it with --allowed-host ${clip(name ?? host)} if that name is really yours.`;
}

/**
 * Why a browser's Origin may not act here, or undefined when it may. Non-browser clients send no
 * Origin and pass (the token, when configured, still applies). A browser's Origin must be exactly
 * this server as the browser addressed it (scheme http/https, same host and port); `null` (sandboxed
 * frames, file: pages) never is.
 */
export function refuseOrigin(origin: string | undefined, host: string | undefined): string | undefined {
  if (origin === undefined) return undefined;
  let url: URL | undefined;
  try {
    url = new URL(origin);
  } catch {
    url = undefined;
  }
  const sameOrigin =
    url !== undefined &&
    (url.protocol === 'http:' || url.protocol === 'https:') &&
    host !== undefined &&
    url.host.toLowerCase() === host.toLowerCase();
  return sameOrigin
    ? undefined
    : `Cross-site request refused: Origin ${clip(origin)} is not this server (${clip(host ?? 'no Host')}).`;
}

/** Header values are attacker-chosen: never echo more than a line of them. */
function clip(value: string): string {
  return value.length > 100 ? `${value.slice(0, 100)}…` : value;
}
