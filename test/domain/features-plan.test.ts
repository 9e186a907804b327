import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { isNoOp, planFeatures, refusalProblems, type FeatureActual } from '../../src/domain/features/plan.js';
import type { FeatureId } from '../../src/domain/schemas/features.js';
import { inputErrorOn } from './helpers.js';

/** A cluster with exactly these features on. */
const on = (...ids: FeatureId[]): Partial<Record<FeatureId, FeatureActual>> =>
  Object.fromEntries(ids.map((id) => [id, { enabled: true }]));
const created = on(
  'pod-identity-agent',
  'cert-manager',
  'health-monitoring-agent',
  'device-plugins',
  'training-operator',
  's3-csi-driver',
);
const installed = (plan: ReturnType<typeof planFeatures>) => plan.install.map((i) => `${i.feature}:${i.reason}`);

describe('planFeatures', () => {
  it('enabling the inference operator alone installs what it needs first, with defaults, naming who needs them', () => {
    const plan = planFeatures(created, { 'inference-operator': true });
    assert.deepEqual(installed(plan), [
      'metrics-server:needed',
      'fsx-csi-driver:needed',
      'inference-operator:requested',
    ]);
    assert.deepEqual(plan.install[0]!.neededBy, ['inference-operator']);
    assert.deepEqual(plan.install[0]!.config, {});
    assert.deepEqual([plan.remove, plan.unchanged, plan.refused], [[], [], []]);
    // On a bare cluster, every need comes in, needs of needs before them.
    assert.deepEqual(
      installed(planFeatures({}, { 'inference-operator': true })).map((s) => s.split(':')[0]),
      ['pod-identity-agent', 'cert-manager', 'metrics-server', 's3-csi-driver', 'fsx-csi-driver', 'inference-operator'],
    );
  });

  it('"on" for a feature that is on but configured as InstantStart would not configure it now reconfigures it', () => {
    const outdated =
      'configuration out of date (executionRoleArn names instantstart-demo-inference-exec, not SageMakerHyperPodInference-demo-abc123)';
    const cluster = {
      ...created,
      ...on('metrics-server', 'fsx-csi-driver'),
      'inference-operator': { enabled: true, config: { version: 'v1.0.0-eksbuild.1' }, outdated },
    };
    const plan = planFeatures(cluster, { 'inference-operator': true });
    assert.deepEqual(installed(plan), ['inference-operator:reconfigure']);
    assert.equal(plan.install[0]!.outdated, outdated);
    assert.deepEqual(plan.install[0]!.config, { version: 'v1.0.0-eksbuild.1' });
    // The same feature configured as it should be: nothing to do.
    assert.ok(
      isNoOp(
        planFeatures(
          { ...cluster, 'inference-operator': { enabled: true, config: { version: 'v1.0.0-eksbuild.1' } } },
          { 'inference-operator': true },
        ),
      ),
    );
  });

  it('refuses to disable what an enabled feature still needs, naming both, and removes nothing for it', () => {
    const withInference = { ...created, ...on('metrics-server', 'fsx-csi-driver', 'inference-operator') };
    const plan = planFeatures(withInference, { 'cert-manager': false });
    assert.deepEqual(plan.refused, [
      { feature: 'cert-manager', neededBy: ['training-operator', 'inference-operator'] },
    ]);
    assert.deepEqual(plan.remove, []);
    assert.deepEqual(refusalProblems(plan), [
      {
        path: 'cert-manager',
        message:
          'cannot be turned off while training-operator, inference-operator need it; turn those off first or in the same request',
      },
    ]);
    // A need of a need is protected too: the pod identity agent stays for the S3 driver the inference operator needs.
    assert.deepEqual(planFeatures(withInference, { 'pod-identity-agent': false, 'training-operator': false }).refused, [
      { feature: 'pod-identity-agent', neededBy: ['s3-csi-driver', 'inference-operator'] },
    ]);
  });

  it('turns off a feature together with what needs it, dependents first', () => {
    const plan = planFeatures(created, { 'cert-manager': false, 'training-operator': false });
    assert.deepEqual(plan.remove, ['training-operator', 'cert-manager']);
    assert.deepEqual(plan.refused, []);
  });

  it('a refused removal keeps what it needs: refusals propagate down the graph', () => {
    // s3-csi-driver is refused (the inference operator needs it), so the agent it needs is refused too.
    const cluster = on(
      'pod-identity-agent',
      'cert-manager',
      'metrics-server',
      's3-csi-driver',
      'fsx-csi-driver',
      'inference-operator',
    );
    const plan = planFeatures(cluster, { 's3-csi-driver': false, 'pod-identity-agent': false });
    assert.deepEqual(
      plan.refused.map((r) => r.feature),
      ['pod-identity-agent', 's3-csi-driver'],
    );
    assert.deepEqual(plan.remove, []);
  });

  it('refuses off for a feature the same request would install as a need', () => {
    const plan = planFeatures({}, { 'training-operator': true, 'cert-manager': false });
    assert.deepEqual(plan.refused, [{ feature: 'cert-manager', neededBy: ['training-operator'] }]);
    assert.deepEqual(plan.unchanged, []);
  });

  it('is a no-op when the cluster already matches every key sent', () => {
    const plan = planFeatures(created, { 'training-operator': true, 'kuberay-operator': false });
    assert.deepEqual(plan, {
      install: [],
      remove: [],
      unchanged: ['training-operator', 'kuberay-operator'],
      refused: [],
    });
    assert.ok(isNoOp(plan));
  });

  it('touches only the keys sent: other features, even ones out of line, are left alone', () => {
    // kuberay is on and metrics-server off; a change of tiered checkpointing says nothing about them.
    const plan = planFeatures(
      { ...created, ...on('kuberay-operator') },
      { 'tiered-checkpointing': { instanceMemoryAllocationPercentage: 30 } },
    );
    assert.deepEqual(installed(plan), ['tiered-checkpointing:requested']);
    assert.deepEqual(plan.install[0]!.config, { instanceMemoryAllocationPercentage: 30 });
  });

  it('reconfigures an enabled feature only when a setting sent differs; settings not sent are kept', () => {
    const cluster = {
      'tiered-checkpointing': {
        enabled: true,
        config: { instanceMemoryAllocationPercentage: 30, namespace: 'team-a' },
      },
    };
    assert.ok(isNoOp(planFeatures(cluster, { 'tiered-checkpointing': { instanceMemoryAllocationPercentage: 30 } })));
    assert.ok(isNoOp(planFeatures(cluster, { 'tiered-checkpointing': true })));
    const plan = planFeatures(cluster, { 'tiered-checkpointing': { instanceMemoryAllocationPercentage: 50 } });
    assert.deepEqual(plan.install, [
      {
        feature: 'tiered-checkpointing',
        config: { instanceMemoryAllocationPercentage: 50, namespace: 'team-a' },
        reason: 'reconfigure',
        neededBy: [],
      },
    ]);
  });

  it("refuses settings a feature cannot run with, naming the feature's field", () => {
    assert.throws(
      () => planFeatures({}, { autoscaling: true }),
      inputErrorOn('autoscaling.instanceGroups', /autoscaling\.instanceGroups/),
    );
    assert.throws(
      () => planFeatures({}, { 'tiered-checkpointing': { instanceMemoryAllocationPercentage: 101 } }),
      inputErrorOn('tiered-checkpointing.instanceMemoryAllocationPercentage', /at most 100/),
    );
    // Enabled already with groups: `true` keeps them.
    assert.ok(
      isNoOp(
        planFeatures({ autoscaling: { enabled: true, config: { instanceGroups: ['a'] } } }, { autoscaling: true }),
      ),
    );
  });

  it("refuses keys that are not toggleable features, without reading them off an object's prototype", () => {
    assert.throws(
      () => planFeatures({}, JSON.parse('{"__proto__": true}')),
      inputErrorOn('__proto__', /is not a feature/),
    );
    assert.throws(
      () => planFeatures({}, JSON.parse('{"toString": true}')),
      inputErrorOn('toString', /is not a feature/),
    );
    assert.throws(
      () => planFeatures({}, { 'device-plugins': false }),
      inputErrorOn('device-plugins', /part of every HyperPod cluster/),
    );
    // An actual-state map with a prototype-named key reads as nothing on.
    assert.deepEqual(
      installed(planFeatures(JSON.parse('{"__proto__": {"enabled": true}}'), { 'kuberay-operator': true })),
      ['kuberay-operator:requested'],
    );
  });

  it('never removes a feature another install provides: off is refused naming who, on is already as asked', () => {
    const providedBy =
      'an existing KubeRay v1.5.1 (operator Deployment default/kuberay-operator, Helm release kuberay-operator)';
    const actual = { ...created, 'kuberay-operator': { enabled: true, providedBy } };
    const off = planFeatures(actual, { 'kuberay-operator': false, 'training-operator': false });
    assert.deepEqual(off.refused, [{ feature: 'kuberay-operator', neededBy: [], providedBy }]);
    assert.deepEqual(off.remove, ['training-operator']);
    assert.deepEqual(refusalProblems(off), [
      {
        path: 'kuberay-operator',
        message: `cannot be turned off: it is provided by ${providedBy}, which InstantStart did not install and leaves in charge; remove it with the tool that installed it`,
      },
    ]);
    const onAgain = planFeatures(actual, { 'kuberay-operator': true });
    assert.deepEqual([onAgain.install, onAgain.unchanged], [[], ['kuberay-operator']]);
    assert.equal(isNoOp(onAgain), true);
  });

  it('never turns off a feature objects still use: refused naming them, and what it needs stays on with it', () => {
    const inUseBy = ['InferenceEndpointConfig default/m', 'Service default/web (load balancer k8s-default-web-1.elb)'];
    const actual = { ...on('cert-manager', 'metrics-server'), 'inference-operator': { enabled: true, inUseBy } };
    const off = planFeatures(actual, { 'inference-operator': false, 'cert-manager': false });
    assert.deepEqual(off.refused, [
      { feature: 'cert-manager', neededBy: ['inference-operator'] },
      { feature: 'inference-operator', neededBy: [], inUseBy },
    ]);
    assert.deepEqual(off.remove, []);
    assert.match(
      refusalProblems(off).find((p) => p.path === 'inference-operator')!.message,
      /^cannot be turned off while InferenceEndpointConfig default\/m, Service default\/web .* use it: without it nothing deletes their load balancers/,
    );
    // Nothing uses it: off as usual.
    const free = planFeatures(
      { ...actual, 'inference-operator': { enabled: true, inUseBy: [] } },
      { 'inference-operator': false },
    );
    assert.deepEqual(free.remove, ['inference-operator']);
  });

  it('turning on a feature whose own install lags what InstantStart pins reconfigures it (the upgrade)', () => {
    const actual = {
      ...created,
      'kuberay-operator': { enabled: true, outdated: 'CRD rayjobs.ray.io does not serve v1alpha1' },
    };
    assert.deepEqual(installed(planFeatures(actual, { 'kuberay-operator': true })), ['kuberay-operator:reconfigure']);
    assert.deepEqual(
      planFeatures(actual, { 'kuberay-operator': false }).remove,
      ['kuberay-operator'],
      'ours: removed when asked',
    );
  });
});
