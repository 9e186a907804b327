import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { handleKubeApi } from '../../sandbox/kube/api/router.js';
import { authorize } from '../../sandbox/kube/authz.js';
import { readLogs } from '../../sandbox/kube/controllers/logs.js';
import { T } from '../../sandbox/kube/controllers/util.js';
import { builtinType } from '../../sandbox/kube/resources.js';
import type { KubeObject } from '../../sandbox/kube/types.js';
import { node, world, type World } from '../kube/controllers-fixtures.js';

export const RBAC = {
  roles: builtinType('rbac.authorization.k8s.io', 'roles'),
  rolebindings: builtinType('rbac.authorization.k8s.io', 'rolebindings'),
};

/**
 * An in-memory cluster with a GPU node, its Kubernetes API on loopback (HTTP, the real authorizer:
 * the caller is the user named by the test header `x-test-user`, in the groups of `x-test-groups`;
 * `admin` is in system:masters), and helpers to build model servers, Services and RBAC.
 */
export interface ServingWorld extends World {
  url: string;
  /** fetch against the API as `user` (admin unless named). */
  call(path: string, init?: RequestInit & { user?: string; groups?: string[] }): Promise<Response>;
  chat(path: string, prompt: string, extra?: Record<string, unknown>): Promise<Response>;
  create(type: keyof typeof T | keyof typeof RBAC, obj: Record<string, unknown>): void;
  logs(pod: string, container?: string): string;
  pods(label: string, value: string): KubeObject[];
  close(): Promise<void>;
}

export async function servingWorld(): Promise<ServingWorld> {
  const w = world();
  w.cluster.objects.create(
    T.nodes,
    node('gpu-1', { cpu: '96', memory: '1000Gi', 'nvidia.com/gpu': '8' }, { ip: '10.1.64.10' }),
  );
  const server: Server = createServer((req, res) => {
    const user = String(req.headers['x-test-user'] ?? 'admin');
    const groups = String(req.headers['x-test-groups'] ?? '')
      .split(',')
      .filter(Boolean);
    const who = {
      user: { username: user, groups: user === 'admin' ? ['system:masters'] : groups, arn: '' },
      policies: [],
    };
    void handleKubeApi(req, res, req.url ?? '/', {
      cluster: w.cluster,
      user: who.user,
      authorize: (verb, type, ns, sub) => authorize(w.cluster, who, verb, type, ns, sub),
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const call: ServingWorld['call'] = (path, init = {}) => {
    const { user, groups, ...rest } = init;
    return fetch(`${url}${path}`, {
      ...rest,
      headers: {
        ...((rest.headers as Record<string, string>) ?? {}),
        ...(user ? { 'x-test-user': user } : {}),
        ...(groups ? { 'x-test-groups': groups.join(',') } : {}),
      },
    });
  };
  return {
    ...w,
    url,
    call,
    chat: (path, prompt, extra = {}) =>
      call(path, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ messages: [{ role: 'user', content: prompt }], ...extra }),
      }),
    create: (type, obj) =>
      void w.cluster.objects.create(
        type in RBAC ? RBAC[type as keyof typeof RBAC] : T[type as keyof typeof T],
        obj as KubeObject,
      ),
    logs(name, container) {
      const pod = w.cluster.objects.get(T.pods, 'default', name)!;
      const c = container ?? (pod.spec as { containers: Array<{ name: string }> }).containers[0]!.name;
      return readLogs(w.cluster, pod, { container: c, previous: false, timestamps: false, at: w.now() });
    },
    pods: (label, value) =>
      w.cluster.objects
        .list(T.pods, 'default')
        .filter((p) => p.metadata.labels?.[label] === value)
        .sort((a, b) => a.metadata.name!.localeCompare(b.metadata.name!)),
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** A Deployment of model servers: one container, one GPU, a readiness probe on /health. */
export function modelDeployment(
  name: string,
  replicas: number,
  container: Record<string, unknown>,
  labels: Record<string, string> = { app: name },
  selector: Record<string, string> = labels,
): Record<string, unknown> {
  const port = Number((container.ports as Array<{ containerPort: number }>)[0]!.containerPort);
  return {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { name, namespace: 'default' },
    spec: {
      replicas,
      selector: { matchLabels: selector },
      template: {
        metadata: { labels },
        spec: {
          containers: [
            {
              name: 'server',
              resources: { limits: { 'nvidia.com/gpu': '1' }, requests: { 'nvidia.com/gpu': '1' } },
              readinessProbe: { httpGet: { path: '/health', port }, periodSeconds: 1 },
              ...container,
            },
          ],
        },
      },
    },
  };
}

export const vllmContainer = (model: string, extra: string[] = []) => ({
  image: 'vllm/vllm-openai:v0.10.1',
  command: ['vllm', 'serve', model],
  args: ['--port', '8000', ...extra],
  ports: [{ name: 'http', containerPort: 8000 }],
});

export const sglangContainer = (model: string) => ({
  image: 'lmsysorg/sglang:v0.5.2',
  command: ['python3', '-m', 'sglang.launch_server'],
  args: ['--model-path', model, '--port', '30000', '--enable-metrics'],
  ports: [{ name: 'http', containerPort: 30000 }],
});

export function service(name: string, selector: Record<string, string>, targetPort: number | string = 'http') {
  return {
    apiVersion: 'v1',
    kind: 'Service',
    metadata: { name, namespace: 'default' },
    spec: { selector, ports: [{ name: 'http', port: 80, targetPort, protocol: 'TCP' }] },
  };
}

/** A JSON answer, loosely typed for assertions. */
export const json = (res: Response): Promise<any> => res.json();

/** Reads a streamed answer chunk by chunk: the pieces as they arrived. */
export async function pieces(res: Response): Promise<string[]> {
  const out: string[] = [];
  const decoder = new TextDecoder();
  for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>) out.push(decoder.decode(chunk));
  return out;
}

/** The content of an SSE chat stream, the events' JSON, and whether it ended with [DONE]. */
export function sse(text: string): { content: string; events: any[]; done: boolean } {
  const data = text
    .split('\n\n')
    .map((e) => e.trim())
    .filter((e) => e.startsWith('data: '))
    .map((e) => e.slice(6));
  const events = data.filter((d) => d !== '[DONE]').map((d) => JSON.parse(d));
  return {
    content: events.map((e) => e.choices?.[0]?.delta?.content ?? '').join(''),
    events,
    done: data.at(-1) === '[DONE]',
  };
}
