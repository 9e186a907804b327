import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { containerRequestOf, EMPTY_CONTAINER } from '../../src/capabilities/inference/ui/container-request.js';
import { EMPTY_MANAGED, managedRequestOf } from '../../src/capabilities/inference/ui/managed-request.js';
import { applyEvent, type ChatProgress, parseEvent, takeEvents } from '../../src/capabilities/inference/ui/sse.js';
import {
  DeployContainerEndpointRequestSchema,
  DeployManagedEndpointRequestSchema,
} from '../../src/domain/schemas/inference.js';

describe("the chat box's reading of a streamed completion", () => {
  it('folds OpenAI chunks arriving split anywhere into the text, the finish reason and the usage', () => {
    const chunk = (content: string, extra: object = {}) =>
      `data: ${JSON.stringify({ object: 'chat.completion.chunk', choices: [{ index: 0, delta: { content }, ...extra }] })}\n\n`;
    const wire =
      chunk('Hel') +
      chunk('lo') +
      chunk('!', { finish_reason: 'stop' }) +
      `data: ${JSON.stringify({ choices: [], usage: { prompt_tokens: 5, completion_tokens: 3 } })}\n\n` +
      'data: [DONE]\n\n';
    // Cut into pieces of 7 characters: events end only at their blank line.
    const p: ChatProgress = { content: '' };
    const seen: string[] = [];
    let buffer = '';
    for (let i = 0; i < wire.length; i += 7) {
      const taken = takeEvents(buffer + wire.slice(i, i + 7));
      buffer = taken.rest;
      for (const e of taken.events) {
        applyEvent(p, parseEvent(e).payload);
        seen.push(p.content);
      }
    }
    assert.equal(buffer, '');
    assert.deepEqual(seen, ['Hel', 'Hello', 'Hello!', 'Hello!', 'Hello!']);
    assert.equal(p.finishReason, 'stop');
    assert.deepEqual(p.usage, { promptTokens: 5, completionTokens: 3 });
  });

  it("reads the server's truncated event, and leaves comments, [DONE] and data that is not JSON out", () => {
    assert.deepEqual(parseEvent('event: truncated\ndata: {"truncated":true}'), {
      name: 'truncated',
      payload: { truncated: true },
    });
    assert.deepEqual(parseEvent(': keep-alive'), { name: undefined });
    assert.deepEqual(parseEvent('data: [DONE]'), { name: undefined });
    assert.deepEqual(parseEvent('data: not json'), { name: undefined });
    const p: ChatProgress = { content: 'x' };
    applyEvent(p, { truncated: true });
    assert.equal(p.truncated, true);
    assert.equal(p.content, 'x');
  });

  it('takes a whole answer (no streaming) with the pod that served it', () => {
    const p: ChatProgress = { content: '' };
    applyEvent(p, { model: 'm', content: 'All at once.', truncated: false, servedBy: 'pod-a', latencyMs: 12 });
    assert.deepEqual(p, { content: 'All at once.', model: 'm', truncated: false, servedBy: 'pod-a', latencyMs: 12 });
  });
});

describe("the deploy forms' requests", () => {
  it('a container form sends only what was chosen, and the server schema takes it', () => {
    const body = containerRequestOf({
      ...EMPTY_CONTAINER,
      name: ' qwen ',
      model: 'Qwen/Qwen3-0.6B',
      instanceGroup: 'gpu',
      args: '--max-model-len\n 8192 \n\n',
      engine: 'sglang',
      replicas: '2',
      router: true,
    });
    assert.deepEqual(body, {
      name: 'qwen',
      namespace: 'default',
      engine: 'sglang',
      model: 'Qwen/Qwen3-0.6B',
      args: ['--max-model-len', '8192'],
      instanceGroup: 'gpu',
      gpus: 1,
      replicas: 2,
      service: { variant: 'internal' },
      router: { policy: 'cache_aware' },
    });
    assert.equal(DeployContainerEndpointRequestSchema.safeParse(body).success, true);
  });

  it('the router goes only with sglang, the pool only with the pool variant, autoscaling only when on', () => {
    const body = containerRequestOf({
      ...EMPTY_CONTAINER,
      router: true,
      pool: 'warm',
      scaling: { ...EMPTY_CONTAINER.scaling, threshold: '4' },
    });
    assert.equal(body.router, undefined);
    assert.deepEqual(body.service, { variant: 'internal' });
    assert.equal(body.autoscaling, undefined);
    const scaled = containerRequestOf({
      ...EMPTY_CONTAINER,
      variant: 'pool',
      pool: 'warm',
      autoscaling: true,
      scaling: { ...EMPTY_CONTAINER.scaling, threshold: '4', prometheusUrl: 'http://prom.monitoring.svc' },
    });
    assert.deepEqual(scaled.service, { variant: 'pool', pool: 'warm' });
    assert.deepEqual(scaled.autoscaling, {
      min: 1,
      max: 4,
      cooldownSeconds: 300,
      metric: 'queue_depth',
      threshold: 4,
      prometheusUrl: 'http://prom.monitoring.svc',
    });
  });

  it('a JumpStart model sends its licence answer and no model server; the server schema refuses it unticked only by its own rule', () => {
    const body = managedRequestOf({
      ...EMPTY_MANAGED,
      name: 'ds',
      source: 'jumpstart',
      jsModelId: 'deepseek-llm-r1-distill-qwen-1-5b',
      acceptEula: true,
      instanceTypes: ['ml.g5.8xlarge'],
    });
    assert.deepEqual(body.model, {
      source: 'jumpstart',
      modelId: 'deepseek-llm-r1-distill-qwen-1-5b',
      acceptEula: true,
    });
    assert.equal(body.worker, undefined);
    assert.equal(DeployManagedEndpointRequestSchema.safeParse(body).success, true);
  });

  it('a Hugging Face model with KV cache L1+L2 and prefix-aware routing makes the request the server takes', () => {
    const body = managedRequestOf({
      ...EMPTY_MANAGED,
      name: 'qwen',
      hfModelId: 'Qwen/Qwen3-0.6B',
      hfTokenSecret: 'hf-token',
      instanceTypes: ['ml.g5.8xlarge'],
      image: 'vllm/vllm-openai:v0.11.0',
      kvCache: true,
      l2: 'tieredstorage',
      routing: true,
    });
    assert.deepEqual(body.kvCache, { l1: true, l2: { backend: 'tieredstorage' } });
    assert.deepEqual(body.routing, { strategy: 'prefixaware' });
    assert.deepEqual(body.model, {
      source: 'huggingface',
      modelId: 'Qwen/Qwen3-0.6B',
      tokenSecret: { name: 'hf-token' },
    });
    assert.equal(body.autoscaling, undefined);
    assert.equal(body.loadBalancer, undefined);
    const parsed = DeployManagedEndpointRequestSchema.safeParse(body);
    assert.equal(parsed.success, true, JSON.stringify(parsed.error?.issues));
  });

  it('a GPU count left empty is sent as not a number, so the server names the field', () => {
    const body = containerRequestOf({ ...EMPTY_CONTAINER, name: 'q', model: 'm', instanceGroup: 'g', gpus: '' });
    const parsed = DeployContainerEndpointRequestSchema.safeParse(JSON.parse(JSON.stringify(body)));
    assert.equal(parsed.success, false);
    assert.deepEqual(
      parsed.error?.issues.map((i) => i.path.join('.')),
      ['gpus'],
    );
  });
});
