import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { containerEndpointManifests, EXTERNAL_LB_ANNOTATIONS } from '../../src/domain/inference/container-endpoint.js';
import { scaledObjectPreview } from '../../src/domain/inference/endpoint-autoscaling.js';
import { poolEndpointService, poolManifests } from '../../src/domain/inference/model-pool.js';
import { DEFAULT_SERVING_IMAGES } from '../../src/domain/inference/serving-command.js';
import { CreateModelPoolRequestSchema } from '../../src/domain/schemas/inference/requests.js';
import { scaledObjectProblems } from '../helpers/upstream-models.js';
import { inputErrorOn } from './helpers.js';
import { allStrings, assertConforms, containerRequest, G5_FACTS } from './inference-fixtures.js';

const server = (objs: ReturnType<typeof containerEndpointManifests>) => {
  const c = objs.deployment?.spec.template.spec.containers[0];
  assert.ok(c, 'a server container');
  return c as unknown as { command: string[]; args: string[]; env?: Array<Record<string, unknown>> } & Record<
    string,
    unknown
  >;
};

describe('container endpoint manifests', () => {
  it('vLLM external: structural command, GPUs, HF token by reference, storage at /data, LoadBalancer with the controller annotations', () => {
    const req = containerRequest({
      model: '/data/models/Qwen3-0.6B',
      storage: 'models',
      gpus: 2,
      replicas: 2,
      hfTokenSecret: { name: 'hf-token', key: 'token' },
      args: ['--max-model-len', '8192', '--chat-template', '/data/templates/my template.jinja'],
      env: [{ name: 'VLLM_LOGGING_LEVEL', value: 'INFO' }],
      service: { variant: 'external' },
    });
    const objs = containerEndpointManifests(req, { ...G5_FACTS, storageClaim: 'models-claim' });
    assertConforms(objs.deployment, objs.service);
    const c = server(objs);
    assert.deepEqual(c.command, ['vllm', 'serve']);
    assert.deepEqual(c.args, [
      '/data/models/Qwen3-0.6B',
      '--host',
      '0.0.0.0',
      '--port',
      '8000',
      '--tensor-parallel-size',
      '2',
      '--max-model-len',
      '8192',
      '--chat-template',
      '/data/templates/my template.jinja',
    ]);
    assert.deepEqual(
      c.env?.find((e) => e.name === 'HF_TOKEN'),
      { name: 'HF_TOKEN', valueFrom: { secretKeyRef: { name: 'hf-token', key: 'token' } } },
    );
    assert.deepEqual(c.resources, { limits: { 'nvidia.com/gpu': '2' } });
    assert.deepEqual(c.volumeMounts, [
      { name: 'dshm', mountPath: '/dev/shm' },
      { name: 'data', mountPath: '/data' },
    ]);
    assert.deepEqual((c.readinessProbe as { httpGet: unknown }).httpGet, { path: '/health', port: 'http' });
    const pod = objs.deployment?.spec.template.spec;
    assert.deepEqual(pod?.nodeSelector, { 'sagemaker.amazonaws.com/instance-group-name': 'gpu' });
    assert.equal(objs.service.spec.type, 'LoadBalancer');
    assert.deepEqual(objs.service.metadata.annotations, EXTERNAL_LB_ANNOTATIONS);
    assert.deepEqual(objs.service.spec.ports, [{ name: 'http', port: 80, targetPort: 8000, protocol: 'TCP' }]);
    assert.deepEqual(objs.service.spec.selector, {
      'instantstart.io/endpoint': 'chat',
      'app.kubernetes.io/component': 'model-server',
    });
    for (const o of [objs.deployment, objs.service])
      assert.deepEqual(
        { ...o?.metadata.labels },
        {
          'app.kubernetes.io/managed-by': 'instantstart',
          'instantstart.io/endpoint': 'chat',
          'instantstart.io/engine': 'vllm',
          'app.kubernetes.io/component': 'model-server',
        },
      );
    assert.equal(objs.router, undefined);
    assert.equal(objs.scaledObject, undefined);
  });

  it('internal is a ClusterIP Service; the default images are pinned versions', () => {
    const objs = containerEndpointManifests(containerRequest({}), G5_FACTS);
    assertConforms(objs.deployment, objs.service);
    assert.equal(objs.service.spec.type, 'ClusterIP');
    assert.equal(objs.service.metadata.annotations, undefined);
    for (const image of Object.values(DEFAULT_SERVING_IMAGES)) assert.match(image, /:v\d+\.\d+\.\d+/);
  });

  it('SGLang with the router and KEDA: router RBAC and Service, endpoint Service on the router, a ScaledObject KEDA accepts', () => {
    const req = containerRequest({
      engine: 'sglang',
      gpus: 4,
      replicas: 2,
      router: {},
      autoscaling: {
        min: 2,
        max: 6,
        threshold: 4,
        prometheusUrl: 'http://prometheus-server.monitoring.svc.cluster.local/',
      },
    });
    const objs = containerEndpointManifests(req, { ...G5_FACTS, image: DEFAULT_SERVING_IMAGES.sglang });
    const r = objs.router;
    assert.ok(r);
    assertConforms(
      objs.deployment,
      objs.service,
      r.deployment,
      r.service,
      r.serviceAccount,
      r.role,
      r.roleBinding,
      objs.scaledObject,
    );
    assert.deepEqual(scaledObjectProblems(objs.scaledObject as object), []);
    const c = server(objs);
    assert.deepEqual(c.command, ['python3', '-m', 'sglang.launch_server']);
    assert.deepEqual(c.args, [
      '--model-path',
      'Qwen/Qwen3-0.6B',
      '--host',
      '0.0.0.0',
      '--port',
      '8000',
      '--tp',
      '4',
      '--enable-metrics',
    ]);
    for (const o of [r.deployment, r.service, r.serviceAccount, r.role, r.roleBinding])
      assert.equal(o.metadata.name, 'chat-router');
    const routerArgs = r.deployment.spec.template.spec.containers[0]?.args as string[];
    assert.deepEqual(routerArgs, [
      '--host',
      '0.0.0.0',
      '--port',
      '30000',
      '--service-discovery',
      '--selector',
      'instantstart.io/endpoint=chat',
      'app.kubernetes.io/component=model-server',
      '--service-discovery-port',
      '8000',
      '--service-discovery-namespace',
      'default',
      '--policy',
      'cache_aware',
      '--prometheus-host',
      '0.0.0.0',
      '--prometheus-port',
      '29000',
    ]);
    assert.equal(r.deployment.spec.template.spec.serviceAccountName, 'chat-router');
    assert.deepEqual(r.role.rules, [{ apiGroups: [''], resources: ['pods'], verbs: ['get', 'list', 'watch'] }]);
    assert.deepEqual(objs.service.spec.selector, {
      'instantstart.io/endpoint': 'chat',
      'app.kubernetes.io/component': 'router',
    });
    assert.equal(objs.service.spec.ports[0]?.targetPort, 30000);
    // The router's pods must not be picked by the servers' selector (nor the other way round).
    assert.notDeepEqual(r.deployment.spec.selector.matchLabels, objs.deployment?.spec.selector.matchLabels);
    const so = objs.scaledObject;
    assert.ok(so);
    assert.equal(so.metadata.name, 'chat');
    assert.deepEqual(so.spec.scaleTargetRef, { apiVersion: 'apps/v1', kind: 'Deployment', name: 'chat' });
    assert.deepEqual([so.spec.minReplicaCount, so.spec.maxReplicaCount, so.spec.cooldownPeriod], [2, 6, 300]);
    assert.deepEqual(so.spec.triggers[0]?.metadata, {
      serverAddress: 'http://prometheus-server.monitoring.svc.cluster.local',
      query: 'sum(sglang:num_queue_reqs{namespace="default",pod=~"chat-[a-z0-9]+-[a-z0-9]+"})',
      threshold: '4',
    });
  });

  it('custom: the command and args as given, each argument one element', () => {
    const req = containerRequest({
      engine: 'custom',
      image: 'public.ecr.aws/me/server:1.0',
      command: ['python3', '-m', 'my_server'],
      args: ['--greeting', 'hello world; rm -rf /', '$(HOME)'],
    });
    const objs = containerEndpointManifests(req, { ...G5_FACTS, image: 'public.ecr.aws/me/server:1.0' });
    assertConforms(objs.deployment, objs.service);
    assert.deepEqual(server(objs).command, ['python3', '-m', 'my_server']);
    assert.deepEqual(server(objs).args, ['--greeting', 'hello world; rm -rf /', '$(HOME)']);
  });

  it('refusals name their field: too many GPUs, our own flags, autoscaling a custom server, router or autoscaling on a pool', () => {
    assert.throws(
      () => containerEndpointManifests(containerRequest({ gpus: 8 }), G5_FACTS),
      inputErrorOn('gpus', /at most 4.*ml\.g5\.12xlarge/),
    );
    assert.throws(
      () =>
        containerEndpointManifests(containerRequest({ args: ['--max-model-len', '8192', '--port=9000'] }), G5_FACTS),
      inputErrorOn('args.2', /--port/),
    );
    assert.throws(
      () => containerEndpointManifests(containerRequest({ engine: 'sglang', args: ['--tp', '2'] }), G5_FACTS),
      inputErrorOn('args.0', /--tp.*gpus/),
    );
    assert.throws(
      () =>
        containerEndpointManifests(
          containerRequest({
            engine: 'custom',
            image: 'x/y:1',
            command: ['srv'],
            autoscaling: { max: 3, threshold: 2, prometheusUrl: 'http://p.monitoring.svc' },
          }),
          G5_FACTS,
        ),
      inputErrorOn('autoscaling', /custom/),
    );
    assert.throws(
      () =>
        containerEndpointManifests(
          containerRequest({
            service: { variant: 'pool', pool: 'warm' },
            autoscaling: { max: 3, threshold: 2, prometheusUrl: 'http://p.monitoring.svc' },
          }),
          G5_FACTS,
        ),
      inputErrorOn('autoscaling', /pool/),
    );
  });

  it('the HF token never appears as a literal, whatever the variant', () => {
    const token = 'hf_abcdefghijklmnopqrstuvwxyz0123';
    const objs = containerEndpointManifests(
      containerRequest({ engine: 'sglang', replicas: 2, router: {}, hfTokenSecret: { name: 'hf' } }),
      { ...G5_FACTS, image: DEFAULT_SERVING_IMAGES.sglang },
    );
    const strings = allStrings(objs);
    assert.ok(!strings.includes(token));
    assert.ok(!strings.some((s) => s.startsWith('hf_')));
    assert.ok(!JSON.stringify(objs).includes('"name":"HF_TOKEN","value"'), 'HF_TOKEN is only ever a secretKeyRef');
  });
});

describe('pools', () => {
  const poolReq = CreateModelPoolRequestSchema.parse({
    name: 'warm',
    engine: 'vllm',
    model: 'Qwen/Qwen3-0.6B',
    instanceGroup: 'gpu',
    gpus: 1,
    workers: 3,
  });

  it('a pool is Deployment pool-P selecting on the pool label only; workers start unassigned', () => {
    const { deployment } = poolManifests(poolReq, G5_FACTS);
    assertConforms(deployment);
    assert.equal(deployment.metadata.name, 'pool-warm');
    assert.equal(deployment.spec.replicas, 3);
    assert.deepEqual(deployment.spec.selector.matchLabels, { 'instantstart.io/pool': 'warm' });
    assert.equal(deployment.spec.template.metadata.labels['instantstart.io/pool'], 'warm');
    assert.equal(deployment.spec.template.metadata.labels['instantstart.io/model'], undefined);
  });

  it('a pool endpoint is only Service E selecting pool and model labels', () => {
    const objs = containerEndpointManifests(containerRequest({ service: { variant: 'pool', pool: 'warm' } }), G5_FACTS);
    assertConforms(objs.service);
    assert.equal(objs.deployment, undefined);
    assert.deepEqual(objs.service, poolEndpointService('warm', 'chat', 'default', 8000));
    assert.deepEqual(objs.service.spec.selector, { 'instantstart.io/pool': 'warm', 'instantstart.io/model': 'chat' });
  });

  it('refuses a custom engine (the pool request has no command) and too many GPUs', () => {
    assert.throws(
      () => poolManifests({ ...poolReq, engine: 'custom' }, G5_FACTS),
      inputErrorOn('engine', /vllm or sglang/),
    );
    assert.throws(() => poolManifests({ ...poolReq, gpus: 5 }, G5_FACTS), inputErrorOn('gpus', /at most 4/));
  });
});

describe('scaledObjectPreview', () => {
  it('vLLM running requests; unique per endpoint; validates with @kubernetes-models/keda', () => {
    const a = {
      min: 1,
      max: 4,
      cooldownSeconds: 60,
      metric: 'running_requests' as const,
      threshold: 2.5,
      prometheusUrl: 'http://prom:9090',
    };
    const one = scaledObjectPreview({ name: 'a', namespace: 'ns', engine: 'vllm' }, a);
    const two = scaledObjectPreview({ name: 'b', namespace: 'ns', engine: 'vllm' }, a);
    assertConforms(one, two);
    assert.deepEqual(scaledObjectProblems(one), []);
    assert.notEqual(one.metadata.name, two.metadata.name);
    assert.equal(
      one.spec.triggers[0]?.metadata.query,
      'sum(vllm:num_requests_running{namespace="ns",pod=~"a-[a-z0-9]+-[a-z0-9]+"})',
    );
    assert.equal(one.spec.triggers[0]?.metadata.threshold, '2.5');
  });
});
