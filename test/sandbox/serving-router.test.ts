import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { T } from '../../sandbox/kube/controllers/util.js';
import {
  json,
  modelDeployment,
  RBAC,
  service,
  servingWorld,
  sglangContainer,
  sse,
  vllmContainer,
  type ServingWorld,
} from './serving-fixtures.js';

/**
 * The simulated SGLang router in front of two SGLang workers (discovery by selector, cache-aware
 * routing, streaming, /workers, its Prometheus port, Forbidden without RBAC), a model pool whose
 * worker moves from one Service to another by a label, and LoadBalancer hostnames that appear only
 * with the AWS Load Balancer Controller.
 */
describe('the SGLang router, model pools and load balancers in the sandbox', () => {
  let w: ServingWorld;
  const router = '/api/v1/namespaces/default/services/router:80/proxy';
  const long = (topic: string) =>
    `Summarise the following long document about ${topic}. It explains in detail how accelerators schedule work, ` +
    'how memory is shared between kernels and why batching requests improves throughput on modern hardware.';
  before(async () => {
    w = await servingWorld();
    w.create('deployments', modelDeployment('sg', 2, sglangContainer('Qwen/Qwen3-8B')));
    w.create('serviceaccounts', {
      apiVersion: 'v1',
      kind: 'ServiceAccount',
      metadata: { name: 'router', namespace: 'default' },
    });
    w.create('roles', {
      apiVersion: 'rbac.authorization.k8s.io/v1',
      kind: 'Role',
      metadata: { name: 'pod-reader', namespace: 'default' },
      rules: [{ apiGroups: [''], resources: ['pods'], verbs: ['get', 'list', 'watch'] }],
    });
    w.create('rolebindings', {
      apiVersion: 'rbac.authorization.k8s.io/v1',
      kind: 'RoleBinding',
      metadata: { name: 'router', namespace: 'default' },
      subjects: [{ kind: 'ServiceAccount', name: 'router', namespace: 'default' }],
      roleRef: { kind: 'Role', name: 'pod-reader', apiGroup: 'rbac.authorization.k8s.io' },
    });
    const deployment = modelDeployment('router', 1, {
      image: 'lmsysorg/sgl-model-gateway:v0.2.1',
      command: ['python3', '-m', 'sglang_router.launch_router'],
      args: [
        '--service-discovery',
        '--selector',
        'app=sg',
        '--service-discovery-port',
        '30000',
        '--service-discovery-namespace',
        'default',
        '--policy',
        'cache_aware',
        '--port',
        '30000',
        '--prometheus-port',
        '29000',
      ],
      ports: [
        { name: 'http', containerPort: 30000 },
        { name: 'metrics', containerPort: 29000 },
      ],
      resources: {},
    }) as any;
    deployment.spec.template.spec.serviceAccountName = 'router';
    w.create('deployments', deployment);
    w.create('services', service('router', { app: 'router' }));
    // Pulls take 2–6 s (by pod uid), SGLang 8 s to listen, the probe 1 s to see it: 20 s covers the slowest.
    w.advance(20);
  });
  after(() => w.close());

  it('discovers both workers and keeps prefix affinity with cache_aware, spreading other prompts', async () => {
    const workers = await json(await w.call(`${router}/workers`));
    assert.equal(workers.total, 2);
    assert.deepEqual(
      workers.workers.map((x: any) => x.metadata.pod_name).sort(),
      w.pods('app', 'sg').map((p) => p.metadata.name),
    );
    const served = async (prompt: string) => {
      const res = await w.chat(`${router}/v1/chat/completions`, prompt);
      assert.equal(res.status, 200);
      await res.json();
      return res.headers.get('x-served-by');
    };
    const first = await served(long('GPUs'));
    const other = await served('Translate this short sentence into French, please.');
    assert.notEqual(other, first, 'a prompt with nothing in common goes to the less loaded worker');
    assert.equal(await served(`${long('GPUs')} Add a conclusion.`), first, 'a shared prefix ≥ 0.3 stays on its worker');
    assert.equal(await served(`${long('GPUs')} Then list sources.`), first, 'again (round robin would alternate)');
    assert.equal(await served('Translate this short sentence into French, please. And Spanish.'), other);
    const router0 = w.pods('app', 'router')[0]!.metadata.name!;
    assert.match(w.logs(router0), /Adding pod: sg-[a-z0-9-]+ \| type: Regular \| url: http:\/\/[\d.]+:30000/);
  });

  it('forwards a streamed answer and counts requests on its Prometheus port', async () => {
    const res = await w.chat(`${router}/v1/chat/completions`, 'Stream me a story', { stream: true });
    assert.equal(res.status, 200);
    assert.ok(w.pods('app', 'sg').some((p) => p.metadata.name === res.headers.get('x-served-by')));
    const stream = sse(await res.text());
    assert.ok(stream.done && stream.content.length > 0);
    const pod = w.pods('app', 'router')[0]!.metadata.name!;
    const metrics = await (await w.call(`/api/v1/namespaces/default/pods/${pod}:29000/proxy/metrics`)).text();
    assert.match(metrics, /^sgl_router_requests_total\{route="\/v1\/chat\/completions",method="POST"\} 6$/m);
    assert.match(metrics, /^sgl_router_active_workers 2$/m);
    assert.match(metrics, /^sgl_router_cache_hits_total 3$/m);
    assert.equal((await w.call(`/api/v1/namespaces/default/pods/${pod}:30000/proxy/metrics`)).status, 404);
    const worker = w.pods('app', 'sg')[0]!.metadata.name!;
    const sgMetrics = await (await w.call(`/api/v1/namespaces/default/pods/${worker}:30000/proxy/metrics`)).text();
    assert.match(sgMetrics, /^sglang:num_running_reqs\{model_name="Qwen\/Qwen3-8B"\} 0\.0$/m);
    assert.match(sgMetrics, /^sglang:num_queue_reqs\{/m);
    assert.match(w.logs(worker), /The server is fired up and ready to roll!/);
  });

  it('has no workers and answers 503 when its ServiceAccount may not list pods, logging the Forbidden error', async () => {
    w.cluster.objects.remove(RBAC.rolebindings, 'default', 'router');
    const res = await w.chat(`${router}/v1/chat/completions`, 'anyone there?');
    assert.equal(res.status, 503);
    w.advance(1);
    const pod = w.pods('app', 'router')[0]!.metadata.name!;
    assert.match(
      w.logs(pod),
      /Kubernetes watcher error: ApiError: pods is forbidden: User "system:serviceaccount:default:router" cannot list resource "pods" in API group "" in the namespace "default"/,
    );
  });

  it('moves a pool worker from one Service to another when its model label changes', async () => {
    const labels = { 'instantstart.io/pool': 'p', 'instantstart.io/model': 'alpha' };
    w.create(
      'deployments',
      modelDeployment('pool-p', 3, vllmContainer('Qwen/Qwen3-0.6B'), labels, { 'instantstart.io/pool': 'p' }),
    );
    w.create('services', service('alpha', labels));
    w.create('services', service('beta', { ...labels, 'instantstart.io/model': 'beta' }));
    w.advance(20);
    const via = (svc: string) => `/api/v1/namespaces/default/services/${svc}:80/proxy/v1/chat/completions`;
    const none = await w.chat(via('beta'), 'hi');
    assert.equal(none.status, 503);
    assert.equal((await json(none)).message, 'no endpoints available for service "beta"');
    const moved = w.pods('instantstart.io/pool', 'p')[0]!.metadata.name!;
    const patched = await w.call(`/api/v1/namespaces/default/pods/${moved}`, {
      method: 'PATCH',
      headers: { 'content-type': 'application/merge-patch+json' },
      body: JSON.stringify({ metadata: { labels: { 'instantstart.io/model': 'beta' } } }),
    });
    assert.equal(patched.status, 200);
    w.advance(1);
    const onBeta = await w.chat(via('beta'), 'hi');
    assert.equal(onBeta.status, 200);
    assert.equal(onBeta.headers.get('x-served-by'), moved);
    const onAlpha = new Set<string>();
    for (let i = 0; i < 4; i++) onAlpha.add((await w.chat(via('alpha'), `hi ${i}`)).headers.get('x-served-by')!);
    assert.equal(onAlpha.size, 2, 'the two other workers take turns');
    assert.ok(!onAlpha.has(moved), 'the old Service no longer routes to the moved worker');
    assert.equal(w.pods('instantstart.io/pool', 'p').length, 3, 'the pool keeps its workers');
  });

  it('gives an LBC-annotated LoadBalancer Service a hostname only once the AWS Load Balancer Controller runs', () => {
    w.create('services', {
      apiVersion: 'v1',
      kind: 'Service',
      metadata: {
        name: 'public',
        namespace: 'default',
        annotations: {
          'service.beta.kubernetes.io/aws-load-balancer-type': 'external',
          'service.beta.kubernetes.io/aws-load-balancer-scheme': 'internet-facing',
        },
      },
      spec: { type: 'LoadBalancer', selector: { app: 'sg' }, ports: [{ port: 80, targetPort: 'http' }] },
    });
    w.advance(40);
    const svc = () => w.cluster.objects.get(T.services, 'default', 'public') as any;
    assert.deepEqual(svc().status.loadBalancer, {}, 'pending without the controller');
    w.create('deployments', {
      apiVersion: 'apps/v1',
      kind: 'Deployment',
      metadata: { name: 'aws-load-balancer-controller', namespace: 'default' },
      spec: {
        replicas: 1,
        selector: { matchLabels: { 'app.kubernetes.io/name': 'aws-load-balancer-controller' } },
        template: {
          metadata: { labels: { 'app.kubernetes.io/name': 'aws-load-balancer-controller' } },
          spec: {
            containers: [{ name: 'controller', image: 'public.ecr.aws/eks/aws-load-balancer-controller:v2.13.2' }],
          },
        },
      },
    });
    w.advance(10);
    assert.match(
      svc().status.loadBalancer.ingress[0].hostname,
      /^k8s-default-public-[0-9a-f]{10}-[0-9a-f]{16}\.elb\.us-west-2\.amazonaws\.com$/,
    );
  });
});
