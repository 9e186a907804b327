import { hexHash, unit, type Any } from '../controllers/util.js';

/**
 * The text a simulated model "generates": deterministic words chosen from the prompt (no
 * randomness: the same prompt gives the same answer on every worker), one word per token (assumed),
 * a natural length of 12–40 tokens cut at `max_tokens` / `max_completion_tokens`
 * (`finish_reason: length`, else `stop`). Answers take the shapes of vLLM's OpenAI-compatible server
 * (vllm/entrypoints/openai/protocol.py: ChatCompletionResponse, ChatCompletionStreamResponse).
 */

const WORDS = (
  'the model answers your question with care and a few simple words about what you asked it ' +
  'here is a short reply that stays the same each time you send this very prompt again ' +
  'tokens stream in small chunks so you can watch them arrive one after another'
).split(' ');

export interface ChatRequest {
  model?: string;
  prompt: string;
  maxTokens?: number;
  stream: boolean;
  includeUsage: boolean;
}

export class ChatRequestError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ChatRequestError';
  }
}

/** The text of the messages, as the router's cache-aware policy and the token counts read it. */
function promptOf(messages: unknown): string {
  if (!Array.isArray(messages) || messages.length === 0)
    throw new ChatRequestError('messages: Field required (a non-empty list of {role, content})');
  return (messages as Any[])
    .map((m) =>
      typeof m?.content === 'string'
        ? m.content
        : Array.isArray(m?.content)
          ? (m.content as Any[]).map((p) => (typeof p?.text === 'string' ? p.text : '')).join(' ')
          : '',
    )
    .join('\n');
}

export function parseChatRequest(body: Buffer): ChatRequest {
  let parsed: Any;
  try {
    parsed = JSON.parse(body.toString('utf8')) as Any;
  } catch {
    throw new ChatRequestError('The request body is not valid JSON');
  }
  if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed))
    throw new ChatRequestError('The request body must be a JSON object');
  const limit = parsed.max_completion_tokens ?? parsed.max_tokens;
  if (limit !== undefined && limit !== null && (!Number.isInteger(limit) || limit < 1))
    throw new ChatRequestError('max_tokens: Input should be a positive integer');
  return {
    ...(typeof parsed.model === 'string' ? { model: parsed.model } : {}),
    prompt: promptOf(parsed.messages),
    ...(typeof limit === 'number' ? { maxTokens: limit } : {}),
    stream: parsed.stream === true,
    includeUsage: parsed.stream_options?.include_usage === true,
  };
}

/** What the prompt costs in tokens (one per word, at least one per message line; assumed). */
export const promptTokens = (prompt: string) => Math.max(1, prompt.split(/\s+/).filter(Boolean).length);

export interface Generation {
  words: string[];
  finishReason: 'stop' | 'length';
  promptTokens: number;
}

/**
 * `naturalTokens`: the pod's `sandbox.instantstart.dev/answer-tokens` (a sandbox device, for long answers such as the
 * bench's); otherwise 12–40 chosen from the prompt.
 */
export function generate(req: ChatRequest, naturalTokens?: number): Generation {
  const natural = naturalTokens ?? 12 + Math.floor(unit(`len|${req.prompt}`) * 29);
  const count = req.maxTokens !== undefined ? Math.min(natural, req.maxTokens) : natural;
  const words = Array.from({ length: count }, (_, i) => WORDS[Math.floor(unit(`${i}|${req.prompt}`) * WORDS.length)]!);
  return {
    words,
    finishReason: req.maxTokens !== undefined && req.maxTokens < natural ? 'length' : 'stop',
    promptTokens: promptTokens(req.prompt),
  };
}

const usage = (g: Generation) => ({
  prompt_tokens: g.promptTokens,
  total_tokens: g.promptTokens + g.words.length,
  completion_tokens: g.words.length,
  prompt_tokens_details: null,
});

/** `chatcmpl-…` ids: a hash of who answered and the how-manieth request it was (no randomness). */
export const completionId = (seed: string) => `chatcmpl-${hexHash(seed, 32)}`;

export function chatCompletion(g: Generation, model: string, id: string, createdSec: number): Any {
  return {
    id,
    object: 'chat.completion',
    created: createdSec,
    model,
    choices: [
      {
        index: 0,
        message: { role: 'assistant', content: g.words.join(' '), reasoning_content: null, tool_calls: [] },
        logprobs: null,
        finish_reason: g.finishReason,
        stop_reason: null,
      },
    ],
    usage: usage(g),
    prompt_logprobs: null,
  };
}

/** Words per streamed chunk (assumed: "a few words per chunk"). */
export const WORDS_PER_CHUNK = 3;

/** The SSE events of a streamed answer, each `data: {…}\n\n`, ending with `data: [DONE]`. */
export function* chatCompletionChunks(
  g: Generation,
  model: string,
  id: string,
  createdSec: number,
  includeUsage: boolean,
): Generator<string> {
  const chunk = (choices: Any[], extra: Any = {}) =>
    `data: ${JSON.stringify({ id, object: 'chat.completion.chunk', created: createdSec, model, choices, ...extra })}\n\n`;
  const choice = (delta: Any, finish: string | null = null) => ({
    index: 0,
    delta,
    logprobs: null,
    finish_reason: finish,
    ...(finish ? { stop_reason: null } : {}),
  });
  yield chunk([choice({ role: 'assistant', content: '' })]);
  for (let i = 0; i < g.words.length; i += WORDS_PER_CHUNK) {
    const text = g.words.slice(i, i + WORDS_PER_CHUNK).join(' ');
    yield chunk([choice({ content: i === 0 ? text : ` ${text}` })]);
  }
  yield chunk([choice({ content: '' }, g.finishReason)]);
  if (includeUsage) yield chunk([], { usage: usage(g) });
  yield 'data: [DONE]\n\n';
}

/** vLLM's error body (`ErrorResponse`): `{object: "error", message, type, param, code}`. */
export const errorBody = (status: number, message: string, type: string) => ({
  object: 'error',
  message,
  type,
  param: null,
  code: status,
});
