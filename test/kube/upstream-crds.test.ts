import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import fc from 'fast-check';
import { NODE_POOL_CRD } from '../../sandbox/kube/controllers/crds/karpenter-nodepool.js';
import { SCALED_OBJECT_CRD } from '../../sandbox/kube/controllers/crds/keda-scaledobject.js';
import { karpenterManifests } from '../../src/domain/autoscaling.js';
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
const productPool = (groups: string[]) => structuredClone(karpenterManifests(groups).find((o) => o.kind === 'NodePool')!) as any;

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
    triggers: [{ type: 'aws-cloudwatch', metadata: { namespace: 'AWS/SageMaker', metricName: 'Invocations', targetMetricValue: '10', awsRegion: 'us-west-2' }, authenticationRef: { name: 'keda-irsa' } }],
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

  it('the sandbox stores the product\'s NodePool as sent, upstream\'s defaults added and nothing pruned', async () => {
    const pool = productPool(['workers']);
    const r = await api.call('POST', `${POOLS}?fieldValidation=Strict`, { body: pool });
    assert.equal(r.status, 201, r.text);
    assert.deepEqual(r.body.spec.template, pool.spec.template);
    assert.deepEqual(r.body.spec.disruption, { ...pool.spec.disruption, budgets: [{ nodes: '10%' }] });
    await api.call('DELETE', `${POOLS}/${pool.metadata.name}`);
  });

  it('refuses a NodePool that breaks upstream\'s CEL rules, in the API server\'s words', async () => {
    const pool = productPool(['workers']);
    pool.metadata.name = 'bad-pool';
    pool.spec.disruption.budgets = [{ nodes: '1', schedule: '@daily' }];
    pool.spec.template.spec.requirements = [{ key: 'kubernetes.io/hostname', operator: 'In', values: ['a'] }, { key: 'node.kubernetes.io/instance-type', operator: 'Gt', values: ['1', '2'] }];
    pool.spec.template.metadata = { labels: { 'karpenter.sh/custom': 'x' } };
    const r = await api.call('POST', POOLS, { body: pool });
    assert.equal(r.status, 422);
    assert.deepEqual(causes(r.body).sort(), [
      'spec.disruption.budgets: Invalid value: "array": \'schedule\' must be set with \'duration\'',
      'spec.template.metadata.labels: Invalid value: "object": label domain "karpenter.sh" is restricted',
      'spec.template.spec.requirements: Invalid value: "array": requirements operator \'Gt\' or \'Lt\' must have a single positive integer value',
      'spec.template.spec.requirements[0].key: Invalid value: "string": label "kubernetes.io/hostname" is restricted',
      'spec.template.spec.requirements[0].key: Invalid value: "string": label domain "kubernetes.io" is restricted',
    ].sort());
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
    assert.deepEqual(causes(r.body), ['spec.template.spec.nodeClassRef: Invalid value: "object": nodeClassRef.kind is immutable']);
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
