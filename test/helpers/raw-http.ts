import { request } from 'node:http';
import { connect } from 'node:net';

export interface RawAnswer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  text: string;
  json: any;
}

/**
 * One HTTP request with the path sent exactly as given (no URL normalisation: `%61pi`, `//api`,
 * `/./` reach the server as written) and any Host header — what fetch refuses to do.
 */
export function rawRequest(
  baseUrl: string,
  method: string,
  path: string,
  options: { headers?: Record<string, string>; body?: string } = {},
): Promise<RawAnswer> {
  const { hostname, port } = new URL(baseUrl);
  return new Promise((resolve, reject) => {
    const req = request(
      {
        host: hostname,
        port,
        method,
        path,
        headers: { ...(options.body !== undefined ? { 'content-type': 'application/json' } : {}), ...options.headers },
        agent: false,
      },
      (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (c: string) => (text += c));
        res.on('end', () => {
          let json: unknown;
          try {
            json = text ? JSON.parse(text) : undefined;
          } catch {
            json = undefined;
          }
          resolve({ status: res.statusCode ?? 0, headers: res.headers, text, json });
        });
      },
    );
    req.on('error', reject);
    req.end(options.body);
  });
}

export interface UpgradeAttempt {
  /** The status line's code the server answered the upgrade with (101 when it upgraded). */
  status: number;
  /** Resolves once the server closed the connection (never, if it leaks it). */
  closedByServer: Promise<void>;
  destroy(): void;
}

/**
 * A WebSocket upgrade request on a raw socket, keeping the socket open from our side, so a test can
 * tell whether the server closes a refused upgrade (or leaves it half-open in CLOSE-WAIT).
 */
export function rawUpgrade(
  baseUrl: string,
  path: string,
  headers: Record<string, string> = {},
): Promise<UpgradeAttempt> {
  const { hostname, port, host } = new URL(baseUrl);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), hostname);
    let head = '';
    let answered = false;
    const closedByServer = new Promise<void>((r) => {
      socket.on('end', () => r());
      socket.on('close', () => r());
    });
    socket.on('error', (err) => (answered ? undefined : reject(err)));
    socket.on('connect', () => {
      const lines = [
        `GET ${path} HTTP/1.1`,
        `Host: ${headers.Host ?? host}`,
        'Connection: Upgrade',
        'Upgrade: websocket',
        'Sec-WebSocket-Version: 13',
        'Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==',
        ...Object.entries(headers)
          .filter(([k]) => k !== 'Host')
          .map(([k, v]) => `${k}: ${v}`),
      ];
      socket.write(`${lines.join('\r\n')}\r\n\r\n`);
    });
    socket.on('data', (chunk: Buffer) => {
      if (answered) return;
      head += chunk.toString('latin1');
      const m = /^HTTP\/1\.1 (\d{3})/.exec(head);
      if (m) {
        answered = true;
        resolve({ status: Number(m[1]), closedByServer, destroy: () => socket.destroy() });
      }
    });
  });
}

/**
 * Writes `bytes` on a raw connection exactly as given (a request whose framing lies, which no HTTP
 * client sends), optionally half-closing it (`end`: the client's FIN right after), and resolves with
 * everything the server wrote before it closed, parsed as one answer.
 */
export function rawExchange(
  baseUrl: string,
  bytes: string,
  options: { end?: boolean; timeoutMs?: number } = {},
): Promise<RawAnswer & { raw: string }> {
  const { hostname, port } = new URL(baseUrl);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), hostname);
    let raw = '';
    const timer = setTimeout(
      () => socket.destroy(new Error(`no close after ${options.timeoutMs ?? 10_000} ms; got ${JSON.stringify(raw)}`)),
      options.timeoutMs ?? 10_000,
    );
    socket.setEncoding('utf8');
    socket.on('data', (chunk: string) => (raw += chunk));
    socket.on('error', (err) => (raw ? undefined : reject(err)));
    socket.on('close', () => {
      clearTimeout(timer);
      const [head = '', ...rest] = raw.split('\r\n\r\n');
      const [statusLine = '', ...headerLines] = head.split('\r\n');
      const headers: Record<string, string> = {};
      for (const line of headerLines) {
        const at = line.indexOf(':');
        if (at > 0) headers[line.slice(0, at).trim().toLowerCase()] = line.slice(at + 1).trim();
      }
      const text = rest.join('\r\n\r\n');
      let json: unknown;
      try {
        json = text ? JSON.parse(text) : undefined;
      } catch {
        json = undefined;
      }
      resolve({ status: Number(/^HTTP\/1\.1 (\d{3})/.exec(statusLine)?.[1] ?? 0), headers, text, json, raw });
    });
    socket.on('connect', () => {
      socket.write(bytes);
      if (options.end) socket.end();
    });
  });
}
