import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { TestSandbox } from '../helpers/sandbox.js';
import { startSandboxAndServer, stopAll, type TestServer } from '../helpers/server.js';

describe('OpenAPI document', () => {
  let sb: TestSandbox;
  let server: TestServer;
  before(async () => {
    ({ sb, server } = await startSandboxAndServer(1));
  });
  after(() => stopAll(server, sb));

  it('documents every endpoint with the schemas that validate it', async () => {
    const r = await server.api('GET', '/api/openapi.json');
    assert.equal(r.status, 200);
    assert.equal(r.body.openapi, '3.1.0');
    const ops = Object.entries(r.body.paths as Record<string, Record<string, any>>).flatMap(([path, methods]) =>
      Object.keys(methods).map((m) => `${m.toUpperCase()} ${path}`),
    );
    for (const expected of [
      'GET /api/v1/clusters',
      'POST /api/v1/clusters',
      'GET /api/v1/clusters/{name}',
      'DELETE /api/v1/clusters/{name}',
      'GET /api/v1/active-cluster',
      'PUT /api/v1/active-cluster',
      'GET /api/v1/regions',
      'GET /api/v1/availability-zones',
      'GET /api/v1/instance-types',
      'GET /api/v1/training-plans',
      'POST /api/v1/preflight/quotas',
      'POST /api/v1/preflight/clusters',
      'GET /api/v1/operations',
      'GET /api/v1/operations/{id}',
      'GET /api/v1/operations/{id}/wait',
      'GET /api/v1/operations/{id}/events',
      'POST /api/v1/operations/{id}/phases/{phase}/retry',
      'POST /api/v1/operations/{id}/cancel',
      'GET /api/v1/config',
    ])
      assert.ok(ops.includes(expected), `${expected} is documented`);
    const create = r.body.paths['/api/v1/clusters'].post;
    const body = create.requestBody.content['application/json'].schema;
    assert.deepEqual(body.required.sort(), ['availabilityZone', 'instanceCount', 'instanceType', 'name']);
    assert.equal(body.properties.capacityType.enum.join(','), 'on-demand,spot,training-plan');
    assert.ok(body.properties.instanceCount.description, 'fields carry descriptions');
    assert.ok(create.parameters.some((p: any) => p.name === 'Idempotency-Key' && p.in === 'header'));
    assert.ok(create.responses['202'].content['application/json'].schema.properties.statusTool);
    const del = r.body.paths['/api/v1/clusters/{name}'].delete;
    assert.ok(del.parameters.some((p: any) => p.name === 'confirm' && p.in === 'query' && p.required));
  });

  it('answers unknown API paths with problem+json and serves the UI at /', async () => {
    const missing = await server.api('GET', '/api/v1/nothing-here');
    assert.equal(missing.status, 404);
    assert.match(missing.headers.get('content-type') ?? '', /problem\+json/);
    const ui = await server.api('GET', '/');
    assert.equal(ui.status, 200);
    assert.match(String(ui.body), /<div id="root">|<html/i);
    const deepLink = await server.api('GET', '/clusters/demo');
    assert.equal(deepLink.status, 200, 'client-side routes fall back to index.html');
  });
});
