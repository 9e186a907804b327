import { apiToken, ProblemError } from '@kit/api/client.js';
import { rest } from '@kit/api/rest.js';
import { INFERENCE_PATHS } from '../paths.js';
import type { EndpointRef } from './api.js';
import { applyEvent, type ChatProgress, parseEvent, takeEvents } from './sse.js';

export type { ChatProgress } from './sse.js';

/**
 * A chat completion streamed from an endpoint through the server (which sends it on through the Kubernetes API
 * server's service proxy) as server-sent events. The kit's `api()` reads a whole JSON answer; this reads the body as it
 * comes, so tokens show while they are generated.
 */

export interface ChatMessage {
  role: 'system' | 'user' | 'assistant';
  content: string;
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
    applyEvent(progress, await res.json());
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
    const taken = takeEvents(buffer);
    buffer = taken.rest;
    for (const event of taken.events) {
      const { name, payload } = parseEvent(event);
      if (payload === undefined) continue;
      if (name === 'error') throw new ProblemError(payload as ProblemError['problem']);
      const before = progress.content.length;
      applyEvent(progress, payload);
      if (progress.firstTokenMs === undefined && progress.content.length > before)
        progress.firstTokenMs = performance.now() - started;
      o.onProgress({ ...progress });
    }
  }
  progress.totalMs = performance.now() - started;
  o.onProgress({ ...progress });
  return progress;
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
