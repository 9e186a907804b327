import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  BASE_EKS_ADDONS,
  createClusterDependencyFeatures,
  featureManifests,
} from '../../src/domain/cluster-dependencies.js';
import {
  dependencyClosure,
  installOrder,
  registryOrder,
  removeOrder,
  whatNeeds,
} from '../../src/domain/features/graph.js';
import {
  addonNameOf,
  createClusterFeatures,
  featureRoleName,
  FEATURES,
  type FeatureRegistry,
} from '../../src/domain/features/registry.js';
import {
  FEATURE_CONFIG_SCHEMAS,
  FEATURE_IDS,
  FeatureChangesSchema,
  TOGGLEABLE_FEATURE_IDS,
} from '../../src/domain/schemas/features.js';

const registry = (needs: Record<string, string[]>): FeatureRegistry =>
  new Map(Object.entries(needs).map(([id, n]) => [id, { needs: n }]));

describe('feature registry', () => {
  it("has exactly the schema's features, each needing only known features", () => {
    assert.deepEqual([...FEATURES.keys()], [...FEATURE_IDS]);
    for (const d of FEATURES.values())
      for (const n of d.needs) assert.ok(FEATURES.has(n), `${d.id} needs unknown ${n}`);
  });

  it('has no dependency cycle (a cycle is a programming error the order reports)', () => {
    const order = registryOrder();
    assert.equal(order.length, FEATURE_IDS.length);
    for (const d of FEATURES.values())
      for (const n of d.needs) assert.ok(order.indexOf(n) < order.indexOf(d.id), `${n} must come before ${d.id}`);
    assert.throws(() => registryOrder(registry({ a: ['b'], b: ['c'], c: ['a'] })), /cycle: a → b → c → a/);
    assert.throws(() => registryOrder(registry({ a: ['missing'] })), /no 'missing'/);
  });

  it('every feature another one needs can be installed with its defaults', () => {
    for (const d of FEATURES.values())
      for (const n of d.needs)
        assert.ok(FEATURE_CONFIG_SCHEMAS[n].safeParse({}).success, `${n} (needed by ${d.id}) has required settings`);
  });

  it("names roles as every other role of a managed cluster, within IAM's 64 characters for the longest cluster name", () => {
    const longest = 'c'.repeat(32);
    for (const d of FEATURES.values())
      for (const i of d.identities)
        assert.ok(featureRoleName(longest, 'ap-southeast-2', i).length <= 64, `${d.id}/${i.id}`);
    assert.equal(
      featureRoleName('demo', 'us-west-2', FEATURES.get('training-operator')!.identities[0]!),
      'instantstart-demo-training-op',
    );
    // A name IAM cannot take is refused on the cluster's name, before any AWS call.
    assert.throws(
      () => featureRoleName('x'.repeat(63), 'us-west-2', FEATURES.get('training-operator')!.identities[0]!),
      (e: Error & { problems?: Array<{ path: string }> }) => e.problems?.[0]?.path === 'name',
    );
    const suffixes = [...FEATURES.values()].flatMap((d) => d.identities.map((i) => i.roleSuffix));
    assert.equal(new Set(suffixes).size, suffixes.length, 'two identities share a role');
  });

  it("states the issue's facts: add-ons, the training operator's pod identity, the inference operator's needs and roles", () => {
    assert.equal(addonNameOf('training-operator'), 'amazon-sagemaker-hyperpod-training-operator');
    assert.equal(addonNameOf('inference-operator'), 'amazon-sagemaker-hyperpod-inference');
    assert.equal(addonNameOf('pod-identity-agent'), 'eks-pod-identity-agent');
    assert.deepEqual(FEATURES.get('training-operator')!.identities[0]!.bindings, [
      { kind: 'pod-identity', namespace: 'aws-hyperpod', serviceAccount: 'hp-training-operator-controller-manager' },
    ]);
    assert.deepEqual(FEATURES.get('inference-operator')!.needs, [
      'cert-manager',
      's3-csi-driver',
      'fsx-csi-driver',
      'metrics-server',
    ]);
    assert.deepEqual(
      FEATURES.get('inference-operator')!.identities.map((i) => i.id),
      ['execution', 'gated-model', 'load-balancer-controller', 'keda'],
    );
    const checkpointing = FEATURES.get('tiered-checkpointing')!;
    assert.deepEqual(checkpointing.installs[0], {
      kind: 'cluster-setting',
      field: 'TieredStorageConfig',
      enabled: { Mode: 'Enable' },
      disabled: { Mode: 'Disable' },
    });
    assert.equal(checkpointing.identities[0]!.bindings[0]!.kind, 'irsa');
  });

  it("create-cluster turns on HyperPod's pieces, the training operator and its storage's CSI drivers", () => {
    assert.deepEqual(createClusterFeatures({ s3: false, fsx: false }), [
      'pod-identity-agent',
      'cert-manager',
      'health-monitoring-agent',
      'device-plugins',
      'training-operator',
    ]);
    assert.deepEqual(createClusterFeatures({ s3: true, fsx: true }), [
      'pod-identity-agent',
      'cert-manager',
      's3-csi-driver',
      'fsx-csi-driver',
      'health-monitoring-agent',
      'device-plugins',
      'training-operator',
    ]);
    // What create installs is closed under needs: nothing it turns on misses a need.
    const created = createClusterFeatures({ s3: true, fsx: false });
    assert.deepEqual([...dependencyClosure(created)].sort(), [...created].sort());
  });
});

describe('feature graph', () => {
  it('closes over needs transitively and orders needs first', () => {
    assert.deepEqual(installOrder(dependencyClosure(['inference-operator'])), [
      'pod-identity-agent',
      'cert-manager',
      'metrics-server',
      's3-csi-driver',
      'fsx-csi-driver',
      'inference-operator',
    ]);
    assert.deepEqual(removeOrder(['cert-manager', 'training-operator']), ['training-operator', 'cert-manager']);
  });

  it('answers what needs a feature, directly or through others', () => {
    assert.deepEqual(whatNeeds('cert-manager'), ['training-operator', 'inference-operator']);
    assert.deepEqual(whatNeeds('pod-identity-agent'), ['s3-csi-driver', 'training-operator']);
    assert.deepEqual(whatNeeds('pod-identity-agent', { transitive: true }), [
      's3-csi-driver',
      'training-operator',
      'inference-operator',
    ]);
    assert.deepEqual(whatNeeds('autoscaling'), []);
    const made = registry({ a: [], b: ['a'], c: ['b'] });
    assert.deepEqual(whatNeeds('a', { registry: made }), ['b']);
    assert.deepEqual(whatNeeds('a', { registry: made, transitive: true }), ['b', 'c']);
  });
});

describe('FeatureChangesSchema', () => {
  it("takes true, false or a feature's settings, only for features a caller may toggle", () => {
    assert.ok(FeatureChangesSchema.safeParse({ 'inference-operator': true, 'cert-manager': false }).success);
    assert.ok(
      FeatureChangesSchema.safeParse({ 'tiered-checkpointing': { instanceMemoryAllocationPercentage: 40 } }).success,
    );
    const bad = (body: unknown) =>
      FeatureChangesSchema.safeParse(body).error?.issues.map((i) => `${i.path.join('.')}|${i.code}`);
    assert.deepEqual(bad({ 'device-plugins': false, 'cert-manager': true }), ['|unrecognized_keys']);
    assert.deepEqual(bad(JSON.parse('{"__proto__": true, "constructor": true, "cert-manager": true}')), [
      '|unrecognized_keys',
    ]);
    assert.equal(
      bad({ 'tiered-checkpointing': { instanceMemoryAllocationPercentage: 10 } })?.[0]?.split('|')[0],
      'tiered-checkpointing.instanceMemoryAllocationPercentage',
    );
    assert.ok(bad({}));
    assert.equal(TOGGLEABLE_FEATURE_IDS.length, FEATURE_IDS.length - 2);
  });
});

describe('create-cluster dependencies derive from the registry', () => {
  it('are the features create turns on, in install order (needs first), the pod identity agent left to the base add-ons', () => {
    assert.deepEqual(createClusterDependencyFeatures({ s3: true, fsx: true }), [
      'cert-manager',
      's3-csi-driver',
      'fsx-csi-driver',
      'health-monitoring-agent',
      'device-plugins',
      'training-operator',
    ]);
    assert.deepEqual(createClusterDependencyFeatures({ s3: false, fsx: false }), [
      'cert-manager',
      'health-monitoring-agent',
      'device-plugins',
      'training-operator',
    ]);
    assert.deepEqual(BASE_EKS_ADDONS, ['vpc-cni', 'kube-proxy', 'coredns', 'eks-pod-identity-agent']);
  });

  it('cover exactly the features create turns on (the pod identity agent through the base add-ons)', () => {
    for (const storage of [
      { s3: false, fsx: false },
      { s3: true, fsx: false },
      { s3: false, fsx: true },
      { s3: true, fsx: true },
    ]) {
      assert.deepEqual(
        [...createClusterDependencyFeatures(storage), 'pod-identity-agent'].sort(),
        createClusterFeatures(storage).sort(),
      );
    }
  });

  it("build the manifests of HyperPod's dependency chart InstantStart pins", () => {
    assert.deepEqual(
      featureManifests('health-monitoring-agent', 'us-west-2').map((o) => `${o.kind}/${o.metadata.name}`),
      [
        'Namespace/aws-hyperpod',
        'ClusterRole/health-monitoring-agent',
        'ServiceAccount/health-monitoring-agent',
        'ClusterRoleBinding/health-monitoring-agent',
        'DaemonSet/health-monitoring-agent',
        'DaemonSet/health-monitoring-agent-non-nvidia',
      ],
    );
    assert.deepEqual(
      featureManifests('device-plugins', 'us-west-2').map((o) => `${o.kind}/${o.metadata.name}`),
      [
        'DaemonSet/nvidia-device-plugin-daemonset',
        'ClusterRole/neuron-device-plugin',
        'ServiceAccount/neuron-device-plugin',
        'ClusterRoleBinding/neuron-device-plugin',
        'DaemonSet/neuron-device-plugin',
        'DaemonSet/aws-efa-k8s-device-plugin',
      ],
    );
  });
});
