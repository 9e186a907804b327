import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { stringify } from 'yaml';
import type { KubeCluster } from '../../sandbox/kube/cluster.js';
import { T } from '../../sandbox/kube/controllers/util.js';
import { startInferenceOperatorWorld } from '../helpers/inference-operator-world.js';
import type { TestKubeCluster } from '../helpers/kube.js';
import { eventually, type TestSandbox } from '../helpers/sandbox.js';

const GROUP = 'inference.sagemaker.aws.amazon.com';

/** An InferenceEndpointConfig as upstream's samples write one (v1_llama31_8b_kv_cache_l1_l2.yaml, with routing). */
function endpointConfig(name: string, extra: Record<string, unknown> = {}) {
  return {
    apiVersion: `${GROUP}/v1`,
    kind: 'InferenceEndpointConfig',
    metadata: { name, namespace: 'default' },
    spec: {
      modelName: 'Llama-3.1-8B-Instruct',
      instanceType: 'ml.g5.8xlarge',
      invocationEndpoint: 'v1/chat/completions',
      modelSourceConfig: {
        modelSourceType: 's3',
        s3Storage: { bucketName: 'inf-models-000000000000', region: 'us-west-2' },
        modelLocation: 'llama31_8b',
        prefetchEnabled: false,
      },
      kvCacheSpec: {
        enableL1Cache: true,
        enableL2Cache: true,
        l2CacheSpec: { l2CacheBackend: 'redis', l2CacheLocalUrl: 'redis://redis.default.svc.cluster.local:6379' },
      },
      intelligentRoutingSpec: { enabled: true, routingStrategy: 'prefixaware' },
      worker: {
        resources: {
          limits: { 'nvidia.com/gpu': '1' },
          requests: { cpu: '6', memory: '30Gi', 'nvidia.com/gpu': '1' },
        },
        image: 'lmcache/vllm-openai:v0.3.7',
        args: ['/opt/ml/model', '--max-model-len', '4096'],
        modelInvocationPort: { containerPort: 8000, name: 'http' },
        modelVolumeMount: { name: 'model-weights', mountPath: '/opt/ml/model' },
      },
      loadBalancer: { healthCheckPath: '/health' },
      ...extra,
    },
  };
}

/**
 * The HyperPod inference operator and KEDA of a sandbox EKS cluster with the inference add-on,
 * driven with the real kubectl: an endpoint's objects, its states, the webhook's refusals, JumpStart,
 * deletion, and a ScaledObject scaling a Deployment from the sandbox's metric store.
 */
describe('the sandbox inference operator and KEDA, seen with kubectl', () => {
  let sb: TestSandbox;
  let k: TestKubeCluster;
  let cluster: KubeCluster;
  const json = async (args: string[]) => JSON.parse((await k.kubectl([...args, '-o', 'json'])).stdout);
  const apply = (...objects: object[]) =>
    k.kubectl(['apply', '-f', '-'], { input: objects.map((o) => stringify(o)).join('---\n'), allowFailure: true });
  const stored = (resource: string, name: string): any =>
    cluster.objects.get(cluster.findType(GROUP, 'v1', resource)!, 'default', name);
  const albInterfaces = async () =>
    ((await sb.aws(['ec2', 'describe-network-interfaces'])).json.NetworkInterfaces as any[]).filter((e) =>
      e.Description.startsWith('ELB app/k8s-default-llama-'),
    );
  const until = <V>(probe: () => Promise<V | undefined | false>, what: string, stepSeconds = 5) =>
    eventually(probe, { sandbox: sb, stepSeconds, tries: 120, what });

  before(async () => {
    ({ sb, k, cluster } = await startInferenceOperatorWorld());
  });
  after(async () => sb?.dispose());

  it('an endpoint with KV cache L1+L2 and prefix-aware routing deploys: its objects are owned by it and it reaches DeploymentComplete', async () => {
    const applied = await apply(endpointConfig('llama'));
    assert.equal(applied.code, 0, applied.stderr);
    const states = new Set<string>();
    await until(
      async () => {
        const state = stored('inferenceendpointconfigs', 'llama')?.status?.state;
        if (state) states.add(state);
        return state === 'DeploymentComplete';
      },
      'llama DeploymentComplete',
      2,
    );
    assert.ok(states.has('DeploymentInProgress'), `went through DeploymentInProgress: ${[...states]}`);
    const iec = await json(['get', 'inferenceendpointconfig', 'llama']);
    assert.equal(iec.status.deploymentStatus.name, 'llama');
    assert.equal(iec.status.observedGeneration, iec.metadata.generation);
    assert.equal(iec.status.conditions[0].type, 'DeploymentReady');
    const uid = iec.metadata.uid;
    const owned = (o: any) => o.metadata.ownerReferences?.some((r: any) => r.uid === uid && r.controller);
    for (const [kind, name] of [
      ['deployment', 'llama'],
      ['service', 'llama'],
      ['deployment', 'llama-router'],
      ['service', 'llama-router'],
      ['ingress', 'llama'],
      ['pvc', 'llama-model'],
    ] as const)
      assert.ok(owned(await json(['get', kind, name])), `${kind}/${name} owned by the endpoint`);
    const deployment = await json(['get', 'deployment', 'llama']);
    const pod = deployment.spec.template.spec;
    assert.deepEqual(pod.nodeSelector, { 'node.kubernetes.io/instance-type': 'ml.g5.8xlarge' });
    const env = Object.fromEntries(pod.containers[0].env.map((e: any) => [e.name, e.value]));
    assert.equal(env.LMCACHE_LOCAL_CPU, 'True');
    assert.equal(env.LMCACHE_REMOTE_URL, 'redis://redis.default.svc.cluster.local:6379');
    assert.equal(deployment.spec.template.metadata.labels.app, 'llama');
    const router = await json(['get', 'deployment', 'llama-router']);
    assert.deepEqual(router.spec.template.spec.containers[0].args.slice(-2), ['--routing-logic', 'prefixaware']);
    const ingress = await json(['get', 'ingress', 'llama']);
    assert.equal(ingress.spec.ingressClassName, 'alb');
    assert.equal(ingress.metadata.annotations['alb.ingress.kubernetes.io/healthcheck-path'], '/health');
    assert.equal(ingress.spec.rules[0].http.paths[0].backend.service.name, 'llama-router');
    assert.match(ingress.status.loadBalancer.ingress[0].hostname, /\.us-west-2\.elb\.amazonaws\.com$/);
    // The AWS Load Balancer Controller's ALB: its finalizer on the Ingress, its interfaces in the VPC's (private) subnets.
    assert.deepEqual(ingress.metadata.finalizers, ['ingress.k8s.aws/resources']);
    assert.equal((await albInterfaces()).length, 2, 'one ALB interface per Availability Zone');
    const pods = (await json(['get', 'pods', '-l', 'app=llama'])).items;
    assert.equal(pods.length, 1);
    assert.equal(pods[0].status.phase, 'Running');
  });

  it("changing the routing strategy is refused by the operator's webhook naming the field, and nothing changes", async () => {
    const before = await json(['get', 'inferenceendpointconfig', 'llama']);
    const changed = await apply(
      endpointConfig('llama', { intelligentRoutingSpec: { enabled: true, routingStrategy: 'kvaware' } }),
    );
    assert.notEqual(changed.code, 0);
    // kubectl prints an Invalid answer from its causes (the API server's message names the webhook).
    assert.match(
      changed.stderr,
      /"llama" is invalid: spec\.intelligentRoutingSpec: Forbidden: .*cannot be modified once set/,
    );
    const after = await json(['get', 'inferenceendpointconfig', 'llama']);
    assert.equal(after.metadata.resourceVersion, before.metadata.resourceVersion);
    assert.equal(after.spec.intelligentRoutingSpec.routingStrategy, 'prefixaware');
  });

  it('instanceType, instanceTypes and nodeAffinity together are refused, and nothing is made', async () => {
    const refused = await apply(
      endpointConfig('placed', {
        instanceTypes: ['ml.g5.8xlarge', 'ml.g5.12xlarge'],
        nodeAffinity: {
          requiredDuringSchedulingIgnoredDuringExecution: {
            nodeSelectorTerms: [{ matchExpressions: [{ key: 'zone', operator: 'In', values: ['a'] }] }],
          },
        },
      }),
    );
    assert.notEqual(refused.code, 0);
    assert.match(refused.stderr, /mutually exclusive/);
    assert.equal(stored('inferenceendpointconfigs', 'placed'), undefined);
  });

  it('a JumpStartModel deploys from its model id; a gated model without the EULA and an unknown id fail naming why', async () => {
    const jumpstart = (name: string, modelId: string, acceptEula = false) => ({
      apiVersion: `${GROUP}/v1`,
      kind: 'JumpStartModel',
      metadata: { name, namespace: 'default' },
      spec: { model: { modelId, acceptEula }, server: { instanceType: 'ml.g5.8xlarge' } },
    });
    const applied = await apply(
      jumpstart('deepseek', 'deepseek-llm-r1-distill-qwen-1-5b'),
      jumpstart('llama-js', 'meta-textgeneration-llama-3-1-8b-instruct'),
      jumpstart('nosuch', 'no-such-model'),
    );
    assert.equal(applied.code, 0, applied.stderr);
    await until(
      async () => stored('jumpstartmodels', 'llama-js')?.status?.state === 'DeploymentFailed',
      'the gated model failed',
      2,
    );
    const gated = stored('jumpstartmodels', 'llama-js').status;
    assert.equal(gated.deploymentStatus.reason, 'EulaNotAccepted');
    assert.match(gated.deploymentStatus.message, /EULA/);
    assert.equal(stored('jumpstartmodels', 'nosuch').status.deploymentStatus.reason, 'ModelNotFound');
    // The GPU the first endpoint left free serves this one.
    await until(
      async () => stored('jumpstartmodels', 'deepseek')?.status?.state === 'DeploymentComplete',
      'deepseek DeploymentComplete',
      2,
    );
    const image = (await json(['get', 'deployment', 'deepseek'])).spec.template.spec.containers[0].image;
    assert.match(image, /djl-inference/);
    await k.kubectl(['delete', 'jumpstartmodel', 'deepseek', 'llama-js', 'nosuch']);
  });

  it('deleting the endpoint removes every object it made', async () => {
    await k.kubectl(['delete', 'inferenceendpointconfig', 'llama']);
    await until(
      async () => {
        const left = [
          cluster.objects.get(T.deployments, 'default', 'llama'),
          cluster.objects.get(T.deployments, 'default', 'llama-router'),
          cluster.objects.get(T.services, 'default', 'llama'),
          cluster.objects.get(T.ingresses, 'default', 'llama'),
          cluster.objects.get(T.persistentvolumeclaims, 'default', 'llama-model'),
          cluster.objects.get(T.persistentvolumes, undefined, 'default-llama-model'),
        ].filter(Boolean);
        return left.length === 0;
      },
      "the endpoint's objects collected",
      2,
    );
    assert.deepEqual(await albInterfaces(), [], "the Ingress's ALB deleted before its finalizer went");
  });

  it('a ScaledObject scales its Deployment up when the metric rises and back down only after the stabilization window', async () => {
    const query = 'sum(rate(vllm:num_requests_running{app="web"}[1m]))';
    const applied = await apply(
      {
        apiVersion: 'apps/v1',
        kind: 'Deployment',
        metadata: { name: 'web', namespace: 'default' },
        spec: {
          replicas: 1,
          selector: { matchLabels: { app: 'web' } },
          template: {
            metadata: { labels: { app: 'web' } },
            spec: {
              nodeSelector: { 'node.kubernetes.io/instance-type': 'ml.m5.4xlarge' },
              containers: [{ name: 'web', image: 'nginx:1.27', resources: { requests: { cpu: '100m' } } }],
            },
          },
        },
      },
      {
        apiVersion: 'keda.sh/v1alpha1',
        kind: 'ScaledObject',
        metadata: { name: 'web', namespace: 'default' },
        spec: {
          scaleTargetRef: { name: 'web' },
          pollingInterval: 15,
          minReplicaCount: 1,
          maxReplicaCount: 4,
          advanced: {
            horizontalPodAutoscalerConfig: { behavior: { scaleDown: { stabilizationWindowSeconds: 120 } } },
          },
          triggers: [
            {
              type: 'prometheus',
              metadata: { serverAddress: 'http://prometheus.monitoring:9090', query, threshold: '2' },
            },
          ],
        },
      },
    );
    assert.equal(applied.code, 0, applied.stderr);
    const replicas = () => Number((cluster.objects.get(T.deployments, 'default', 'web')?.spec as any)?.replicas);
    await until(async () => cluster.objects.get(T.hpas, 'default', 'keda-hpa-web'), 'the HPA', 5);
    const hpa = await json(['get', 'hpa', 'keda-hpa-web']);
    assert.equal(hpa.spec.metrics[0].external.metric.name, 's0-prometheus');
    assert.deepEqual(hpa.spec.metrics[0].external.metric.selector.matchLabels, { 'scaledobject.keda.sh/name': 'web' });
    assert.equal(hpa.spec.metrics[0].external.target.averageValue, '2');

    const set = await sb.admin('/_sandbox/kube/inf/metrics', { method: 'POST', body: { query, value: 7 } });
    assert.equal(set.status, 200);
    await until(async () => replicas() === 4, 'scaled up to ceil(7 / 2) = 4', 5);
    const so = await json(['get', 'scaledobject', 'web']);
    assert.equal(so.status.hpaName, 'keda-hpa-web');
    assert.deepEqual(so.status.externalMetricNames, ['s0-prometheus']);
    assert.deepEqual(
      so.status.conditions.map((c: any) => [c.type, c.status]),
      [
        ['Ready', 'True'],
        ['Active', 'True'],
        ['Fallback', 'False'],
        ['Paused', 'False'],
      ],
    );

    await sb.admin('/_sandbox/kube/inf/metrics', { method: 'POST', body: { query, value: 1 } });
    await sb.advance(60);
    assert.equal(replicas(), 4, 'still 4 within the 120 s stabilization window');
    await until(async () => replicas() === 1, 'scaled back down to 1', 15);
  });
});
