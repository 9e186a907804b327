import type { KubeObject } from '../../types.js';
import { age, arr, bool, conditions, crd, int, obj, open, str } from '../addon-builders.js';

/** The HyperPod inference operator's CRDs (InferenceEndpointConfig, JumpStartModel, SageMakerEndpointRegistration). */

const inferenceStatus = obj(
  {
    state: str({ enum: ['DeploymentPending', 'DeploymentInProgress', 'DeploymentFailed', 'DeploymentComplete', 'DeletionPending', 'DeletionInProgress', 'DeletionFailed', 'DeletionComplete'] }),
    conditions: conditions(),
    replicas: int(),
    selector: str(),
    observedGeneration: { type: 'integer', format: 'int64' },
  },
  [],
  { 'x-kubernetes-preserve-unknown-fields': true },
);
const inference = (kind: string, plural: string, spec: object, scale = true) =>
  crd({ group: 'inference.sagemaker.aws.amazon.com', kind, plural, scope: 'Namespaced', versions: ['v1', 'v1alpha1'], spec: spec as never, status: inferenceStatus, scale });
const endpointName = str({ maxLength: 63, pattern: '^[a-zA-Z0-9](-*[a-zA-Z0-9]){0,62}$' });

export const INFERENCE_OPERATOR_CRDS: KubeObject[] = [
  inference(
    'InferenceEndpointConfig',
    'inferenceendpointconfigs',
    obj(
      {
        modelName: endpointName,
        modelVersion: str(),
        endpointName,
        instanceType: str({ pattern: '^ml\\..*' }),
        instanceTypes: arr(str()),
        replicas: int({ default: 1 }),
        invocationEndpoint: str({ default: 'invocations' }),
        maxDeployTimeInSeconds: int({ default: 3600 }),
        modelSourceConfig: obj({ modelSourceType: str({ enum: ['fsx', 's3', 'huggingface', 'kubernetesVolume'] }), s3Storage: obj({ bucketName: str(), region: str() }, ['bucketName', 'region']), fsxStorage: obj({ fileSystemId: str(), dnsName: str(), mountName: str() }, ['fileSystemId']), modelLocation: str(), prefetchEnabled: bool({ default: false }) }, ['modelSourceType'], { 'x-kubernetes-preserve-unknown-fields': true }),
        worker: obj({ image: str(), resources: open(), modelInvocationPort: obj({ containerPort: int({ minimum: 1, maximum: 65535 }), name: str({ default: 'http' }) }, ['containerPort']), modelVolumeMount: obj({ name: str(), mountPath: str({ default: '/opt/ml/model' }) }, ['name']), args: arr(str()), command: arr(str()) }, ['image', 'modelInvocationPort', 'modelVolumeMount', 'resources'], { 'x-kubernetes-preserve-unknown-fields': true }),
      },
      ['modelName', 'modelSourceConfig', 'worker'],
      { 'x-kubernetes-preserve-unknown-fields': true },
    ),
  ),
  inference(
    'JumpStartModel',
    'jumpstartmodels',
    obj(
      {
        model: obj({ modelId: endpointName, acceptEula: bool({ default: false }), modelHubName: str({ default: 'SageMakerPublicHub' }), modelVersion: str({ pattern: '^\\d{1,4}.\\d{1,4}.\\d{1,4}$' }) }, ['acceptEula', 'modelId'], { 'x-kubernetes-preserve-unknown-fields': true }),
        server: obj({ instanceType: str({ pattern: '^ml\\..*' }), executionRole: str() }, ['instanceType'], { 'x-kubernetes-preserve-unknown-fields': true }),
        sageMakerEndpoint: obj({ name: endpointName }, ['name']),
        replicas: int({ default: 1 }),
        maxDeployTimeInSeconds: int({ default: 3600 }),
      },
      ['model', 'server'],
      { 'x-kubernetes-preserve-unknown-fields': true },
    ),
  ),
  inference('SageMakerEndpointRegistration', 'sagemakerendpointregistrations', obj({ name: str() }, [], { 'x-kubernetes-preserve-unknown-fields': true }), false),
];
