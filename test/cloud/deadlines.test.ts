import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { AwsClients } from '../../src/cloud/aws/clients.js';
import { EksAdapter } from '../../src/cloud/aws/eks.js';
import { KubeClusterClient } from '../../src/cloud/k8s/cluster-client.js';
import { CloudError } from '../../src/domain/errors.js';
import { NAMESPACE } from '../../src/domain/kube/namespace.js';
import { NODE } from '../../src/domain/kube/node.js';
import { startTestSandbox, type TestSandbox } from '../helpers/sandbox.js';
import { activeCluster, buildEksWorld } from '../sandbox/eks-fixtures.js';

/**
 * Every AWS and Kubernetes call has a deadline: against a sandbox whose endpoint holds calls
 * without answering (a `hang` fault), the adapters fail with a retryable TimeoutError naming the
 * service and the call — while the hang is still on, so it is the deadline that answered.
 */
describe('deadlines of cloud calls', () => {
  let sb: TestSandbox;
  let eks: EksAdapter;
  before(async () => {
    sb = await startTestSandbox({ speed: 600 });
    await activeCluster(sb, await buildEksWorld('deadline'), 'deadline');
    eks = new EksAdapter(
      new AwsClients({ defaultRegion: 'us-west-2', timeouts: { connectMs: 1000, requestMs: 1000 } }),
    );
  });
  after(async () => {
    await sb.admin('/_sandbox/faults', { method: 'DELETE' });
    await sb.dispose();
  });

  const hang = async (service: string, operation?: string) => {
    const r = await sb.admin('/_sandbox/faults', {
      method: 'POST',
      body: { type: 'hang', service, ...(operation ? { operation } : {}), seconds: 300 },
    });
    assert.equal(r.status, 201, JSON.stringify(r.body));
    return r.body.faults[0].id as string;
  };
  const stillHanging = async (id: string) =>
    (await sb.admin('/_sandbox/faults')).body.faults.some((f: { id: string }) => f.id === id);

  it('an AWS call the endpoint does not answer fails with TimeoutError naming it; it works again once the endpoint answers', async () => {
    const id = await hang('eks', 'DescribeCluster');
    await assert.rejects(eks.describeCluster('us-west-2', 'deadline'), (err: unknown) => {
      assert.ok(err instanceof CloudError, String(err));
      assert.equal(err.code, 'TimeoutError');
      assert.equal(err.retryable, true);
      assert.match(err.message, /^AWS is not answering: eks DescribeCluster took longer than 1 s; check/);
      return true;
    });
    assert.ok(await stillHanging(id), 'the deadline answered, not the end of the hang');
    const held = (await sb.admin('/_sandbox/faults')).body.faults.find((f: { id: string }) => f.id === id);
    assert.ok(held.triggered >= 1, 'the call reached the sandbox and was held');
    await sb.admin(`/_sandbox/faults?id=${id}`, { method: 'DELETE' });
    assert.equal((await eks.describeCluster('us-west-2', 'deadline'))?.status, 'ACTIVE');
    const served = await sb.calls({ service: 'eks', operation: 'DescribeCluster' });
    assert.ok(
      served.every((c) => c.status === 200),
      'the abandoned call was dropped, never answered late',
    );
  });

  it('a Kubernetes read the API server does not answer fails with TimeoutError naming the cluster and the call', async () => {
    const c = (await eks.describeCluster('us-west-2', 'deadline'))!;
    const kube = new KubeClusterClient(
      {
        clusterName: 'deadline',
        region: 'us-west-2',
        endpoint: c.endpoint!,
        certificateAuthorityData: c.certificateAuthority!.data!,
      },
      { requestMs: 1000 },
    );
    assert.ok((await kube.list(NAMESPACE)).length > 0, 'the API answers before the hang');
    const id = await hang('kubernetes', 'GET');
    await assert.rejects(kube.list(NODE), (err: unknown) => {
      assert.ok(err instanceof CloudError, String(err));
      assert.equal(err.code, 'TimeoutError');
      assert.equal(err.retryable, true);
      assert.match(
        err.message,
        /^The Kubernetes API of EKS cluster deadline is not answering: kubernetes list Node took longer than 1 s/,
      );
      return true;
    });
    assert.ok(await stillHanging(id));
    await sb.admin(`/_sandbox/faults?id=${id}`, { method: 'DELETE' });
    assert.ok(Array.isArray(await kube.list(NODE)));
  });
});
