import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { fieldLabel, readableFieldMessage } from '../../src/domain/field-labels.js';

describe('field labels: what a person reads instead of a JSON path', () => {
  it('splits camelCase, names known words, drops list indexes', () => {
    assert.equal(fieldLabel('instanceCount'), 'Instance count');
    assert.equal(fieldLabel('availabilityZone'), 'Availability Zone');
    assert.equal(fieldLabel('trainingPlanArn'), 'Training plan');
    assert.equal(fieldLabel('storage.fsx.sizeGiB'), 'Storage FSx for Lustre size (GiB)');
    assert.equal(fieldLabel('nodeIds.3'), 'Nodes');
    assert.equal(fieldLabel('constructor'), 'Constructor', 'a user-supplied path never reads a prototype property');
  });
  it('a fragment gets the label in front; a full sentence stands alone', () => {
    assert.equal(readableFieldMessage('instanceCount', 'must be at least 1'), 'Instance count must be at least 1');
    assert.equal(readableFieldMessage('instanceCount', 'The quota is 10.'), 'The quota is 10.');
    assert.equal(readableFieldMessage('', 'must be an object'), 'must be an object');
  });
});
