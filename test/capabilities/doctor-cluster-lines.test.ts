import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { clusterLines } from '../../src/capabilities/doctor/cluster-lines.js';
import type { DoctorReadPort } from '../../src/capabilities/doctor/read-port.js';
import { NotFoundError } from '../../src/domain/errors.js';
import type { FeatureState } from '../../src/domain/schemas/features.js';

/** `instantstart doctor --cluster`: an existing cluster's features, as the features capability answers them. */
function feature(id: string, state: FeatureState['state'], more: Partial<FeatureState> = {}): FeatureState {
  return {
    id: id as FeatureState['id'],
    title: `Feature ${id}`,
    summary: '',
    toggleable: true,
    state,
    config: {},
    needs: [],
    neededBy: [],
    installs: [],
    identities: [],
    ...more,
  };
}
const portWith = (answer: FeatureState[] | Error) =>
  ({
    clusterFeatures: async () => {
      if (answer instanceof Error) throw answer;
      return { cluster: 'c1', features: answer };
    },
  }) as unknown as DoctorReadPort;

describe('doctor: a cluster’s add-ons and dependencies', () => {
  it('is one ok line when every feature on has what it needs', async () => {
    const lines = await clusterLines(
      portWith([feature('a', 'on'), feature('b', 'on', { needs: ['a' as FeatureState['id']] }), feature('c', 'off')]),
      'us-west-2',
      'c1',
    );
    assert.deepEqual(
      lines.map((l) => [l.status, l.detail]),
      [['ok', '2 features on (Feature a, Feature b); each has what it needs.']],
    );
  });

  it('names a failed feature, one on without what it needs, and a missing role, each with its fix', async () => {
    const lines = await clusterLines(
      portWith([
        feature('a', 'off'),
        feature('b', 'on', {
          needs: ['a' as FeatureState['id']],
          identities: [{ id: 'x', title: 'Its controller', roleName: 'instantstart-c1-b', present: false }],
        }),
        feature('c', 'failed', { health: 'add-on DEGRADED' }),
      ]),
      'us-west-2',
      'c1',
    );
    assert.deepEqual(
      lines.map((l) => [l.status, l.title]),
      [
        ['missing', 'Feature b on c1 needs Feature a'],
        ['missing', 'Feature b on c1: role instantstart-c1-b is missing'],
        ['missing', 'Feature c failed'],
      ],
    );
    assert.ok(lines.every((l) => l.fix));
  });

  it('says when there is no such cluster, and when its features could not be read', async () => {
    const gone = await clusterLines(portWith(new NotFoundError({ resource: 'cluster', id: 'c1' })), 'us-west-2', 'c1');
    assert.deepEqual(
      gone.map((l) => [l.status, l.detail]),
      [['missing', 'No cluster named c1 in us-west-2.']],
    );
    const down = await clusterLines(portWith(new Error('Kubernetes API unavailable')), 'us-west-2', 'c1');
    assert.equal(down[0]!.status, 'warning');
    assert.match(down[0]!.detail, /Kubernetes API unavailable/);
  });
});
