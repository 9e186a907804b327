import assert from 'node:assert/strict';
import { Readable } from 'node:stream';
import { describe, it } from 'node:test';
import type { KubePort, KubeServiceProxyRequest, ProxiedAnswerHeaders } from '../../src/cloud/ports.js';
import {
  invokeChat,
  invokeChatStream,
  MAX_ANSWER_BYTES,
  servedModel,
} from '../../src/capabilities/inference/invoke.js';
import { CloudError, PreconditionError } from '../../src/domain/errors.js';

/**
 * "Try it" bounded: what a model server answers through the service proxy is read within a byte cap, its text cut at
 * a character cap with `truncated` saying so, a streamed answer ends with a `truncated` event past the cap, and a
 * Service with nothing ready behind it is a 422 saying so — checked against a proxy that answers what each test says.
 */

const target = { namespace: 'default', service: 'chat', port: 80, invocationPath: 'v1/chat/completions', model: 'm' };
const req = { messages: [{ role: 'user' as const, content: 'hi' }], maxTokens: 16, stream: false };

function proxy(
  status: number,
  body: string | Buffer[],
  seen: KubeServiceProxyRequest[] = [],
  headers: ProxiedAnswerHeaders = {},
): KubePort {
  return {
    cluster: 'c',
    async proxyService(r: KubeServiceProxyRequest) {
      seen.push(r);
      return { status, headers, body: Readable.from(Array.isArray(body) ? body : [Buffer.from(body)]) };
    },
  } as unknown as KubePort;
}

const completion = (content: string) =>
  JSON.stringify({
    model: 'Qwen/Qwen3-0.6B',
    choices: [{ message: { role: 'assistant', content }, finish_reason: 'stop' }],
    usage: { prompt_tokens: 3, completion_tokens: 5 },
  });

describe('invoke through the service proxy', () => {
  it('sends the OpenAI body to the Service path and answers text, finish reason and usage', async () => {
    const seen: KubeServiceProxyRequest[] = [];
    const a = await invokeChat(proxy(200, completion('hello there'), seen), target, req);
    assert.deepEqual(
      [a.content, a.finishReason, a.truncated, a.usage, a.model],
      ['hello there', 'stop', false, { promptTokens: 3, completionTokens: 5 }, 'Qwen/Qwen3-0.6B'],
    );
    assert.deepEqual(
      [seen[0]!.path, seen[0]!.method, seen[0]!.service, seen[0]!.port],
      ['v1/chat/completions', 'POST', 'chat', 80],
    );
    assert.deepEqual(seen[0]!.body, { model: 'm', messages: req.messages, max_tokens: 16, stream: false });
  });

  it('cuts the text at the cap and says truncated', async () => {
    const a = await invokeChat(proxy(200, completion('x'.repeat(500))), target, req, { maxChars: 100 });
    assert.equal(a.content.length, 100);
    assert.equal(a.truncated, true);
  });

  it('reads no more than the byte cap of an endless answer', async () => {
    const chunk = Buffer.alloc(64 * 1024, 'a');
    const a = await invokeChat(
      proxy(
        200,
        Array.from({ length: 40 }, () => chunk),
      ),
      target,
      req,
      { maxChars: 10 },
    );
    assert.equal(a.truncated, true);
    assert.equal(a.content, 'a'.repeat(10));
  });

  it('503 from the proxy (no ready pod) is a 422 saying so; another status keeps it; not JSON is named', async () => {
    await assert.rejects(invokeChat(proxy(503, 'no endpoints available'), target, req), (e: unknown) => {
      assert.ok(e instanceof PreconditionError);
      assert.match(e.message, /no ready replica.*no endpoints available/);
      return true;
    });
    // A Service the endpoints controller has not listed yet: the API server's 404 Status says so.
    const noEndpoints = '{"kind":"Status","status":"Failure","message":"endpoints \\"beta\\" not found","code":404}';
    await assert.rejects(invokeChat(proxy(404, noEndpoints), target, req), (e: unknown) => {
      assert.ok(e instanceof PreconditionError);
      assert.match(e.message, /no ready replica/);
      return true;
    });
    await assert.rejects(invokeChat(proxy(404, 'no such path'), target, req), CloudError);
    await assert.rejects(invokeChat(proxy(400, '{"error":"bad model"}'), target, req), (e: unknown) => {
      assert.ok(e instanceof CloudError);
      assert.equal(e.httpStatus, 400);
      assert.match(e.message, /bad model/);
      return true;
    });
    await assert.rejects(invokeChat(proxy(200, '<html>'), target, req), /did not answer an OpenAI chat completion/);
  });

  it('passes a stream through and ends it with a truncated event past the cap', async () => {
    const events = 'data: {"choices":[{"delta":{"content":"a"}}]}\n\ndata: [DONE]\n\n';
    const small = await invokeChatStream(proxy(200, events), target, { ...req, stream: true });
    let out = '';
    for await (const c of small.events) out += c;
    assert.equal(out, events);
    const big = Buffer.alloc(256 * 1024, 'b');
    const capped = await invokeChatStream(
      proxy(
        200,
        Array.from({ length: 8 }, () => big),
      ),
      target,
      req,
    );
    let size = 0;
    let tail = '';
    for await (const c of capped.events) {
      size += Buffer.byteLength(c);
      tail = String(c);
    }
    assert.ok(size <= MAX_ANSWER_BYTES + 100, `${size} bytes`);
    assert.match(tail, /event: truncated/);
  });

  it('names the pod that answered when the server says so (x-served-by), plain and streamed', async () => {
    const servedBy = { 'content-type': 'application/json', 'x-served-by': 'chat-6d9f-abcde' };
    const plain = await invokeChat(proxy(200, completion('hi'), [], servedBy), target, req);
    assert.equal(plain.servedBy, 'chat-6d9f-abcde');
    assert.equal((await invokeChat(proxy(200, completion('hi')), target, req)).servedBy, undefined);
    const streamed = await invokeChatStream(proxy(200, 'data: [DONE]\n\n', [], servedBy), target, req);
    assert.equal(streamed.servedBy, 'chat-6d9f-abcde');
    streamed.events.resume();
  });

  it('asks a server which model it serves', async () => {
    assert.equal(await servedModel(proxy(200, '{"data":[{"id":"/opt/ml/model"}]}'), target), '/opt/ml/model');
    assert.equal(await servedModel(proxy(404, 'no'), target), undefined);
  });
});
