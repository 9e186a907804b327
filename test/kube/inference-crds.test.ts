import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { INFERENCE_OPERATOR_CRDS } from '../../sandbox/kube/controllers/crds/inference.js';
import { startApi, type TestApi } from './api-harness.js';

/**
 * The inference operator's CRDs as the sandbox API server serves them, typed from
 * aws/sagemaker-hyperpod-cli 011ca92: upstream-shaped objects are taken (defaults filled in), wrong
 * types are refused with the API server's 422, fields the CRDs do not declare are pruned, and each
 * version holds objects to its own schema.
 */

const GROUP = '/apis/inference.sagemaker.aws.amazon.com';
const path = (version: string, plural: string, name = '') =>
  `${GROUP}/${version}/namespaces/default/${plural}${name ? `/${name}` : ''}`;

/** The chart's sample `config/samples/v1_s3_modeldeployment.yaml`, cut down, as a user writes one. */
const endpointConfig = (
  name: string,
  spec: Record<string, unknown> = {},
  apiVersion = 'inference.sagemaker.aws.amazon.com/v1',
) => ({
  apiVersion,
  kind: 'InferenceEndpointConfig',
  metadata: { name, namespace: 'default' },
  spec: {
    modelName: 'sm-model-name',
    endpointName: 'my-model-name',
    instanceType: 'ml.g5.48xlarge',
    modelSourceConfig: {
      modelSourceType: 's3',
      s3Storage: { bucketName: 'temp-data', region: 'us-west-2' },
      modelLocation: 'llama-70b',
      prefetchEnabled: true,
    },
    worker: {
      resources: {
        limits: { 'nvidia.com/gpu': 8 },
        requests: { 'nvidia.com/gpu': 8, cpu: '100000m', memory: '384Gi' },
      },
      image:
        '763104351884.dkr.ecr.us-east-2.amazonaws.com/huggingface-pytorch-tgi-inference:2.4.0-tgi2.3.1-gpu-py311-cu124-ubuntu22.04-v2.0',
      modelInvocationPort: { containerPort: 8080 },
      modelVolumeMount: { name: 'model-weights' },
      environmentVariables: [{ name: 'SM_NUM_GPUS', value: '8' }],
    },
    ...spec,
  },
});

describe("the inference operator's CRDs, typed from upstream", () => {
  let api: TestApi;
  before(async () => {
    api = await startApi();
    for (const crd of INFERENCE_OPERATOR_CRDS) {
      const res = await api.call('POST', '/apis/apiextensions.k8s.io/v1/customresourcedefinitions', { body: crd });
      assert.equal(res.status, 201, `${crd.metadata.name}: ${res.text}`);
    }
  });
  after(async () => api?.close());

  it('serve v1 (stored) and v1alpha1, with status and scale subresources as upstream', async () => {
    for (const crd of INFERENCE_OPERATOR_CRDS) {
      const versions = (
        crd.spec as { versions: Array<{ name: string; storage: boolean; subresources: Record<string, unknown> }> }
      ).versions;
      assert.deepEqual(
        versions.map((v) => `${v.name}:${v.storage}`),
        ['v1:true', 'v1alpha1:false'],
      );
      assert.ok(
        !JSON.stringify(crd).includes('x-kubernetes-preserve-unknown-fields'),
        `${crd.metadata.name} keeps no unknown fields`,
      );
    }
    assert.equal((await api.call('GET', `${GROUP}/v1alpha1`)).status, 200);
  });

  it('takes an upstream-shaped InferenceEndpointConfig, filling in its defaults', async () => {
    const res = await api.call('POST', path('v1', 'inferenceendpointconfigs'), { body: endpointConfig('s3-model') });
    assert.equal(res.status, 201, res.text);
    const spec = res.body.spec;
    assert.equal(spec.invocationEndpoint, 'invocations');
    assert.equal(spec.replicas, 1);
    assert.deepEqual(spec.worker.modelInvocationPort, { containerPort: 8080, name: 'http' });
    assert.deepEqual(spec.worker.modelVolumeMount, { name: 'model-weights', mountPath: '/opt/ml/model' });
    assert.deepEqual(spec.worker.resources.requests, { 'nvidia.com/gpu': 8, cpu: '100000m', memory: '384Gi' });
  });

  it("refuses a wrong type with the API server's 422, naming the field", async () => {
    const bad = endpointConfig('bad-port');
    (bad.spec.worker as Record<string, any>).modelInvocationPort = { containerPort: '8080' };
    const res = await api.call('POST', path('v1', 'inferenceendpointconfigs'), { body: bad });
    assert.equal(res.status, 422, res.text);
    assert.equal(res.body.reason, 'Invalid');
    assert.equal(
      res.body.message,
      'InferenceEndpointConfig.inference.sagemaker.aws.amazon.com "bad-port" is invalid: spec.worker.modelInvocationPort.containerPort: Invalid value: "string": spec.worker.modelInvocationPort.containerPort in body must be of type integer: "string"',
    );
    // Fields our CRD used to leave untyped are typed now, down into the Kubernetes types they embed.
    const deep = await api.call('POST', path('v1', 'inferenceendpointconfigs'), {
      body: endpointConfig('bad-deep', {
        maxDeployTimeInSeconds: 'long',
        kubernetes: { initContainers: [{ name: 'fetch', image: 'busybox', ports: [{ containerPort: 'http' }] }] },
        loadBalancer: { routingAlgorithm: 'random' },
      }),
    });
    assert.equal(deep.status, 422, deep.text);
    assert.deepEqual(deep.body.details.causes.map((c: { field: string }) => c.field).sort(), [
      'spec.kubernetes.initContainers[0].ports[0].containerPort',
      'spec.loadBalancer.routingAlgorithm',
      'spec.maxDeployTimeInSeconds',
    ]);
    assert.equal(
      (await api.call('GET', path('v1', 'inferenceendpointconfigs', 'bad-deep'))).status,
      404,
      'nothing stored',
    );
  });

  it('prunes fields the CRD does not declare, at any depth', async () => {
    const body = endpointConfig('pruned', {
      autoscaling: { max: 3 },
      kubernetes: { volumes: [{ name: 'cache', emptyDir: {}, bogus: true }] },
    });
    (body.spec.worker as Record<string, unknown>).gpuCount = 8;
    const res = await api.call('POST', path('v1', 'inferenceendpointconfigs'), { body });
    assert.equal(res.status, 201, res.text);
    const stored = (await api.call('GET', path('v1', 'inferenceendpointconfigs', 'pruned'))).body.spec;
    assert.equal(stored.autoscaling, undefined);
    assert.equal(stored.worker.gpuCount, undefined);
    assert.deepEqual(stored.kubernetes.volumes, [{ name: 'cache', emptyDir: {} }]);
  });

  it('holds each version to its own schema: v1alpha1 requires instanceType and has no v1-only fields', async () => {
    const alpha = endpointConfig(
      'alpha',
      { kvCacheSpec: { enableL2Cache: true } },
      'inference.sagemaker.aws.amazon.com/v1alpha1',
    );
    delete (alpha.spec as Record<string, unknown>).instanceType;
    const refused = await api.call('POST', path('v1alpha1', 'inferenceendpointconfigs'), { body: alpha });
    assert.equal(refused.status, 422);
    assert.match(refused.body.message, /spec\.instanceType: Required value/);
    const taken = await api.call('POST', path('v1alpha1', 'inferenceendpointconfigs'), {
      body: endpointConfig(
        'alpha',
        { kvCacheSpec: { enableL2Cache: true } },
        'inference.sagemaker.aws.amazon.com/v1alpha1',
      ),
    });
    assert.equal(taken.status, 201, taken.text);
    assert.equal(taken.body.spec.kvCacheSpec, undefined, 'kvCacheSpec is a v1 field: pruned under v1alpha1');
  });

  it("takes the chart's JumpStartModel sample — no SageMaker endpoint name needed — pruning what it does not declare", async () => {
    // config/samples/v1_deepseek_model15b.yaml without its sageMakerEndpoint: `server.maxAutoScaleReplicas` is not in
    // the CRD.
    const res = await api.call('POST', path('v1', 'jumpstartmodels'), {
      body: {
        apiVersion: 'inference.sagemaker.aws.amazon.com/v1',
        kind: 'JumpStartModel',
        metadata: { name: 'deepseek-sample', namespace: 'default' },
        spec: {
          model: {
            modelHubName: 'SageMakerPublicHub',
            modelId: 'deepseek-llm-r1-distill-qwen-1-5b',
            modelVersion: '2.0.4',
          },
          server: { instanceType: 'ml.g5.8xlarge', maxAutoScaleReplicas: 1, minAutoScaleReplicas: 1 },
          environmentVariables: [{ name: 'SAMPLE_ENV_VAR', value: 'sample_value' }],
          maxDeployTimeInSeconds: 1800,
        },
      },
    });
    assert.equal(res.status, 201, res.text);
    assert.deepEqual(res.body.spec.server, { instanceType: 'ml.g5.8xlarge' });
    assert.equal(res.body.spec.model.acceptEula, false, 'acceptEula is required and defaults to false');
    const withEmpty = await api.call('POST', path('v1', 'jumpstartmodels'), {
      body: {
        apiVersion: 'inference.sagemaker.aws.amazon.com/v1',
        kind: 'JumpStartModel',
        metadata: { name: 'no-endpoint', namespace: 'default' },
        spec: { model: { modelId: 'm' }, server: { instanceType: 'ml.g5.8xlarge' }, sageMakerEndpoint: {} },
      },
    });
    assert.equal(withEmpty.status, 201, withEmpty.text);
    assert.equal(withEmpty.body.spec.sageMakerEndpoint.name, '');
    const badRole = await api.call('POST', path('v1', 'jumpstartmodels'), {
      body: {
        apiVersion: 'inference.sagemaker.aws.amazon.com/v1',
        kind: 'JumpStartModel',
        metadata: { name: 'bad-role', namespace: 'default' },
        spec: { model: { modelId: 'm' }, server: { instanceType: 'ml.g5.8xlarge', executionRole: 'my-role' } },
      },
    });
    assert.equal(badRole.status, 422);
    assert.match(
      badRole.body.message,
      /spec\.server\.executionRole: Invalid value: "my-role": spec\.server\.executionRole in body should be at least 20 chars long/,
    );
  });

  it("requires a SageMakerEndpointRegistration's eight fields, as upstream does", async () => {
    const res = await api.call('POST', path('v1', 'sagemakerendpointregistrations'), {
      body: {
        apiVersion: 'inference.sagemaker.aws.amazon.com/v1',
        kind: 'SageMakerEndpointRegistration',
        metadata: { name: 'reg', namespace: 'default' },
        spec: { name: 'reg' },
      },
    });
    assert.equal(res.status, 422, res.text);
    assert.deepEqual(
      res.body.details.causes.map((c: { field: string; message: string }) => `${c.field}: ${c.message}`).sort(),
      [
        'eksClusterDetails',
        'executionRole',
        'imageUri',
        'instanceType',
        'loadBalancerHostName',
        'restApiId',
        'tlsConfig',
      ].map((f) => `spec.${f}: Required value`),
    );
  });
});
