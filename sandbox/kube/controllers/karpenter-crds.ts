import type { KubeObject, PrinterColumn } from '../types.js';
import { age, arr, conditions, crd, int, obj, str } from './addon-builders.js';

/**
 * The CRDs HyperPod installs in the EKS cluster when AutoScaling is enabled (Karpenter managed by
 * HyperPod): its own `HyperpodNodeClass` (karpenter.sagemaker.amazonaws.com/v1) and Karpenter's
 * `NodePool` and `NodeClaim` (karpenter.sh/v1), with the fields and printer columns of the upstream
 * v1 CRDs that the sandbox's controller reads or writes, and unknown fields kept elsewhere.
 */

export const NODECLASS_GROUP = 'karpenter.sagemaker.amazonaws.com';
export const NODECLASS_KIND = 'HyperpodNodeClass';
export const KARPENTER_GROUP = 'karpenter.sh';

const ready: PrinterColumn = { name: 'Ready', type: 'string', jsonPath: '.status.conditions[?(@.type=="Ready")].status' };
const stringMap = { type: 'object', additionalProperties: str() };
const quantities = { type: 'object', additionalProperties: { anyOf: [{ type: 'integer' }, { type: 'string' }], 'x-kubernetes-int-or-string': true } };
const nodeClassRef = obj({ group: str({ minLength: 1 }), kind: str({ minLength: 1 }), name: str({ minLength: 1 }) }, ['group', 'kind', 'name']);
const requirement = obj(
  {
    key: str({ maxLength: 316 }),
    operator: str({ enum: ['In', 'NotIn', 'Exists', 'DoesNotExist', 'Gt', 'Lt'] }),
    values: arr(str(), { maxItems: 50 }),
    minValues: int({ minimum: 1, maximum: 50 }),
  },
  ['key', 'operator'],
);
const taint = obj({ key: str({ minLength: 1 }), value: str(), effect: str({ enum: ['NoSchedule', 'PreferNoSchedule', 'NoExecute'] }), timeAdded: str({ format: 'date-time' }) }, ['effect', 'key']);
const duration = (defaultValue?: string) => str({ pattern: '^(([0-9]+(s|m|h))+|Never)$', ...(defaultValue ? { default: defaultValue } : {}) });
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
    spec: obj({ instanceGroups: arr(str({ minLength: 1, maxLength: 63 }), { minItems: 1, maxItems: 10 }) }, ['instanceGroups']),
    status: obj(
      {
        conditions: conditions(),
        instanceGroups: arr(
          obj({ name: str(), instanceTypes: arr(str()), subnets: arr(str()), availabilityZones: arr(str()), desiredLabels: stringMap }, ['name'], { 'x-kubernetes-preserve-unknown-fields': true }),
        ),
      },
      [],
      { 'x-kubernetes-preserve-unknown-fields': true },
    ),
  }),
  crd({
    group: KARPENTER_GROUP,
    kind: 'NodePool',
    plural: 'nodepools',
    scope: 'Cluster',
    versions: ['v1'],
    categories: ['karpenter'],
    columns: [
      { name: 'NodeClass', type: 'string', jsonPath: '.spec.template.spec.nodeClassRef.name' },
      { name: 'Nodes', type: 'string', jsonPath: '.status.resources.nodes' },
      ready,
      age,
      { name: 'Weight', type: 'integer', priority: 1, jsonPath: '.spec.weight' },
      { name: 'CPU', type: 'string', priority: 1, jsonPath: '.status.resources.cpu' },
      { name: 'Memory', type: 'string', priority: 1, jsonPath: '.status.resources.memory' },
    ],
    spec: obj(
      {
        template: obj(
          {
            metadata: obj({ labels: stringMap, annotations: stringMap }),
            spec: obj(claimSpecFields, ['nodeClassRef', 'requirements']),
          },
          ['spec'],
        ),
        disruption: obj({
          consolidateAfter: duration(),
          consolidationPolicy: str({ enum: ['WhenEmpty', 'WhenEmptyOrUnderutilized'], default: 'WhenEmptyOrUnderutilized' }),
          budgets: arr(obj({ nodes: str({ pattern: '^((100|[0-9]{1,2})%|[0-9]+)$', default: '10%' }), schedule: str(), duration: str(), reasons: arr(str({ enum: ['Underutilized', 'Empty', 'Drifted'] })) }, ['nodes']), { maxItems: 50 }),
        }),
        limits: quantities,
        weight: int({ minimum: 1, maximum: 100 }),
      },
      ['template'],
    ),
    status: obj({ conditions: conditions(), resources: quantities, nodes: int() }, [], { 'x-kubernetes-preserve-unknown-fields': true }),
  }),
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
      { conditions: conditions(), nodeName: str(), providerID: str(), imageID: str(), capacity: quantities, allocatable: quantities, lastPodEventTime: str({ format: 'date-time' }) },
      [],
      { 'x-kubernetes-preserve-unknown-fields': true },
    ),
  }),
];
