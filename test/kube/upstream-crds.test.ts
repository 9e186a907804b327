import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import fc from 'fast-check';
import { NODE_POOL_CRD } from '../../sandbox/kube/controllers/crds/karpenter-nodepool.js';
import { SCALED_OBJECT_CRD } from '../../sandbox/kube/controllers/crds/keda-scaledobject.js';
import { karpenterManifests } from '../../src/domain/autoscaling.js';
import { kuberayCrds } from '../../src/domain/features/kuberay-crds.js';
import { SetAutoscalingRequestSchema } from '../../src/domain/schemas/autoscaling.js';
import { nodePoolProblems, scaledObjectProblems } from '../helpers/upstream-models.js';
import { startApi, type TestApi } from './api-harness.js';

/**
 * The NodePool (karpenter v1.6.0) and ScaledObject (keda v2.17) CRDs the sandbox serves, typed from
 * upstream, against what the product makes — and the same objects held to the upstream schemas of
 * @kubernetes-models/karpenter and @kubernetes-models/keda, validators nobody here wrote.
 */

const POOLS = '/apis/karpenter.sh/v1/nodepools';
const SCALED = '/apis/keda.sh/v1alpha1/namespaces/default/scaledobjects';
const causes = (body: any): string[] => (body.details?.causes ?? []).map((c: any) => `${c.field}: ${c.message}`);
/** Every instance-group list set-autoscaling accepts (names by InstanceGroupNameSchema, 1–10, distinct). */
const groupsArb = fc
  .uniqueArray(fc.stringMatching(/^[a-zA-Z0-9](-*[a-zA-Z0-9]){0,20}$/), { minLength: 1, maxLength: 10 })
  .filter((groups) => SetAutoscalingRequestSchema.safeParse({ enabled: true, instanceGroups: groups }).success);
const productPool = (groups: string[]) =>
  structuredClone(karpenterManifests(groups).find((o) => o.kind === 'NodePool')!) as any;

/** A ScaledObject as the inference operator's endpoints use them (the product has no builder yet: issue 28 adds one). */
const scaledObject = (fallback: Record<string, unknown> = { failureThreshold: 3, replicas: 1 }) => ({
  apiVersion: 'keda.sh/v1alpha1',
  kind: 'ScaledObject',
  metadata: { name: 'endpoint-llama', namespace: 'default' },
  spec: {
    scaleTargetRef: { apiVersion: 'apps/v1', kind: 'Deployment', name: 'endpoint-llama' },
    minReplicaCount: 1,
    maxReplicaCount: 4,
    pollingInterval: 30,
    cooldownPeriod: 300,
    fallback,
    triggers: [
      {
        type: 'aws-cloudwatch',
        metadata: {
          namespace: 'AWS/SageMaker',
          metricName: 'Invocations',
          targetMetricValue: '10',
          awsRegion: 'us-west-2',
        },
        authenticationRef: { name: 'keda-irsa' },
      },
    ],
  },
});

describe('upstream-typed NodePool and ScaledObject CRDs in the sandbox', () => {
  let api: TestApi;
  before(async () => {
    api = await startApi();
    await api.call('POST', '/api/v1/namespaces', { body: { metadata: { name: 'default' } } });
    for (const crd of [NODE_POOL_CRD, SCALED_OBJECT_CRD]) {
      const r = await api.call('POST', '/apis/apiextensions.k8s.io/v1/customresourcedefinitions', { body: crd });
      assert.equal(r.status, 201, r.text);
    }
  });
  after(() => api.close());

  it('every NodePool the autoscaling capability makes validates with @kubernetes-models/karpenter', () => {
    fc.assert(
      fc.property(groupsArb, (groups) => {
        assert.deepEqual(nodePoolProblems(productPool(groups)), []);
      }),
      { numRuns: 100 },
    );
  });

  it("the sandbox stores the product's NodePool as sent, upstream's defaults added and nothing pruned", async () => {
    const pool = productPool(['workers']);
    const r = await api.call('POST', `${POOLS}?fieldValidation=Strict`, { body: pool });
    assert.equal(r.status, 201, r.text);
    assert.deepEqual(r.body.spec.template, pool.spec.template);
    assert.deepEqual(r.body.spec.disruption, { ...pool.spec.disruption, budgets: [{ nodes: '10%' }] });
    await api.call('DELETE', `${POOLS}/${pool.metadata.name}`);
  });

  it("refuses a NodePool that breaks upstream's CEL rules, in the API server's words", async () => {
    const pool = productPool(['workers']);
    pool.metadata.name = 'bad-pool';
    pool.spec.disruption.budgets = [{ nodes: '1', schedule: '@daily' }];
    pool.spec.template.spec.requirements = [
      { key: 'kubernetes.io/hostname', operator: 'In', values: ['a'] },
      { key: 'node.kubernetes.io/instance-type', operator: 'Gt', values: ['1', '2'] },
    ];
    pool.spec.template.metadata = { labels: { 'karpenter.sh/custom': 'x' } };
    const r = await api.call('POST', POOLS, { body: pool });
    assert.equal(r.status, 422);
    assert.deepEqual(
      causes(r.body).sort(),
      [
        "spec.disruption.budgets: Invalid value: \"array\": 'schedule' must be set with 'duration'",
        'spec.template.metadata.labels: Invalid value: "object": label domain "karpenter.sh" is restricted',
        "spec.template.spec.requirements: Invalid value: \"array\": requirements operator 'Gt' or 'Lt' must have a single positive integer value",
        'spec.template.spec.requirements[0].key: Invalid value: "string": label "kubernetes.io/hostname" is restricted',
        'spec.template.spec.requirements[0].key: Invalid value: "string": label domain "kubernetes.io" is restricted',
      ].sort(),
    );
    assert.match(r.body.message, /^NodePool\.karpenter\.sh "bad-pool" is invalid: /);
  });

  it('requires disruption.consolidateAfter and refuses a changed node class kind (a transition rule)', async () => {
    const pool = productPool(['workers']);
    delete pool.spec.disruption.consolidateAfter;
    const missing = await api.call('POST', POOLS, { body: pool });
    assert.deepEqual(causes(missing.body), [
      'spec.disruption.consolidateAfter: Required value',
      '<nil>: Invalid value: "null": some validation rules were not checked because the object was invalid; correct the existing errors to complete validation',
    ]);
    const created = await api.call('POST', POOLS, { body: productPool(['workers']) });
    assert.equal(created.status, 201, created.text);
    const changed = structuredClone(created.body);
    changed.spec.template.spec.nodeClassRef.kind = 'EC2NodeClass';
    const r = await api.call('PUT', `${POOLS}/${created.body.metadata.name}`, { body: changed });
    assert.equal(r.status, 422);
    assert.deepEqual(causes(r.body), [
      'spec.template.spec.nodeClassRef: Invalid value: "object": nodeClassRef.kind is immutable',
    ]);
  });

  it('prunes fields upstream does not declare', async () => {
    const pool = productPool(['workers']);
    pool.metadata.name = 'pruned';
    pool.spec.template.spec.kubelet = { maxPods: 10 };
    pool.spec.disruption.consolidateEvery = '1m';
    const r = await api.call('POST', POOLS, { body: pool });
    assert.equal(r.status, 201, r.text);
    assert.equal(r.body.spec.template.spec.kubelet, undefined);
    assert.equal(r.body.spec.disruption.consolidateEvery, undefined);
  });

  it('a ScaledObject shape validates with @kubernetes-models/keda and the sandbox; a fallback without replicas is refused by both', async () => {
    assert.deepEqual(scaledObjectProblems(scaledObject()), []);
    const ok = await api.call('POST', SCALED, { body: scaledObject() });
    assert.equal(ok.status, 201, ok.text);
    assert.equal(ok.body.spec.fallback.behavior, 'static', 'upstream default');
    const bad = { ...scaledObject({ failureThreshold: 3 }), metadata: { name: 'no-replicas', namespace: 'default' } };
    assert.deepEqual(scaledObjectProblems(bad), ['data/spec/fallback must have required property replicas']);
    const refused = await api.call('POST', SCALED, { body: bad });
    assert.equal(refused.status, 422);
    assert.deepEqual(causes(refused.body), ['spec.fallback.replicas: Required value']);
  });
});

describe('KubeRay v1.6.2 CRDs as the product installs them, in the sandbox API server', () => {
  let api: TestApi;
  const JOBS = '/apis/ray.io/v1/namespaces/default/rayjobs';
  const rayJob = (name: string, spec: Record<string, unknown> = {}) => ({
    apiVersion: 'ray.io/v1',
    kind: 'RayJob',
    metadata: { name },
    spec: {
      entrypoint: 'python train.py',
      rayClusterSpec: {
        headGroupSpec: {
          template: {
            metadata: { labels: { app: 'x' } },
            spec: {
              containers: [
                { name: 'head', image: 'rayproject/ray:2.49.0', resources: { limits: { cpu: 2, memory: '8Gi' } } },
              ],
            },
          },
        },
        workerGroupSpecs: [
          {
            groupName: 'gpu',
            minReplicas: 0,
            maxReplicas: 2,
            template: { spec: { containers: [{ name: 'worker', image: 'rayproject/ray:2.49.0' }] } },
          },
        ],
      },
      ...spec,
    },
  });
  before(async () => {
    api = await startApi();
    await api.call('POST', '/api/v1/namespaces', { body: { metadata: { name: 'default' } } });
    for (const crd of kuberayCrds()) {
      const r = await api.call(
        'PATCH',
        `/apis/apiextensions.k8s.io/v1/customresourcedefinitions/${crd.metadata.name}?fieldManager=instantstart`,
        { body: crd, type: 'application/apply-patch+yaml' },
      );
      assert.equal(r.status, 201, r.text);
    }
  });
  after(() => api.close());

  it("stores a RayJob with upstream's defaults, its pod templates typed: unknown fields pruned, labels kept", async () => {
    const job = rayJob('typed');
    (job.spec.rayClusterSpec.headGroupSpec.template.spec.containers[0] as Record<string, unknown>).imagePullPolice =
      'Always';
    const r = await api.call('POST', JOBS, { body: job });
    assert.equal(r.status, 201, r.text);
    const head = r.body.spec.rayClusterSpec.headGroupSpec.template;
    assert.equal(head.spec.containers[0].imagePullPolice, undefined);
    assert.deepEqual(head.metadata.labels, { app: 'x' });
    assert.equal(r.body.spec.submissionMode, 'K8sJobMode');
    assert.deepEqual(
      [
        r.body.spec.rayClusterSpec.workerGroupSpecs[0].replicas,
        r.body.spec.rayClusterSpec.workerGroupSpecs[0].numOfHosts,
      ],
      [0, 1],
    );
    const alpha = await api.call('GET', '/apis/ray.io/v1alpha1/namespaces/default/rayjobs/typed');
    assert.equal(alpha.body.apiVersion, 'ray.io/v1alpha1');
  });

  it('refuses what upstream refuses: a wrong type in a pod template, a managedBy outside its set, a changed managedBy', async () => {
    const bad = rayJob('bad', { managedBy: 'me' });
    (bad.spec.rayClusterSpec.workerGroupSpecs[0]!.template.spec.containers[0] as Record<string, unknown>).ports = [
      { containerPort: 'http' },
    ];
    const r = await api.call('POST', JOBS, { body: bad });
    assert.equal(r.status, 422);
    assert.deepEqual(causes(r.body), [
      'spec.rayClusterSpec.workerGroupSpecs[0].template.spec.containers[0].ports[0].containerPort: Invalid value: "string": spec.rayClusterSpec.workerGroupSpecs[0].template.spec.containers[0].ports[0].containerPort in body must be of type integer: "string"',
      '<nil>: Invalid value: "null": some validation rules were not checked because the object was invalid; correct the existing errors to complete validation',
    ]);
    const outside = await api.call('POST', JOBS, { body: rayJob('outside', { managedBy: 'me' }) });
    assert.deepEqual(causes(outside.body), [
      "spec.managedBy: Invalid value: \"string\": the managedBy field value must be either 'ray.io/kuberay-operator' or 'kueue.x-k8s.io/multikueue'",
    ]);
    const created = await api.call('POST', JOBS, { body: rayJob('managed', { managedBy: 'ray.io/kuberay-operator' }) });
    assert.equal(created.status, 201, created.text);
    const changed = await api.call('PUT', `${JOBS}/managed`, {
      body: { ...created.body, spec: { ...created.body.spec, managedBy: 'kueue.x-k8s.io/multikueue' } },
    });
    assert.deepEqual(causes(changed.body), [
      'spec.managedBy: Invalid value: "string": the managedBy field is immutable',
    ]);
  });
});
