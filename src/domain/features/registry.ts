import { InputError } from '../errors.js';
import { prefixedRoleName, ROLE_NAME_MAX } from '../naming.js';
import { FEATURE_IDS, type FeatureId } from '../schemas/features.js';
import type { FeatureDefinition, FeatureIdentity } from './types.js';

/**
 * The managed features of a HyperPod-on-EKS cluster: what each installs, the IAM identities it
 * needs and which other features it stands on. This is the one place these facts are written;
 * create-cluster's dependencies (cluster-dependencies.ts), the reconciler and the features API read
 * them from here. Sources: docs/FEATURES.md → Registry.
 */

const managed = (name: string) => `arn:aws:iam::aws:policy/${name}`;

/** The namespace HyperPod's own components (training operator, health-monitoring agent) run in. */
export const HYPERPOD_NAMESPACE = 'aws-hyperpod';
export const INFERENCE_NAMESPACE = 'hyperpod-inference-system';
/** The service account of training pods that use managed tiered checkpointing (in the configured namespace). */
export const CHECKPOINTING_SERVICE_ACCOUNT = 'instantstart-checkpointing';

const trainingOperatorController: FeatureIdentity = {
  id: 'controller',
  title: 'Training operator controller',
  roleSuffix: 'training-op',
  bindings: [
    { kind: 'pod-identity', namespace: HYPERPOD_NAMESPACE, serviceAccount: 'hp-training-operator-controller-manager' },
  ],
  managedPolicies: [managed('AmazonSageMakerHyperPodTrainingOperatorAccess')],
  permissions: [],
};

const s3CsiDriver: FeatureIdentity = {
  id: 'driver',
  title: 'Mountpoint for S3 CSI driver',
  roleSuffix: 's3-csi',
  bindings: [{ kind: 'pod-identity', namespace: 'kube-system', serviceAccount: 's3-csi-driver-sa' }],
  managedPolicies: [],
  permissions: [
    { actions: ['s3:ListBucket'], resource: 'shared-bucket', ifPresent: true },
    {
      actions: ['s3:GetObject', 's3:PutObject', 's3:AbortMultipartUpload', 's3:DeleteObject'],
      resource: 'shared-bucket-objects',
      ifPresent: true,
    },
  ],
};

/**
 * The four IRSA roles of the inference operator add-on (sagemaker-hyperpod-cli's helm_to_addon.sh at
 * 011ca92). The execution role: AmazonSageMakerHyperPodInferenceAccess lets the operator pass only
 * roles named `SageMakerHyperPodInference*` to sagemaker.amazonaws.com (statement
 * AllowPassRoleToSageMaker), and the chart refuses any other name when it runs as the add-on
 * (`_validateRequiredValues.tpl`, isAddOn); AWS's documented trust is the operator's service account
 * through the cluster's OIDC provider and sagemaker.amazonaws.com (SageMaker assumes the role it is passed).
 */
const inferenceIdentities: FeatureIdentity[] = [
  {
    id: 'execution',
    title: 'Inference operator execution role',
    roleSuffix: 'inference-exec',
    roleNamePrefix: 'SageMakerHyperPodInference',
    bindings: [
      { kind: 'service', service: 'sagemaker.amazonaws.com' },
      {
        kind: 'irsa',
        namespace: INFERENCE_NAMESPACE,
        serviceAccount: 'hyperpod-inference-controller-manager',
        audience: true,
        annotate: false,
      },
    ],
    managedPolicies: [managed('AmazonSageMakerHyperPodInferenceAccess')],
    permissions: [
      { actions: ['s3:GetObject', 's3:PutObject', 's3:PutObjectTagging', 's3:DeleteObject'], resource: 'tls-bucket' },
    ],
  },
  {
    id: 'gated-model',
    title: 'JumpStart gated-model download role',
    roleSuffix: 'inference-gated',
    bindings: [
      { kind: 'service', service: 'sagemaker.amazonaws.com' },
      {
        kind: 'irsa',
        namespace: '*',
        serviceAccount: 'hyperpod-inference-service-account*',
        audience: false,
        annotate: false,
      },
    ],
    managedPolicies: [managed('AmazonSageMakerHyperPodGatedModelAccess')],
    permissions: [],
  },
  {
    id: 'load-balancer-controller',
    title: "AWS Load Balancer Controller (endpoints' ALBs)",
    roleSuffix: 'inference-alb',
    bindings: [
      {
        kind: 'irsa',
        namespace: INFERENCE_NAMESPACE,
        serviceAccount: 'aws-load-balancer-controller',
        audience: true,
        annotate: false,
      },
    ],
    managedPolicies: [],
    permissions: [{ published: 'aws-load-balancer-controller', version: 'v2.13.0' }],
  },
  {
    id: 'keda',
    title: 'KEDA operator (endpoint autoscaling triggers)',
    roleSuffix: 'inference-keda',
    bindings: [
      { kind: 'service', service: 'sagemaker.amazonaws.com' },
      {
        kind: 'irsa',
        namespace: INFERENCE_NAMESPACE,
        serviceAccount: 'keda-operator',
        audience: false,
        annotate: false,
      },
    ],
    managedPolicies: [],
    // The two trigger kinds the inference operator offers: CloudWatch metrics and Amazon Managed Prometheus queries.
    permissions: [{ actions: ['cloudwatch:GetMetricData', 'aps:QueryMetrics'], resource: 'any' }],
  },
];

/**
 * IRSA rather than a pod identity association: training pods run in the user's namespaces and
 * images, and IRSA's `AWS_ROLE_ARN` + web-identity token is what the checkpointing library's boto3
 * picks up without the pod identity agent's link-local endpoint (and it is what AWS's setup guide uses).
 */
const checkpointingIdentity: FeatureIdentity = {
  id: 'training-pods',
  title: 'Training pods writing tiered checkpoints',
  roleSuffix: 'checkpointing',
  bindings: [
    {
      kind: 'irsa',
      namespace: 'default',
      serviceAccount: CHECKPOINTING_SERVICE_ACCOUNT,
      audience: true,
      annotate: true,
    },
  ],
  managedPolicies: [],
  permissions: [
    { actions: ['s3:ListBucket', 's3:GetBucketLocation'], resource: 'shared-bucket' },
    { actions: ['s3:GetObject', 's3:PutObject', 's3:DeleteObject'], resource: 'shared-bucket-checkpoints' },
    // The user guide asks for "CloudWatch write permission for metrics"; PutMetricData is that (cannot be scoped to a
    // resource).
    { actions: ['cloudwatch:PutMetricData'], resource: 'any' },
  ],
};

const definitions: FeatureDefinition[] = [
  {
    id: 'pod-identity-agent',
    title: 'EKS Pod Identity agent',
    summary: 'Lets pods assume IAM roles through pod identity associations.',
    toggleable: true,
    needs: [],
    installs: [{ kind: 'eks-addon', addonName: 'eks-pod-identity-agent', namespace: 'kube-system' }],
    identities: [],
  },
  {
    id: 'cert-manager',
    title: 'cert-manager',
    summary: "Issues the TLS certificates the operators' admission webhooks serve.",
    toggleable: true,
    needs: [],
    installs: [{ kind: 'eks-addon', addonName: 'cert-manager', namespace: 'cert-manager' }],
    identities: [],
  },
  {
    id: 'metrics-server',
    title: 'Metrics Server',
    summary: 'Pod and node CPU and memory metrics (kubectl top; the autoscaling of inference endpoints).',
    toggleable: true,
    needs: [],
    installs: [{ kind: 'eks-addon', addonName: 'metrics-server', namespace: 'kube-system' }],
    identities: [],
  },
  {
    id: 's3-csi-driver',
    title: 'Mountpoint for Amazon S3 CSI driver',
    summary: 'Mounts S3 buckets (the shared bucket, model storage) into pods as volumes.',
    toggleable: true,
    needs: ['pod-identity-agent'],
    installs: [
      {
        kind: 'eks-addon',
        addonName: 'aws-mountpoint-s3-csi-driver',
        namespace: 'kube-system',
        podIdentityAssociations: ['driver'],
      },
    ],
    identities: [s3CsiDriver],
  },
  {
    id: 'fsx-csi-driver',
    title: 'Amazon FSx for Lustre CSI driver',
    // Static provisioning (a PV naming an existing file system) needs no AWS call from the driver, hence no role.
    summary: 'Mounts FSx for Lustre file systems into pods as volumes (statically provisioned: no IAM role).',
    toggleable: true,
    needs: [],
    installs: [{ kind: 'eks-addon', addonName: 'aws-fsx-csi-driver', namespace: 'kube-system' }],
    identities: [],
  },
  {
    id: 'health-monitoring-agent',
    title: 'HyperPod health-monitoring agent',
    summary: 'Reports node faults to HyperPod, which replaces or reboots the node.',
    toggleable: false,
    needs: [],
    installs: [
      {
        kind: 'manifests',
        set: 'health-monitoring-agent',
        source: 'aws/sagemaker-hyperpod-cli helm_chart/HyperPodHelmChart/charts/health-monitoring-agent @ 011ca92',
      },
    ],
    identities: [],
  },
  {
    id: 'device-plugins',
    title: 'Device plugins (NVIDIA GPU, Neuron, EFA)',
    summary: 'Advertise GPUs, Neuron cores and EFA interfaces to the Kubernetes scheduler.',
    toggleable: false,
    needs: [],
    installs: [
      {
        kind: 'manifests',
        set: 'device-plugins',
        source:
          'aws/sagemaker-hyperpod-cli helm_chart/HyperPodHelmChart @ 011ca92 (nvidia-device-plugin 0.16.1, neuron-device-plugin, aws-efa-k8s-device-plugin 0.5.20)',
      },
    ],
    identities: [],
  },
  {
    id: 'training-operator',
    title: 'HyperPod training operator',
    summary:
      "Runs HyperPodPyTorchJob training jobs with HyperPod's job-level resiliency (restart on fault, hang detection).",
    toggleable: true,
    needs: ['cert-manager', 'pod-identity-agent'],
    installs: [
      {
        kind: 'eks-addon',
        addonName: 'amazon-sagemaker-hyperpod-training-operator',
        namespace: HYPERPOD_NAMESPACE,
        podIdentityAssociations: ['controller'],
      },
    ],
    identities: [trainingOperatorController],
  },
  {
    id: 'inference-operator',
    title: 'HyperPod inference operator',
    summary:
      'Deploys models as inference endpoints (InferenceEndpointConfig, JumpStartModel) behind a load balancer, with autoscaling.',
    toggleable: true,
    needs: ['cert-manager', 's3-csi-driver', 'fsx-csi-driver', 'metrics-server'],
    // The dependency add-on versions the inference operator's chart ships with (chart 2.2.2).
    needsMinimumVersions: {
      'cert-manager': 'v1.18.2',
      's3-csi-driver': 'v1.14.1',
      'fsx-csi-driver': 'v1.6.0',
      'metrics-server': 'v0.7.2',
    },
    installs: [
      { kind: 's3-bucket', purpose: 'TLS certificates of inference endpoints (tlsCertificateS3Bucket)' },
      // The load balancer controller places internet-facing ALBs in subnets tagged elb, internal ones in internal-elb.
      { kind: 'subnet-tags', subnets: 'public', key: 'kubernetes.io/role/elb', value: '1' },
      { kind: 'subnet-tags', subnets: 'private', key: 'kubernetes.io/role/internal-elb', value: '1' },
      {
        kind: 'eks-addon',
        addonName: 'amazon-sagemaker-hyperpod-inference',
        namespace: INFERENCE_NAMESPACE,
        configurationValues: 'inference-operator',
      },
    ],
    identities: inferenceIdentities,
  },
  {
    id: 'kuberay-operator',
    title: 'KubeRay operator',
    summary: 'Runs Ray clusters and jobs (RayCluster, RayJob, RayService) on the cluster.',
    toggleable: true,
    needs: [],
    installs: [
      {
        kind: 'manifests',
        set: 'kuberay-operator',
        source: 'ray-project/kuberay ray-operator (CRDs and operator Deployment), pinned by InstantStart',
      },
    ],
    identities: [],
  },
  {
    id: 'tiered-checkpointing',
    title: 'Managed tiered checkpointing',
    summary: "Keeps training checkpoints in node memory first and in the shared bucket's checkpoint prefix behind it.",
    toggleable: true,
    needs: [],
    installs: [
      {
        kind: 'cluster-setting',
        field: 'TieredStorageConfig',
        enabled: { Mode: 'Enable' },
        disabled: { Mode: 'Disable' },
      },
    ],
    identities: [checkpointingIdentity],
  },
  {
    id: 'autoscaling',
    title: 'Managed node autoscaling',
    summary: 'HyperPod-managed Karpenter adds and removes nodes of the chosen instance groups as pods wait.',
    toggleable: true,
    needs: [],
    installs: [
      {
        kind: 'cluster-setting',
        field: 'AutoScaling',
        enabled: { Mode: 'Enable', AutoScalerType: 'Karpenter' },
        disabled: { Mode: 'Disable' },
        operation: 'set-autoscaling',
      },
    ],
    identities: [
      {
        id: 'cluster-role',
        title: 'HyperPod autoscaler (ClusterRole)',
        roleSuffix: 'autoscaling',
        bindings: [{ kind: 'service', service: 'hyperpod.sagemaker.amazonaws.com' }],
        managedPolicies: [],
        permissions: [
          {
            actions: ['sagemaker:BatchAddClusterNodes', 'sagemaker:BatchDeleteClusterNodes'],
            resource: 'hyperpod-cluster',
          },
        ],
      },
    ],
  },
];

/** Every feature by id. A Map, so a caller's id never reaches an object's prototype. */
export const FEATURES: ReadonlyMap<FeatureId, FeatureDefinition> = new Map(definitions.map((d) => [d.id, d]));

/** The registry a graph function works on: the real one, or (in tests) a made-up one. */
export type FeatureRegistry = ReadonlyMap<string, { needs: readonly string[] }>;

/** The feature `id` (throws for an id the registry lacks — ids reach here only after FeatureIdSchema). */
export function featureDefinition(id: FeatureId): FeatureDefinition {
  const d = FEATURES.get(id);
  if (!d) throw new Error(`feature registry has no '${id}'`);
  return d;
}

/** IAM's characters for a role name. */
const ROLE_NAME = /^[\w+=,.@-]{1,64}$/;

/**
 * The IAM role of a feature's identity on cluster `cluster` in `region`: `instantstart-<cluster>-<suffix>`,
 * the naming of every other role a managed cluster owns — or, for an identity whose managed policy
 * asks for a name prefix, `<prefix>-<cluster>-<hash of region/cluster>` (naming.ts → prefixedRoleName).
 * A cluster name that cannot make a valid role name is refused on `name` (before any AWS call).
 *
 * @example
 * featureRoleName('demo', 'us-west-2', trainingOperatorController) // 'instantstart-demo-training-op'
 */
export function featureRoleName(
  cluster: string,
  region: string,
  identity: Pick<FeatureIdentity, 'roleSuffix' | 'roleNamePrefix'>,
): string {
  const name = identity.roleNamePrefix
    ? prefixedRoleName(identity.roleNamePrefix, cluster, region)
    : `instantstart-${cluster}-${identity.roleSuffix}`;
  if (!ROLE_NAME.test(name)) {
    throw InputError.field(
      'name',
      `cannot name an IAM role: '${name}' is not 1–${ROLE_NAME_MAX} of IAM's role-name characters (letters, digits, +=,.@_-)`,
    );
  }
  return name;
}

/**
 * The name an identity's role had before it needed a name prefix (`instantstart-<cluster>-<suffix>`):
 * InstantStart made such roles and still finds and removes them. Undefined when the name never changed.
 */
export function formerFeatureRoleName(
  cluster: string,
  identity: Pick<FeatureIdentity, 'roleSuffix' | 'roleNamePrefix'>,
): string | undefined {
  return identity.roleNamePrefix ? `instantstart-${cluster}-${identity.roleSuffix}` : undefined;
}

/** The EKS add-on name of a feature, when it is one add-on. */
export function addonNameOf(id: FeatureId): string | undefined {
  for (const i of featureDefinition(id).installs) if (i.kind === 'eks-addon') return i.addonName;
  return undefined;
}

/** What create-cluster turns on: HyperPod's own pieces and the training operator, plus the CSI driver of each storage it makes. */
export function createClusterFeatures(storage: { s3: boolean; fsx: boolean }): FeatureId[] {
  const wanted = new Set<FeatureId>([
    'pod-identity-agent',
    'cert-manager',
    'health-monitoring-agent',
    'device-plugins',
    'training-operator',
  ]);
  if (storage.s3) wanted.add('s3-csi-driver');
  if (storage.fsx) wanted.add('fsx-csi-driver');
  return FEATURE_IDS.filter((id) => wanted.has(id));
}
