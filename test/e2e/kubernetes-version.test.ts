import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { TestSandbox } from '../helpers/sandbox.js';
import { startSandboxAndServer, stopAll, type TestServer } from '../helpers/server.js';
import { call } from '../mcp/client-helpers.js';

const SPEED = 600;
const request = {
  name: 'kv',
  availabilityZone: 'us-west-2b',
  instanceType: 'ml.g5.8xlarge',
  instanceCount: 1,
  storage: { s3: false },
};

/**
 * The EKS cluster's Kubernetes version is one both EKS and HyperPod support, on every face: the
 * sandbox's EKS offers 1.29–1.35 with 1.35 its default, HyperPod supports 1.28–1.34, so EKS's
 * default is a version HyperPod's CreateCluster refuses.
 */
describe('the Kubernetes version of a new cluster (REST, MCP, sandbox)', () => {
  let sb: TestSandbox;
  let server: TestServer;
  let mcp: Client;
  before(async () => {
    ({ sb, server } = await startSandboxAndServer(SPEED));
    mcp = new Client({ name: 'e2e-kv', version: '1.0.0' });
    await mcp.connect(new StreamableHTTPClientTransport(new URL(`${server.url}/mcp`)));
  });
  after(() => stopAll(mcp, server, sb));

  /** Sandbox calls made while `work` runs. */
  const callsDuring = async (work: () => Promise<void>) => {
    const mark = (await sb.calls()).at(-1)?.seq ?? 0;
    await work();
    return sb.calls({ after: mark });
  };

  it('lists each version with the side that supports it, and the default both support (REST and MCP)', async () => {
    const r = await server.api('GET', '/api/v1/kubernetes-versions?region=us-west-2');
    assert.equal(r.status, 200, JSON.stringify(r.body));
    assert.equal(r.body.defaultVersion, '1.34');
    const at = (v: string) => r.body.versions.find((x: any) => x.version === v);
    assert.deepEqual(
      [at('1.35').eks.isDefault, at('1.35').hyperpod, at('1.35').usable],
      [true, false, false],
      "EKS's default is out of HyperPod's range",
    );
    assert.deepEqual([at('1.34').usable, at('1.34').isChosenDefault], [true, true]);
    assert.deepEqual(
      [at('1.28').eks.offered, at('1.28').hyperpod, at('1.28').usable],
      [false, true, false],
      "HyperPod supports 1.28; the sandbox's EKS no longer offers it",
    );
    assert.match(r.body.hyperpodSupport.sources[0], /^https:\/\/docs\.aws\.amazon\.com\/sagemaker\//);

    const tool = await call(mcp, 'list_kubernetes_versions', { region: 'us-west-2' });
    assert.ok(!tool.isError, tool.text);
    assert.match(tool.text, /create_cluster uses 1\.34 unless asked otherwise/);
    assert.match(tool.text, /- 1\.35: EKS only \(EKS default\): HyperPod does not support it/);
    assert.match(tool.text, /- 1\.28: HyperPod only: EKS does not offer it here/);
    assert.equal((tool.structuredContent as any).defaultVersion, '1.34');
  });

  it('refuses a version HyperPod does not support by field, with the range, before any AWS call (REST and MCP)', async () => {
    for (const kubernetesVersion of ['1.35', '1.27']) {
      const calls = await callsDuring(async () => {
        const r = await server.api('POST', '/api/v1/clusters', { ...request, kubernetesVersion });
        assert.equal(r.status, 422, JSON.stringify(r.body));
        assert.match(r.headers.get('content-type') ?? '', /application\/problem\+json/);
        const problem = r.body.errors.find((e: any) => e.path === 'kubernetesVersion');
        assert.ok(problem, JSON.stringify(r.body));
        assert.match(
          problem.message,
          new RegExp(
            `SageMaker HyperPod does not support Kubernetes ${kubernetesVersion.replace('.', '\\.')}; it supports 1\\.28 to 1\\.34`,
          ),
        );

        const { name, ...rest } = request;
        const tool = await call(mcp, 'create_cluster', { ...rest, cluster: name, kubernetesVersion });
        assert.ok(tool.isError, tool.text);
        assert.match(tool.text, /kubernetesVersion/);
        assert.match(tool.text, /1\.28 to 1\.34/);
      });
      assert.deepEqual(calls, [], `no AWS call for ${kubernetesVersion}`);
    }
  });

  it('refuses a version HyperPod supports but EKS does not offer in the Region, by field, changing nothing', async () => {
    const calls = await callsDuring(async () => {
      const r = await server.api('POST', '/api/v1/clusters', { ...request, kubernetesVersion: '1.28' });
      assert.equal(r.status, 422, JSON.stringify(r.body));
      const problem = r.body.errors.find((e: any) => e.path === 'kubernetesVersion');
      assert.ok(problem, JSON.stringify(r.body));
      assert.match(problem.message, /EKS does not offer Kubernetes 1\.28 for new clusters in us-west-2/);
      assert.match(
        problem.message,
        /Use one both support \(1\.34, 1\.33, .*\), or leave kubernetesVersion out for 1\.34/,
      );
    });
    assert.deepEqual(
      calls.filter((c) => c.mutating),
      [],
      'the check (which reads what EKS offers, kept a few minutes) changes nothing',
    );
    assert.deepEqual((await server.api('GET', '/api/v1/operations')).body.operations, []);
  });

  it("without a version, creates EKS at the newest version both support although EKS's default is newer", async () => {
    const check = await server.api('POST', '/api/v1/preflight/clusters', request);
    assert.equal(check.body.kubernetesVersion, '1.34', JSON.stringify(check.body));
    const r = await server.api('POST', '/api/v1/clusters', request);
    assert.equal(r.status, 202, JSON.stringify(r.body));
    const op = await server.waitForOperation(r.body.operation.id);
    assert.equal(op.status, 'succeeded', JSON.stringify(op.error ?? op.phases));
    const eks = await sb.aws(['eks', 'describe-cluster', '--name', 'kv-eks']);
    assert.equal(eks.json.cluster.version, '1.34');
    const detail = await server.api('GET', '/api/v1/clusters/kv');
    assert.equal(detail.body.eks.version, '1.34');
    assert.equal(detail.body.status, 'InService');
  });
});
