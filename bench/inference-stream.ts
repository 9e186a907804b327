import { CLUSTER, EKS, ENDPOINT, type InferenceWorld, MODEL, NAMESPACE } from './inference-world.js';
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

/** Sends one streamed request and reads it to `data: [DONE]`, timing the events as they arrive. */
async function streamOnce(url: string, body: unknown): Promise<Sample> {
  const t0 = performance.now();
  const res = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'text/event-stream' },
    body: JSON.stringify(body),
  });
  if (res.status !== 200) throw new Error(`${url}: ${res.status} ${(await res.text()).slice(0, 500)}`);
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
  const ours = {
    url: `${served.url}/api/v1/clusters/${CLUSTER}/endpoints/${NAMESPACE}/${ENDPOINT}/invoke`,
    body: { messages: PROMPT, maxTokens, stream: true },
  };
  // The body our invoke sends the model server (src/capabilities/inference/invoke.ts completionBody).
  const direct = {
    url: `${served.sandboxUrl}/_sandbox/kube/${EKS}/pods/${NAMESPACE}/${world.pod}/serve/v1/chat/completions`,
    body: { model: MODEL, messages: PROMPT, max_tokens: maxTokens, stream: true },
  };
  progress(`(g) warming both paths`);
  for (let i = 0; i < 3; i++) {
    const a = await streamOnce(ours.url, ours.body);
    const b = await streamOnce(direct.url, direct.body);
    if (a.tokens !== world.answerTokens || b.tokens !== world.answerTokens)
      throw new Error(
        `expected ${world.answerTokens} tokens each way, got ${a.tokens} (ours) and ${b.tokens} (direct)`,
      );
  }
  progress(`(g) ${options.pairs} pairs of streamed completions (${world.answerTokens} tokens each), taking turns`);
  const o: Sample[] = [];
  const d: Sample[] = [];
  for (let i = 0; i < options.pairs; i++) {
    // Alternate who goes first, so neither always follows the other's leftovers.
    if (i % 2 === 0) {
      o.push(await streamOnce(ours.url, ours.body));
      d.push(await streamOnce(direct.url, direct.body));
    } else {
      d.push(await streamOnce(direct.url, direct.body));
      o.push(await streamOnce(ours.url, ours.body));
    }
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
    `(g) streamed chat completion, ${world.answerTokens} tokens: through our API and the service proxy vs straight to the model server (${options.pairs} alternating pairs; medians)`,
    `${table([
      ['path', 'first token p50', 'p90', 'tokens/s', 'whole answer'],
      row('straight to the pod (sandbox device)', figures.direct),
      row('POST …/invoke stream=true → service proxy', figures.ours),
    ])}\n${table([
      ['figure', 'value', 'goal'],
      [
        'first-token overhead (ours − direct, median of pairs / p90)',
        `${ms(figures.firstTokenOverheadMs)} / ${ms(figures.firstTokenOverheadP90Ms)}`,
        '< 5 ms',
      ],
      ['tokens/s, ours / direct (median of pairs)', ratio(figures.tokensPerSecRatio), '≥ 0.9×'],
    ])}`,
  );
  return figures;
}
