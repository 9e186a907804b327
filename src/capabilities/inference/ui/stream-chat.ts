import { apiToken, ProblemError } from '@kit/api/client.js';
import { rest } from '@kit/api/rest.js';
import { INFERENCE_PATHS } from '../paths.js';
import type { EndpointRef } from './api.js';

/**
 * A chat completion streamed from an endpoint through the server (which sends it on through the Kubernetes API
 * server's service proxy) as server-sent events. The kit's `api()` reads a whole JSON answer; this reads the body as it
 * comes, so tokens show while they are generated.
 */

export interface ChatMessage {
  role: 'system' | 'user' | 'assistant';
  content: string;
}

/** What the stream told us: text so far, and once it ends the pod that served it, the finish reason, usage. */
export interface ChatProgress {
  content: string;
  servedBy?: string;
  model?: string;
  finishReason?: string;
  truncated?: boolean;
  usage?: { promptTokens: number; completionTokens: number };
  /** The server's latency figure when it sends one (ms). */
  latencyMs?: number;
  /** Measured here: from the request to the first token, and to the end (ms). */
  firstTokenMs?: number;
  totalMs?: number;
}

export interface StreamChatOptions {
  cluster: string;
  region: string;
  endpoint: EndpointRef;
  messages: ChatMessage[];
  maxTokens?: number;
  temperature?: number;
  signal?: AbortSignal;
  onProgress(p: ChatProgress): void;
}

/** Sends the request with `stream: true` and calls `onProgress` per event; resolves with the last progress. */
export async function streamChat(o: StreamChatOptions): Promise<ChatProgress> {
  const url = rest(INFERENCE_PATHS.endpointInvoke, {
    name: o.cluster,
    namespace: o.endpoint.namespace,
    endpoint: o.endpoint.endpoint,
  }).url();
  const headers: Record<string, string> = { accept: 'text/event-stream', 'content-type': 'application/json' };
  const token = apiToken();
  if (token) headers.authorization = `Bearer ${token}`;
  const started = performance.now();
  const res = await fetch(url, {
    method: 'POST',
    headers,
    body: JSON.stringify({
      region: o.region,
      messages: o.messages,
      stream: true,
      ...(o.maxTokens !== undefined ? { maxTokens: o.maxTokens } : {}),
      ...(o.temperature !== undefined ? { temperature: o.temperature } : {}),
    }),
    signal: o.signal,
  }).catch((err: Error) => {
    if (err.name === 'AbortError') throw err;
    throw new ProblemError({ status: 0, title: 'Server unreachable', detail: err.message });
  });
  if (!res.ok) throw new ProblemError(await problemOf(res));
  const progress: ChatProgress = { content: '', servedBy: res.headers.get('x-served-by') ?? undefined };
  // A server that answers JSON (no streaming on its side) gives the whole answer at once.
  if (!(res.headers.get('content-type') ?? '').includes('text/event-stream')) {
    apply(progress, await res.json());
    progress.firstTokenMs = progress.totalMs = performance.now() - started;
    o.onProgress({ ...progress });
    return progress;
  }
  const reader = res.body!.pipeThrough(new TextDecoderStream()).getReader();
  let buffer = '';
  for (;;) {
    const { value, done } = await reader.read();
    if (done) break;
    buffer += value;
    // Events end with a blank line; keep the unfinished tail for the next chunk.
    const events = buffer.split(/\r?\n\r?\n/);
    buffer = events.pop() ?? '';
    for (const event of events) {
      const { name, data } = parseEvent(event);
      if (data === undefined || data === '[DONE]') continue;
      const payload = JSON.parse(data) as unknown;
      if (name === 'error') throw new ProblemError(payload as ProblemError['problem']);
      const before = progress.content.length;
      apply(progress, payload);
      if (progress.firstTokenMs === undefined && progress.content.length > before)
        progress.firstTokenMs = performance.now() - started;
      o.onProgress({ ...progress });
    }
  }
  progress.totalMs = performance.now() - started;
  o.onProgress({ ...progress });
  return progress;
}

/** One server-sent event: its `event:` name and its `data:` lines joined. */
export function parseEvent(text: string): { name?: string; data?: string } {
  let name: string | undefined;
  const data: string[] = [];
  for (const line of text.split(/\r?\n/)) {
    if (line.startsWith('event:')) name = line.slice(6).trim();
    else if (line.startsWith('data:')) data.push(line.slice(5).replace(/^ /, ''));
  }
  return { name, data: data.length ? data.join('\n') : undefined };
}

/**
 * Folds one event into the progress. Events are OpenAI chunks (`choices[0].delta.content`) or the server's own
 * (`{ delta }` / `{ token }` per token, and a last one in the shape of the invoke answer: servedBy, latencyMs, usage).
 */
export function apply(p: ChatProgress, payload: unknown): void {
  if (!payload || typeof payload !== 'object') return;
  const e = payload as Record<string, unknown>;
  const choice = Array.isArray(e.choices) ? (e.choices[0] as Record<string, unknown> | undefined) : undefined;
  const delta = choice?.delta as { content?: unknown } | undefined;
  const message = choice?.message as { content?: unknown } | undefined;
  if (typeof delta?.content === 'string') p.content += delta.content;
  else if (typeof message?.content === 'string') p.content = message.content;
  else if (typeof e.delta === 'string') p.content += e.delta;
  else if (typeof e.token === 'string') p.content += e.token;
  else if (typeof e.content === 'string') p.content = e.content;
  if (typeof choice?.finish_reason === 'string') p.finishReason = choice.finish_reason;
  if (typeof e.finishReason === 'string') p.finishReason = e.finishReason;
  if (typeof e.servedBy === 'string') p.servedBy = e.servedBy;
  if (typeof e.model === 'string') p.model = e.model;
  if (typeof e.latencyMs === 'number') p.latencyMs = e.latencyMs;
  if (typeof e.truncated === 'boolean') p.truncated = e.truncated;
  const usage = e.usage as Record<string, unknown> | undefined;
  if (usage && typeof usage === 'object') {
    const prompt = usage.promptTokens ?? usage.prompt_tokens;
    const completion = usage.completionTokens ?? usage.completion_tokens;
    if (typeof prompt === 'number' && typeof completion === 'number')
      p.usage = { promptTokens: prompt, completionTokens: completion };
  }
}

async function problemOf(res: Response): Promise<ProblemError['problem']> {
  const text = await res.text().catch(() => '');
  try {
    const body = JSON.parse(text) as ProblemError['problem'];
    if (body && typeof body === 'object') return { ...body, status: body.status ?? res.status };
  } catch {
    // not JSON
  }
  return { status: res.status, title: res.statusText || 'Request failed', detail: text.slice(0, 300) };
}
