import type { KubeObject, PrinterColumn } from '../types.js';
import { age, arr, conditions, crd, int, obj, str } from './addon-builders.js';
import { NODE_POOL_CRD } from './crds/karpenter-nodepool.js';

/**
 * The CRDs HyperPod installs in the EKS cluster when AutoScaling is enabled (Karpenter managed by
 * HyperPod): its own `HyperpodNodeClass` (karpenter.sagemaker.amazonaws.com/v1) and Karpenter's
 * `NodePool` and `NodeClaim` (karpenter.sh/v1). NodePool is typed in full from karpenter v1.6.0
 * (crds/karpenter-nodepool.ts, with its CEL rules); NodeClaim and HyperpodNodeClass carry the fields
 * and printer columns of the upstream v1 CRDs that the sandbox's controller reads or writes, and
 * keep unknown fields in their status.
 */

export const NODECLASS_GROUP = 'karpenter.sagemaker.amazonaws.com';
export const NODECLASS_KIND = 'HyperpodNodeClass';
export const KARPENTER_GROUP = 'karpenter.sh';

const ready: PrinterColumn = {
  name: 'Ready',
  type: 'string',
  jsonPath: '.status.conditions[?(@.type=="Ready")].status',
};
const stringMap = { type: 'object', additionalProperties: str() };
const quantities = {
  type: 'object',
  additionalProperties: { anyOf: [{ type: 'integer' }, { type: 'string' }], 'x-kubernetes-int-or-string': true },
};
const nodeClassRef = obj({ group: str({ minLength: 1 }), kind: str({ minLength: 1 }), name: str({ minLength: 1 }) }, [
  'group',
  'kind',
  'name',
]);
const requirement = obj(
  {
    key: str({ maxLength: 316 }),
    operator: str({ enum: ['In', 'NotIn', 'Exists', 'DoesNotExist', 'Gt', 'Lt'] }),
    values: arr(str(), { maxItems: 50 }),
    minValues: int({ minimum: 1, maximum: 50 }),
  },
  ['key', 'operator'],
);
const taint = obj(
  {
    key: str({ minLength: 1 }),
    value: str(),
    effect: str({ enum: ['NoSchedule', 'PreferNoSchedule', 'NoExecute'] }),
    timeAdded: str({ format: 'date-time' }),
  },
  ['effect', 'key'],
);
const duration = (defaultValue?: string) =>
  str({ pattern: '^(([0-9]+(s|m|h))+|Never)$', ...(defaultValue ? { default: defaultValue } : {}) });
const claimSpecFields = {
  nodeClassRef,
  requirements: arr(requirement, { maxItems: 100 }),
  taints: arr(taint),
  startupTaints: arr(taint),
  expireAfter: duration('720h'),
  terminationGracePeriod: str(),
};

export const KARPENTER_CRDS: KubeObject[] = [
  crd({
    group: NODECLASS_GROUP,
    kind: NODECLASS_KIND,
    plural: 'hyperpodnodeclasses',
    scope: 'Cluster',
    versions: ['v1'],
    columns: [ready, age],
    spec: obj({ instanceGroups: arr(str({ minLength: 1, maxLength: 63 }), { minItems: 1, maxItems: 10 }) }, [
      'instanceGroups',
    ]),
    status: obj(
      {
        conditions: conditions(),
        instanceGroups: arr(
          obj(
            {
              name: str(),
              instanceTypes: arr(str()),
              subnets: arr(str()),
              availabilityZones: arr(str()),
              desiredLabels: stringMap,
            },
            ['name'],
            { 'x-kubernetes-preserve-unknown-fields': true },
          ),
        ),
      },
      [],
      { 'x-kubernetes-preserve-unknown-fields': true },
    ),
  }),
  NODE_POOL_CRD,
  crd({
    group: KARPENTER_GROUP,
    kind: 'NodeClaim',
    plural: 'nodeclaims',
    scope: 'Cluster',
    versions: ['v1'],
    categories: ['karpenter'],
    columns: [
      { name: 'Type', type: 'string', jsonPath: '.metadata.labels.node\\.kubernetes\\.io/instance-type' },
      { name: 'Capacity', type: 'string', jsonPath: '.metadata.labels.karpenter\\.sh/capacity-type' },
      { name: 'Zone', type: 'string', jsonPath: '.metadata.labels.topology\\.kubernetes\\.io/zone' },
      { name: 'Node', type: 'string', jsonPath: '.status.nodeName' },
      ready,
      age,
      { name: 'ID', type: 'string', priority: 1, jsonPath: '.status.providerID' },
      { name: 'NodePool', type: 'string', priority: 1, jsonPath: '.metadata.labels.karpenter\\.sh/nodepool' },
      { name: 'NodeClass', type: 'string', priority: 1, jsonPath: '.spec.nodeClassRef.name' },
    ],
    spec: obj({ ...claimSpecFields, resources: obj({ requests: quantities }) }, ['nodeClassRef', 'requirements']),
    status: obj(
      {
        conditions: conditions(),
        nodeName: str(),
        providerID: str(),
        imageID: str(),
        capacity: quantities,
        allocatable: quantities,
        lastPodEventTime: str({ format: 'date-time' }),
      },
      [],
      { 'x-kubernetes-preserve-unknown-fields': true },
    ),
  }),
];
