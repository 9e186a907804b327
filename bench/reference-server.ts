import { readFileSync } from 'node:fs';
import Fastify from 'fastify';

/**
 * The reference the REST reads are measured against: a bare Fastify (no logger, no hooks, no
 * validation) answering each captured body byte for byte with the captured status and
 * content type. What our server costs beyond this is ours to spend or save.
 *
 *   node dist/bench/reference-server.js <answers.json> [port]
 *
 * `answers.json`: `[{ "path": "/r/clusters-1", "status": 200, "contentType": "application/json; charset=utf-8", "body":
 * "…" }]`.
 * A `GET /healthz` answering `{"status":"ok"}` is always there, so a start can be timed like ours.
 */
interface Answer {
  path: string;
  status: number;
  contentType: string;
  body: string;
}

const [file, portArg] = process.argv.slice(2);
const answers: Answer[] = file ? (JSON.parse(readFileSync(file, 'utf8')) as Answer[]) : [];
const app = Fastify({ logger: false });
app.get('/healthz', async () => ({ status: 'ok' }));
for (const a of answers) {
  const body = Buffer.from(a.body, 'utf8');
  app.get(a.path, (_request, reply) => {
    void reply.code(a.status).header('content-type', a.contentType).send(body);
  });
}
const url = await app.listen({ host: '127.0.0.1', port: Number(portArg ?? 0) });
process.stdout.write(`listening ${url}\n`);
for (const sig of ['SIGINT', 'SIGTERM'] as const) process.on(sig, () => void app.close().then(() => process.exit(0)));
