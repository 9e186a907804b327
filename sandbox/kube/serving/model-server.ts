import {
  ChatRequestError,
  type ChatRequest,
  chatCompletion,
  chatCompletionChunks,
  completionId,
  errorBody,
  generate,
  parseChatRequest,
} from './completions.js';
import {
  once,
  readAll,
  registerServing,
  sleep,
  tracked,
  type PodHttpRequest,
  type PodHttpResponse,
  type ServingProcess,
} from './pod-http.js';
import type { ModelServerSpec } from './servers.js';
import { PREFIX } from '../controllers/program-lines.js';

/**
 * What a simulated vLLM, SGLang or custom server answers on its port: `POST /v1/chat/completions`
 * (JSON, or Server-Sent Events with `stream: true`), `GET /v1/models`, `GET /health` (200, empty, as
 * both engines answer) and `GET /metrics` (Prometheus text with the engines' metric names: vLLM's
 * `vllm:num_requests_running` / `vllm:num_requests_waiting` / token counters, labelled
 * `model_name`; SGLang's `sglang:num_running_reqs` / `sglang:num_queue_reqs`, only with
 * `--enable-metrics`). Unknown paths answer FastAPI's 404 `{"detail":"Not Found"}`.
 *
 * Every answer carries `x-served-by: <pod name>` (assumed: real servers send no such header; it lets
 * a caller see which worker answered). Streamed chunks are paced a couple of real milliseconds apart
 * (assumed), so a reader sees them arrive one by one. Nothing queues: `…waiting` stays 0 (assumed).
 */

/**
 * A sandbox device: the pod annotation `sandbox.instantstart.dev/answer-tokens: N` makes every answer N tokens long
 * (still cut at `max_tokens`), so a caller can ask for answers of hundreds of tokens (the bench does).
 */
const ANSWER_TOKENS = `${PREFIX}answer-tokens`;
const MAX_ANSWER_TOKENS = 100_000;

function answerTokens(proc: ServingProcess): number | undefined {
  const raw = proc.pod.metadata.annotations?.[ANSWER_TOKENS];
  const n = raw === undefined ? Number.NaN : Number(raw);
  return Number.isInteger(n) && n >= 1 ? Math.min(n, MAX_ANSWER_TOKENS) : undefined;
}

/** Real milliseconds between two streamed chunks (assumed). */
export const CHUNK_PAUSE_MS = 2;

const json = (proc: ServingProcess, status: number, value: unknown): PodHttpResponse => ({
  status,
  headers: { 'content-type': 'application/json', 'x-served-by': proc.pod.metadata.name! },
  body: once(JSON.stringify(value)),
});

const text = (proc: ServingProcess, status: number, body: string, type = 'text/plain; charset=utf-8') => ({
  status,
  headers: { 'content-type': type, 'x-served-by': proc.pod.metadata.name! },
  body: once(body),
});

const notFound = (proc: ServingProcess) => json(proc, 404, { detail: 'Not Found' });

async function handleModelServer(proc: ServingProcess, _port: number, req: PodHttpRequest): Promise<PodHttpResponse> {
  const spec = proc.spec as ModelServerSpec;
  const path = req.path.split('?')[0]!.replace(/\/+$/, '') || '/';
  const method = req.method.toUpperCase();
  const route = (want: string, answer: () => PodHttpResponse | Promise<PodHttpResponse>) =>
    method === want || (want === 'GET' && method === 'HEAD')
      ? answer()
      : json(proc, 405, { detail: 'Method Not Allowed' });
  switch (path) {
    case '/health':
      return route('GET', () => text(proc, 200, ''));
    case '/v1/models':
      return route('GET', () => json(proc, 200, modelList(proc, spec)));
    case '/metrics':
      if (!spec.metrics) return notFound(proc);
      return route('GET', () => text(proc, 200, metricsText(proc, spec), 'text/plain; version=0.0.4; charset=utf-8'));
    case '/v1/chat/completions':
      return route('POST', () => chat(proc, spec, req));
    default:
      return notFound(proc);
  }
}

function modelList(proc: ServingProcess, spec: ModelServerSpec) {
  const created = Math.floor(proc.cluster.now() / 1000);
  return {
    object: 'list',
    data: [
      {
        id: spec.servedName,
        object: 'model',
        created,
        owned_by: spec.engine === 'custom' ? 'custom' : spec.engine,
        root: spec.model,
        parent: null,
        max_model_len: 32768,
      },
    ],
  };
}

async function chat(proc: ServingProcess, spec: ModelServerSpec, req: PodHttpRequest): Promise<PodHttpResponse> {
  let parsed: ChatRequest;
  try {
    parsed = parseChatRequest(await readAll(req.body));
  } catch (err) {
    if (err instanceof ChatRequestError) return json(proc, 400, errorBody(400, err.message, 'BadRequestError'));
    throw err;
  }
  // vLLM refuses a model it does not serve; SGLang and custom servers answer whatever is named.
  if (spec.engine === 'vllm' && parsed.model !== undefined && parsed.model !== spec.servedName)
    return json(proc, 404, errorBody(404, `The model \`${parsed.model}\` does not exist.`, 'NotFoundError'));
  const g = generate(parsed, answerTokens(proc));
  proc.served += 1;
  proc.promptTokens += g.promptTokens;
  proc.generationTokens += g.words.length;
  const id = completionId(`${proc.pod.metadata.uid}|${proc.container}|${proc.served}`);
  const created = Math.floor(proc.cluster.now() / 1000);
  proc.running += 1;
  if (!parsed.stream) {
    return {
      status: 200,
      headers: { 'content-type': 'application/json', 'x-served-by': proc.pod.metadata.name! },
      body: tracked(proc, once(JSON.stringify(chatCompletion(g, spec.servedName, id, created)))),
    };
  }
  async function* events() {
    let first = true;
    for (const event of chatCompletionChunks(g, spec.servedName, id, created, parsed.includeUsage)) {
      if (!first) await sleep(CHUNK_PAUSE_MS);
      first = false;
      yield event;
    }
  }
  return {
    status: 200,
    headers: {
      'content-type': 'text/event-stream; charset=utf-8',
      'cache-control': 'no-cache',
      'x-served-by': proc.pod.metadata.name!,
    },
    body: tracked(proc, events()),
  };
}

function metricsText(proc: ServingProcess, spec: ModelServerSpec): string {
  const label = `model_name="${spec.servedName.replace(/["\\]/g, '\\$&')}"`;
  const series = (name: string, type: 'gauge' | 'counter', help: string, value: number, labels = label) =>
    `# HELP ${name} ${help}\n# TYPE ${name} ${type}\n${name}{${labels}} ${value.toFixed(1)}\n`;
  if (spec.engine === 'sglang')
    return [
      series('sglang:num_running_reqs', 'gauge', 'The number of running requests.', proc.running),
      series('sglang:num_queue_reqs', 'gauge', 'The number of requests in the waiting queue.', 0),
      series('sglang:prompt_tokens_total', 'counter', 'Number of prefill tokens processed.', proc.promptTokens),
      series(
        'sglang:generation_tokens_total',
        'counter',
        'Number of generation tokens processed.',
        proc.generationTokens,
      ),
      series('sglang:num_requests_total', 'counter', 'Number of requests processed.', proc.served),
    ].join('');
  const engine = `engine="0",${label}`;
  return [
    series(
      'vllm:num_requests_running',
      'gauge',
      'Number of requests in model execution batches.',
      proc.running,
      engine,
    ),
    series('vllm:num_requests_waiting', 'gauge', 'Number of requests waiting to be processed.', 0, engine),
    series('vllm:prompt_tokens_total', 'counter', 'Number of prefill tokens processed.', proc.promptTokens, engine),
    series(
      'vllm:generation_tokens_total',
      'counter',
      'Number of generation tokens processed.',
      proc.generationTokens,
      engine,
    ),
    series('vllm:request_success_total', 'counter', 'Count of successfully processed requests.', proc.served, engine),
  ].join('');
}

registerServing('model-server', handleModelServer);
