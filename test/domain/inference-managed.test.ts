import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { InputError, PreconditionError } from '../../src/domain/errors.js';
import { managedEndpointManifest } from '../../src/domain/inference/managed-endpoint.js';
import { routingChangeRefusal } from '../../src/domain/inference/routing-change.js';
import { INFERENCE_ENDPOINT_CONFIG } from '../../src/domain/kube/inference-endpoint-config.js';
import { JUMPSTART_MODEL } from '../../src/domain/kube/jumpstart-model.js';
import { assertConforms, managedRequest } from './inference-fixtures.js';

const NS = { namespace: 'team-a' };
const AMP = 'https://aps-workspaces.us-west-2.amazonaws.com/workspaces/ws-0123abcd-4567/';

describe('managed endpoint manifest', () => {
  it('Hugging Face model with KV cache L1+L2, prefix-aware routing, autoscaling, load balancer: every field in the CRD', () => {
    const req = managedRequest({
      model: { source: 'huggingface', modelId: 'Qwen/Qwen3-0.6B', tokenSecret: { name: 'hf', key: 'token' } },
      instanceTypes: ['ml.g5.8xlarge', 'ml.g6.8xlarge'],
      kvCache: { l1: true, l2: { backend: 'redis', url: 'redis://redis.cache.svc.cluster.local:6379' } },
      routing: { strategy: 'prefixaware' },
      replicas: 2,
      autoscaling: {
        min: 1,
        max: 4,
        trigger: { type: 'prometheus', serverAddress: AMP, query: 'sum(x)', targetValue: 5 },
      },
      loadBalancer: {},
    });
    const obj = managedEndpointManifest(req, NS);
    assertConforms(obj);
    assert.equal(obj.kind, 'InferenceEndpointConfig');
    if (obj.kind !== 'InferenceEndpointConfig') return;
    assert.deepEqual(obj.spec.instanceTypes, ['ml.g5.8xlarge', 'ml.g6.8xlarge']);
    assert.equal(obj.spec.instanceType, undefined);
    assert.deepEqual(obj.spec.modelSourceConfig.huggingFaceModel?.tokenSecretRef, { name: 'hf', key: 'token' });
    assert.deepEqual(obj.spec.kvCacheSpec, {
      enableL1Cache: true,
      enableL2Cache: true,
      l2CacheSpec: { l2CacheBackend: 'redis', l2CacheLocalUrl: 'redis://redis.cache.svc.cluster.local:6379' },
    });
    assert.deepEqual(obj.spec.intelligentRoutingSpec, { enabled: true, routingStrategy: 'prefixaware' });
    // The CRD's pattern ends at the workspace id.
    assert.equal(obj.spec.autoScalingSpec?.prometheusTrigger?.serverAddress, AMP.slice(0, -1));
    assert.equal(obj.spec.worker.resources.limits?.['nvidia.com/gpu'], '1');
    assert.equal(obj.metadata.labels['app.kubernetes.io/managed-by'], 'instantstart');
  });

  it('one instance type becomes instanceType; S3 storage joins prefix and path; CloudWatch trigger', () => {
    const req = managedRequest({
      model: { source: 'storage', storage: 'models', path: 'Qwen3-0.6B' },
      autoscaling: {
        min: 1,
        max: 3,
        trigger: { type: 'cloudwatch', metricName: 'Invocations', namespace: 'AWS/SageMaker', targetValue: 10 },
      },
    });
    const obj = managedEndpointManifest(req, {
      ...NS,
      storage: { kind: 's3', bucket: 'my-models', region: 'us-west-2', prefix: 'team-a/' },
    });
    assertConforms(obj);
    if (obj.kind !== 'InferenceEndpointConfig') assert.fail('expected an InferenceEndpointConfig');
    assert.equal(obj.spec.instanceType, 'ml.g5.8xlarge');
    assert.equal(obj.spec.instanceTypes, undefined);
    assert.deepEqual(obj.spec.modelSourceConfig, {
      modelSourceType: 's3',
      s3Storage: { bucketName: 'my-models', region: 'us-west-2' },
      modelLocation: 'team-a/Qwen3-0.6B',
    });
    assert.equal(obj.spec.autoScalingSpec?.cloudWatchTrigger?.metricStat, 'Average');
  });

  it('FSx storage, tiered-storage L2', () => {
    const req = managedRequest({
      model: { source: 'storage', storage: 'fsx' },
      kvCache: { l1: false, l2: { backend: 'tieredstorage' } },
    });
    const obj = managedEndpointManifest(req, {
      ...NS,
      storage: { kind: 'fsx', fileSystemId: 'fs-0123456789abcdef0', dnsName: 'fs.example', mountName: 'abcd' },
    });
    assertConforms(obj);
    if (obj.kind !== 'InferenceEndpointConfig') assert.fail('expected an InferenceEndpointConfig');
    assert.equal(obj.spec.modelSourceConfig.modelSourceType, 'fsx');
    assert.deepEqual(obj.spec.kvCacheSpec?.l2CacheSpec, { l2CacheBackend: 'tieredstorage' });
  });

  it('JumpStart becomes a JumpStartModel with the EULA answer, the instance type and the execution role', () => {
    const req = managedRequest({
      model: {
        source: 'jumpstart',
        modelId: 'deepseek-llm-r1-distill-qwen-1-5b',
        acceptEula: true,
        modelVersion: '2.0.4',
      },
      worker: undefined,
      routing: { strategy: 'kvaware' },
    });
    const role = 'arn:aws:iam::123456789012:role/SageMakerHyperPodInference-demo-execution-role';
    const obj = managedEndpointManifest(req, { ...NS, executionRoleArn: role });
    assertConforms(obj);
    if (obj.kind !== 'JumpStartModel') assert.fail('expected a JumpStartModel');
    assert.deepEqual(obj.spec.model, {
      modelId: 'deepseek-llm-r1-distill-qwen-1-5b',
      acceptEula: true,
      modelVersion: '2.0.4',
    });
    assert.deepEqual(obj.spec.server, { instanceType: 'ml.g5.8xlarge', executionRole: role });
  });

  it('refuses a storage the caller could not resolve, by field; an execution role the operator cannot pass', () => {
    const req = managedRequest({ model: { source: 'storage', storage: 'gone' } });
    assert.throws(
      () => managedEndpointManifest(req, NS),
      (e: unknown) => e instanceof InputError && e.problems[0]?.path === 'model.storage',
    );
    assert.throws(
      () =>
        managedEndpointManifest(managedRequest({}), {
          ...NS,
          executionRoleArn: 'arn:aws:iam::123456789012:role/MyRole',
        }),
      (e: unknown) => e instanceof PreconditionError && /SageMakerHyperPodInference\*/.test(e.message),
    );
  });

  it('the token Secret is referenced, never copied', () => {
    const obj = managedEndpointManifest(
      managedRequest({ model: { source: 'huggingface', modelId: 'a/b', tokenSecret: { name: 'hf' } } }),
      NS,
    );
    assert.doesNotMatch(JSON.stringify(obj), /hf_[A-Za-z0-9]{10,}/);
    assert.match(JSON.stringify(obj), /"tokenSecretRef":\{"name":"hf","key":"token"\}/);
  });
});

describe('routing change refusal', () => {
  const built = (routing?: string) =>
    managedEndpointManifest(managedRequest(routing ? { routing: { strategy: routing } } : {}), NS);
  // What the cluster answers: the operator's object read back, defaults applied by the API server.
  const live = (spec: Record<string, unknown> | undefined) =>
    INFERENCE_ENDPOINT_CONFIG.parse({ ...built(), spec: { ...built().spec, intelligentRoutingSpec: spec } });

  it('the same routing passes (the CRD default prefixaware equals an unset strategy)', () => {
    assert.equal(routingChangeRefusal(live({ enabled: true }), built('prefixaware')), undefined);
    assert.equal(routingChangeRefusal(live({ enabled: false, routingStrategy: 'prefixaware' }), built()), undefined);
  });

  it('changing, adding or removing it is refused by field name', () => {
    assert.deepEqual(
      routingChangeRefusal(live({ enabled: true, routingStrategy: 'prefixaware' }), built('kvaware'))?.path,
      'routing.strategy',
    );
    assert.equal(routingChangeRefusal(live(undefined), built('session'))?.path, 'routing');
    assert.match(
      routingChangeRefusal(live({ enabled: true, routingStrategy: 'session' }), built())?.message ?? '',
      /cannot be removed/,
    );
  });

  it('reads JumpStartModels the same way', () => {
    const js = JUMPSTART_MODEL.parse({
      apiVersion: 'inference.sagemaker.aws.amazon.com/v1',
      kind: 'JumpStartModel',
      metadata: { name: 'js', namespace: 'team-a' },
      spec: {
        model: { modelId: 'm', acceptEula: true },
        server: { instanceType: 'ml.g5.8xlarge' },
        intelligentRoutingSpec: { enabled: true, routingStrategy: 'roundrobin' },
      },
    });
    assert.equal(
      routingChangeRefusal(js, { spec: { intelligentRoutingSpec: { enabled: true, routingStrategy: 'roundrobin' } } }),
      undefined,
    );
    assert.equal(routingChangeRefusal(js, { spec: {} })?.path, 'routing');
  });
});

describe('the conformance check reads RE2 flag groups', () => {
  it("l2CacheBackend's (?i) pattern: any case of redis passes, another backend is named", async () => {
    const { strictViolations, crdSchemas } = await import('../conformance/kube-strict.js');
    const { sandboxInstalledCrds } = await import('../../sandbox/kube/controllers/installed-crds.js');
    const schemas = crdSchemas(sandboxInstalledCrds().map((crd) => ({ crd, origin: 'sandbox' })));
    const obj = managedEndpointManifest(managedRequest({}), NS);
    const withBackend = (b: string) =>
      strictViolations(
        { ...obj, spec: { ...obj.spec, kvCacheSpec: { enableL2Cache: true, l2CacheSpec: { l2CacheBackend: b } } } },
        schemas,
      );
    assert.deepEqual(withBackend('Redis'), []);
    assert.match(withBackend('memcached').join('\n'), /l2CacheBackend/);
  });
});
