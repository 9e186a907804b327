import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { sandboxInstalledCrds } from '../../sandbox/kube/controllers/installed-crds.js';
import { missingRequired, operationInput } from '../conformance/aws-required.js';
import { crdSchemas, strictViolations } from '../conformance/kube-strict.js';

/** The checks of the conformance test (test/conformance/upstream.test.ts), on objects and requests made up to break them. */

describe('conformance checks: AWS requests against the SDK models', () => {
  it('names a required member the request lacks, at any depth', () => {
    const model = operationInput('sagemaker', 'CreateCluster');
    assert.ok('schema' in model);
    const input = {
      ClusterName: 'c',
      InstanceGroups: [
        { InstanceGroupName: 'g', InstanceCount: 1, ExecutionRole: 'arn:aws:iam::1:role/r' },
        { InstanceGroupName: 'h', InstanceCount: 1 },
      ],
      Orchestrator: { Eks: {} },
    };
    assert.deepEqual(missingRequired(model.schema, input), [
      'InstanceGroups[1].ExecutionRole',
      'Orchestrator.Eks.ClusterArn',
    ]);
  });

  it("passes a complete request, and reads EKS's camel-case members", () => {
    const model = operationInput('eks', 'CreateCluster');
    assert.ok('schema' in model);
    assert.deepEqual(missingRequired(model.schema, { name: 'e', roleArn: 'arn', resourcesVpcConfig: {} }), []);
    assert.deepEqual(missingRequired(model.schema, { name: 'e' }), ['roleArn', 'resourcesVpcConfig']);
  });

  it('an operation or service with no model is named, not skipped', () => {
    assert.match(
      (operationInput('sagemaker', 'CreateClusterr') as { missing: string }).missing,
      /no operation CreateClusterr/,
    );
    assert.match(
      (operationInput('lambda', 'Invoke') as { missing: string }).missing,
      /no AWS SDK model is known for service 'lambda'/,
    );
  });
});

describe('conformance checks: Kubernetes objects against strict schemas', () => {
  const schemas = crdSchemas(sandboxInstalledCrds().map((crd) => ({ crd, origin: 'sandbox' })));

  it('a built-in kind: a valid object passes; an unknown field and a wrong type are named', () => {
    const ds = {
      apiVersion: 'apps/v1',
      kind: 'DaemonSet',
      metadata: { name: 'p', namespace: 'kube-system' },
      spec: {
        selector: { matchLabels: { a: 'b' } },
        template: { metadata: { labels: { a: 'b' } }, spec: { containers: [{ name: 'c', image: 'i' }] } },
      },
    };
    assert.deepEqual(strictViolations(ds, schemas), []);
    const bad = structuredClone(ds) as typeof ds & {
      spec: { template: { spec: { containers: Array<Record<string, unknown>> } } };
    };
    bad.spec.template.spec.containers[0]!.imagePullPolice = 'Always';
    (bad.spec as Record<string, unknown>).minReadySeconds = '5';
    const v = strictViolations(bad, schemas);
    assert.ok(
      v.some((l) => l.startsWith('spec.template.spec.containers[0].imagePullPolice: unknown field')),
      v.join('\n'),
    );
    assert.ok(
      v.some((l) => l.startsWith('spec.minReadySeconds:') && l.includes('must be of type integer')),
      v.join('\n'),
    );
  });

  it('a custom resource whose kind no CRD serves has no schema, and says so', () => {
    const v = strictViolations(
      { apiVersion: 'example.com/v1', kind: 'Widget', metadata: { name: 'w' }, spec: {} },
      schemas,
    );
    assert.deepEqual(v, [
      "example.com/v1/Widget: no schema (no CRD serves it among the sandbox's add-ons or the CRDs the product applied)",
    ]);
  });

  it('a CRD that keeps unknown fields at spec is no strict schema', () => {
    const crd = {
      apiVersion: 'apiextensions.k8s.io/v1',
      kind: 'CustomResourceDefinition',
      metadata: { name: 'widgets.example.com' },
      spec: {
        group: 'example.com',
        scope: 'Namespaced',
        names: { plural: 'widgets', kind: 'Widget' },
        versions: [
          {
            name: 'v1',
            served: true,
            storage: true,
            schema: {
              openAPIV3Schema: {
                type: 'object',
                properties: { spec: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true } },
              },
            },
          },
        ],
      },
    };
    const loose = crdSchemas([{ crd, origin: 'test' }]);
    const v = strictViolations(
      {
        apiVersion: 'example.com/v1',
        kind: 'Widget',
        metadata: { name: 'w', namespace: 'default' },
        spec: { anything: 1 },
      },
      loose,
    );
    assert.equal(v.length, 1);
    assert.match(v[0]!, /no strict schema: `spec` keeps unknown fields/);
  });

  it('a NodePool is also held to @kubernetes-models/karpenter', () => {
    const pool = {
      apiVersion: 'karpenter.sh/v1',
      kind: 'NodePool',
      metadata: { name: 'gpu' },
      spec: {
        template: {
          spec: {
            nodeClassRef: { group: 'karpenter.sagemaker.amazonaws.com', kind: 'HyperpodNodeClass', name: 'c' },
            requirements: [],
          },
        },
        disruption: { consolidateAfter: 30 },
      },
    };
    const v = strictViolations(pool, schemas);
    assert.ok(
      v.some((l) => l.startsWith('@kubernetes-models:') && l.includes('consolidateAfter')),
      v.join('\n'),
    );
  });

  it("a NodePool's CEL rules are evaluated, as the API server would on create", () => {
    const pool = {
      apiVersion: 'karpenter.sh/v1',
      kind: 'NodePool',
      metadata: { name: 'gpu' },
      spec: {
        template: {
          metadata: { labels: { 'karpenter.sh/nodepool': 'other' } },
          spec: {
            nodeClassRef: { group: 'karpenter.sagemaker.amazonaws.com', kind: 'HyperpodNodeClass', name: 'c' },
            requirements: [],
          },
        },
        disruption: { consolidateAfter: '30s' },
      },
    };
    const v = strictViolations(pool, schemas);
    assert.ok(
      v.some((l) => l.includes('label "karpenter.sh/nodepool" is restricted')),
      v.join('\n'),
    );
  });
});
