import type { Any } from '../util.js';
import { age, arr, crd, int, obj, str } from '../addon-builders.js';

/**
 * Karpenter's NodePool (karpenter.sh/v1), typed field by field from kubernetes-sigs/karpenter
 * `pkg/apis/crds/karpenter.sh_nodepools.yaml` at v1.6.0 (commit 927d7bd): its enums, patterns,
 * bounds, required fields (`disruption.consolidateAfter`, `template.spec.nodeClassRef`,
 * `requirements`), defaults, and its `x-kubernetes-validations` CEL rules (restricted label
 * domains, requirement operators, budget schedules, immutable node class group and kind), which
 * the sandbox API server evaluates. No unknown field is kept: a structural schema prunes them.
 */

const LABEL_VALUE = '^(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?$';
const QUALIFIED_NAME =
  '^([a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*(\\/))?([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]$';
const QUANTITY =
  '^(\\+|-)?(([0-9]+(\\.[0-9]*)?)|(\\.[0-9]+))(([KMGTPE]i)|[numkMGTPE]|([eE](\\+|-)?(([0-9]+(\\.[0-9]*)?)|(\\.[0-9]+))))?$';
const DURATION_OR_NEVER = '^(([0-9]+(s|m|h))+|Never)$';
const CONDITION_TYPE =
  '^([a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*/)?(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])$';

/** Well-known labels outside the restricted domains' exceptions (karpenter's v1 labels.go). */
const quoted = (names: string[]) => `[${names.map((n) => JSON.stringify(n)).join(', ')}]`;
const KUBERNETES_IO_ALLOWED = [
  'beta.kubernetes.io/instance-type',
  'failure-domain.beta.kubernetes.io/region',
  'beta.kubernetes.io/os',
  'beta.kubernetes.io/arch',
  'failure-domain.beta.kubernetes.io/zone',
  'topology.kubernetes.io/zone',
  'topology.kubernetes.io/region',
];
const KARPENTER_ALLOWED = ['karpenter.sh/capacity-type', 'karpenter.sh/nodepool'];
const domain = (v: string) => `${v}.find("^([^/]+)")`;

/**
 * The five label rules, on one label key `v`. Requirement keys may also name
 * node.kubernetes.io/instance-type; template labels may not (Karpenter sets it).
 */
function labelRules(v: string, requirement: boolean): Array<{ message: string; rule: string }> {
  const kubernetesIo = [
    ...KUBERNETES_IO_ALLOWED,
    ...(requirement ? ['node.kubernetes.io/instance-type'] : []),
    'kubernetes.io/arch',
    'kubernetes.io/os',
    'node.kubernetes.io/windows-build',
  ];
  return [
    {
      message: 'label domain "kubernetes.io" is restricted',
      rule: `${v} in ${quoted(kubernetesIo)} || ${domain(v)}.endsWith("node.kubernetes.io") || ${domain(v)}.endsWith("node-restriction.kubernetes.io") || !${domain(v)}.endsWith("kubernetes.io")`,
    },
    {
      message: 'label domain "k8s.io" is restricted',
      rule: `${domain(v)}.endsWith("kops.k8s.io") || !${domain(v)}.endsWith("k8s.io")`,
    },
    {
      message: 'label domain "karpenter.sh" is restricted',
      rule: `${v} in ${quoted(KARPENTER_ALLOWED)} || !${domain(v)}.endsWith("karpenter.sh")`,
    },
    { message: 'label "karpenter.sh/nodepool" is restricted', rule: `${v} != "karpenter.sh/nodepool"` },
    { message: 'label "kubernetes.io/hostname" is restricted', rule: `${v} != "kubernetes.io/hostname"` },
  ];
}
const forEveryKey = (rules: Array<{ message: string; rule: string }>) =>
  rules.map((r) => ({ ...r, rule: `self.all(x, ${r.rule})` }));

const quantity: Any = {
  anyOf: [{ type: 'integer' }, { type: 'string' }],
  pattern: QUANTITY,
  'x-kubernetes-int-or-string': true,
};
const notEmpty = (what: string) => [{ message: `${what} may not be empty`, rule: "self != ''" }];

const taint = obj(
  {
    effect: str({ enum: ['NoSchedule', 'PreferNoSchedule', 'NoExecute'] }),
    key: str({ minLength: 1, pattern: QUALIFIED_NAME }),
    timeAdded: str({ format: 'date-time' }),
    value: str({ pattern: QUALIFIED_NAME }),
  },
  ['effect', 'key'],
);

const requirement = obj(
  {
    key: str({ maxLength: 316, pattern: QUALIFIED_NAME, 'x-kubernetes-validations': labelRules('self', true) }),
    minValues: { type: 'integer', minimum: 1, maximum: 50 },
    operator: str({ enum: ['In', 'NotIn', 'Exists', 'DoesNotExist', 'Gt', 'Lt'] }),
    // Upstream puts the label-value pattern and length on the list itself (where the API server ignores them).
    values: arr(str(), { 'x-kubernetes-list-type': 'atomic', maxLength: 63, pattern: LABEL_VALUE }),
  },
  ['key', 'operator'],
);

const nodeClaimTemplateSpec = obj(
  {
    expireAfter: str({ default: '720h', pattern: DURATION_OR_NEVER }),
    nodeClassRef: obj(
      {
        group: str({ pattern: '^[^/]*$', 'x-kubernetes-validations': notEmpty('group') }),
        kind: str({ 'x-kubernetes-validations': notEmpty('kind') }),
        name: str({ 'x-kubernetes-validations': notEmpty('name') }),
      },
      ['group', 'kind', 'name'],
      {
        'x-kubernetes-validations': [
          { message: 'nodeClassRef.group is immutable', rule: 'self.group == oldSelf.group' },
          { message: 'nodeClassRef.kind is immutable', rule: 'self.kind == oldSelf.kind' },
        ],
      },
    ),
    requirements: arr(requirement, {
      maxItems: 100,
      'x-kubernetes-validations': [
        {
          message: "requirements with operator 'In' must have a value defined",
          rule: "self.all(x, x.operator == 'In' ? x.values.size() != 0 : true)",
        },
        {
          message: "requirements operator 'Gt' or 'Lt' must have a single positive integer value",
          rule: "self.all(x, (x.operator == 'Gt' || x.operator == 'Lt') ? (x.values.size() == 1 && int(x.values[0]) >= 0) : true)",
        },
        {
          message: "requirements with 'minValues' must have at least that many values specified in the 'values' field",
          rule: "self.all(x, (x.operator == 'In' && has(x.minValues)) ? x.values.size() >= x.minValues : true)",
        },
      ],
    }),
    startupTaints: arr(taint),
    taints: arr(taint),
    terminationGracePeriod: str({ pattern: '^([0-9]+(s|m|h))+$' }),
  },
  ['nodeClassRef', 'requirements'],
);

const budget = obj(
  {
    duration: str({ pattern: '^((([0-9]+(h|m))|([0-9]+h[0-9]+m))(0s)?)$' }),
    nodes: str({ default: '10%', pattern: '^((100|[0-9]{1,2})%|[0-9]+)$' }),
    reasons: arr(str({ enum: ['Underutilized', 'Empty', 'Drifted'] })),
    schedule: str({
      pattern: '^(@(annually|yearly|monthly|weekly|daily|midnight|hourly))|((.+)\\s(.+)\\s(.+)\\s(.+)\\s(.+))$',
    }),
  },
  ['nodes'],
);

const spec = obj(
  {
    disruption: obj(
      {
        budgets: arr(budget, {
          default: [{ nodes: '10%' }],
          maxItems: 50,
          'x-kubernetes-validations': [
            {
              message: "'schedule' must be set with 'duration'",
              rule: 'self.all(x, has(x.schedule) == has(x.duration))',
            },
          ],
        }),
        consolidateAfter: str({ pattern: DURATION_OR_NEVER }),
        consolidationPolicy: str({
          default: 'WhenEmptyOrUnderutilized',
          enum: ['WhenEmpty', 'WhenEmptyOrUnderutilized'],
        }),
      },
      ['consolidateAfter'],
      { default: { consolidateAfter: '0s' } },
    ),
    limits: { type: 'object', additionalProperties: quantity },
    template: obj(
      {
        metadata: obj({
          annotations: { type: 'object', additionalProperties: str() },
          labels: {
            type: 'object',
            additionalProperties: str({ maxLength: 63, pattern: LABEL_VALUE }),
            maxProperties: 100,
            'x-kubernetes-validations': forEveryKey(labelRules('x', false)),
          },
        }),
        spec: nodeClaimTemplateSpec,
      },
      ['spec'],
    ),
    weight: int({ minimum: 1, maximum: 100 }),
  },
  ['template'],
);

const status = obj({
  conditions: arr(
    obj(
      {
        lastTransitionTime: str({ format: 'date-time' }),
        message: str({ maxLength: 32768 }),
        observedGeneration: { type: 'integer', format: 'int64', minimum: 0 },
        reason: str({ maxLength: 1024, minLength: 1, pattern: '^[A-Za-z]([A-Za-z0-9_,:]*[A-Za-z0-9_])?$' }),
        status: str({ enum: ['True', 'False', 'Unknown'] }),
        type: str({ maxLength: 316, pattern: CONDITION_TYPE }),
      },
      ['lastTransitionTime', 'message', 'reason', 'status', 'type'],
    ),
  ),
  nodeClassObservedGeneration: { type: 'integer', format: 'int64' },
  resources: { type: 'object', additionalProperties: quantity },
});

const base = crd({
  group: 'karpenter.sh',
  kind: 'NodePool',
  plural: 'nodepools',
  scope: 'Cluster',
  versions: ['v1'],
  categories: ['karpenter'],
  columns: [
    { name: 'NodeClass', type: 'string', jsonPath: '.spec.template.spec.nodeClassRef.name' },
    { name: 'Nodes', type: 'string', jsonPath: '.status.resources.nodes' },
    { name: 'Ready', type: 'string', jsonPath: '.status.conditions[?(@.type=="Ready")].status' },
    age,
    { name: 'Weight', type: 'integer', priority: 1, jsonPath: '.spec.weight' },
    { name: 'CPU', type: 'string', priority: 1, jsonPath: '.status.resources.cpu' },
    { name: 'Memory', type: 'string', priority: 1, jsonPath: '.status.resources.memory' },
  ],
  spec,
  status,
});

/** The NodePool CRD; its root requires `spec`, as upstream's does. */
export const NODE_POOL_CRD = (() => {
  const version = (base.spec as Any).versions[0];
  version.schema = { openAPIV3Schema: { ...version.schema.openAPIV3Schema, required: ['spec'] } };
  return base;
})();
