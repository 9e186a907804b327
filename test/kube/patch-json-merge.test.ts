import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { applyJsonPatch, applyMergePatch } from '../../sandbox/kube/patch/index.js';
import { container, containers, deployment, kubeError, podSpec, type Any } from './patch-fixtures.js';

describe('JSON patch (RFC 6902)', () => {
  it('applies add, replace, remove, move, copy and test in order, appending with "-"', () => {
    const patched = applyJsonPatch(deployment(), [
      { op: 'test', path: '/spec/replicas', value: 2 },
      { op: 'replace', path: '/spec/replicas', value: 5 },
      { op: 'add', path: '/spec/template/spec/containers/0/env/-', value: { name: 'DEBUG', value: '1' } },
      { op: 'remove', path: '/spec/template/spec/tolerations' },
      { op: 'copy', from: '/metadata/labels/app', path: '/metadata/labels/component' },
      { op: 'move', from: '/spec/template/spec/containers/1', path: '/spec/template/spec/containers/0' },
    ]);
    assert.equal((patched.spec as Any).replicas, 5);
    assert.deepEqual(container(patched, 'web').env, [
      { name: 'MODE', value: 'prod' },
      { name: 'DEBUG', value: '1' },
    ]);
    assert.equal(podSpec(patched).tolerations, undefined);
    assert.deepEqual(patched.metadata.labels, { app: 'web', component: 'web' });
    assert.deepEqual(
      containers(patched).map((c) => c.name),
      ['log-shipper', 'web'],
    );
  });

  it('unescapes ~1 and ~0 in paths (annotation keys with slashes and tildes)', () => {
    const patched = applyJsonPatch(deployment(), [
      { op: 'add', path: '/metadata/annotations', value: {} },
      { op: 'add', path: '/metadata/annotations/example.com~1owner', value: 'team-a' },
      { op: 'add', path: '/metadata/annotations/odd~0key', value: 'x' },
    ]);
    assert.deepEqual(patched.metadata.annotations, { 'example.com/owner': 'team-a', 'odd~key': 'x' });
  });

  it('refuses a patch that is not a list of operations, or an unknown op, with 400', () => {
    assert.equal(
      kubeError(() => applyJsonPatch(deployment(), { op: 'replace', path: '/spec/replicas', value: 1 }), 400).reason,
      'BadRequest',
    );
    kubeError(() => applyJsonPatch(deployment(), [{ op: 'frobnicate', path: '/spec' }]), 400);
    kubeError(() => applyJsonPatch(deployment(), [{ op: 'add', path: 'spec/replicas', value: 1 }]), 400);
    kubeError(() => applyJsonPatch(deployment(), [{ op: 'replace', path: '/spec/replicas' }]), 400);
  });

  it('answers 422 Invalid, naming the reason, when a test fails or a path is missing, and leaves the object alone', () => {
    const original = deployment();
    const failedTest = kubeError(
      () =>
        applyJsonPatch(original, [
          { op: 'replace', path: '/spec/replicas', value: 9 },
          { op: 'test', path: '/spec/replicas', value: 3 },
        ]),
      422,
    );
    assert.equal(failedTest.reason, 'Invalid');
    assert.equal(
      failedTest.message,
      'the server rejected our request due to an error in our request: testing value /spec/replicas failed: test failed',
    );
    const missing = kubeError(() => applyJsonPatch(original, [{ op: 'remove', path: '/metadata/finalizers/0' }]), 422);
    assert.match(missing.message, /remove operation does not apply: doc is missing path: "\/metadata\/finalizers\/0"/);
    kubeError(
      () => applyJsonPatch(original, [{ op: 'add', path: '/spec/template/spec/containers/7', value: {} }]),
      422,
    );
    assert.equal((original.spec as Any).replicas, 2, 'the input is never mutated');
  });

  it('never mutates its input, even when it succeeds', () => {
    const original = deployment();
    const before = JSON.stringify(original);
    applyJsonPatch(original, [
      { op: 'add', path: '/metadata/labels/tier', value: 'frontend' },
      { op: 'remove', path: '/spec/template/spec/containers/1' },
    ]);
    assert.equal(JSON.stringify(original), before);
  });
});

describe('JSON merge patch (RFC 7386)', () => {
  it('merges objects recursively, deletes with null and replaces lists whole', () => {
    const original = deployment();
    const patched = applyMergePatch(original, {
      metadata: { labels: { app: null, tier: 'frontend' }, annotations: { note: 'hi' } },
      spec: {
        replicas: 4,
        strategy: { rollingUpdate: null, type: 'Recreate' },
        template: { spec: { containers: [{ name: 'web', image: 'nginx:1.28' }] } },
      },
    });
    assert.deepEqual(patched.metadata.labels, { tier: 'frontend' });
    assert.deepEqual(patched.metadata.annotations, { note: 'hi' });
    assert.deepEqual((patched.spec as Any).strategy, { type: 'Recreate' });
    assert.deepEqual(
      containers(patched),
      [{ name: 'web', image: 'nginx:1.28' }],
      'a list in a merge patch replaces the whole list',
    );
    assert.deepEqual(
      (patched.spec as Any).selector,
      { matchLabels: { app: 'web' } },
      'what the patch does not name stays',
    );
    assert.equal(containers(original).length, 2, 'the input is never mutated');
  });

  it('refuses a patch that is not a JSON object with 400', () => {
    kubeError(() => applyMergePatch(deployment(), [{ op: 'add' }]), 400);
    kubeError(() => applyMergePatch(deployment(), 'replicas=3'), 400);
  });
});
