import { Transform, type Readable } from 'node:stream';
import type { KubePort, KubeServiceProxyAnswer } from '../../cloud/ports.js';
import { CloudError, PreconditionError } from '../../domain/errors.js';
import type { InvokeEndpointAnswer, InvokeEndpointRequest } from '../../domain/schemas/inference.js';

/**
 * "Try it": an OpenAI-style chat completion sent to an endpoint's Service through the Kubernetes API server's
 * service proxy (`/api/v1/namespaces/N/services/S:80/proxy/<invocationPath>`), the same on EKS as on the sandbox —
 * no port-forward, no exec. A plain answer is read within a byte cap and its text cut at a character cap
 * (`truncated` says so); a streamed answer passes the model server's server-sent events through as they come,
 * within a byte cap too.
 */

/** Most bytes of a model server's answer read (a completion of 4,096 tokens is far below it). */
export const MAX_ANSWER_BYTES = 1024 * 1024;
/**
 * How long a plain (not streamed) completion may take to answer: a server answers only once it has generated every
 * token, which for thousands of tokens on a busy GPU is minutes, far past an API read's deadline.
 */
export const COMPLETION_MS = 300_000;

/** Most characters of generated text a REST answer carries; MCP asks for less (its answers cost tokens). */
export const MAX_CONTENT_CHARS = 32_768;

/** Where an endpoint is invoked: its Service (port 80) and the path after its root. */
export interface InvokeTarget {
  namespace: string;
  service: string;
  /** The Service port (80 for ours). */
  port: number;
  invocationPath: string;
  /** The `model` field the server expects (vLLM and SGLang: the model they were started with). */
  model: string;
}

/** The OpenAI chat-completions body (OpenAI API reference, /v1/chat/completions; vLLM and SGLang take it). */
const completionBody = (t: InvokeTarget, r: InvokeEndpointRequest, stream: boolean) => ({
  model: t.model,
  messages: r.messages,
  max_tokens: r.maxTokens,
  ...(r.temperature !== undefined ? { temperature: r.temperature } : {}),
  stream,
});

/** Up to `cap` bytes of a stream; `over` when there was more (the rest is not read). */
async function readCapped(body: Readable, cap: number): Promise<{ text: string; over: boolean }> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of body) {
    const b = Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk as string);
    if (size + b.length > cap) {
      chunks.push(b.subarray(0, cap - size));
      body.destroy();
      return { text: Buffer.concat(chunks).toString('utf8'), over: true };
    }
    chunks.push(b);
    size += b.length;
  }
  return { text: Buffer.concat(chunks).toString('utf8'), over: false };
}

/** A refused or failed proxied request, in words naming the endpoint (503: nothing ready behind the Service). */
async function proxyFailure(t: InvokeTarget, cluster: string, res: KubeServiceProxyAnswer): Promise<Error> {
  const { text } = await readCapped(res.body, 4096);
  const detail = text.trim().slice(0, 500) || `HTTP ${res.status}`;
  // 404 `endpoints "x" not found`: the Service has no Endpoints object yet (the endpoints controller lists pods a
  // moment after they become ready or are relabelled) — as unanswerable as 503, for the same reason.
  const noEndpoints = res.status === 404 && /endpoints \\?"[^"\\]+\\?" not found/.test(text);
  if (res.status === 503 || res.status === 502 || noEndpoints)
    return new PreconditionError({
      message: `Endpoint ${t.namespace}/${t.service} has no ready replica to answer (${detail}).`,
      remedy: 'Wait until get_endpoint shows it Ready (its pods and events say what it waits for), then try again.',
    });
  return new CloudError({
    service: 'kubernetes',
    operation: 'proxy',
    code: `Http${res.status}`,
    httpStatus: res.status,
    message: `The model server of ${t.namespace}/${t.service} in EKS cluster ${cluster} answered ${res.status}: ${detail}`,
  });
}

const cut = (s: string, max: number) =>
  s.length > max ? { text: s.slice(0, max), cut: true } : { text: s, cut: false };

/** The first model a server lists (`GET /v1/models`, OpenAI's list shape), or undefined when it lists none or fails. */
export async function servedModel(kube: KubePort, t: Omit<InvokeTarget, 'model'>): Promise<string | undefined> {
  const res = await kube.proxyService({
    namespace: t.namespace,
    service: t.service,
    port: t.port,
    path: 'v1/models',
    method: 'GET',
  });
  const { text } = await readCapped(res.body, 64 * 1024);
  if (res.status !== 200) return undefined;
  try {
    const id = (JSON.parse(text) as { data?: Array<{ id?: unknown }> }).data?.[0]?.id;
    return typeof id === 'string' ? id : undefined;
  } catch {
    return undefined;
  }
}

/** Sends one chat completion and answers it bounded. */
export async function invokeChat(
  kube: KubePort,
  t: InvokeTarget,
  req: InvokeEndpointRequest,
  options: { maxChars?: number; signal?: AbortSignal } = {},
): Promise<InvokeEndpointAnswer> {
  const started = performance.now();
  const res = await kube.proxyService({
    namespace: t.namespace,
    service: t.service,
    port: t.port,
    path: t.invocationPath,
    method: 'POST',
    body: completionBody(t, req, false),
    headersMs: COMPLETION_MS,
    ...(options.signal ? { signal: options.signal } : {}),
  });
  if (res.status < 200 || res.status >= 300) throw await proxyFailure(t, kube.cluster, res);
  const { text, over } = await readCapped(res.body, MAX_ANSWER_BYTES);
  const latencyMs = Math.round(performance.now() - started);
  let parsed: {
    model?: string;
    choices?: Array<{ message?: { content?: string | null }; finish_reason?: string | null }>;
    usage?: { prompt_tokens?: number; completion_tokens?: number };
  };
  try {
    parsed = JSON.parse(text) as typeof parsed;
  } catch {
    if (!over)
      throw new CloudError({
        service: 'kubernetes',
        operation: 'proxy',
        code: 'NotJson',
        message: `The model server of ${t.namespace}/${t.service} did not answer an OpenAI chat completion (${text.slice(0, 200)}).`,
      });
    // Cut mid-JSON: what the cap let through, said to be truncated.
    return {
      model: t.model,
      content: cut(text, options.maxChars ?? MAX_CONTENT_CHARS).text,
      truncated: true,
      ...(res.headers['x-served-by'] ? { servedBy: res.headers['x-served-by'] } : {}),
      latencyMs,
    };
  }
  const servedBy = res.headers['x-served-by'];
  const choice = parsed.choices?.[0];
  const content = cut(choice?.message?.content ?? '', options.maxChars ?? MAX_CONTENT_CHARS);
  const usage = parsed.usage;
  return {
    model: parsed.model ?? t.model,
    content: content.text,
    ...(choice?.finish_reason ? { finishReason: choice.finish_reason } : {}),
    truncated: content.cut || over,
    ...(usage?.prompt_tokens !== undefined && usage.completion_tokens !== undefined
      ? { usage: { promptTokens: usage.prompt_tokens, completionTokens: usage.completion_tokens } }
      : {}),
    ...(servedBy ? { servedBy } : {}),
    latencyMs,
  };
}

/** A streamed completion's events, and the pod that answers them when its server says so (`x-served-by`). */
export interface ChatStream {
  events: Readable;
  servedBy?: string;
}

/**
 * A streamed chat completion: the model server's server-sent events (`data: {…chunk…}` … `data: [DONE]`) passed
 * through as they come, ended after {@link MAX_ANSWER_BYTES} with a last event saying it was cut.
 */
export async function invokeChatStream(
  kube: KubePort,
  t: InvokeTarget,
  req: InvokeEndpointRequest,
  signal?: AbortSignal,
): Promise<ChatStream> {
  const res = await kube.proxyService({
    namespace: t.namespace,
    service: t.service,
    port: t.port,
    path: t.invocationPath,
    method: 'POST',
    body: completionBody(t, req, true),
    accept: 'text/event-stream',
    ...(signal ? { signal } : {}),
  });
  if (res.status < 200 || res.status >= 300) throw await proxyFailure(t, kube.cluster, res);
  let size = 0;
  const capped = new Transform({
    transform(chunk: Buffer, _enc, done) {
      if (size >= MAX_ANSWER_BYTES) return done();
      size += chunk.length;
      if (size < MAX_ANSWER_BYTES) return done(null, chunk);
      this.push(chunk.subarray(0, chunk.length - (size - MAX_ANSWER_BYTES)));
      this.push('\n\nevent: truncated\ndata: {"truncated":true}\n\n');
      this.push(null);
      res.body.destroy();
      done();
    },
  });
  res.body.on('error', (err) => capped.destroy(err));
  const servedBy = res.headers['x-served-by'];
  return { events: res.body.pipe(capped), ...(servedBy ? { servedBy } : {}) };
}
