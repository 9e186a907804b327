import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { AuditStore, type NewAuditEvent } from '../../src/store/audit-store.js';
import { openMemoryDatabase } from '../../src/store/database.js';
import { DEFAULT_RETENTION, OperationsRetention } from '../../src/store/retention.js';

const event = (id: string, over: Partial<NewAuditEvent> = {}): NewAuditEvent => ({
  id,
  at: '2026-12-01T10:00:00.000Z',
  actor: { kind: 'local' },
  face: 'rest',
  method: 'POST',
  route: 'POST /api/v1/clusters',
  action: 'createCluster',
  target: `cluster/us-west-2/${id}`,
  status: 202,
  outcome: 'accepted',
  replay: false,
  ...over,
});
const call = (operation: string, at = '2026-12-01T10:00:01.000Z') => ({
  service: 'sagemaker',
  operation,
  region: 'us-west-2',
  requestId: `req-${operation}`,
  at,
});

describe('the audit store (src/store/audit-store.ts)', () => {
  it('files calls under the request or under the operation it started; a replay lists none of them', () => {
    const audit = new AuditStore(openMemoryDatabase());
    audit.addAwsCall({ eventId: 'e1' }, call('CreateVpc'));
    audit.addAwsCall({ operationId: 'op-1' }, call('CreateCluster'));
    audit.addKubeRef(
      { operationId: 'op-1' },
      { verb: 'apply', cluster: 'c', apiVersion: 'v1', kind: 'Namespace', name: 'ns', at: '2026-12-01T10:00:02.000Z' },
    );
    audit.addAwsCall({ operationId: 'op-2' }, call('DeleteCluster'));
    audit.record(event('e1', { operationId: 'op-1', operationKind: 'create-cluster', input: { body: { a: 1 } } }));
    audit.record(event('e2', { operationId: 'op-1', replay: true }));
    assert.deepEqual(
      audit.get('e1')!.awsCalls.map((c) => c.requestId),
      ['req-CreateVpc', 'req-CreateCluster'],
    );
    assert.equal(audit.get('e1')!.kubeRefs[0]!.name, 'ns');
    assert.deepEqual(audit.get('e1')!.input, { body: { a: 1 } });
    assert.deepEqual(audit.get('e2')!.awsCalls, [], 'a replay made no call');
    assert.equal(audit.get('e2')!.replay, true);
  });

  it('lists newest first with filters, and pages with nextToken until the last page', () => {
    const audit = new AuditStore(openMemoryDatabase());
    for (let i = 1; i <= 5; i++)
      audit.record(
        event(`e${i}`, {
          at: `2026-12-0${i}T00:00:00.000Z`,
          face: i % 2 ? 'mcp' : 'ui',
          ...(i === 4
            ? { status: 409, outcome: 'refused', action: 'rebootNodes', target: 'clusters/x/nodes/reboot' }
            : {}),
          ...(i === 5 ? { operationKind: 'set-features', action: 'setFeatures' } : {}),
        }),
      );
    const first = audit.list({}, 2);
    assert.deepEqual(
      first.events.map((e) => e.id),
      ['e5', 'e4'],
    );
    const second = audit.list({}, 2, Number(first.nextToken));
    assert.deepEqual(
      second.events.map((e) => e.id),
      ['e3', 'e2'],
    );
    const last = audit.list({}, 2, Number(second.nextToken));
    assert.deepEqual(
      last.events.map((e) => e.id),
      ['e1'],
    );
    assert.equal(last.nextToken, undefined);
    assert.deepEqual(
      audit.list({ face: 'mcp' }, 10).events.map((e) => e.id),
      ['e5', 'e3', 'e1'],
    );
    assert.deepEqual(
      audit.list({ outcome: 'refused' }, 10).events.map((e) => e.id),
      ['e4'],
    );
    assert.deepEqual(
      audit.list({ kind: 'rebootNodes' }, 10).events.map((e) => e.id),
      ['e4'],
    );
    assert.deepEqual(
      audit.list({ kind: 'set-features' }, 10).events.map((e) => e.id),
      ['e5'],
      'by operation kind too',
    );
    assert.deepEqual(
      audit.list({ target: 'nodes' }, 10).events.map((e) => e.id),
      ['e4'],
    );
    assert.deepEqual(
      audit.list({ since: '2026-12-02T00:00:00Z', until: '2026-12-04T00:00:00+00:00' }, 10).events.map((e) => e.id),
      ['e3', 'e2'],
    );
    assert.deepEqual(
      [...audit.all({ face: 'ui' }, 1)].map((e) => e.id),
      ['e2', 'e4'],
      'the export: oldest first',
    );
  });

  it('retention removes events older than the cutoff or beyond their bound, with their calls', () => {
    const db = openMemoryDatabase();
    const audit = new AuditStore(db);
    audit.record(event('old', { at: '2026-01-01T00:00:00.000Z' }));
    audit.addAwsCall({ eventId: 'old' }, call('CreateVpc', '2026-01-01T00:00:00.000Z'));
    audit.addAwsCall({ operationId: 'op-old' }, call('CreateCluster', '2026-01-01T00:00:01.000Z'));
    audit.record(event('new', { at: '2026-12-01T00:00:00.000Z' }));
    audit.addAwsCall({ eventId: 'new' }, call('CreateVpc', '2026-12-01T00:00:00.000Z'));
    const removed = new OperationsRetention(db, DEFAULT_RETENTION).pruneBatch(new Date('2026-12-07T00:00:00Z'));
    assert.equal(removed.auditEvents, 1);
    assert.equal(audit.get('old'), undefined);
    assert.equal(audit.get('new')!.awsCalls.length, 1);
    assert.equal((db.prepare('SELECT COUNT(*) AS n FROM audit_calls').get() as { n: number }).n, 1);
  });
});
