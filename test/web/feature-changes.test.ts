import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { changesToSend, type PendingChange } from '../../src/capabilities/features/ui/pending-changes.js';
import type { FeatureId, FeatureState } from '../../src/domain/schemas/features.js';

const feature = (id: FeatureId, state: FeatureState['state'], config: Record<string, unknown> = {}): FeatureState => ({
  id,
  title: id,
  summary: '',
  toggleable: true,
  state,
  config,
  needs: [],
  neededBy: [],
  installs: [],
  identities: [],
});

const features = [
  feature('cert-manager', 'on', { version: 'v1.18.2-eksbuild.2' }),
  feature('kuberay-operator', 'off'),
  feature('tiered-checkpointing', 'on', { instanceMemoryAllocationPercentage: 40 }),
  feature('metrics-server', 'off'),
];
const send = (edits: Array<[FeatureId, PendingChange]>) => changesToSend(features, new Map(edits));

describe('the Advanced Features panel sends only what the user changed (diff contract)', () => {
  it('one flipped toggle is the whole body; untouched features are absent whatever their state', () => {
    assert.deepEqual(send([['kuberay-operator', true]]), { 'kuberay-operator': true });
    assert.deepEqual(send([['cert-manager', false]]), { 'cert-manager': false });
  });

  it("a toggle flipped back, or a setting typed back to the cluster's value, is not sent", () => {
    assert.deepEqual(
      send([
        ['cert-manager', true],
        ['metrics-server', false],
      ]),
      {},
    );
    assert.deepEqual(send([['tiered-checkpointing', { instanceMemoryAllocationPercentage: 40 }]]), {});
  });

  it('a changed setting is sent alone; empty inputs mean "not set" and on-with-nothing-typed is plain true', () => {
    assert.deepEqual(send([['tiered-checkpointing', { instanceMemoryAllocationPercentage: 60, namespace: '' }]]), {
      'tiered-checkpointing': { instanceMemoryAllocationPercentage: 60 },
    });
    assert.deepEqual(send([['metrics-server', { version: '' }]]), { 'metrics-server': true });
  });
});
