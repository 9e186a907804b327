/**
 * The configuration schemas DescribeAddonConfiguration returns (JSON Schema draft-07, as AWS
 * does), trimmed to the settings people actually change. CreateAddon / UpdateAddon validate
 * `configurationValues` against them with `checkAgainstSchema`.
 */
export type JsonSchema = {
  type?: 'object' | 'string' | 'integer' | 'number' | 'boolean' | 'array';
  description?: string;
  properties?: Record<string, JsonSchema>;
  additionalProperties?: boolean | JsonSchema;
  items?: JsonSchema;
  enum?: unknown[];
  minimum?: number;
  pattern?: string;
  /** Keys an object must have (draft-07 `required`). */
  required?: string[];
};

const quantity: JsonSchema = { type: 'string', pattern: '^[0-9]+(\\.[0-9]+)?(m|Ki|Mi|Gi|Ti|k|M|G|T)?$' };
const resources: JsonSchema = {
  type: 'object',
  description: 'Compute resources of the add-on containers',
  additionalProperties: false,
  properties: {
    limits: { type: 'object', additionalProperties: false, properties: { cpu: quantity, memory: quantity } },
    requests: { type: 'object', additionalProperties: false, properties: { cpu: quantity, memory: quantity } },
  },
};
const tolerations: JsonSchema = {
  type: 'array',
  description: 'Tolerations of the add-on pods',
  items: { type: 'object' },
};
const nodeSelector: JsonSchema = {
  type: 'object',
  description: 'Node selector of the add-on pods',
  additionalProperties: { type: 'string' },
};
const podSettings = {
  resources,
  tolerations,
  nodeSelector,
  podAnnotations: { type: 'object', additionalProperties: { type: 'string' } } as JsonSchema,
};

function objectOf(properties: Record<string, JsonSchema>, required: string[] = []): JsonSchema {
  return { type: 'object', additionalProperties: false, properties, ...(required.length ? { required } : {}) };
}

const roleArn: JsonSchema = { type: 'string', pattern: '^arn:aws[a-z-]*:iam::[0-9]{12}:role/.+$' };

/**
 * The inference operator add-on's settings: the keys AWS's setup guide puts in its
 * configuration file (execution role, TLS bucket, HyperPod cluster, gated-model role, the ALB
 * controller's and KEDA's IRSA roles), the chart's switches for its bundled controllers, and the
 * usual pod settings. The execution role, the TLS bucket and the HyperPod cluster are required: the
 * operator cannot start without them.
 */
const inferenceOperatorSchema: JsonSchema = objectOf(
  {
    executionRoleArn: roleArn,
    tlsCertificateS3Bucket: { type: 'string', pattern: '^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$' },
    hyperpodClusterArn: {
      type: 'string',
      pattern: '^arn:aws[a-z-]*:sagemaker:[a-z0-9-]+:[0-9]{12}:cluster/[a-z0-9]+$',
    },
    jumpstartGatedModelDownloadRoleArn: roleArn,
    alb: objectOf({
      enabled: { type: 'boolean' },
      serviceAccount: objectOf({ create: { type: 'boolean' }, name: { type: 'string' }, roleArn }),
    }),
    keda: objectOf({
      enabled: { type: 'boolean' },
      auth: objectOf({ aws: objectOf({ irsa: objectOf({ enabled: { type: 'boolean' }, roleArn }) }) }),
    }),
    s3: objectOf({ enabled: { type: 'boolean' } }),
    fsx: objectOf({ enabled: { type: 'boolean' } }),
    controllerManager: objectOf({ manager: objectOf({ resources }), nodeSelector, tolerations }),
  },
  ['executionRoleArn', 'tlsCertificateS3Bucket', 'hyperpodClusterArn'],
);

export const ADDON_CONFIGURATION_SCHEMAS: Record<string, JsonSchema> = {
  'vpc-cni': objectOf({
    env: objectOf({
      ENABLE_PREFIX_DELEGATION: { type: 'string', enum: ['true', 'false'] },
      WARM_IP_TARGET: { type: 'string', pattern: '^[0-9]+$' },
      WARM_PREFIX_TARGET: { type: 'string', pattern: '^[0-9]+$' },
      MINIMUM_IP_TARGET: { type: 'string', pattern: '^[0-9]+$' },
      AWS_VPC_K8S_CNI_EXTERNALSNAT: { type: 'string', enum: ['true', 'false'] },
      ENABLE_POD_ENI: { type: 'string', enum: ['true', 'false'] },
    }),
    enableNetworkPolicy: { type: 'string', enum: ['true', 'false'] },
    resources,
    tolerations,
  }),
  coredns: objectOf({ replicaCount: { type: 'integer', minimum: 1 }, ...podSettings, corefile: { type: 'string' } }),
  'kube-proxy': objectOf({ mode: { type: 'string', enum: ['iptables', 'ipvs', 'nftables'] }, resources }),
  'eks-pod-identity-agent': objectOf({
    agent: objectOf({ additionalArgs: { type: 'object', additionalProperties: { type: 'string' } } }),
    resources,
    tolerations,
  }),
  'metrics-server': objectOf({
    replicas: { type: 'integer', minimum: 1 },
    ...podSettings,
    args: { type: 'array', items: { type: 'string' } },
  }),
  'cert-manager': objectOf({
    replicaCount: { type: 'integer', minimum: 1 },
    ...podSettings,
    webhook: objectOf({ replicaCount: { type: 'integer', minimum: 1 } }),
  }),
  'aws-mountpoint-s3-csi-driver': objectOf({
    node: objectOf({ tolerateAllTaints: { type: 'boolean' }, tolerations }),
    controller: objectOf({ resources }),
  }),
  'aws-fsx-csi-driver': objectOf({
    controller: objectOf({ replicaCount: { type: 'integer', minimum: 1 }, ...podSettings }),
    node: objectOf({ tolerateAllTaints: { type: 'boolean' }, tolerations }),
  }),
  'amazon-sagemaker-hyperpod-training-operator': objectOf({
    hpTrainingControllerManager: objectOf({ manager: objectOf({ resources }), nodeSelector, tolerations }),
  }),
  'amazon-sagemaker-hyperpod-inference': inferenceOperatorSchema,
  'amazon-sagemaker-hyperpod-observability': objectOf({
    ampWorkspaceArn: { type: 'string' },
    logging: objectOf({ enabled: { type: 'boolean' } }),
    nodeSelector,
  }),
  'amazon-sagemaker-hyperpod-taskgovernance': objectOf({ kueue: objectOf({ ...podSettings }) }),
};

/** Checks a value against the subset of JSON Schema used above; returns the first problem, if any. */
export function checkAgainstSchema(value: unknown, schema: JsonSchema, path = '$'): string | undefined {
  if (schema.type) {
    const actual = Array.isArray(value) ? 'array' : value === null ? 'null' : typeof value;
    const ok =
      schema.type === 'integer'
        ? Number.isInteger(value)
        : schema.type === 'number'
          ? typeof value === 'number'
          : actual === schema.type;
    if (!ok) return `${path}: ${actual} found, ${schema.type} expected`;
  }
  if (schema.enum && !schema.enum.includes(value))
    return `${path}: does not have a value in the enumeration [${schema.enum.join(', ')}]`;
  if (schema.minimum !== undefined && typeof value === 'number' && value < schema.minimum)
    return `${path}: must have a minimum value of ${schema.minimum}`;
  if (schema.pattern && typeof value === 'string' && !new RegExp(schema.pattern).test(value))
    return `${path}: does not match the regex pattern ${schema.pattern}`;
  if (Array.isArray(value) && schema.items) {
    for (let i = 0; i < value.length; i++) {
      const problem = checkAgainstSchema(value[i], schema.items, `${path}[${i}]`);
      if (problem) return problem;
    }
  }
  if (value && typeof value === 'object' && !Array.isArray(value)) {
    for (const key of schema.required ?? [])
      if (!Object.hasOwn(value, key)) return `${path}.${key}: is missing but it is required`;
    for (const [key, v] of Object.entries(value as Record<string, unknown>)) {
      const sub =
        schema.properties?.[key] ??
        (typeof schema.additionalProperties === 'object' ? schema.additionalProperties : undefined);
      if (!sub) {
        if (schema.additionalProperties === false)
          return `${path}.${key}: is not defined in the schema and the schema does not allow additional properties`;
        continue;
      }
      const problem = checkAgainstSchema(v, sub, `${path}.${key}`);
      if (problem) return problem;
    }
  }
  return undefined;
}

/** The schema as DescribeAddonConfiguration renders it: a JSON document in a string. */
export function renderSchema(schema: JsonSchema): string {
  return JSON.stringify({
    $ref: '#/definitions/AddonConfig',
    $schema: 'http://json-schema.org/draft-07/schema#',
    definitions: { AddonConfig: schema },
  });
}
