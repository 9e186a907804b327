import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { containerEndpointManifests } from '../../src/domain/inference/container-endpoint.js';
import { containerEndpointView, managedEndpointView } from '../../src/domain/inference/endpoint-view.js';
import { managedEndpointManifest } from '../../src/domain/inference/managed-endpoint.js';
import { poolManifests } from '../../src/domain/inference/model-pool.js';
import { DEPLOYMENT } from '../../src/domain/kube/deployment.js';
import { INFERENCE_ENDPOINT_CONFIG } from '../../src/domain/kube/inference-endpoint-config.js';
import { knownKind } from '../../src/domain/kube/index.js';
import { JUMPSTART_MODEL } from '../../src/domain/kube/jumpstart-model.js';
import { POD } from '../../src/domain/kube/pod.js';
import { SCALED_OBJECT, scaledObjectStatus } from '../../src/domain/kube/scaled-object.js';
import { SERVICE } from '../../src/domain/kube/service.js';
import { CreateModelPoolRequestSchema } from '../../src/domain/schemas/inference/requests.js';
import { EndpointViewSchema } from '../../src/domain/schemas/inference/views.js';
import { containerRequest, G5_FACTS, managedRequest } from './inference-fixtures.js';

/** A built manifest as the cluster answers it: with the status given. */
const live = <T>(kind: { parse(raw: unknown): T }, manifest: object, status: Record<string, unknown> = {}, meta = {}) =>
  kind.parse({
    ...structuredClone(manifest),
    metadata: { ...(manifest as { metadata: object }).metadata, creationTimestamp: '2026-12-07T10:00:00Z', ...meta },
    status,
  });

describe('managed endpoint view', () => {
  const iec = managedEndpointManifest(managedRequest({ routing: { strategy: 'kvaware' }, replicas: 2 }), {
    namespace: 'team-a',
  });
  const made = (ready: number) => ({
    deployments: [
      live(
        DEPLOYMENT,
        {
          apiVersion: 'apps/v1',
          kind: 'Deployment',
          metadata: { name: 'qwen', namespace: 'team-a' },
          spec: { replicas: 2 },
        },
        { readyReplicas: ready },
      ),
    ],
    services: [
      live(
        SERVICE,
        {
          apiVersion: 'v1',
          kind: 'Service',
          metadata: { name: 'qwen-svc', namespace: 'team-a' },
          spec: { ports: [{ port: 8080 }] },
        },
        {
          loadBalancer: { ingress: [{ hostname: 'k8s-qwen-123.elb.us-west-2.amazonaws.com' }] },
        },
      ),
    ],
  });

  it('maps the operator states; DeploymentComplete with every replica ready is Ready', () => {
    const cases: Array<[string | undefined, number, string]> = [
      [undefined, 0, 'Pending'],
      ['DeploymentPending', 0, 'Pending'],
      ['DeploymentInProgress', 1, 'Deploying'],
      ['DeploymentComplete', 2, 'Ready'],
      ['DeploymentComplete', 1, 'Degraded'],
      ['DeletionInProgress', 2, 'Deleting'],
    ];
    for (const [state, ready, want] of cases) {
      const v = managedEndpointView(live(INFERENCE_ENDPOINT_CONFIG, iec, state ? { state } : {}), made(ready));
      assert.equal(v.state, want, `${state} with ${ready} ready`);
      EndpointViewSchema.parse(v);
    }
    const v = managedEndpointView(live(INFERENCE_ENDPOINT_CONFIG, iec, { state: 'DeploymentComplete' }), made(2));
    assert.deepEqual(
      {
        kind: v.kind,
        model: v.model,
        routing: v.routing,
        replicas: v.replicas,
        types: v.instanceTypes,
        path: v.invocationPath,
      },
      {
        kind: 'managed',
        model: 'Qwen/Qwen3-0.6B',
        routing: 'kvaware',
        replicas: { ready: 2, desired: 2 },
        types: ['ml.g5.8xlarge'],
        path: 'v1/chat/completions',
      },
    );
    assert.deepEqual(v.urls, {
      inCluster: 'http://qwen-svc.team-a.svc.cluster.local:8080',
      loadBalancer: 'k8s-qwen-123.elb.us-west-2.amazonaws.com',
    });
    assert.deepEqual(v.objects, [{ kind: 'InferenceEndpointConfig', name: 'qwen' }]);
  });

  it("counts only the model server's replicas, not the router the operator adds for intelligent routing", () => {
    const one = live(
      INFERENCE_ENDPOINT_CONFIG,
      { ...iec, spec: { ...iec.spec, replicas: 1 } },
      {
        state: 'DeploymentComplete',
      },
    );
    const deployment = (name: string, ready: number) =>
      live(
        DEPLOYMENT,
        { apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name, namespace: 'team-a' }, spec: { replicas: 1 } },
        { readyReplicas: ready },
      );
    const withRouter = { deployments: [deployment('qwen', 1), deployment('qwen-router', 1)], services: [] };
    const v = managedEndpointView(one, withRouter);
    assert.deepEqual([v.replicas, v.state], [{ ready: 1, desired: 1 }, 'Ready']);
    // The router ready while no worker is: nothing serves the model yet.
    const waiting = managedEndpointView(one, {
      deployments: [deployment('qwen', 0), deployment('qwen-router', 1)],
      services: [],
    });
    assert.deepEqual([waiting.replicas, waiting.state], [{ ready: 0, desired: 1 }, 'Deploying']);
  });

  it("a failure carries the operator's reason", () => {
    const obj = live(INFERENCE_ENDPOINT_CONFIG, iec, {
      state: 'DeploymentFailed',
      deploymentStatus: {
        name: 'qwen',
        reason: 'InsufficientCapacity',
        message: '0/2 nodes have nvidia.com/gpu',
        lastUpdated: '2026-12-07T10:05:00Z',
      },
    });
    const v = managedEndpointView(obj, { deployments: [], services: [] });
    assert.equal(v.state, 'Failed');
    assert.equal(v.operatorState, 'DeploymentFailed');
    assert.equal(v.reason, 'InsufficientCapacity: 0/2 nodes have nvidia.com/gpu');
    assert.equal(INFERENCE_ENDPOINT_CONFIG.health?.(obj).state, 'failed');
  });

  it('a JumpStartModel reads as jumpstart', () => {
    const js = managedEndpointManifest(
      managedRequest({
        model: { source: 'jumpstart', modelId: 'deepseek-llm-r1-distill-qwen-1-5b', acceptEula: true },
        worker: undefined,
      }),
      { namespace: 'team-a' },
    );
    const v = managedEndpointView(live(JUMPSTART_MODEL, js, { state: 'DeploymentInProgress' }), {
      deployments: [],
      services: [],
    });
    assert.deepEqual(
      [v.kind, v.model, v.state, v.instanceTypes[0]],
      ['jumpstart', 'deepseek-llm-r1-distill-qwen-1-5b', 'Deploying', 'ml.g5.8xlarge'],
    );
    EndpointViewSchema.parse(v);
  });

  it('parsers are tolerant: a wrong-typed field reads as absent, an unknown state as none', () => {
    const obj = INFERENCE_ENDPOINT_CONFIG.parse({
      metadata: { name: 'x' },
      spec: { replicas: 'two', worker: 7 },
      status: { state: 'Weird' },
    });
    assert.equal(obj.spec.replicas, undefined);
    assert.equal(obj.spec.worker.image, '');
    assert.equal(obj.status.state, undefined);
    assert.equal(managedEndpointView(obj, { deployments: [], services: [] }).state, 'Pending');
  });

  it('the kinds are known by apiVersion and kind', () => {
    assert.equal(
      knownKind('inference.sagemaker.aws.amazon.com/v1', 'InferenceEndpointConfig')?.plural,
      'inferenceendpointconfigs',
    );
    assert.equal(knownKind('inference.sagemaker.aws.amazon.com/v1', 'JumpStartModel')?.plural, 'jumpstartmodels');
    assert.equal(knownKind('keda.sh/v1alpha1', 'ScaledObject')?.plural, 'scaledobjects');
  });
});

describe('container endpoint view', () => {
  const objs = containerEndpointManifests(
    containerRequest({
      engine: 'sglang',
      replicas: 3,
      router: { policy: 'round_robin' },
      service: { variant: 'external' },
      autoscaling: { min: 1, max: 5, threshold: 3, prometheusUrl: 'http://prom.monitoring.svc' },
    }),
    G5_FACTS,
  );
  const router = objs.router;
  assert.ok(router);
  const view = (ready: number, routerReady = 1, lb?: string) =>
    containerEndpointView({
      deployment: live(DEPLOYMENT, objs.deployment as object, {
        replicas: 3,
        readyReplicas: ready,
        updatedReplicas: 3,
        availableReplicas: ready,
      }),
      service: live(SERVICE, objs.service, lb ? { loadBalancer: { ingress: [{ hostname: lb }] } } : {}),
      router: {
        deployment: live(DEPLOYMENT, router.deployment, { replicas: 1, readyReplicas: routerReady }),
        service: live(SERVICE, router.service),
      },
      scaledObject: live(SCALED_OBJECT, objs.scaledObject as object, {
        conditions: [
          { type: 'Ready', status: 'True', reason: 'ScaledObjectReady' },
          { type: 'Active', status: 'True', reason: 'ScalerActive' },
        ],
      }),
    });

  it('replicas ready/desired, URLs, router, autoscaling and the objects delete removes', () => {
    const v = view(3, 1, 'k8s-default-chat-abc.elb.us-west-2.amazonaws.com');
    EndpointViewSchema.parse(v);
    assert.equal(v.state, 'Ready');
    assert.deepEqual(v.replicas, { ready: 3, desired: 3 });
    assert.deepEqual(
      { engine: v.engine, model: v.model, variant: v.variant, types: v.instanceTypes },
      { engine: 'sglang', model: 'Qwen/Qwen3-0.6B', variant: 'external', types: ['ml.g5.12xlarge'] },
    );
    assert.deepEqual(v.urls, {
      inCluster: 'http://chat.default.svc.cluster.local',
      loadBalancer: 'k8s-default-chat-abc.elb.us-west-2.amazonaws.com',
    });
    assert.deepEqual(v.router, { policy: 'round_robin', ready: true, service: 'chat-router' });
    assert.deepEqual(v.autoscaling, { min: 1, max: 5, scaledObject: 'chat', active: true });
    assert.deepEqual(v.objects, [
      { kind: 'Deployment', name: 'chat' },
      { kind: 'Service', name: 'chat' },
      { kind: 'Deployment', name: 'chat-router' },
      { kind: 'Service', name: 'chat-router' },
      { kind: 'ScaledObject', name: 'chat' },
    ]);
  });

  it('Deploying with none ready, Degraded with some, or with the router down', () => {
    assert.equal(view(0).state, 'Deploying');
    assert.equal(view(2).state, 'Degraded');
    assert.equal(view(3, 0).state, 'Degraded');
    assert.match(view(3, 0).reason ?? '', /router/);
  });

  it('a pool endpoint counts the workers labelled for it', () => {
    const pool = containerEndpointManifests(containerRequest({ service: { variant: 'pool', pool: 'warm' } }), G5_FACTS);
    const pod = (name: string, model: string | undefined, ready: boolean) =>
      POD.parse({
        metadata: {
          name,
          namespace: 'default',
          labels: { 'instantstart.io/pool': 'warm', ...(model ? { 'instantstart.io/model': model } : {}) },
        },
        status: { phase: 'Running', conditions: [{ type: 'Ready', status: ready ? 'True' : 'False' }] },
      });
    const v = containerEndpointView({
      service: live(SERVICE, pool.service),
      poolPods: [pod('a', 'chat', true), pod('b', 'chat', false), pod('c', 'other', true), pod('d', undefined, true)],
    });
    EndpointViewSchema.parse(v);
    assert.deepEqual([v.variant, v.pool, v.state], ['pool', 'warm', 'Degraded']);
    assert.deepEqual(v.replicas, { ready: 1, desired: 2 });
    // What it serves is the pool's: its Deployment's engine, model and instance type (the Service says none).
    const { deployment } = poolManifests(
      CreateModelPoolRequestSchema.parse({
        name: 'warm',
        engine: 'sglang',
        model: 'Qwen/Qwen3-4B',
        instanceGroup: 'gpu',
        gpus: 1,
        workers: 2,
      }),
      G5_FACTS,
    );
    const served = containerEndpointView({
      service: live(SERVICE, pool.service),
      poolDeployment: live(DEPLOYMENT, deployment),
    });
    assert.deepEqual(
      [served.engine, served.model, served.instanceTypes],
      ['sglang', 'Qwen/Qwen3-4B', ['ml.g5.12xlarge']],
    );
  });

  it('ScaledObject status: ready, active, paused by annotation', () => {
    const so = live(
      SCALED_OBJECT,
      objs.scaledObject as object,
      {
        conditions: [
          { type: 'Ready', status: 'False', reason: 'ScaledObjectCheckFailed', message: 'no such Deployment' },
        ],
      },
      {
        annotations: { 'autoscaling.keda.sh/paused': 'true' },
      },
    );
    assert.deepEqual(scaledObjectStatus(so), {
      ready: false,
      active: undefined,
      paused: true,
      reason: 'no such Deployment',
    });
    assert.equal(SCALED_OBJECT.health?.(so).state, 'failed');
  });
});
