import type { KubeObject } from '../../types.js';
import { arr, bool, int, obj, str, type CrdSpec } from '../addon-builders.js';
import type { Any } from '../util.js';
import { coreType } from './core-types.js';

/**
 * The HyperPod inference operator's CRDs — InferenceEndpointConfig, JumpStartModel and
 * SageMakerEndpointRegistration, group `inference.sagemaker.aws.amazon.com` — typed field by field
 * from aws/sagemaker-hyperpod-cli at 011ca92 (`helm_chart/HyperPodHelmChart/charts/inference-operator/
 * config/crd/`, controller-gen v0.16.4): both versions they serve (v1, the storage version, and
 * v1alpha1, which lacks the newer fields), every type, enum, pattern, bound, default and required
 * field, and the Kubernetes core types they embed (core-types.ts). There is no
 * `x-kubernetes-preserve-unknown-fields` (upstream has none), so a field the CRD does not know is
 * pruned and a wrong type is refused, as a real API server does. Descriptions are left out; upstream's
 * conversion webhook is not (the sandbox serves both versions with the one stored object, strategy None).
 */

type Version = 'v1' | 'v1alpha1';
const v1 = (version: Version, fields: Any): Any => (version === 'v1' ? fields : {});

const int64 = (extra: Any = {}): Any => ({ type: 'integer', format: 'int64', ...extra });
const num = (extra: Any = {}): Any => ({ type: 'number', ...extra });
const dateTime = () => str({ format: 'date-time' });
const ROLE_ARN = str({
  maxLength: 2048,
  minLength: 20,
  pattern: '^arn:aws[a-z\\-]*:iam::\\d{12}:role/?[a-zA-Z_0-9+=,.@\\-_/]+$',
});
const DNS_NAME = str({ maxLength: 253, pattern: '^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$' });
const arnOf = (resource: string) =>
  str({ pattern: `(arn:aws[a-z\\-]*:sagemaker:[a-z0-9\\-]*:[0-9]{12}:${resource}/.*|^$)` });
const nameValue = () => obj({ name: str(), value: str() }, ['name', 'value']);

/** metav1.Condition as controller-gen writes it. */
const conditions = () =>
  arr(
    obj(
      {
        lastTransitionTime: dateTime(),
        message: str({ maxLength: 32768 }),
        observedGeneration: int64({ minimum: 0 }),
        reason: str({ maxLength: 1024, minLength: 1, pattern: '^[A-Za-z]([A-Za-z0-9_,:]*[A-Za-z0-9_])?$' }),
        status: str({ enum: ['True', 'False', 'Unknown'] }),
        type: str({
          maxLength: 316,
          pattern:
            '^([a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*/)?(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])$',
        }),
      },
      ['lastTransitionTime', 'message', 'reason', 'status', 'type'],
    ),
  );

// ── autoscaling (KEDA triggers) ──────────────────────────────────────────────────────────────────
const metricType = () => str({ default: 'Average', enum: ['Value', 'Average'] });
const cloudWatchTrigger = () =>
  obj({
    activationTargetValue: num({ default: 0 }),
    dimensions: arr(nameValue()),
    metricCollectionPeriod: int({ default: 300 }),
    metricCollectionStartTime: int({ default: 300 }),
    metricName: str(),
    metricStat: str({ default: 'Average' }),
    metricType: metricType(),
    minValue: num({ default: 0 }),
    name: str(),
    namespace: str(),
    targetValue: num(),
    useCachedMetrics: bool({ default: true }),
  });
const prometheusTrigger = () =>
  obj({
    activationTargetValue: num({ default: 0 }),
    customHeaders: str(),
    metricType: metricType(),
    name: str(),
    namespace: str(),
    query: str(),
    serverAddress: str({
      pattern:
        '^https:\\/\\/aps-workspaces\\.[a-zA-Z0-9-]+(?:\\.[a-zA-Z0-9-]+)*\\.amazonaws\\.com\\/workspaces\\/ws-[a-zA-Z0-9-]+$|^$',
    }),
    targetValue: num(),
    useCachedMetrics: bool({ default: true }),
  });
const autoScalingSpec = (version: Version) =>
  obj({
    cloudWatchTrigger: cloudWatchTrigger(),
    ...v1(version, { cloudWatchTriggerList: arr(cloudWatchTrigger(), { maxItems: 100 }) }),
    cooldownPeriod: int({ default: 300, minimum: 0 }),
    initialCooldownPeriod: int({ default: 300, minimum: 0 }),
    maxReplicaCount: int({ default: 5, minimum: 0 }),
    minReplicaCount: int({ default: 1, minimum: 0 }),
    pollingInterval: int({ default: 30, minimum: 0 }),
    prometheusTrigger: prometheusTrigger(),
    ...v1(version, { prometheusTriggerList: arr(prometheusTrigger(), { maxItems: 100 }) }),
    scaleDownStabilizationTime: int({ default: 300, minimum: 0 }),
    scaleUpStabilizationTime: int({ default: 0, minimum: 0 }),
  });

// ── data capture (v1) ───────────────────────────────────────────────────────────────────────────
const contentTypes = () => arr(str(), { maxItems: 10, minItems: 1, 'x-kubernetes-list-type': 'set' });
const captureContentTypeHeader = () => obj({ csvContentTypes: contentTypes(), jsonContentTypes: contentTypes() });
const captureOptions = () =>
  arr(obj({ captureMode: str({ enum: ['Input', 'Output'] }) }, ['captureMode']), { maxItems: 32, minItems: 1 });
const samplingPercentage = () => int({ maximum: 100, minimum: 0 });
const kmsKeyId = () => str({ maxLength: 2048, pattern: '^[a-zA-Z0-9:/_-]*$' });
const dataCapture = () =>
  obj({
    loadBalancer: obj({ enabled: bool() }, ['enabled']),
    modelPod: obj(
      {
        bufferConfig: obj({
          batchSize: int({ default: 10, maximum: 1000, minimum: 1 }),
          flushIntervalSeconds: int({ default: 60, maximum: 300, minimum: 10 }),
        }),
        captureContentTypeHeader: captureContentTypeHeader(),
        captureOptions: captureOptions(),
        enabled: bool(),
        initialSamplingPercentage: samplingPercentage(),
        kmsKeyId: kmsKeyId(),
        payloadConfig: obj({ maxPayloadSizeKB: int({ default: 0, maximum: 10240, minimum: 0 }) }),
      },
      ['enabled'],
    ),
    s3Uri: str({ maxLength: 512, pattern: '^s3://([^/]+)(/[^,=]*)?$' }),
    sagemakerEndpoint: obj(
      {
        captureContentTypeHeader: captureContentTypeHeader(),
        captureOptions: captureOptions(),
        enabled: bool(),
        initialSamplingPercentage: samplingPercentage(),
        kmsKeyId: kmsKeyId(),
      },
      ['enabled'],
    ),
  });

// ── routing, caching, load balancer, metrics, TLS, DNS ──────────────────────────────────────────
const intelligentRoutingSpec = (version: Version) =>
  obj({
    autoScalingSpec: autoScalingSpec(version),
    enabled: bool({ default: false }),
    routingStrategy: str({ default: 'prefixaware', enum: ['prefixaware', 'kvaware', 'session', 'roundrobin'] }),
  });
const kvCacheSpec = () =>
  obj({
    cacheConfigFile: str(),
    enableL1Cache: bool({ default: true }),
    enableL2Cache: bool({ default: false }),
    l2CacheSpec: obj({ l2CacheBackend: str({ pattern: '(?i)redis|tieredstorage' }), l2CacheLocalUrl: str() }),
  });
const loadBalancer = () =>
  obj({
    healthCheckPath: str({ default: '/ping', pattern: '^/.*' }),
    routingAlgorithm: str({
      default: 'least_outstanding_requests',
      enum: ['least_outstanding_requests', 'round_robin'],
    }),
  });
const metrics = () =>
  obj({
    enabled: bool({ default: true }),
    metricsScrapeIntervalSeconds: int({ default: 15, maximum: 300, minimum: 5 }),
    modelMetrics: obj({
      path: str({ default: '/metrics', pattern: '^/[a-zA-Z0-9\\-_.\\/]*$' }),
      port: int({ default: 8080, maximum: 65535, minimum: 1024 }),
    }),
  });
const tlsConfig = (version: Version) =>
  obj({
    ...v1(version, {
      customCertificateConfig: obj(
        {
          acmArn: str({ pattern: '^arn:aws:acm:[a-z0-9-]+:[0-9]{12}:certificate/[a-fA-F0-9-]+$' }),
          domainName: str({
            maxLength: 253,
            pattern: '^[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?(\\.[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?)*$',
          }),
        },
        ['acmArn', 'domainName'],
      ),
    }),
    tlsCertificateOutputS3Uri: str({ pattern: '^s3://([^/]+)/?(.*)$' }),
  });
const dnsConfig = () => obj({ hostedZoneId: str({ pattern: '^Z[A-Z0-9]+$' }) }, ['hostedZoneId']);
/** A JumpStartModel's SageMaker endpoint name: empty (the default) registers none. */
const endpointName = () => str({ default: '', maxLength: 63, pattern: '^$|^[a-zA-Z0-9](-*[a-zA-Z0-9]){0,62}$' });

// ── status of the two deployable kinds ──────────────────────────────────────────────────────────
const deploymentStatus = (version: Version) =>
  obj({
    conditions: conditions(),
    ...v1(version, {
      dataCaptureStatus: obj({
        modelPod: obj(
          {
            lastTransitionTime: dateTime(),
            message: str(),
            reason: str(),
            status: str({ enum: ['Healthy', 'Unhealthy'] }),
          },
          ['status'],
        ),
      }),
    }),
    deploymentStatus: obj(
      {
        deploymentObjectOverallState: str(),
        lastUpdated: dateTime(),
        message: str(),
        name: str(),
        reason: str(),
        status: coreType('io.k8s.api.apps.v1.DeploymentStatus'),
      },
      ['lastUpdated', 'name'],
    ),
    ...v1(version, {
      dnsStatus: obj(
        {
          dnsHealth: str({ enum: ['Active', 'Pending', 'Error'] }),
          hostedZoneId: str(),
          lastTransitionTime: dateTime(),
          managedByOperator: bool(),
          message: str(),
          previousHostedZoneId: str(),
          previousRecordName: str(),
          recordName: str(),
        },
        ['managedByOperator'],
      ),
    }),
    endpoints: obj({
      sagemaker: obj(
        { configArn: arnOf('endpoint-config'), endpointArn: arnOf('endpoint'), modelArn: arnOf('model'), state: str() },
        ['state'],
      ),
    }),
    metricsStatus: obj(
      {
        enabled: bool(),
        errorMessage: str(),
        metricsScrapeIntervalSeconds: int(),
        modelMetrics: obj({ path: str(), port: int() }),
        state: str(),
      },
      ['enabled'],
    ),
    observedGeneration: int64(),
    replicas: int(),
    selector: str(),
    state: str({
      enum: [
        'DeploymentPending',
        'DeploymentInProgress',
        'DeploymentFailed',
        'DeploymentComplete',
        'DeletionPending',
        'DeletionInProgress',
        'DeletionFailed',
        'DeletionComplete',
      ],
    }),
    tlsCertificate: obj({
      certificateARN: str({ pattern: 'arn:aws[a-z\\-]*:acm:[a-z0-9\\-]*:[0-9]{12}:certificate/.*' }),
      certificateDomainNames: arr(str()),
      certificateHealth: str({ enum: ['Valid', 'Expiring', 'Expired'] }),
      certificateName: str(),
      importedCertificates: arr(str()),
      issuerName: str(),
      lastCertExpiryTime: dateTime(),
      tlsCertificateOutputS3Bucket: str(),
      tlsCertificateS3Keys: arr(str()),
    }),
  });

// ── InferenceEndpointConfig ─────────────────────────────────────────────────────────────────────
const worker = (version: Version) =>
  obj(
    {
      ...v1(version, { args: arr(str()), command: arr(str()) }),
      environmentVariables: arr(coreType('EnvVar'), {
        'x-kubernetes-list-map-keys': ['name'],
        'x-kubernetes-list-type': 'map',
      }),
      image: str(),
      modelInvocationPort: obj(
        {
          containerPort: int({ maximum: 65535, minimum: 1 }),
          name: str({ default: 'http', pattern: '^http$|^grpc$' }),
        },
        ['containerPort'],
      ),
      modelVolumeMount: obj({ mountPath: str({ default: '/opt/ml/model' }), name: str() }, ['name']),
      ...v1(version, {
        probes: obj({
          livenessProbe: coreType('Probe'),
          readinessProbe: coreType('Probe'),
          startupProbe: coreType('Probe'),
        }),
        requestLimits: obj({
          maxConcurrentRequests: int({ minimum: 1 }),
          maxQueueSize: int({ minimum: 0 }),
          overflowStatusCode: int({ default: 429, maximum: 599, minimum: 400 }),
        }),
      }),
      resources: coreType('ResourceRequirements'),
      ...v1(version, { workingDir: str() }),
    },
    ['image', 'modelInvocationPort', 'modelVolumeMount', 'resources'],
  );

const modelSourceConfig = (version: Version) =>
  obj(
    {
      fsxStorage: obj({ dnsName: str(), fileSystemId: str(), mountName: str() }, ['fileSystemId']),
      ...v1(version, {
        huggingFaceModel: obj(
          {
            commitSHA: str({ pattern: '^[0-9a-f]{40}$' }),
            modelId: str({ pattern: '^[a-zA-Z0-9_.-]+/[a-zA-Z0-9_.-]+$' }),
            tokenSecretRef: coreType('SecretKeySelector'),
          },
          ['modelId'],
        ),
      }),
      modelLocation: str(),
      modelSourceType: str({
        enum: version === 'v1' ? ['fsx', 's3', 'huggingface', 'kubernetesVolume'] : ['fsx', 's3'],
      }),
      prefetchEnabled: bool({ default: false }),
      s3Storage: obj({ bucketName: str(), region: str() }, ['bucketName', 'region']),
    },
    ['modelSourceType'],
  );

/** Prefill/decode disaggregation: the two pools' pods and autoscaling. */
const pdSpec = () => {
  const pool = () =>
    obj({
      args: arr(str()),
      nodeSelector: { type: 'object', additionalProperties: str() },
      replicas: int({ default: 1, minimum: 1 }),
      resources: coreType('ResourceRequirements'),
    });
  return obj(
    {
      autoScalingSpec: obj({ decodingAutoScaling: autoScalingSpec('v1'), prefillAutoScaling: autoScalingSpec('v1') }),
      decodingSpec: pool(),
      prefillSpec: pool(),
      routingThreshold: int({ default: 4096, minimum: 0 }),
      topologySpec: obj({ availabilityZone: str(), placementGroup: str(), sameAZ: bool({ default: true }) }),
    },
    ['decodingSpec', 'prefillSpec'],
  );
};

function inferenceEndpointConfigSpec(version: Version): Any {
  return obj(
    {
      InitialReplicaCount: int(),
      autoScalingSpec: autoScalingSpec(version),
      ...v1(version, { dataCapture: dataCapture(), dnsConfig: dnsConfig() }),
      endpointName: str({ maxLength: 63, pattern: '^$|^[a-zA-Z0-9](-*[a-zA-Z0-9]){0,62}$' }),
      instanceType: str({ pattern: '^ml\\..*' }),
      ...v1(version, { instanceTypes: arr(str()), intelligentRoutingSpec: intelligentRoutingSpec(version) }),
      invocationEndpoint: str({ default: 'invocations' }),
      ...v1(version, {
        kubernetes: obj({
          initContainers: arr(coreType('Container')),
          schedulerName: DNS_NAME,
          serviceAccountName: DNS_NAME,
          volumes: arr(coreType('Volume')),
        }),
        kvCacheSpec: kvCacheSpec(),
      }),
      loadBalancer: loadBalancer(),
      ...v1(version, { maxDeployTimeInSeconds: int({ default: 3600 }) }),
      metrics: metrics(),
      modelName: str({ maxLength: 63, pattern: '^[a-zA-Z0-9](-*[a-zA-Z0-9]){0,62}' }),
      modelSourceConfig: modelSourceConfig(version),
      modelVersion: str(),
      ...v1(version, { nodeAffinity: coreType('NodeAffinity'), pdSpec: pdSpec() }),
      replicas: int({ default: 1 }),
      tags: arr(nameValue()),
      tlsConfig: tlsConfig(version),
      worker: worker(version),
    },
    version === 'v1'
      ? ['modelName', 'modelSourceConfig', 'worker']
      : ['instanceType', 'modelName', 'modelSourceConfig', 'worker'],
  );
}

// ── JumpStartModel ──────────────────────────────────────────────────────────────────────────────
function jumpStartModelSpec(version: Version): Any {
  const modelName = str({ maxLength: 63, pattern: '^[a-zA-Z0-9](-*[a-zA-Z0-9]){0,62}$' });
  return obj(
    {
      autoScalingSpec: autoScalingSpec(version),
      ...v1(version, { dataCapture: dataCapture(), dnsConfig: dnsConfig() }),
      environmentVariables: arr(nameValue(), { maxItems: 100 }),
      ...v1(version, { intelligentRoutingSpec: intelligentRoutingSpec(version), kvCacheSpec: kvCacheSpec() }),
      loadBalancer: loadBalancer(),
      maxDeployTimeInSeconds: int({ default: 3600 }),
      metrics: metrics(),
      model: obj(
        {
          acceptEula: bool({ default: false }),
          additionalConfigs: arr(nameValue(), { maxItems: 10 }),
          gatedModelDownloadRole: ROLE_ARN,
          modelHubName: str({
            default: 'SageMakerPublicHub',
            maxLength: 63,
            pattern: '^[a-zA-Z0-9](-*[a-zA-Z0-9]){0,62}$',
          }),
          modelId: modelName,
          modelVersion: str({ maxLength: 14, minLength: 5, pattern: '^\\d{1,4}.\\d{1,4}.\\d{1,4}$' }),
        },
        ['acceptEula', 'modelId'],
      ),
      replicas: int({ default: 1 }),
      // Not required: an empty name means no SageMaker endpoint is registered.
      sageMakerEndpoint: obj({ name: endpointName() }),
      server: obj(
        {
          ...v1(version, { acceleratorPartitionType: str({ pattern: '^mig-.*$' }) }),
          executionRole: ROLE_ARN,
          instanceType: str({ pattern: '^ml\\..*' }),
          ...v1(version, { validations: obj({ acceleratorPartitionValidation: bool({ default: true }) }) }),
        },
        ['instanceType'],
      ),
      tlsConfig: tlsConfig(version),
    },
    ['model', 'server'],
  );
}

// ── SageMakerEndpointRegistration ───────────────────────────────────────────────────────────────
function registrationSpec(version: Version): Any {
  return obj(
    {
      eksClusterDetails: obj(
        {
          arn: str(),
          clusterSecurityGroupId: str(),
          name: str(),
          securityGroupIds: arr(str()),
          subnetIds: arr(str()),
          vpcId: str(),
        },
        ['arn', 'clusterSecurityGroupId', 'name', 'securityGroupIds', 'subnetIds', 'vpcId'],
      ),
      executionRole: ROLE_ARN,
      imageUri: str({ maxLength: 255 }),
      instanceType: str(),
      invocationEndpoint: str({ default: 'invocations' }),
      loadBalancerHostName: str(),
      name: str({ maxLength: 63, pattern: '^[a-zA-Z0-9](-*[a-zA-Z0-9]){0,62}' }),
      restApiId: str(),
      ...v1(version, {
        sageMakerEndpointDataCaptureConfig: obj(
          {
            captureContentTypeHeader: captureContentTypeHeader(),
            captureOptions: captureOptions(),
            destinationS3Uri: str({ maxLength: 512, pattern: '^s3://([^/]+)(/.*)?$' }),
            enabled: bool(),
            initialSamplingPercentage: samplingPercentage(),
            kmsKeyId: kmsKeyId(),
          },
          ['captureOptions', 'destinationS3Uri', 'enabled', 'initialSamplingPercentage'],
        ),
      }),
      tags: arr(nameValue()),
      tlsConfig: obj(
        { tlsCertificateOutputS3Bucket: str(), tlsCertificateS3Keys: arr(str()), tlsServerNameOverride: str() },
        ['tlsCertificateOutputS3Bucket', 'tlsCertificateS3Keys'],
      ),
    },
    [
      'eksClusterDetails',
      'executionRole',
      'imageUri',
      'instanceType',
      'loadBalancerHostName',
      'name',
      'restApiId',
      'tlsConfig',
    ],
  );
}

const registrationStatus = () =>
  obj(
    {
      conditions: conditions(),
      endpoint: obj(
        {
          arn: arnOf('endpoint'),
          configArn: arnOf('endpoint-config'),
          lastModifiedTime: dateTime(),
          modelArn: arnOf('model'),
        },
        ['arn', 'configArn', 'modelArn'],
      ),
      loadBalancer: obj({ hostName: str() }, ['hostName']),
      observedGeneration: int64(),
      state: str({
        enum: [
          'CreationInProgress',
          'CreationFailed',
          'CreationCompleted',
          'DeletionInProgress',
          'DeletionFailed',
          'DeletionCompleted',
          'UpdateInProgress',
          'UpdateFailed',
          'UpdateCompleted',
        ],
      }),
    },
    ['state'],
  );

// ── the CRD objects ─────────────────────────────────────────────────────────────────────────────
const GROUP = 'inference.sagemaker.aws.amazon.com';
const SCALE = {
  labelSelectorPath: '.status.selector',
  specReplicasPath: '.spec.replicas',
  statusReplicasPath: '.status.replicas',
};

/** One CRD serving v1 (stored) and v1alpha1, each with its own schema. */
function inferenceCrd(
  c: Pick<CrdSpec, 'kind' | 'plural'> & { schema: (version: Version) => { spec: Any; status: Any }; scale: boolean },
): KubeObject {
  return {
    apiVersion: 'apiextensions.k8s.io/v1',
    kind: 'CustomResourceDefinition',
    metadata: { name: `${c.plural}.${GROUP}` },
    spec: {
      group: GROUP,
      names: { kind: c.kind, listKind: `${c.kind}List`, plural: c.plural, singular: c.kind.toLowerCase() },
      scope: 'Namespaced',
      versions: (['v1', 'v1alpha1'] as const).map((name) => {
        const { spec, status } = c.schema(name);
        return {
          name,
          served: true,
          storage: name === 'v1',
          schema: {
            openAPIV3Schema: {
              description: `${c.kind} is the Schema for the ${c.plural} API`,
              type: 'object',
              properties: { apiVersion: str(), kind: str(), metadata: { type: 'object' }, spec, status },
            },
          },
          subresources: { ...(c.scale ? { scale: SCALE } : {}), status: {} },
        };
      }),
    },
  };
}

export const INFERENCE_OPERATOR_CRDS: KubeObject[] = [
  inferenceCrd({
    kind: 'InferenceEndpointConfig',
    plural: 'inferenceendpointconfigs',
    scale: true,
    schema: (v) => ({ spec: inferenceEndpointConfigSpec(v), status: deploymentStatus(v) }),
  }),
  inferenceCrd({
    kind: 'JumpStartModel',
    plural: 'jumpstartmodels',
    scale: true,
    schema: (v) => ({ spec: jumpStartModelSpec(v), status: deploymentStatus(v) }),
  }),
  inferenceCrd({
    kind: 'SageMakerEndpointRegistration',
    plural: 'sagemakerendpointregistrations',
    scale: false,
    schema: (v) => ({ spec: registrationSpec(v), status: registrationStatus() }),
  }),
];
