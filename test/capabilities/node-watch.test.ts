import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { NodeWatches } from '../../src/capabilities/nodes/watch.js';
import { clusterHealth, groupShortfall } from '../../src/domain/cluster-health.js';

const tick = (ms: number) => new Promise((r) => setTimeout(r, ms));
async function until(ok: () => boolean, what: string): Promise<void> {
  for (let i = 0; i < 200 && !ok(); i++) await tick(10);
  assert.ok(ok(), what);
}

describe('the live node watch: one shared read per cluster, whoever watches', () => {
  it('reads each cluster once per round for any number of watchers, tells them all of a change, and stops with the last', async () => {
    const reads: string[] = [];
    let version = 1;
    const watches = new NodeWatches(
      async (region, cluster) => {
        reads.push(`${region}/${cluster}`);
        return { digest: `v${version}`, nodes: 2 };
      },
      { minIntervalMs: 20 },
    );
    const told = [0, 0, 0];
    const stops = [0, 1, 2].map((i) => watches.watch('us-west-2', 'a', () => told[i]!++));
    assert.equal(watches.size, 1, 'one watch for three watchers of one cluster');
    await until(() => reads.length >= 2, 'a second round');
    assert.ok(reads.length < 6, `one read per round, not one per watcher: ${reads.length}`);
    assert.deepEqual(told, [1, 1, 1], 'the first read signals once (a change may have come after the page read)');
    version = 2;
    await until(() => told.every((n) => n === 2), `a change is told to every watcher: ${told}`);
    await tick(60);
    assert.deepEqual(told, [2, 2, 2], 'and only once');
    stops.forEach((stop) => stop());
    assert.equal(watches.size, 0);
    const after = reads.length;
    await tick(60);
    assert.equal(reads.length, after, 'no read once nobody watches');
  });
});

describe('cluster health rollup', () => {
  const slot = {
    nodeLogicalId: 'n-1',
    status: 'Pending',
    message: 'Waiting for capacity: insufficient ml.c5.xlarge capacity in us-west-2b',
  };
  it("is a shortfall only below target; waiting when the group's newest group event is a warning, with its words", () => {
    assert.equal(
      groupShortfall({ name: 'g', instanceType: 't', targetCount: 2, launched: 2, unlaunched: [] }),
      undefined,
    );
    const launching = groupShortfall({
      name: 'g',
      instanceType: 't',
      targetCount: 2,
      launched: 1,
      unlaunched: [slot],
      events: [{ time: 't1', level: 'Info', resourceType: 'InstanceGroup', description: 'scaling' }],
    })!;
    assert.equal(launching.state, 'launching');
    assert.equal(launching.reason, slot.message);
    assert.equal(launching.reasonSource, 'instance-status');
    const waiting = groupShortfall({
      name: 'g',
      instanceType: 't',
      targetCount: 2,
      launched: 1,
      unlaunched: [slot],
      events: [
        { time: 't2', level: 'Info', resourceType: 'Instance', description: 'other node rebooted' },
        { time: 't1', level: 'Warn', resourceType: 'InstanceGroup', description: 'Could not launch 1 …' },
      ],
    })!;
    assert.deepEqual(
      [waiting.state, waiting.reason, waiting.reasonSource, waiting.missing],
      ['waiting', 'Could not launch 1 …', 'cluster-event', 1],
    );
  });
  it('orders failed over degraded over transitional over healthy', () => {
    const none = { healthy: 2, degraded: 0, failed: 0, transitional: 0 };
    assert.equal(clusterHealth(none, []).state, 'healthy');
    const waiting = groupShortfall({
      name: 'g',
      instanceType: 't',
      targetCount: 3,
      launched: 2,
      status: 'Degraded',
      unlaunched: [],
    })!;
    assert.equal(clusterHealth(none, [waiting]).state, 'degraded');
    assert.equal(clusterHealth({ ...none, failed: 1 }, [waiting]).state, 'failed');
    assert.equal(clusterHealth({ ...none, transitional: 1 }, []).state, 'transitional');
    assert.match(clusterHealth({ ...none, failed: 1 }, []).summary, /^1 node failed \(2 of 3 nodes healthy\)\.$/);
  });
});
