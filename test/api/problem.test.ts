import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { INVALID_JSON, jsonRpcError, problemFor } from '../../src/api/problem.js';
import {
  CloudError,
  ConflictError,
  ForbiddenError,
  InputError,
  NotFoundError,
  OperationConflictError,
  PreconditionError,
  StoreUnavailableError,
  UnauthorizedError,
  UnavailableError,
  cloudTimeout,
} from '../../src/domain/errors.js';
import {
  KubeApiUnavailable,
  KubeConflict,
  KubeExpired,
  KubeForbidden,
  KubeKindNotServed,
  KubeNotFound,
} from '../../src/domain/kube/errors.js';

const TYPE = 'https://instantstart.dev/problems/';
const node = { cluster: 'demo-eks', kind: 'Node', name: 'hyperpod-i-1' };

describe('problemFor: every error to problem+json in one mapping', () => {
  it('keeps the fields at fault, the cloud code, the remedy and the instance, in this order', () => {
    const p = problemFor(
      new PreconditionError({
        message: 'quota too low',
        problems: [{ path: 'instanceCount', message: 'exceeds the quota' }],
        remedy: 'Ask for more.',
      }),
      '/api/v1/clusters',
    );
    assert.deepEqual(p, {
      type: `${TYPE}precondition`,
      title: 'Precondition failed',
      status: 422,
      detail: 'quota too low',
      errors: [{ path: 'instanceCount', message: 'exceeds the quota' }],
      remedy: 'Ask for more.',
      instance: '/api/v1/clusters',
    });
    assert.deepEqual(Object.keys(p), ['type', 'title', 'status', 'detail', 'errors', 'remedy', 'instance']);
  });

  it("answers each kind with its status and title; a conflict's field becomes its one field problem", () => {
    const cases: Array<[Error, number, string]> = [
      [InputError.field('name', 'must not be empty'), 400, 'Invalid request'],
      [new NotFoundError({ resource: 'cluster', id: 'x' }), 404, 'Not found'],
      [new ConflictError({ message: 'taken', field: 'name' }), 409, 'Conflict'],
      [new UnauthorizedError(), 401, 'Unauthorized'],
      [new ForbiddenError({ message: 'cross-site' }), 403, 'Forbidden'],
      [new UnavailableError({ message: 'no credentials', code: 'NoCredentials' }), 503, 'Service unavailable'],
    ];
    for (const [err, status, title] of cases) {
      const p = problemFor(err);
      assert.equal(p.status, status, err.name);
      assert.equal(p.title, title, err.name);
    }
    assert.deepEqual(problemFor(cases[2]![0]).errors, [{ path: 'name', message: 'taken' }]);
    assert.equal(problemFor(cases[1]![0]).detail, "cluster 'x' does not exist.");
    assert.equal(problemFor(cases[0]![0]).errors?.[0]?.path, 'name');
  });

  it("maps the cloud's answer: its 4xx is the caller's (422), throttling 503, no answer 504, else 502; code kept", () => {
    const cloud = (httpStatus?: number, retryable = false) =>
      new CloudError({ service: 'eks', operation: 'CreateCluster', code: 'X', message: 'm', httpStatus, retryable });
    assert.equal(problemFor(cloud(400)).status, 422);
    assert.equal(problemFor(cloud(429, true)).status, 503);
    assert.equal(problemFor(cloud(500, true)).status, 502);
    assert.equal(problemFor(cloud()).status, 502);
    assert.equal(problemFor(cloud(400)).code, 'X');
    assert.equal(problemFor(cloudTimeout('eks', 'DescribeCluster', 30)).status, 504);
    const gone = problemFor(new KubeApiUnavailable({ cluster: 'demo', status: undefined }));
    assert.deepEqual([gone.status, gone.code, gone.remedy], [502, 'NoKubernetesApi', undefined]);
  });

  it('gives Kubernetes refusals the status they name, with their remedy', () => {
    const notServed = problemFor(
      new KubeKindNotServed({ object: { cluster: 'c', kind: 'RayJob.ray.io' }, verb: 'list', installedBy: 'KubeRay' }),
    );
    assert.deepEqual(
      [notServed.status, notServed.code, notServed.remedy],
      [422, 'KindNotServed', 'Install KubeRay, then try again.'],
    );
    assert.equal(
      problemFor(new KubeConflict({ object: node, verb: 'create', detail: 'exists', reason: 'AlreadyExists' })).status,
      409,
    );
    assert.equal(problemFor(new KubeForbidden({ object: node, verb: 'get', detail: 'no' })).status, 422);
    assert.equal(problemFor(new KubeExpired({ object: node, verb: 'list', attempts: 3 })).status, 503);
    // Not-found of an object the server looked up for itself: the cloud's 4xx, the caller's to fix.
    const missing = problemFor(new KubeNotFound({ object: node, verb: 'get' }));
    assert.deepEqual(
      [missing.status, missing.detail],
      [422, 'Node hyperpod-i-1 in EKS cluster demo-eks does not exist.'],
    );
  });

  it('names the running operation of a lock conflict and the file of a store outage', () => {
    const operation = {
      id: 'op-1',
      kind: 'delete-cluster',
      status: 'running',
      target: 'c',
      statusUrl: '/api/v1/operations/op-1',
      statusTool: 'wait_for_operation',
    };
    const p = problemFor(new OperationConflictError({ message: 'busy', operation, resource: 'cluster/c' }));
    assert.deepEqual([p.status, p.operation, p.errors], [409, operation, undefined]);
    const store = problemFor(
      new StoreUnavailableError({ message: 'disk full', code: 'SQLITE_FULL', file: 'x.db', remedy: 'Free space.' }),
    );
    assert.deepEqual([store.status, store.code, store.remedy], [503, 'SQLITE_FULL', 'Free space.']);
  });

  it("answers Fastify's own 4xx about the request as a whole, and anything else as a 500 without internals", () => {
    const bad = Object.assign(new Error('Body is too large'), { statusCode: 413, code: 'FST_ERR_CTP_BODY_TOO_LARGE' });
    assert.deepEqual(problemFor(bad, '/x'), {
      type: `${TYPE}input`,
      title: 'Bad request',
      status: 413,
      detail: 'Body is too large',
      errors: [{ path: '(body)', message: 'Body is too large' }],
      instance: '/x',
    });
    const url = Object.assign(new Error("'/%' is not a valid url component"), {
      statusCode: 400,
      code: 'FST_ERR_BAD_URL',
    });
    assert.equal(problemFor(url).errors?.[0]?.path, '(path)');
    for (const err of [new Error('secret internals'), Object.assign(new Error('x'), { statusCode: 502 }), 'text', null])
      assert.deepEqual(problemFor(err, '/x'), {
        type: `${TYPE}internal`,
        title: 'Internal error',
        status: 500,
        detail: 'The server failed unexpectedly; see its log for the request id.',
      });
  });

  it('tells JSON-RPC clients a body that is not JSON apart from every other refusal', () => {
    const notJson = Object.assign(new Error('The request body is not valid JSON.'), {
      statusCode: 400,
      code: INVALID_JSON,
    });
    assert.equal(jsonRpcError(problemFor(notJson), notJson).error.code, -32700);
    const forbidden = new ForbiddenError({ message: 'bad origin' });
    assert.deepEqual(jsonRpcError(problemFor(forbidden), forbidden).error, { code: -32000, message: 'bad origin' });
  });
});
