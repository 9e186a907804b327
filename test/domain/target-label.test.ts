import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { downloadTarget } from '../../src/domain/model-downloads.js';
import {
  clusterNodesTarget,
  clusterTarget,
  instanceGroupTarget,
  operationKindLabel,
  targetLabel,
} from '../../src/domain/naming.js';
import { storageTarget } from '../../src/domain/storage.js';

/** Operations are labelled by what they act on, by its own name (issue 26, item 7): a storage by its name, not its namespace. */
describe('what an operation acts on, in words', () => {
  it('names a storage by its name, and its namespace only when it is not default', () => {
    assert.equal(targetLabel(storageTarget('us-west-2', 'demo', 'default', 'models')), 'Storage models');
    assert.equal(
      targetLabel(storageTarget('us-west-2', 'demo', 'team-a', 'models')),
      'Storage models (namespace team-a)',
    );
  });

  it('names a model download by where it lands, and the other parts by their kind and name', () => {
    assert.equal(
      targetLabel(downloadTarget('us-west-2', 'demo', 'shared-s3', 'models/openai-community/gpt2/main')),
      'Model download to models/openai-community/gpt2/main (storage shared-s3)',
    );
    assert.equal(targetLabel(instanceGroupTarget('us-west-2', 'demo', 'workers')), 'Instance group workers');
    assert.equal(targetLabel(clusterNodesTarget('us-west-2', 'demo')), 'Nodes');
    assert.equal(targetLabel(clusterTarget('us-west-2', 'demo')), undefined, 'the cluster itself has no part');
    assert.equal(targetLabel('something-else'), undefined);
  });

  it('says an operation kind as words', () => {
    assert.equal(operationKindLabel('add-storage'), 'Add storage');
    assert.equal(operationKindLabel('delete-cluster'), 'Delete cluster');
  });
});
