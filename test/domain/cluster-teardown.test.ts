import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { mayBeInstantStartRole, teardownPlan, type FoundResource } from '../../src/domain/cluster-teardown.js';

const tags = (part: string, extra: Record<string, string> = {}) => ({
  'instantstart.io/cluster': 'demo',
  'instantstart.io/part': part,
  ...extra,
});
const found: FoundResource[] = [
  { kind: 'HyperPod cluster', id: 'demo', tags: {} },
  { kind: 'S3 bucket', id: 'sagemaker-demo-abc', tags: tags('bucket') },
  { kind: 'S3 bucket', id: 'sagemaker-demo-abc-tls', tags: tags('inference-tls') },
  {
    kind: 'S3 bucket',
    id: 'sagemaker-demo-models-x',
    tags: tags('storage', { 'instantstart.io/storage': 'default/models' }),
  },
  {
    kind: 'S3 bucket',
    id: 'sagemaker-demo-old-y',
    tags: tags('storage', { 'instantstart.io/kept-storage': 'default/old' }),
  },
  { kind: 'MLflow tracking server', id: 'team', tags: tags('mlflow-server') },
];
const names = (items: Array<{ kind: string; name: string }>) => items.map((i) => `${i.kind} ${i.name}`);

describe('what a cluster delete removes and keeps', () => {
  it('removes everything found but data a removed storage kept (by its tag), and keeps data InstantStart never made', () => {
    const plan = teardownPlan({
      keepStorage: false,
      found,
      kept: [],
      mounted: [{ namespace: 'default', name: 'team', data: { kind: 's3', bucket: 'their-bucket', prefix: '' } }],
    });
    assert.deepEqual(names(plan.deletes), [
      'HyperPod cluster demo',
      'S3 bucket sagemaker-demo-abc',
      'S3 bucket sagemaker-demo-abc-tls',
      'S3 bucket sagemaker-demo-models-x',
      'MLflow tracking server team',
    ]);
    assert.deepEqual(
      plan.keeps.map((k) => [k.name, k.reason]),
      [
        ['sagemaker-demo-old-y', 'kept when storage default/old was removed keeping its data'],
        ['their-bucket', 'not made by InstantStart: storage default/team mounts it'],
      ],
    );
  });

  it("keeps a whole bucket when a storage of a prefix of it was kept (the server's record), and every data bucket with keepStorage but the TLS one", () => {
    const kept = [
      {
        namespace: 'default',
        name: 'ckpt',
        data: { kind: 's3' as const, bucket: 'sagemaker-demo-abc', prefix: 'ckpt/' },
      },
    ];
    const plan = teardownPlan({ keepStorage: true, found, kept, mounted: [] });
    assert.deepEqual(names(plan.deletes), [
      'HyperPod cluster demo',
      'S3 bucket sagemaker-demo-abc-tls',
      'MLflow tracking server team',
    ]);
    assert.match(
      plan.keeps.find((k) => k.name === 'sagemaker-demo-abc')!.reason!,
      /storage default\/ckpt was removed keeping its data/,
    );
    assert.equal(
      plan.keeps.find((k) => k.name === 'sagemaker-demo-models-x')!.reason,
      "keepStorage: the cluster's data is kept",
    );
  });

  it('reads the tags of roles InstantStart may have named, not of every role in the account', () => {
    assert.equal(mayBeInstantStartRole('instantstart-mlflow-team-1a2b3c'), true);
    assert.equal(mayBeInstantStartRole('SageMakerHyperPodInference-demo-abc123'), true);
    assert.equal(mayBeInstantStartRole('OrganizationAccountAccessRole'), false);
  });
});
