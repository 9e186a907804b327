import { PassThrough } from 'node:stream';
import fastifyWebsocket from '@fastify/websocket';
import { KubeConfig, Log } from '@kubernetes/client-node';
import Fastify from 'fastify';

/**
 * The reference the job-log follow is measured against (bench/job-logs.ts): a bare Fastify with
 * @fastify/websocket relaying one pod's log, followed with the same client library as ours, line by
 * line as the same JSON messages — no job lookup, no ranks, no tail, no watch, no backpressure.
 *
 *   node dist/bench/log-relay-reference.js <kubeconfig> [port]
 *
 * `GET /follow?namespace=&pod=&container=` (WebSocket): `{type: "line", rank: 0, pod, time, text}`
 * per line, `{type: "rank-ended"}` when the log ends, then close. The pod may not exist yet: the log is
 * asked for every 50 ms until its container has started.
 */
const [kubeconfig, portArg] = process.argv.slice(2);
if (!kubeconfig) throw new Error('usage: log-relay-reference <kubeconfig> [port]');
const kc = new KubeConfig();
kc.loadFromFile(kubeconfig);

const app = Fastify({ logger: false });
await app.register(fastifyWebsocket);
app.get('/healthz', async () => ({ status: 'ok' }));
app.get('/follow', { websocket: true }, (socket, request) => {
  const { namespace = 'default', pod = '', container = 'pytorch' } = request.query as Record<string, string>;
  const out = new PassThrough();
  let rest = '';
  out.setEncoding('utf8');
  out.on('data', (chunk: string) => {
    const parts = (rest + chunk).split('\n');
    rest = parts.pop()!;
    for (const raw of parts) {
      const space = raw.indexOf(' ');
      socket.send(
        JSON.stringify({ type: 'line', rank: 0, pod, time: raw.slice(0, space), text: raw.slice(space + 1) }),
      );
    }
  });
  out.on('end', () => {
    socket.send(JSON.stringify({ type: 'rank-ended', rank: 0, pod, reason: 'the log stream ended' }));
    socket.close();
  });
  let closed = false;
  socket.on('close', () => (closed = true));
  // Like ours opened before the pod exists: ask again until its container has started (404, then 400 while waiting).
  const open = (tries: number): void => {
    void new Log(kc).log(namespace, pod, container, out, { follow: true, timestamps: true }).then(
      (controller) => (closed ? controller.abort() : socket.on('close', () => controller.abort())),
      (err: unknown) => {
        if (closed) return;
        if (tries > 0) setTimeout(() => open(tries - 1), 50);
        else socket.close(1011, String(err).slice(0, 100));
      },
    );
  };
  open(1200);
});
const url = await app.listen({ host: '127.0.0.1', port: Number(portArg ?? 0) });
process.stdout.write(`listening ${url}\n`);
for (const sig of ['SIGINT', 'SIGTERM'] as const) process.on(sig, () => void app.close().then(() => process.exit(0)));
