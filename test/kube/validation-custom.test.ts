import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { defaultObject, pruneObject, unknownFields, validateObject } from '../../sandbox/kube/api/validation.js';
import type { StatusCause } from '../../sandbox/kube/errors.js';
import { builtinType } from '../../sandbox/kube/resources.js';
import type { KubeObject } from '../../sandbox/kube/types.js';
import { clusterWithCrd, cronTabCrd } from './discovery-fixtures.js';

/** Custom resources against their CRD's openAPIV3Schema, and pruning of what it does not declare. */

const cluster = clusterWithCrd();
const type = cluster.findType('stable.example.com', 'v1', 'crontabs')!;
const cronTab = (spec: Record<string, unknown>, extra: Record<string, unknown> = {}): KubeObject => ({
  apiVersion: 'stable.example.com/v1',
  kind: 'CronTab',
  metadata: { name: 'nightly', namespace: 'default' },
  spec,
  ...extra,
});
const messages = (causes: StatusCause[]) => causes.map((c) => `${c.field}: ${c.message}`);

describe('validation of custom resources', () => {
  it('accepts an object its schema allows', () => {
    const ok = cronTab({
      cronSpec: '0 3 * * *',
      replicas: 3,
      size: 'small',
      port: 'http',
      note: null,
      tags: ['a', 'b'],
      steps: [{ name: 'fetch', seconds: 1.5 }],
      extra: { anything: [1, { deep: true }] },
      env: { A: '1' },
    });
    assert.deepEqual(validateObject(cluster, type, ok), []);
  });

  it('words type errors as the API server does', () => {
    const causes = validateObject(
      cluster,
      type,
      cronTab({ cronSpec: '0 3 * * *', replicas: 'three', port: true, steps: 'fetch' }),
    );
    assert.deepEqual(messages(causes), [
      'spec.replicas: Invalid value: "string": spec.replicas in body must be of type integer: "string"',
      'spec.port: Invalid value: "boolean": spec.port in body must be of type integer,string: "boolean"',
      'spec.steps: Invalid value: "string": spec.steps in body must be of type array: "string"',
    ]);
    assert.ok(causes.every((c) => c.reason === 'FieldValueInvalid'));
  });

  it('reports required fields, enums, bounds, patterns and lengths, nested in arrays too', () => {
    const causes = validateObject(
      cluster,
      type,
      cronTab({
        replicas: 11,
        size: 'huge',
        tags: ['a', 'a'],
        steps: [{ seconds: 1 }, { name: 'much-too-long' }],
        env: { A: 1 },
      }),
    );
    assert.deepEqual(messages(causes), [
      'spec.cronSpec: Required value',
      'spec.replicas: Invalid value: 11: spec.replicas in body should be less than or equal to 10',
      'spec.size: Unsupported value: "huge": supported values: "small", "large"',
      'spec.tags[1]: Duplicate value: "a"',
      'spec.steps[0].name: Required value',
      'spec.steps[1].name: Too long: may not be more than 8 bytes',
      'spec.env.A: Invalid value: "integer": spec.env.A in body must be of type string: "integer"',
    ]);
    assert.deepEqual(messages(validateObject(cluster, type, cronTab({ cronSpec: 'daily', replicas: 0 }))), [
      'spec.cronSpec: Invalid value: "daily": spec.cronSpec in body should match \'^(\\S+ ){4}\\S+$\'',
      'spec.replicas: Invalid value: 0: spec.replicas in body should be greater than or equal to 1',
    ]);
  });

  it('checks the metadata of custom resources like any object', () => {
    const causes = validateObject(cluster, type, {
      ...cronTab({ cronSpec: '0 3 * * *' }),
      metadata: { name: 'Nightly', namespace: 'default' },
    });
    assert.equal(causes.length, 1);
    assert.equal(causes[0]!.field, 'metadata.name');
    assert.match(causes[0]!.message!, /a lowercase RFC 1123 subdomain/);
  });

  it('prunes fields the schema does not declare, keeping preserved and additional properties', () => {
    const obj = cronTab(
      {
        cronSpec: '0 3 * * *',
        typo: 1,
        steps: [{ name: 'a', colour: 'red' }],
        extra: { kept: { all: true } },
        env: { B: 'x' },
        note: null,
        replicas: null,
      },
      { status: { replicas: 1, phase: 'Running' }, topLevel: 'x' },
    );
    obj.metadata.labels = { app: 'cron' };
    (obj.metadata as Record<string, unknown>).bogus = 1;
    assert.deepEqual(unknownFields(cluster, type, obj).sort(), [
      'metadata.bogus',
      'spec.steps[0].colour',
      'spec.typo',
      'status.phase',
      'topLevel',
    ]);
    const pruned = pruneObject(cluster, type, obj);
    assert.deepEqual(pruned, {
      apiVersion: 'stable.example.com/v1',
      kind: 'CronTab',
      metadata: { name: 'nightly', namespace: 'default', labels: { app: 'cron' } },
      spec: {
        cronSpec: '0 3 * * *',
        steps: [{ name: 'a' }],
        extra: { kept: { all: true } },
        env: { B: 'x' },
        note: null,
      },
      status: { replicas: 1 },
    });
    assert.equal((obj.spec as Record<string, unknown>).typo, 1, 'the original is left alone');
  });

  it('prunes built-in kinds by their generated schema too', () => {
    const deployments = builtinType('apps', 'deployments');
    const obj: KubeObject = {
      apiVersion: 'apps/v1',
      kind: 'Deployment',
      metadata: { name: 'web' },
      spec: {
        replicas: null,
        selector: { matchLabels: { app: 'web' } },
        template: {
          metadata: { labels: { app: 'web' } },
          spec: {
            containers: [{ name: 'web', image: 'nginx', imagePullPolice: 'Always', resources: { limits: { cpu: 2 } } }],
          },
        },
      },
    };
    assert.deepEqual(unknownFields(cluster, deployments, obj), ['spec.template.spec.containers[0].imagePullPolice']);
    const spec = pruneObject(cluster, deployments, obj).spec as {
      replicas?: number;
      template: { spec: { containers: Array<Record<string, unknown>> } };
    };
    assert.equal('replicas' in spec, false, 'a null field is dropped, as the server decodes it');
    assert.deepEqual(spec.template.spec.containers[0], {
      name: 'web',
      image: 'nginx',
      resources: { limits: { cpu: 2 } },
    });
  });
});

describe('defaulting of custom resources', () => {
  it('fills the defaults of the CRD schema where fields are absent, inside arrays and defaulted objects too', () => {
    const version = {
      name: 'v1',
      served: true,
      storage: true,
      schema: {
        openAPIV3Schema: {
          type: 'object',
          properties: {
            spec: {
              type: 'object',
              default: {},
              properties: {
                replicas: { type: 'integer', default: 1 },
                policy: {
                  type: 'object',
                  default: { restart: 'Never' },
                  properties: { restart: { type: 'string' }, backoff: { type: 'integer', default: 3 } },
                },
                workers: {
                  type: 'array',
                  items: {
                    type: 'object',
                    properties: { name: { type: 'string' }, gpus: { type: 'integer', default: 8 } },
                  },
                },
              },
            },
          },
        },
      },
    };
    const withDefaults = clusterWithCrd(cronTabCrd({ versions: [version] }));
    const t = withDefaults.findType('stable.example.com', 'v1', 'crontabs')!;
    const filled = defaultObject(
      withDefaults,
      t,
      cronTab({ replicas: null, workers: [{ name: 'a' }, { name: 'b', gpus: 4 }] }),
    );
    assert.deepEqual(filled.spec, {
      replicas: 1,
      policy: { restart: 'Never', backoff: 3 },
      workers: [
        { name: 'a', gpus: 8 },
        { name: 'b', gpus: 4 },
      ],
    });
    const empty = defaultObject(withDefaults, t, {
      apiVersion: 'stable.example.com/v1',
      kind: 'CronTab',
      metadata: { name: 'x' },
    });
    assert.deepEqual(empty.spec, { replicas: 1, policy: { restart: 'Never', backoff: 3 } });
  });
});
