import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ClusterViews, type OperationsLookup } from '../../src/capabilities/clusters/views.js';
import type { CloudPort, HyperPodCluster } from '../../src/cloud/ports.js';
import { CloudError } from '../../src/domain/errors.js';
import { TAG_MANAGED_BY } from '../../src/domain/naming.js';
import type { OperationView } from '../../src/domain/schemas/operations.js';

const REGION = 'us-west-2';
const arnOf = (name: string, generation = 1) => `arn:aws:sagemaker:${REGION}:000000000000:cluster/${name}${generation}`;
const tick = () => new Promise((r) => setImmediate(r));

/**
 * A cloud that counts its calls and answers ListTags one event-loop turn later, so the test can see
 * how many run at once; just enough of CloudPort for the cluster views.
 */
function countingCloud(names: string[]) {
  const calls = { list: 0, tags: [] as string[], describe: 0, eks: 0 };
  let inFlight = 0;
  let mostAtOnce = 0;
  const clusters = new Map(names.map((n) => [n, { name: n, arn: arnOf(n), status: 'InService' }]));
  let refuseTags = false;
  const cloud = {
    hyperpod: {
      list: async () => (calls.list++, [...clusters.values()]),
      tags: async (_region: string, arn: string) => {
        calls.tags.push(arn);
        inFlight++;
        mostAtOnce = Math.max(mostAtOnce, inFlight);
        await tick();
        inFlight--;
        if (refuseTags)
          throw new CloudError({
            service: 'sagemaker',
            operation: 'ListTags',
            code: 'AccessDeniedException',
            message: 'not allowed',
            httpStatus: 400,
            retryable: false,
          });
        return { [TAG_MANAGED_BY]: 'instantstart' };
      },
      describe: async (_region: string, name: string): Promise<HyperPodCluster | undefined> => {
        calls.describe++;
        const c = clusters.get(name);
        return c
          ? ({
              ClusterName: c.name,
              ClusterArn: c.arn,
              ClusterStatus: c.status,
              InstanceGroups: [],
            } as unknown as HyperPodCluster)
          : undefined;
      },
    },
    eks: { describeCluster: async () => (calls.eks++, undefined) },
    accountId: async () => '000000000000',
    storage: { bucketExists: async () => false, findFileSystem: async () => undefined },
  } as unknown as CloudPort;
  return { cloud, calls, clusters, mostAtOnce: () => mostAtOnce, refuseTags: (on: boolean) => (refuseTags = on) };
}

/** The engine as the views see it: running operations by target, counted journal reads, events. */
function operations() {
  const listeners: Array<(op: OperationView) => void> = [];
  const running = new Map<string, OperationView>();
  const reads = { active: 0, unsettled: 0 };
  const lookup: OperationsLookup = {
    activeFor: (target) => (reads.active++, running.get(target)),
    unsettledClusterOperations: () => (reads.unsettled++, []),
    on: (_event, listener) => listeners.push(listener),
  };
  const emit = (
    target: string,
    op = { id: 'op-1', kind: 'add-instance-group', target, status: 'running' } as OperationView,
  ) => {
    for (const l of listeners) l(op);
  };
  return { lookup, emit, running, reads };
}

const noActive = { get: () => undefined, set: () => {} };

describe('cluster views read AWS once for every caller, a few seconds at a time, and never stay stale after our own operations', () => {
  it('answers 10 concurrent lists with one ListClusters and one ListTags per cluster, at most 8 at once; later looks within the TTL cost nothing', async () => {
    let now = 0;
    const names = Array.from({ length: 20 }, (_, i) => `c${String(i).padStart(2, '0')}`);
    const aws = countingCloud(names);
    const views = new ClusterViews(aws.cloud, operations().lookup, noActive, { ttlMs: 3_000, now: () => now });
    const answers = await Promise.all(Array.from({ length: 10 }, () => views.list(REGION)));
    assert.equal(aws.calls.list, 1);
    assert.equal(aws.calls.tags.length, 20);
    assert.ok(aws.mostAtOnce() > 1 && aws.mostAtOnce() <= 8, `ListTags calls at once: ${aws.mostAtOnce()}`);
    for (const a of answers)
      assert.deepEqual(
        a.map((c) => [c.name, c.managedByInstantStart]),
        names.map((n) => [n, true]),
      );
    now = 2_000;
    await views.list(REGION);
    assert.equal(aws.calls.list, 1, 'kept within the TTL');
    now = 3_000;
    await views.list(REGION);
    assert.equal(aws.calls.list, 2, 'read again after the TTL');
    assert.equal(aws.calls.tags.length, 20, 'tags are kept longer, by ARN');
  });

  it("an operation on a cluster makes the next look read its Region list and its tags again, not the other clusters' tags", async () => {
    const aws = countingCloud(['alpha', 'beta']);
    const ops = operations();
    const views = new ClusterViews(aws.cloud, ops.lookup, noActive);
    await views.list(REGION);
    assert.equal(aws.calls.list, 1);
    // The user's own delete succeeded: HyperPod no longer lists it, and the next look must say so at once.
    aws.clusters.delete('beta');
    ops.emit(`cluster/${REGION}/beta`);
    assert.deepEqual(
      (await views.list(REGION)).map((c) => c.name),
      ['alpha'],
    );
    assert.equal(aws.calls.list, 2);
    // A group change on alpha: its tags are read again (its ARN could be a new cluster's), nobody else's.
    aws.calls.tags.length = 0;
    ops.emit(`cluster/${REGION}/alpha/instance-group/workers`);
    await views.list(REGION);
    assert.deepEqual(aws.calls.tags, [arnOf('alpha')]);
    ops.emit('cluster/eu-west-1/alpha');
    await views.list(REGION);
    assert.equal(aws.calls.list, 3, 'an operation in another Region leaves this one kept');
  });

  it('asks the journal once per change, not once per request and cluster, and shows a new operation at once', async () => {
    const aws = countingCloud(['alpha', 'beta']);
    const ops = operations();
    const views = new ClusterViews(aws.cloud, ops.lookup, noActive);
    await Promise.all(Array.from({ length: 10 }, () => views.list(REGION)));
    await views.get(REGION, 'alpha');
    assert.deepEqual(ops.reads, { active: 2, unsettled: 1 });
    const op = {
      id: 'op-2',
      kind: 'add-instance-group',
      target: `cluster/${REGION}/alpha/instance-group/gpu`,
      status: 'pending',
      runningPhases: [] as string[],
    } as OperationView;
    ops.running.set(`cluster/${REGION}/alpha`, op);
    ops.emit(op.target, op);
    const alpha = (await views.list(REGION)).find((c) => c.name === 'alpha')!;
    assert.deepEqual(alpha.activeOperation, { id: 'op-2', kind: 'add-instance-group', status: 'pending' });
    assert.deepEqual(ops.reads, { active: 4, unsettled: 2 });
  });

  it('a refused ListTags reads as "not ours" for that answer only: it is not kept', async () => {
    let now = 0;
    const aws = countingCloud(['alpha']);
    const views = new ClusterViews(aws.cloud, operations().lookup, noActive, { now: () => now });
    aws.refuseTags(true);
    assert.equal((await views.list(REGION))[0]!.managedByInstantStart, false);
    aws.refuseTags(false);
    now = 3_000;
    assert.equal((await views.list(REGION))[0]!.managedByInstantStart, true);
  });

  it('one cluster: one DescribeCluster for concurrent callers, 404 for an absent one, fresh after an operation on it', async () => {
    const aws = countingCloud(['alpha']);
    const ops = operations();
    const views = new ClusterViews(aws.cloud, ops.lookup, noActive);
    const details = await Promise.all(Array.from({ length: 5 }, () => views.get(REGION, 'alpha')));
    assert.equal(aws.calls.describe, 1);
    assert.equal(aws.calls.eks, 1);
    assert.ok(details.every((d) => d.status === 'InService' && d.managedByInstantStart));
    await assert.rejects(
      views.get(REGION, 'gamma'),
      (err: Error) => err.name === 'NotFoundError' || /does not exist/.test(err.message),
    );
    assert.equal(aws.calls.eks, 1, 'an absent cluster costs no further reads');
    aws.clusters.get('alpha')!.status = 'Updating';
    ops.emit(`cluster/${REGION}/alpha/instance-group/workers`);
    assert.equal((await views.get(REGION, 'alpha')).status, 'Updating');
    assert.equal(aws.calls.describe, 3);
  });
});
