import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { Quantity } from '../../sandbox/kube/api/schema/cel-quantity.js';
import { startApi, type TestApi } from './api-harness.js';

/**
 * CRDs' `x-kubernetes-validations` in the sandbox API server: rules evaluated with the API server's
 * wording, transition rules only on update, ratcheting of unchanged values, no CEL after a blocking
 * schema error, the Kubernetes library functions rules use, and CRDs whose rules do not compile refused.
 */

const rule = (r: string, extra: Record<string, unknown> = {}) => ({ rule: r, ...extra });

function widgetCrd(specRules: unknown[] = [], fields: Record<string, unknown> = {}) {
  return {
    apiVersion: 'apiextensions.k8s.io/v1',
    kind: 'CustomResourceDefinition',
    metadata: { name: 'widgets.example.com' },
    spec: {
      group: 'example.com',
      scope: 'Namespaced',
      names: { plural: 'widgets', singular: 'widget', kind: 'Widget', listKind: 'WidgetList' },
      versions: [
        {
          name: 'v1',
          served: true,
          storage: true,
          schema: {
            openAPIV3Schema: {
              type: 'object',
              properties: {
                spec: {
                  type: 'object',
                  'x-kubernetes-validations': specRules,
                  properties: {
                    mode: { type: 'string', enum: ['a', 'b'] },
                    owner: {
                      type: 'string',
                      'x-kubernetes-validations': [rule('self == oldSelf', { message: 'owner is immutable' })],
                    },
                    min: { type: 'integer' },
                    max: { type: 'integer' },
                    size: {
                      type: 'string',
                      'x-kubernetes-validations': [
                        rule('isQuantity(self) && quantity(self).isLessThan(quantity("2Gi"))', {
                          message: 'must be a quantity under 2Gi',
                        }),
                      ],
                    },
                    labels: {
                      type: 'object',
                      additionalProperties: { type: 'string' },
                      'x-kubernetes-validations': [
                        rule('self.all(k, !k.find("^([^/]+)").endsWith("kubernetes.io"))', {
                          message: 'label domain "kubernetes.io" is restricted',
                        }),
                      ],
                    },
                    items: {
                      type: 'array',
                      'x-kubernetes-list-type': 'map',
                      'x-kubernetes-list-map-keys': ['name'],
                      items: {
                        type: 'object',
                        required: ['name'],
                        properties: {
                          name: { type: 'string' },
                          kind: {
                            type: 'string',
                            'x-kubernetes-validations': [
                              rule('self == oldSelf', { message: 'kind is immutable', reason: 'FieldValueForbidden' }),
                            ],
                          },
                        },
                      },
                    },
                    ...fields,
                  },
                },
              },
            },
          },
        },
      ],
    },
  };
}

const path = '/apis/example.com/v1/namespaces/default/widgets';
const widget = (spec: Record<string, unknown>, name = 'w1') => ({
  apiVersion: 'example.com/v1',
  kind: 'Widget',
  metadata: { name },
  spec,
});
const causes = (body: any) => (body.details?.causes ?? []).map((c: any) => `${c.field}: ${c.message}`);

describe('CEL validation rules of custom resources', () => {
  let api: TestApi;
  before(async () => {
    api = await startApi();
    await api.call('POST', '/api/v1/namespaces', { body: { metadata: { name: 'default' } } });
    const crd = await api.call('POST', '/apis/apiextensions.k8s.io/v1/customresourcedefinitions', {
      body: widgetCrd([
        rule('!has(self.min) || !has(self.max) || self.min <= self.max', { message: 'min must not exceed max' }),
        rule('!has(self.mode) || self.mode != "b" || has(self.owner)', {
          messageExpression: '"mode " + self.mode + " needs an owner"',
          fieldPath: '.owner',
        }),
        rule('!has(self.max) || self.max < 100'),
      ]),
    });
    assert.equal(crd.status, 201, crd.text);
  });
  after(() => api.close());

  it("refuses a failed rule in the API server's words: path, schema type, message", async () => {
    const r = await api.call('POST', path, { body: widget({ min: 5, max: 2 }) });
    assert.equal(r.status, 422);
    assert.equal(
      r.body.message,
      'Widget.example.com "w1" is invalid: spec: Invalid value: "object": min must not exceed max',
    );
    assert.deepEqual(causes(r.body), ['spec: Invalid value: "object": min must not exceed max']);
  });

  it('uses messageExpression and fieldPath, and "failed rule" when a rule has no message', async () => {
    const r = await api.call('POST', path, { body: widget({ mode: 'b', max: 150 }) });
    assert.deepEqual(
      causes(r.body).sort(),
      [
        'spec.owner: Invalid value: "object": mode b needs an owner',
        'spec: Invalid value: "object": failed rule: !has(self.max) || self.max < 100',
      ].sort(),
    );
  });

  it('runs the Kubernetes regex and quantity libraries', async () => {
    const r = await api.call('POST', path, {
      body: widget({ labels: { 'node.kubernetes.io/x': 'y', team: 'a' }, size: '3Gi' }),
    });
    assert.deepEqual(
      causes(r.body).sort(),
      [
        'spec.labels: Invalid value: "object": label domain "kubernetes.io" is restricted',
        'spec.size: Invalid value: "string": must be a quantity under 2Gi',
      ].sort(),
    );
    const ok = await api.call('POST', path, {
      body: widget({ labels: { 'example.com/team': 'a' }, size: '1536Mi', min: 1, max: 2 }, 'w-ok'),
    });
    assert.equal(ok.status, 201, ok.text);
  });

  it('evaluates transition rules only on update, against the old value (map-list items by key)', async () => {
    const created = await api.call('POST', path, {
      body: widget({ owner: 'ann', items: [{ name: 'a', kind: 'x' }] }, 'w2'),
    });
    assert.equal(created.status, 201, created.text);
    const changed = await api.call('PUT', `${path}/w2`, {
      body: {
        ...created.body,
        spec: {
          owner: 'bob',
          items: [
            { name: 'a', kind: 'y' },
            { name: 'b', kind: 'z' },
          ],
        },
      },
    });
    assert.equal(changed.status, 422);
    assert.deepEqual(
      causes(changed.body).sort(),
      [
        'spec.items[0].kind: Forbidden: kind is immutable',
        'spec.owner: Invalid value: "string": owner is immutable',
      ].sort(),
    );
    // A new item (no old value at its key) is not held to the transition rule.
    const added = await api.call('PUT', `${path}/w2`, {
      body: {
        ...created.body,
        spec: {
          owner: 'ann',
          items: [
            { name: 'a', kind: 'x' },
            { name: 'b', kind: 'z' },
          ],
        },
      },
    });
    assert.equal(added.status, 200, added.text);
  });

  it('runs no rule after a blocking schema error, and says so', async () => {
    const r = await api.call('POST', path, { body: widget({ mode: 'c', min: 5, max: 2 }) });
    assert.deepEqual(causes(r.body), [
      'spec.mode: Unsupported value: "c": supported values: "a", "b"',
      '<nil>: Invalid value: "null": some validation rules were not checked because the object was invalid; correct the existing errors to complete validation',
    ]);
  });

  it('ratchets: an update that leaves an invalid value as it was is not refused for it', async () => {
    // Stored before the rule existed (written straight to the store), then updated elsewhere.
    const type = api.cluster.findType('example.com', 'v1', 'widgets')!;
    api.cluster.objects.create(type, {
      ...widget({ min: 9, max: 1 }, 'w3'),
      metadata: { name: 'w3', namespace: 'default' },
    });
    const current = await api.call('GET', `${path}/w3`);
    const r = await api.call('PUT', `${path}/w3`, {
      body: { ...current.body, metadata: { ...current.body.metadata, labels: { touched: 'yes' } } },
    });
    assert.equal(r.status, 200, r.text);
    const worse = await api.call('PUT', `${path}/w3`, { body: { ...r.body, spec: { min: 10, max: 1 } } });
    assert.equal(worse.status, 422);
  });

  it('refuses a CRD whose rule does not compile, naming the rule', async () => {
    const bad = widgetCrd([rule('self.min.frobnicate()')]);
    bad.metadata.name = 'gadgets.example.com';
    Object.assign(bad.spec.names, { plural: 'gadgets', singular: 'gadget', kind: 'Gadget', listKind: 'GadgetList' });
    const r = await api.call('POST', '/apis/apiextensions.k8s.io/v1/customresourcedefinitions', { body: bad });
    assert.equal(r.status, 422, r.text);
    const [cause] = causes(r.body);
    assert.match(
      cause,
      /^spec\.versions\[0\]\.schema\.openAPIV3Schema\.properties\[spec\]\.x-kubernetes-validations\[0\]\.rule: Invalid value: apiextensions\.ValidationRule\{Rule:"self\.min\.frobnicate\(\)", Message:"", .*\}: compilation failed: /,
    );
    assert.match(cause, /frobnicate/);
    const notBool = widgetCrd([rule('self.min + 1')]);
    Object.assign(notBool.metadata, { name: 'gizmos.example.com' });
    Object.assign(notBool.spec.names, { plural: 'gizmos', singular: 'gizmo', kind: 'Gizmo', listKind: 'GizmoList' });
    const r2 = await api.call('POST', '/apis/apiextensions.k8s.io/v1/customresourcedefinitions', { body: notBool });
    assert.equal(r2.status, 422);
    assert.match(causes(r2.body)[0], /compilation failed: cel expression must evaluate to a bool/);
  });

  it('refuses objects of a CRD stored around the API (a sandbox controller) whose rule does not compile, rather than skip the rule', async () => {
    const crd = widgetCrd([rule('self.min.frobnicate()')]) as any;
    Object.assign(crd.metadata, { name: 'doodads.example.com' });
    Object.assign(crd.spec.names, { plural: 'doodads', singular: 'doodad', kind: 'Doodad', listKind: 'DoodadList' });
    api.cluster.objects.create(api.cluster.findType('apiextensions.k8s.io', 'v1', 'customresourcedefinitions')!, {
      ...crd,
      status: { conditions: [{ type: 'Established', status: 'True' }] },
    });
    const r = await api.call('POST', '/apis/example.com/v1/namespaces/default/doodads', {
      body: { apiVersion: 'example.com/v1', kind: 'Doodad', metadata: { name: 'd' }, spec: { min: 1 } },
    });
    assert.equal(r.status, 422, r.text);
    assert.match(
      causes(r.body)[0],
      /^spec: Invalid value: "object": rule compilation failed: .*frobnicate.*: self\.min\.frobnicate\(\)$/,
    );
  });

  it('refuses a CRD update that drops a version objects are stored at', async () => {
    const crd = (await api.call('GET', '/apis/apiextensions.k8s.io/v1/customresourcedefinitions/widgets.example.com'))
      .body;
    const two = structuredClone(crd);
    two.spec.versions = [
      { ...crd.spec.versions[0], name: 'v2', storage: true },
      { ...crd.spec.versions[0], storage: false },
    ];
    const moved = await api.call('PUT', '/apis/apiextensions.k8s.io/v1/customresourcedefinitions/widgets.example.com', {
      body: two,
    });
    assert.equal(moved.status, 200, moved.text);
    assert.deepEqual(moved.body.status.storedVersions, ['v1', 'v2']);
    const dropped = { ...moved.body, spec: { ...moved.body.spec, versions: [moved.body.spec.versions[0]] } };
    const r = await api.call('PUT', '/apis/apiextensions.k8s.io/v1/customresourcedefinitions/widgets.example.com', {
      body: dropped,
    });
    assert.equal(r.status, 422);
    assert.deepEqual(causes(r.body), ['status.storedVersions[0]: Invalid value: "v1": must appear in spec.versions']);
  });
});

describe('quantities for the CEL quantity library', () => {
  it('parses as apimachinery does and compares exactly', () => {
    const q = (s: string) => Quantity.parse(s)!;
    assert.equal(q('1Gi').compareTo(q('1024Mi')), 0n);
    assert.equal(q('1.5').compareTo(q('1500m')), 0n);
    assert.equal(q('1e3').compareTo(q('1k')), 0n);
    assert.equal(q('100m').isInteger(), false);
    assert.equal(q('2k').asInteger(), 2000n);
    assert.equal(q('-1').sign(), -1n);
    assert.equal(Quantity.parse('1.2.3'), undefined);
    assert.equal(Quantity.parse('5 Gi'), undefined);
  });
});
