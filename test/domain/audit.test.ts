import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { auditInput, clientName, faceOf, isMutatingAwsOperation, outcomeOf } from '../../src/domain/audit.js';

describe('what the audit keeps of a request (src/domain/audit.ts)', () => {
  it('removes every secret: fields with secret names, and the value of a secret-named { name, value } pair', () => {
    const input = {
      params: { name: 'demo' },
      body: {
        modelId: 'org/model',
        token: 'hf_secret1',
        nested: { hfToken: 'hf_secret2', apiKey: 'k', password: 'p' },
        env: [
          { name: 'HF_TOKEN', value: 'hf_secret3' },
          { name: 'AWS_SECRET_ACCESS_KEY', value: 'abc' },
          { name: 'EPOCHS', value: '3' },
        ],
      },
    };
    const kept = auditInput(input);
    const text = JSON.stringify(kept);
    for (const secret of ['hf_secret1', 'hf_secret2', 'hf_secret3', '"abc"', '"k"', '"p"']) {
      assert.ok(!text.includes(secret), `${secret} removed: ${text}`);
    }
    assert.equal(kept.body.modelId, 'org/model');
    assert.deepEqual(kept.body.env[2], { name: 'EPOCHS', value: '3' }, 'other values stay');
    assert.equal(kept.body.env[0]!.name, 'HF_TOKEN', 'the name stays: it says what was sent');
    assert.equal(input.body.token, 'hf_secret1', 'the request itself is not changed');
  });

  it('counts every AWS call but the reads as a mutation', () => {
    for (const op of ['CreateCluster', 'BatchRebootClusterNodes', 'DeleteAddon', 'TagResource', 'PutObject'])
      assert.ok(isMutatingAwsOperation(op), op);
    for (const op of [
      'DescribeCluster',
      'ListClusterNodes',
      'GetCallerIdentity',
      'HeadBucket',
      'SimulatePrincipalPolicy',
    ])
      assert.ok(!isMutatingAwsOperation(op), op);
  });

  it('reads the outcome from the status and the face and client from what the client claims', () => {
    assert.deepEqual([202, 200, 401, 409, 422, 500, 503].map(outcomeOf), [
      'accepted',
      'accepted',
      'refused',
      'refused',
      'refused',
      'failed',
      'failed',
    ]);
    assert.deepEqual(['ui', 'mcp', undefined, 'MCP', 'cli'].map(faceOf), ['ui', 'mcp', 'rest', 'rest', 'rest']);
    assert.equal(clientName('kiro\u0000\n cli'), 'kiro cli');
    assert.equal(clientName('x'.repeat(300))!.length, 200);
    assert.equal(clientName(''), undefined);
  });
});
