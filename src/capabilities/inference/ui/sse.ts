/**
 * Server-sent events of a streamed chat completion, read into what the chat box shows: the model server's OpenAI
 * chunks as the server passes them through (`data: {chat.completion.chunk}` … `data: [DONE]`), and its own last event
 * (`event: truncated`). Pure: the fetch and the reading are in stream-chat.ts.
 */

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

/** The whole events in what has arrived (each ends with a blank line) and the unfinished rest, kept for the next chunk. */
export function takeEvents(buffer: string): { events: string[]; rest: string } {
  const parts = buffer.split(/\r?\n\r?\n/);
  const rest = parts.pop() ?? '';
  return { events: parts, rest };
}

/**
 * One server-sent event: its `event:` name and its `data:` lines joined, parsed as JSON; no payload for the end marker
 * (`[DONE]`), a comment or data that is not JSON.
 */
export function parseEvent(text: string): { name?: string; payload?: unknown } {
  let name: string | undefined;
  const data: string[] = [];
  for (const line of text.split(/\r?\n/)) {
    if (line.startsWith('event:')) name = line.slice(6).trim();
    else if (line.startsWith('data:')) data.push(line.slice(5).replace(/^ /, ''));
  }
  const joined = data.join('\n');
  if (!data.length || joined === '[DONE]') return { name };
  try {
    return { name, payload: JSON.parse(joined) as unknown };
  } catch {
    return { name };
  }
}

/**
 * Folds one event into the progress: an OpenAI chunk (`choices[0].delta.content`, the finish reason, usage on the last
 * one), the server's `truncated` event, or a whole answer (the invoke answer's shape, when the server did not stream).
 */
export function applyEvent(p: ChatProgress, payload: unknown): void {
  if (!payload || typeof payload !== 'object') return;
  const e = payload as Record<string, unknown>;
  const choice = Array.isArray(e.choices) ? (e.choices[0] as Record<string, unknown> | undefined) : undefined;
  const delta = choice?.delta as { content?: unknown } | undefined;
  const message = choice?.message as { content?: unknown } | undefined;
  if (typeof delta?.content === 'string') p.content += delta.content;
  else if (typeof message?.content === 'string') p.content = message.content;
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
