import { execFileSync } from 'node:child_process';
import { Agent as HttpAgent, request as httpRequest } from 'node:http';
import { Agent as HttpsAgent, request as httpsRequest } from 'node:https';
import { CLUSTER, EKS, ENDPOINT, type InferenceWorld, MODEL, NAMESPACE } from './inference-world.js';
import { ROOT } from './lib/processes.js';
import type { Served } from './lib/servers.js';
import { int, median, ms, percentile, progress, ratio, report, table } from './lib/stats.js';

/**
 * (g) A streamed chat completion through our API and the Kubernetes service proxy
 * (`POST /api/v1/clusters/{c}/endpoints/{ns}/{e}/invoke` with `stream: true`: our server → the sandbox EKS cluster's
 * API server → `services/chat:80/proxy/v1/chat/completions` → the pod) against the same request sent straight to
 * the pod's simulated vLLM server (`/_sandbox/kube/<eks>/pods/<ns>/<pod>/serve/v1/chat/completions`, a sandbox
 * device: no API server, authentication or proxy in between). The two take turns, one request at a time.
 *
 * Time to first token: from sending the request to the first event carrying generated text. Tokens/s: the tokens
 * after that first event over the time from it to the last one (the decode rate a reader sees). The simulated
 * server writes 3 tokens per event and pauses 2 real ms between events, so the direct rate is about 1,400 tokens/s,
 * far above one real GPU stream (tens to a few hundred): a relay that costs under 2 ms per event hides in the
 * pauses, one that costs more shows.
 */

export interface StreamOptions {
  pairs: number;
}

interface Sample {
  ttftMs: number;
  tokens: number;
  tokensPerSec: number;
  totalMs: number;
}

const PROMPT = [{ role: 'user', content: 'Explain how a KV cache speeds up decoding, in detail.' }];

interface Path {
  url: string;
  body: unknown;
  /** For the Kubernetes API server: its CA and a bearer token (sent with node:https, which takes a CA). */
  tls?: { ca: string; token: string };
}

/**
 * POSTs the JSON body and answers the status and the body as it streams. All three paths use node:http(s) with
 * keep-alive (the API server's needs a CA, which fetch takes no option for), so the client costs the same for each.
 */
async function open(p: Path): Promise<{ status: number; body: AsyncIterable<Uint8Array> }> {
  const headers: Record<string, string> = { 'content-type': 'application/json', accept: 'text/event-stream' };
  if (p.tls) headers.authorization = `Bearer ${p.tls.token}`;
  const send = p.tls ? httpsRequest : httpRequest;
  return new Promise((resolve, reject) => {
    const req = send(
      p.url,
      { method: 'POST', headers, ...(p.tls ? { ca: p.tls.ca, agent: tlsAgent } : { agent: plainAgent }) },
      (res) => resolve({ status: res.statusCode ?? 0, body: res }),
    );
    req.once('error', reject);
    req.end(JSON.stringify(p.body));
  });
}

const tlsAgent = new HttpsAgent({ keepAlive: true });
const plainAgent = new HttpAgent({ keepAlive: true });

/** Sends one streamed request and reads it to `data: [DONE]`, timing the events as they arrive. */
async function streamOnce(p: Path): Promise<Sample> {
  const url = p.url;
  const t0 = performance.now();
  const res = await open(p);
  if (res.status !== 200) {
    let text = '';
    for await (const c of res.body) text += Buffer.from(c).toString();
    throw new Error(`${url}: ${res.status} ${text.slice(0, 500)}`);
  }
  const decoder = new TextDecoder();
  let buffered = '';
  let first = 0;
  let last = 0;
  let tokens = 0;
  let firstTokens = 0;
  let done = false;
  for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>) {
    const now = performance.now();
    buffered += decoder.decode(chunk, { stream: true });
    let cut = buffered.indexOf('\n\n');
    while (cut >= 0) {
      const event = buffered.slice(0, cut).trim();
      buffered = buffered.slice(cut + 2);
      cut = buffered.indexOf('\n\n');
      if (!event.startsWith('data: ')) continue;
      if (event === 'data: [DONE]') {
        done = true;
        continue;
      }
      const text = JSON.parse(event.slice(6)).choices?.[0]?.delta?.content as string | undefined;
      const n = text?.trim() ? text.trim().split(/\s+/).length : 0;
      if (n === 0) continue;
      if (!first) {
        first = now;
        firstTokens = n;
      }
      tokens += n;
      last = now;
    }
  }
  if (!done) throw new Error(`${url}: the stream ended without data: [DONE]`);
  return {
    ttftMs: first - t0,
    tokens,
    tokensPerSec: (tokens - firstTokens) / ((last - first) / 1000),
    totalMs: performance.now() - t0,
  };
}

export async function inferenceStream(
  served: Served,
  world: InferenceWorld,
  options: StreamOptions,
): Promise<Record<string, unknown>> {
  const maxTokens = world.answerTokens + 100;
  const ours: Path = {
    url: `${served.url}/api/v1/clusters/${CLUSTER}/endpoints/${NAMESPACE}/${ENDPOINT}/invoke`,
    body: { messages: PROMPT, maxTokens, stream: true },
  };
  // The body our invoke sends the model server (src/capabilities/inference/invoke.ts completionBody).
  const direct: Path = {
    url: `${served.sandboxUrl}/_sandbox/kube/${EKS}/pods/${NAMESPACE}/${world.pod}/serve/v1/chat/completions`,
    body: { model: MODEL, messages: PROMPT, max_tokens: maxTokens, stream: true },
  };
  // The same request through the EKS cluster's API server and its service proxy alone, as kubectl would send it
  // (the kubeconfig's server and CA, a token from `instantstart token`): what the sandbox's API server costs.
  const config = JSON.parse(world.kubectl(['config', 'view', '--raw', '-o', 'json']));
  const token = JSON.parse(
    execFileSync(process.execPath, ['bin/instantstart.mjs', 'token', '--cluster', EKS], {
      cwd: ROOT,
      env: process.env,
      encoding: 'utf8',
    }),
  ).status.token as string;
  const server = config.clusters[0].cluster;
  const proxy: Path = {
    url: `${server.server}/api/v1/namespaces/${NAMESPACE}/services/${ENDPOINT}:80/proxy/v1/chat/completions`,
    body: direct.body,
    tls: { ca: Buffer.from(server['certificate-authority-data'], 'base64').toString('utf8'), token },
  };
  // Nothing changes in the cluster while it is measured: sandbox time at real speed, so that the controllers'
  // passes (which every request to the sandbox starts) cost what they cost in a quiet cluster.
  await world.admin.speed(1);
  progress(`(g) warming the three paths`);
  for (let i = 0; i < 3; i++) {
    const got = [await streamOnce(ours), await streamOnce(proxy), await streamOnce(direct)].map((x) => x.tokens);
    if (got.some((n) => n !== world.answerTokens))
      throw new Error(`expected ${world.answerTokens} tokens each way, got ${got.join(', ')} (ours, proxy, direct)`);
  }
  progress(
    `(g) ${options.pairs} rounds of three streamed completions (${world.answerTokens} tokens each), taking turns`,
  );
  const o: Sample[] = [];
  const d: Sample[] = [];
  const k: Sample[] = [];
  for (let i = 0; i < options.pairs; i++) {
    // Rotate who goes first, so none always follows another's leftovers.
    const turn = [
      async () => o.push(await streamOnce(ours)),
      async () => d.push(await streamOnce(direct)),
      async () => k.push(await streamOnce(proxy)),
    ];
    for (let j = 0; j < turn.length; j++) await turn[(i + j) % turn.length]!();
  }
  const overhead = o.map((s, i) => s.ttftMs - d[i]!.ttftMs);
  const rate = o.map((s, i) => s.tokensPerSec / d[i]!.tokensPerSec);
  const fig = (xs: Sample[]) => ({
    ttftP50: median(xs.map((s) => s.ttftMs)),
    ttftP90: percentile(
      xs.map((s) => s.ttftMs),
      90,
    ),
    tokensPerSec: median(xs.map((s) => s.tokensPerSec)),
    totalMs: median(xs.map((s) => s.totalMs)),
  });
  const figures = {
    ours: fig(o),
    direct: fig(d),
    proxyOnly: fig(k),
    proxyOverheadMs: median(k.map((s, i) => s.ttftMs - d[i]!.ttftMs)),
    firstTokenOverheadMs: median(overhead),
    firstTokenOverheadP90Ms: percentile(overhead, 90),
    tokensPerSecRatio: median(rate),
    pairs: options.pairs,
    tokens: world.answerTokens,
  };
  const row = (name: string, f: ReturnType<typeof fig>) => [
    name,
    ms(f.ttftP50),
    ms(f.ttftP90),
    int(f.tokensPerSec),
    ms(f.totalMs),
  ];
  report(
    `(g) streamed chat completion, ${world.answerTokens} tokens: through our API and the service proxy vs straight to the model server (${options.pairs} rounds taking turns; medians; sandbox at speed 1)`,
    `${table([
      ['path', 'first token p50', 'p90', 'tokens/s', 'whole answer'],
      row('straight to the pod (sandbox device)', figures.direct),
      row('the service proxy alone (bearer token, as kubectl)', figures.proxyOnly),
      row('POST …/invoke stream=true → service proxy', figures.ours),
    ])}\n${table([
      ['figure', 'value', 'goal'],
      [
        'first-token overhead (ours − direct, median of pairs / p90)',
        `${ms(figures.firstTokenOverheadMs)} / ${ms(figures.firstTokenOverheadP90Ms)}`,
        '< 5 ms',
      ],
      ['tokens/s, ours / direct (median of pairs)', ratio(figures.tokensPerSecRatio), '≥ 0.9×'],
      ['of the overhead, the sandbox API server and proxy alone (median)', ms(figures.proxyOverheadMs), ''],
    ])}`,
  );
  return figures;
}
