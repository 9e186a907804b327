import assert from 'node:assert/strict';
import { request } from 'node:https';
import { after, before, describe, it } from 'node:test';
import { startKubeCluster, type TestKubeCluster } from '../helpers/kube.js';
import { startTestSandbox, type TestSandbox } from '../helpers/sandbox.js';
import { sse } from './serving-fixtures.js';

/**
 * The service proxy of a real sandbox EKS cluster, reached as clients reach it: the real kubectl
 * (`get --raw`, `logs`) and HTTPS with the kubeconfig's EKS token (as client-node signs it), a vLLM
 * Deployment behind a Service on a GPU node; and an image the registry refuses (image-pull fault).
 */

const manifests = (image: string, name: string) => ({
  apiVersion: 'v1',
  kind: 'List',
  items: [
    {
      apiVersion: 'apps/v1',
      kind: 'Deployment',
      metadata: { name, namespace: 'default' },
      spec: {
        replicas: 1,
        selector: { matchLabels: { app: name } },
        template: {
          metadata: { labels: { app: name } },
          spec: {
            containers: [
              {
                name: 'vllm',
                image,
                command: ['vllm', 'serve', 'Qwen/Qwen3-0.6B'],
                args: ['--port', '8000'],
                ports: [{ name: 'http', containerPort: 8000 }],
                resources: { limits: { 'nvidia.com/gpu': '1' } },
                readinessProbe: { httpGet: { path: '/health', port: 8000 }, periodSeconds: 2 },
              },
            ],
          },
        },
      },
    },
    {
      apiVersion: 'v1',
      kind: 'Service',
      metadata: { name, namespace: 'default' },
      spec: { selector: { app: name }, ports: [{ name: 'http', port: 80, targetPort: 'http' }] },
    },
  ],
});

describe('the service proxy of a sandbox EKS cluster, through kubectl and the kubeconfig token', () => {
  let sb: TestSandbox;
  let k: TestKubeCluster;
  /** Sandbox seconds one at a time (each advance runs the controllers once). */
  const steps = async (seconds: number) => {
    for (let i = 0; i < seconds; i++) await sb.advance(1);
  };
  before(async () => {
    sb = await startTestSandbox();
    k = await startKubeCluster(sb, 'serving');
    await k.kubectl(['apply', '-f', '-'], {
      input: JSON.stringify({
        apiVersion: 'v1',
        kind: 'Node',
        metadata: { name: 'gpu-node', labels: { 'kubernetes.io/hostname': 'gpu-node' } },
      }),
    });
    const status = {
      status: {
        capacity: { cpu: '96', memory: '1000Gi', pods: '110', 'nvidia.com/gpu': '8' },
        allocatable: { cpu: '96', memory: '1000Gi', pods: '110', 'nvidia.com/gpu': '8' },
        conditions: [
          { type: 'Ready', status: 'True', reason: 'KubeletReady', message: 'kubelet is posting ready status' },
        ],
        addresses: [{ type: 'InternalIP', address: '10.0.1.20' }],
      },
    };
    await k.kubectl([
      'patch',
      'node',
      'gpu-node',
      '--subresource=status',
      '--type=merge',
      '-p',
      JSON.stringify(status),
    ]);
    await k.kubectl(['apply', '-f', '-'], { input: JSON.stringify(manifests('vllm/vllm-openai:v0.10.1', 'llm')) });
    await steps(16);
  });
  after(async () => sb.dispose());

  it('answers kubectl get --raw through the service proxy, and shows the server start-up in kubectl logs', async () => {
    const { stdout } = await k.kubectl(['get', '--raw', '/api/v1/namespaces/default/services/llm:80/proxy/v1/models']);
    assert.equal(JSON.parse(stdout).data[0].id, 'Qwen/Qwen3-0.6B');
    const logs = await k.kubectl(['logs', 'deployment/llm']);
    assert.match(logs.stdout, /Starting vLLM API server on http:\/\/0\.0\.0\.0:8000/);
    const missing = await k.kubectl(['get', '--raw', '/api/v1/namespaces/default/services/nope:80/proxy/'], {
      allowFailure: true,
    });
    assert.notEqual(missing.code, 0);
    assert.match(missing.stderr, /NotFound/);
  });

  it('streams a chat completion over HTTPS with the kubeconfig token, and answers it whole without stream', async () => {
    const kc = k.kubeConfig();
    const post = async (body: unknown, onChunk?: () => void) => {
      const url = new URL(
        `${kc.getCurrentCluster()!.server}/api/v1/namespaces/default/services/llm:80/proxy/v1/chat/completions`,
      );
      const options: Parameters<typeof request>[1] = {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
      };
      await kc.applyToHTTPSOptions(options);
      return new Promise<{ status: number; servedBy: string; text: string; chunks: number }>((resolve, reject) => {
        const req = request(url, options, (res) => {
          let text = '';
          let chunks = 0;
          res.setEncoding('utf8');
          res.on('data', (d: string) => {
            text += d;
            chunks++;
            onChunk?.();
          });
          res.on('end', () =>
            resolve({ status: res.statusCode!, servedBy: String(res.headers['x-served-by']), text, chunks }),
          );
        });
        req.on('error', reject);
        req.end(JSON.stringify(body));
      });
    };
    const messages = [{ role: 'user', content: 'Why stream tokens?' }];
    const whole = await post({ model: 'Qwen/Qwen3-0.6B', messages });
    assert.equal(
      whole.status,
      200,
      `${whole.text}\n${(await k.kubectl(['get', 'pods,endpoints,nodes', '-o', 'yaml'])).stdout}`,
    );
    assert.match(whole.servedBy, /^llm-[a-z0-9]+-[a-z0-9]+$/);
    const streamed = await post({ model: 'Qwen/Qwen3-0.6B', messages, stream: true });
    assert.equal(streamed.status, 200);
    assert.ok(streamed.chunks > 2, `the answer arrives in pieces (${streamed.chunks})`);
    const events = sse(streamed.text);
    assert.ok(events.done);
    assert.equal(events.content, JSON.parse(whole.text).choices[0].message.content);
  });

  it('keeps a pod whose image the registry refuses in ImagePullBackOff, with the kubelet wording', async () => {
    const fault = await sb.admin('/_sandbox/faults', {
      method: 'POST',
      body: { type: 'image-pull', image: 'vllm/vllm-openai:no-such-tag', cluster: 'serving' },
    });
    assert.equal(fault.status, 201);
    await k.kubectl(['apply', '-f', '-'], {
      input: JSON.stringify(manifests('vllm/vllm-openai:no-such-tag', 'broken')),
    });
    await steps(20);
    const pods = JSON.parse((await k.kubectl(['get', 'pods', '-l', 'app=broken', '-o', 'json'])).stdout).items;
    const waiting = pods[0].status.containerStatuses[0].state.waiting;
    assert.equal(pods[0].status.phase, 'Pending');
    assert.equal(waiting.reason, 'ImagePullBackOff');
    assert.match(
      waiting.message,
      /^Back-off pulling image "vllm\/vllm-openai:no-such-tag": ErrImagePull: rpc error: code = NotFound desc = failed to pull and unpack image "docker\.io\/vllm\/vllm-openai:no-such-tag"/,
    );
    const events = (
      await k.kubectl(['get', 'events', '--field-selector', `involvedObject.name=${pods[0].metadata.name}`])
    ).stdout;
    assert.match(events, /Failed to pull image "vllm\/vllm-openai:no-such-tag"/);
    const unavailable = await k.kubectl(
      ['get', '--raw', '/api/v1/namespaces/default/services/broken:80/proxy/v1/models'],
      {
        allowFailure: true,
      },
    );
    assert.match(unavailable.stderr, /ServiceUnavailable|no endpoints available/);
  });
});
