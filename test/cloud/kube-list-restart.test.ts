import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { AwsClients, Cloud } from '../../src/cloud/index.js';
import type { KubePort } from '../../src/cloud/ports.js';
import { CloudError } from '../../src/domain/errors.js';
import { kubeKind, parseBase } from '../../src/domain/kube/kind.js';
import { startTestSandbox, type TestSandbox } from '../helpers/sandbox.js';
import { activeCluster, buildEksWorld } from '../sandbox/eks-fixtures.js';

/**
 * A Kubernetes list that pages (limit/continue) outlives its continue token when etcd compacts
 * meanwhile (410 Expired). The sandbox's `kube-compaction` fault compacts the cluster's history just
 * before the next continued page: the list must start again and answer complete, not fail.
 */
const CONFIG_MAP = kubeKind({ apiVersion: 'v1', kind: 'ConfigMap', plural: 'configmaps', namespaced: true }, (raw) =>
  parseBase(raw, { apiVersion: 'v1', kind: 'ConfigMap' }),
);

describe('a Kubernetes list whose continue token expires', () => {
  let sb: TestSandbox;
  let kube: KubePort;
  const names = Array.from({ length: 7 }, (_, i) => `page-${i}`);
  const list = () => kube.list(CONFIG_MAP, { namespace: 'default', labelSelector: 'batch=pages', limit: 2 });
  const compactBeforeNextContinue = async (count: number) => {
    const r = await sb.admin('/_sandbox/faults', {
      method: 'POST',
      body: { type: 'kube-compaction', cluster: 'relist', count },
    });
    assert.equal(r.status, 201, JSON.stringify(r.body));
  };

  before(async () => {
    sb = await startTestSandbox({ speed: 600 });
    await activeCluster(sb, await buildEksWorld('relist'), 'relist');
    await sb.advance(1);
    kube = await new Cloud(new AwsClients({ defaultRegion: 'us-west-2' })).kube('us-west-2', 'relist');
    await kube.applyAll(
      names.map((name) => ({
        apiVersion: 'v1',
        kind: 'ConfigMap',
        metadata: { name, namespace: 'default', labels: { batch: 'pages' } },
        data: {},
      })),
    );
  });
  after(async () => {
    await sb.admin('/_sandbox/faults', { method: 'DELETE' });
    await sb.dispose();
  });

  it('starts again from the first page and answers every object once', async () => {
    await compactBeforeNextContinue(1);
    const all = await list();
    assert.deepEqual(
      all.map((c) => c.metadata.name),
      names,
      'complete and without repeats',
    );
    assert.deepEqual(
      (await sb.admin('/_sandbox/faults')).body.faults,
      [],
      'the history was compacted while the list paged',
    );
  });

  it('gives up with the 410 when the token keeps expiring, instead of paging forever', async () => {
    await compactBeforeNextContinue(10);
    await assert.rejects(list(), (err: unknown) => {
      assert.ok(err instanceof CloudError, String(err));
      assert.equal(err.httpStatus, 410);
      assert.equal(err.code, 'Expired');
      return true;
    });
    const left = (await sb.admin('/_sandbox/faults')).body.faults as Array<{ triggered: number }>;
    assert.equal(left[0]?.triggered, 4, 'the first try and three fresh starts each lost their token');
  });
});
