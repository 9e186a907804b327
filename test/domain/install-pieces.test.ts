import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  INFERENCE_VALUE_ROLES,
  inferenceOperatorConfigurationValues,
  kuberayOperatorManifests,
  type InferenceOperatorFacts,
} from '../../src/domain/features/install-pieces.js';
import { KUBERAY } from '../../src/domain/features/kuberay.js';
import { featureDefinition } from '../../src/domain/features/registry.js';
import { knownKind } from '../../src/domain/kube/index.js';
import type { KubeObject } from '../../src/domain/kube-object.js';

type Any = Record<string, any>;

/** Every schema node that has properties or items is typed; every CRD version schema is an object (apiextensions' structural rule). */
function structuralProblems(schema: Any, path = '$'): string[] {
  const out: string[] = [];
  if (!schema.type && !schema['x-kubernetes-int-or-string'] && !schema['x-kubernetes-preserve-unknown-fields'])
    out.push(`${path}: no type`);
  for (const [k, v] of Object.entries(schema.properties ?? {}))
    out.push(...structuralProblems(v as Any, `${path}.${k}`));
  if (schema.items) out.push(...structuralProblems(schema.items, `${path}[]`));
  if (typeof schema.additionalProperties === 'object')
    out.push(...structuralProblems(schema.additionalProperties, `${path}{}`));
  for (const r of schema.required ?? [])
    if (!schema.properties?.[r]) out.push(`${path}: requires ${r} without declaring it`);
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

describe('KubeRay operator manifests (ray-project/kuberay v1.6.2, ray-operator/config)', () => {
  const manifests = kuberayOperatorManifests();
  const byKind = (kind: string) => manifests.filter((m) => m.kind === kind);
  const crds = byKind('CustomResourceDefinition') as Any[];
  const crd = (name: string) => crds.find((c) => c.metadata.name === name)!;
  const schemaOf = (name: string, version: string) =>
    crd(name).spec.versions.find((v: Any) => v.name === version).schema.openAPIV3Schema;
  const preserved = (schema: Any, path = '$'): string[] => [
    ...(schema['x-kubernetes-preserve-unknown-fields'] ? [path] : []),
    ...Object.entries(schema.properties ?? {}).flatMap(([k, v]) => preserved(v as Any, `${path}.${k}`)),
    ...(schema.items ? preserved(schema.items, `${path}[]`) : []),
    ...(typeof schema.additionalProperties === 'object' ? preserved(schema.additionalProperties, `${path}{}`) : []),
  ];

  it('are the namespace, the three ray.io CRDs, then the operator identity, its RBAC, its Deployment and its metrics Service, in apply order', () => {
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
        'Role/kuberay-operator-leader-election',
        'RoleBinding/kuberay-operator-leader-election',
        'Deployment/kuberay-operator',
        'Service/kuberay-operator',
      ],
    );
    for (const m of manifests) {
      assert.equal(m.metadata.labels?.['app.kubernetes.io/managed-by'], 'instantstart', `${m.kind} is labelled ours`);
      assert.ok(
        knownKind(m.apiVersion, m.kind),
        `${m.apiVersion} ${m.kind} has a kind module (applyAndAwait reads it without discovery)`,
      );
      if (m.kind !== 'Namespace' && m.kind !== 'CustomResourceDefinition') {
        assert.equal(
          m.metadata.labels?.['app.kubernetes.io/name'],
          'kuberay',
          `${m.kind} carries the kustomization's labels`,
        );
        assert.equal(m.metadata.labels?.['app.kubernetes.io/component'], 'kuberay-operator');
      }
    }
  });

  it('run the Deployment as manager.yaml does: one image, the feature gate argument, probes, sizing, Recreate', () => {
    const deployment = byKind('Deployment')[0]! as Any;
    const [container, ...others] = deployment.spec.template.spec.containers as Any[];
    assert.equal(others.length, 0);
    assert.equal(container.image, KUBERAY.image);
    assert.match(KUBERAY.image, /^quay\.io\/kuberay\/operator:v1\.6\.2$/);
    assert.ok(KUBERAY.image.endsWith(KUBERAY.version));
    assert.match(KUBERAY.source, /ray-project\/kuberay v1\.6\.2/);
    assert.deepEqual(container.command, ['/manager']);
    assert.deepEqual(container.args, ['--feature-gates=RayClusterStatusConditions=true']);
    assert.deepEqual(container.resources, {
      requests: { cpu: '100m', memory: '512Mi' },
      limits: { cpu: '100m', memory: '512Mi' },
    });
    assert.deepEqual(container.livenessProbe, {
      httpGet: { path: '/metrics', port: 'http' },
      initialDelaySeconds: 10,
      periodSeconds: 5,
      failureThreshold: 5,
    });
    assert.equal(deployment.spec.strategy.type, 'Recreate');
    assert.equal(deployment.spec.template.spec.serviceAccountName, 'kuberay-operator');
    assert.equal(deployment.spec.template.spec.terminationGracePeriodSeconds, 10);
    assert.deepEqual(deployment.spec.selector.matchLabels, deployment.spec.template.metadata.labels);
    const service = byKind('Service')[0]! as Any;
    assert.deepEqual(service.spec.ports, [{ name: 'monitoring-port', port: 8080, targetPort: 8080 }]);
    assert.deepEqual(service.spec.selector, deployment.spec.selector.matchLabels);
    assert.equal(service.metadata.annotations['prometheus.io/scrape'], 'true');
  });

  it("grant upstream role.yaml's rules (RayCronJob and OpenShift routes included) and the leader-election Role, bound to the operator", () => {
    const binding = byKind('ClusterRoleBinding')[0]! as Any;
    assert.deepEqual(binding.roleRef, {
      apiGroup: 'rbac.authorization.k8s.io',
      kind: 'ClusterRole',
      name: 'kuberay-operator',
    });
    assert.deepEqual(binding.subjects, [
      { kind: 'ServiceAccount', name: 'kuberay-operator', namespace: 'kuberay-system' },
    ]);
    const rules = (byKind('ClusterRole')[0]! as Any).rules as Array<{
      apiGroups: string[];
      resources: string[];
      verbs: string[];
    }>;
    assert.equal(rules.length, 19, 'role.yaml has 19 rules');
    const may = (group: string, resource: string, verb: string) =>
      rules.some((r) => r.apiGroups.includes(group) && r.resources.includes(resource) && r.verbs.includes(verb));
    for (const kind of ['rayclusters', 'raycronjobs', 'rayjobs', 'rayservices']) {
      assert.ok(may('ray.io', kind, 'watch'));
      assert.ok(may('ray.io', `${kind}/status`, 'update'));
      assert.ok(may('ray.io', `${kind}/finalizers`, 'update'));
    }
    assert.ok(
      may('', 'pods', 'deletecollection') &&
        may('', 'pods/resize', 'patch') &&
        may('route.openshift.io', 'routes', 'create'),
    );
    assert.ok(!may('', 'secrets', 'delete'), 'secrets: create, get, list, watch only');
    const role = byKind('Role')[0]! as Any;
    assert.equal(role.metadata.namespace, 'kuberay-system');
    assert.deepEqual(
      role.rules.map((r: Any) => `${r.apiGroups.join(',')}/${r.resources.join(',')}`),
      ['/configmaps', '/events', 'coordination.k8s.io/leases'],
    );
    assert.deepEqual((byKind('RoleBinding')[0] as Any).subjects, [
      { kind: 'ServiceAccount', name: 'kuberay-operator', namespace: 'kuberay-system' },
    ]);
  });

  it("serve v1 (storage) and v1alpha1 for RayCluster, RayJob and RayService, each with upstream's printer columns", () => {
    for (const c of crds) {
      assert.equal(c.spec.group, 'ray.io');
      assert.equal(c.spec.scope, 'Namespaced');
      assert.deepEqual(c.spec.names.categories, ['all']);
      assert.deepEqual(
        c.spec.versions.map((v: Any) => [v.name, v.served, v.storage]),
        [
          ['v1', true, true],
          ['v1alpha1', true, false],
        ],
      );
      for (const v of c.spec.versions) assert.deepEqual(v.subresources, { status: {} });
    }
    const columns = (name: string, version = 'v1') =>
      (crd(name).spec.versions.find((v: Any) => v.name === version).additionalPrinterColumns ?? []).map(
        (c: Any) => c.name,
      );
    const clusterColumns = [
      'desired workers',
      'available workers',
      'cpus',
      'memory',
      'gpus',
      'tpus',
      'status',
      'age',
      'head pod IP',
      'head service IP',
    ];
    assert.deepEqual(columns('rayclusters.ray.io'), clusterColumns);
    assert.deepEqual(columns('rayclusters.ray.io', 'v1alpha1'), clusterColumns);
    assert.deepEqual(columns('rayjobs.ray.io'), [
      'job status',
      'deployment status',
      'ray cluster name',
      'start time',
      'end time',
      'age',
    ]);
    assert.deepEqual(columns('rayjobs.ray.io', 'v1alpha1'), []);
    assert.deepEqual(columns('rayservices.ray.io'), ['service status', 'num serve endpoints']);
  });

  it('type every field as upstream does, keeping no unknown field, pod templates included', () => {
    for (const c of crds) {
      for (const v of c.spec.versions) {
        assert.deepEqual(structuralProblems(v.schema.openAPIV3Schema), [], `${c.metadata.name} ${v.name}`);
        assert.deepEqual(
          preserved(v.schema.openAPIV3Schema),
          [],
          `${c.metadata.name} ${v.name} keeps no unknown fields`,
        );
      }
    }
    const cluster = schemaOf('rayclusters.ray.io', 'v1').properties.spec;
    assert.deepEqual(cluster.required, ['headGroupSpec']);
    assert.deepEqual(cluster.properties.workerGroupSpecs.items.required, [
      'groupName',
      'maxReplicas',
      'minReplicas',
      'template',
    ]);
    assert.deepEqual(cluster.properties.workerGroupSpecs.items.properties.maxReplicas, {
      type: 'integer',
      format: 'int32',
      default: 2147483647,
    });
    const template = cluster.properties.headGroupSpec.properties.template;
    assert.deepEqual(Object.keys(template.properties.metadata.properties), [
      'annotations',
      'finalizers',
      'labels',
      'name',
      'namespace',
    ]);
    const container = template.properties.spec.properties.containers.items;
    assert.deepEqual(container.required, ['name']);
    assert.equal(
      container.properties.resources.properties.limits.additionalProperties['x-kubernetes-int-or-string'],
      true,
    );
    assert.deepEqual(template.properties.spec.required, ['containers']);
    // The versions differ as upstream's do: v1alpha1 requires rayStartParams and a RayJob's entrypoint, and lacks v1's
    // newer fields.
    const alpha = schemaOf('rayclusters.ray.io', 'v1alpha1').properties.spec;
    assert.deepEqual(alpha.properties.headGroupSpec.required, ['rayStartParams', 'template']);
    assert.equal(alpha.properties.managedBy, undefined);
    assert.deepEqual(schemaOf('rayjobs.ray.io', 'v1alpha1').properties.spec.required, ['entrypoint']);
    assert.equal(schemaOf('rayjobs.ray.io', 'v1').properties.spec.required, undefined);
    assert.deepEqual(schemaOf('rayservices.ray.io', 'v1').properties.spec.required, ['rayClusterConfig']);
    assert.equal(schemaOf('rayservices.ray.io', 'v1alpha1').properties.spec.required, undefined);
    // Upstream's CEL rules travel with the schema.
    assert.deepEqual(
      cluster.properties.managedBy['x-kubernetes-validations'].map((r: Any) => r.rule),
      ['self == oldSelf', "self in ['ray.io/kuberay-operator', 'kueue.x-k8s.io/multikueue']"],
    );
    assert.equal(
      schemaOf('rayjobs.ray.io', 'v1').properties.spec.properties.deletionStrategy['x-kubernetes-validations'].length,
      2,
    );
  });

  it('are the same on every call, and a caller changing one cannot change the next', () => {
    const a = kuberayOperatorManifests();
    ((a[1] as KubeObject).spec as Any).group = 'changed';
    ((a[9] as KubeObject).spec as Any).template.spec.containers[0].image = 'changed';
    assert.deepEqual(kuberayOperatorManifests(), manifests);
  });
});

describe('the inference operator add-on configuration values', () => {
  it("are the keys of AWS's add-on setup, with the ALB controller and KEDA on, canonical JSON", () => {
    const json = inferenceOperatorConfigurationValues(facts());
    assert.deepEqual(JSON.parse(json), {
      executionRoleArn: role('instantstart-ml-inference-exec'),
      tlsCertificateS3Bucket: 'instantstart-ml-tls-111122223333',
      hyperpodClusterArn: `arn:aws:sagemaker:us-west-2:${ACCOUNT}:cluster/abcdef123456`,
      jumpstartGatedModelDownloadRoleArn: role('instantstart-ml-inference-gated'),
      alb: { enabled: true, serviceAccount: { create: true, roleArn: role('instantstart-ml-inference-alb') } },
      keda: {
        enabled: true,
        auth: { aws: { irsa: { enabled: true, roleArn: role('instantstart-ml-inference-keda') } } },
      },
    });
    assert.equal(
      json,
      JSON.stringify(JSON.parse(json)),
      'no whitespace: compared as a string with what DescribeAddon returns',
    );
    const shuffled = facts({ roleArns: new Map([...facts().roleArns].reverse()) });
    assert.equal(inferenceOperatorConfigurationValues(shuffled), json, 'the order the roles come in does not matter');
  });

  it("take their roles by the registry's identity ids of the inference operator", () => {
    const ids = featureDefinition('inference-operator')
      .identities.map((i) => i.id)
      .sort();
    assert.deepEqual(Object.values(INFERENCE_VALUE_ROLES).sort(), ids);
  });

  it('refuse to build from incomplete or mismatched facts (a reconciler bug, never a silent half-configured add-on)', () => {
    const without = new Map(facts().roleArns);
    without.delete('keda');
    assert.throws(
      () => inferenceOperatorConfigurationValues(facts({ roleArns: without })),
      /no role ARN for identity 'keda'/,
    );
    assert.throws(
      () =>
        inferenceOperatorConfigurationValues(
          facts({ roleArns: new Map([...facts().roleArns, ['execution', 'instantstart-ml-inference-exec']]) }),
        ),
      /not an IAM role ARN/,
    );
    assert.throws(() => inferenceOperatorConfigurationValues(facts({ region: 'us-east-1' })), /is not in us-east-1/);
    assert.throws(
      () => inferenceOperatorConfigurationValues(facts({ hyperpodClusterArn: 'ml' })),
      /not a HyperPod cluster ARN/,
    );
    assert.throws(() => inferenceOperatorConfigurationValues(facts({ tlsBucket: '' })), /TLS certificate bucket/);
  });
});
