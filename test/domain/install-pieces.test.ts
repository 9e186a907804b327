import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { INFERENCE_VALUE_ROLES, inferenceOperatorConfigurationValues, kuberayOperatorManifests, type InferenceOperatorFacts } from '../../src/domain/features/install-pieces.js';
import { KUBERAY } from '../../src/domain/features/kuberay.js';
import { featureDefinition } from '../../src/domain/features/registry.js';
import { knownKind } from '../../src/domain/kube/index.js';
import type { KubeObject } from '../../src/domain/kube-object.js';

type Any = Record<string, any>;

/** Every schema node that has properties or items is typed; every CRD version schema is an object (apiextensions' structural rule). */
function structuralProblems(schema: Any, path = '$'): string[] {
  const out: string[] = [];
  if (!schema.type && !schema['x-kubernetes-int-or-string'] && !schema['x-kubernetes-preserve-unknown-fields']) out.push(`${path}: no type`);
  for (const [k, v] of Object.entries(schema.properties ?? {})) out.push(...structuralProblems(v as Any, `${path}.${k}`));
  if (schema.items) out.push(...structuralProblems(schema.items, `${path}[]`));
  if (typeof schema.additionalProperties === 'object') out.push(...structuralProblems(schema.additionalProperties, `${path}{}`));
  for (const r of schema.required ?? []) if (!schema.properties?.[r]) out.push(`${path}: requires ${r} without declaring it`);
  return out;
}

const ACCOUNT = '111122223333';
const role = (name: string) => `arn:aws:iam::${ACCOUNT}:role/${name}`;
const facts = (over: Partial<InferenceOperatorFacts> = {}): InferenceOperatorFacts => ({
  region: 'us-west-2',
  eksClusterName: 'ml-eks',
  hyperpodClusterArn: `arn:aws:sagemaker:us-west-2:${ACCOUNT}:cluster/abcdef123456`,
  tlsBucket: 'instantstart-ml-tls-111122223333',
  roleArns: new Map([
    ['execution', role('instantstart-ml-inference-exec')],
    ['gated-model', role('instantstart-ml-inference-gated')],
    ['load-balancer-controller', role('instantstart-ml-inference-alb')],
    ['keda', role('instantstart-ml-inference-keda')],
  ]),
  ...over,
});

describe('KubeRay operator manifests', () => {
  const manifests = kuberayOperatorManifests();
  const byKind = (kind: string) => manifests.filter((m) => m.kind === kind);

  it('are the namespace, the three ray.io CRDs, then the operator identity, its RBAC and its Deployment, in apply order', () => {
    assert.deepEqual(
      manifests.map((m) => `${m.kind}/${m.metadata.name}`),
      [
        'Namespace/kuberay-system',
        'CustomResourceDefinition/rayclusters.ray.io',
        'CustomResourceDefinition/rayjobs.ray.io',
        'CustomResourceDefinition/rayservices.ray.io',
        'ServiceAccount/kuberay-operator',
        'ClusterRole/kuberay-operator',
        'ClusterRoleBinding/kuberay-operator',
        'Deployment/kuberay-operator',
      ],
    );
    for (const m of manifests) {
      assert.equal(m.metadata.labels?.['app.kubernetes.io/managed-by'], 'instantstart', `${m.kind} is labelled ours`);
      assert.ok(knownKind(m.apiVersion, m.kind), `${m.apiVersion} ${m.kind} has a kind module (applyAndAwait reads it without discovery)`);
    }
  });

  it('pin one image, the version named once with its source', () => {
    const deployment = byKind('Deployment')[0]!;
    const containers = (deployment.spec as Any).template.spec.containers as Any[];
    assert.deepEqual(containers.map((c) => c.image), [KUBERAY.image]);
    assert.match(KUBERAY.image, /^quay\.io\/kuberay\/operator:v1\.\d+\.\d+$/);
    assert.ok(KUBERAY.image.endsWith(KUBERAY.version));
    assert.match(KUBERAY.source, /ray-project\/kuberay/);
    assert.equal((deployment.spec as Any).strategy.type, 'Recreate');
    assert.equal((deployment.spec as Any).template.spec.serviceAccountName, 'kuberay-operator');
    assert.deepEqual((deployment.spec as Any).selector.matchLabels, (deployment.spec as Any).template.metadata.labels);
  });

  it('bind the ClusterRole to the operator service account in its namespace, and let it manage Ray objects and their pods', () => {
    const binding = byKind('ClusterRoleBinding')[0]! as Any;
    assert.deepEqual(binding.roleRef, { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: 'kuberay-operator' });
    assert.deepEqual(binding.subjects, [{ kind: 'ServiceAccount', name: 'kuberay-operator', namespace: 'kuberay-system' }]);
    const rules = (byKind('ClusterRole')[0]! as Any).rules as Array<{ apiGroups: string[]; resources: string[]; verbs: string[] }>;
    const may = (group: string, resource: string, verb: string) => rules.some((r) => r.apiGroups.includes(group) && r.resources.includes(resource) && r.verbs.includes(verb));
    for (const kind of ['rayclusters', 'rayjobs', 'rayservices']) {
      assert.ok(may('ray.io', kind, 'watch'));
      assert.ok(may('ray.io', `${kind}/status`, 'update'));
    }
    assert.ok(may('', 'pods', 'create') && may('', 'services', 'create') && may('batch', 'jobs', 'create'));
  });

  it('define RayCluster, RayJob and RayService as structural v1 CRDs that keep unknown fields, with the upstream printer columns', () => {
    const crds = byKind('CustomResourceDefinition') as Any[];
    for (const crd of crds) {
      assert.equal(crd.spec.group, 'ray.io');
      assert.equal(crd.spec.scope, 'Namespaced');
      assert.deepEqual(crd.spec.names.categories, ['all']);
      assert.deepEqual(crd.spec.versions.map((v: Any) => [v.name, v.served, v.storage]), [['v1', true, true]]);
      const schema = crd.spec.versions[0].schema.openAPIV3Schema;
      assert.deepEqual(structuralProblems(schema), [], crd.metadata.name);
      assert.equal(schema.properties.spec['x-kubernetes-preserve-unknown-fields'], true, 'fields outside the cut-down schema are kept');
      assert.deepEqual(crd.spec.versions[0].subresources, { status: {} });
    }
    const columns = (name: string) => crds.find((c) => c.metadata.name === name)!.spec.versions[0].additionalPrinterColumns.map((c: Any) => c.name);
    assert.deepEqual(columns('rayclusters.ray.io'), ['desired workers', 'available workers', 'cpus', 'memory', 'gpus', 'tpus', 'status', 'age', 'head pod IP', 'head service IP']);
    assert.deepEqual(columns('rayjobs.ray.io'), ['job status', 'deployment status', 'ray cluster name', 'start time', 'end time', 'age']);
    assert.deepEqual(columns('rayservices.ray.io'), ['service status', 'num serve endpoints']);
    const rayCluster = crds.find((c) => c.metadata.name === 'rayclusters.ray.io')!.spec.versions[0].schema.openAPIV3Schema.properties.spec;
    assert.deepEqual(rayCluster.required, ['headGroupSpec']);
    assert.deepEqual(rayCluster.properties.workerGroupSpecs.items.required, ['groupName', 'maxReplicas', 'minReplicas', 'template']);
  });

  it('are the same on every call, and a caller changing one cannot change the next', () => {
    const a = kuberayOperatorManifests();
    ((a[1] as KubeObject).spec as Any).group = 'changed';
    ((a[7] as KubeObject).spec as Any).template.spec.containers[0].image = 'changed';
    assert.deepEqual(kuberayOperatorManifests(), manifests);
  });
});

describe('the inference operator add-on configuration values', () => {
  it('are the keys of AWS\'s add-on setup, with the ALB controller and KEDA on, canonical JSON', () => {
    const json = inferenceOperatorConfigurationValues(facts());
    assert.deepEqual(JSON.parse(json), {
      executionRoleArn: role('instantstart-ml-inference-exec'),
      tlsCertificateS3Bucket: 'instantstart-ml-tls-111122223333',
      hyperpodClusterArn: `arn:aws:sagemaker:us-west-2:${ACCOUNT}:cluster/abcdef123456`,
      jumpstartGatedModelDownloadRoleArn: role('instantstart-ml-inference-gated'),
      alb: { enabled: true, serviceAccount: { create: true, roleArn: role('instantstart-ml-inference-alb') } },
      keda: { enabled: true, auth: { aws: { irsa: { enabled: true, roleArn: role('instantstart-ml-inference-keda') } } } },
    });
    assert.equal(json, JSON.stringify(JSON.parse(json)), 'no whitespace: compared as a string with what DescribeAddon returns');
    const shuffled = facts({ roleArns: new Map([...facts().roleArns].reverse()) });
    assert.equal(inferenceOperatorConfigurationValues(shuffled), json, 'the order the roles come in does not matter');
  });

  it('take their roles by the registry\'s identity ids of the inference operator', () => {
    const ids = featureDefinition('inference-operator').identities.map((i) => i.id).sort();
    assert.deepEqual(Object.values(INFERENCE_VALUE_ROLES).sort(), ids);
  });

  it('refuse to build from incomplete or mismatched facts (a reconciler bug, never a silent half-configured add-on)', () => {
    const without = new Map(facts().roleArns);
    without.delete('keda');
    assert.throws(() => inferenceOperatorConfigurationValues(facts({ roleArns: without })), /no role ARN for identity 'keda'/);
    assert.throws(() => inferenceOperatorConfigurationValues(facts({ roleArns: new Map([...facts().roleArns, ['execution', 'instantstart-ml-inference-exec']]) })), /not an IAM role ARN/);
    assert.throws(() => inferenceOperatorConfigurationValues(facts({ region: 'us-east-1' })), /is not in us-east-1/);
    assert.throws(() => inferenceOperatorConfigurationValues(facts({ hyperpodClusterArn: 'ml' })), /not a HyperPod cluster ARN/);
    assert.throws(() => inferenceOperatorConfigurationValues(facts({ tlsBucket: '' })), /TLS certificate bucket/);
  });
});
