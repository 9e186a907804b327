import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { compareInstanceTypes, sizeRank, splitInstanceType } from '../../src/domain/instance-type-order.js';

describe('instance type order: accelerators first, then family, then size', () => {
  it('splits and ranks sizes as people read them', () => {
    assert.deepEqual(splitInstanceType('ml.p5.48xlarge'), { family: 'p5', size: '48xlarge' });
    assert.ok(sizeRank('large') < sizeRank('xlarge'));
    assert.ok(sizeRank('xlarge') < sizeRank('2xlarge'));
    assert.ok(sizeRank('2xlarge') < sizeRank('12xlarge'));
    assert.ok(sizeRank('12xlarge') < sizeRank('metal'));
  });
  it('sorts a mixed list', () => {
    const types = [
      { instanceType: 'ml.m5.12xlarge' },
      { instanceType: 'ml.c5.2xlarge' },
      { instanceType: 'ml.p5.48xlarge', acceleratorCount: 8 },
      { instanceType: 'ml.g5.12xlarge', acceleratorCount: 4 },
      { instanceType: 'ml.c5.xlarge' },
      { instanceType: 'ml.g5.xlarge', acceleratorCount: 1 },
      { instanceType: 'ml.p4d.24xlarge', acceleratorCount: 8 },
      { instanceType: 'ml.g6.xlarge', acceleratorCount: 1 },
      { instanceType: 'ml.c5.18xlarge' },
      { instanceType: 'ml.trn1.32xlarge', acceleratorCount: 16 },
      { instanceType: 'ml.p5e.48xlarge', acceleratorCount: 8 },
    ];
    assert.deepEqual(
      [...types].sort(compareInstanceTypes).map((t) => t.instanceType),
      [
        'ml.g5.xlarge',
        'ml.g5.12xlarge',
        'ml.g6.xlarge',
        'ml.p4d.24xlarge',
        'ml.p5.48xlarge',
        'ml.p5e.48xlarge',
        'ml.trn1.32xlarge',
        'ml.c5.xlarge',
        'ml.c5.2xlarge',
        'ml.c5.18xlarge',
        'ml.m5.12xlarge',
      ],
    );
  });
});
