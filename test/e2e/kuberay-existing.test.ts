import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { stringify } from 'yaml';
import { KUBERAY } from '../../src/domain/features/kuberay.js';
import { kuberayCrds } from '../../src/domain/features/kuberay-crds.js';
import { kubeAccess, type TestKubeCluster } from '../helpers/kube.js';
import type { TestSandbox } from '../helpers/sandbox.js';
import { startSandboxAndServer, stopAll, type TestServer } from '../helpers/server.js';
import { call } from '../mcp/client-helpers.js';

const SPEED = 600;
const features = '/api/v1/clusters/rayx/features';
type Any = Record<string, any>;

/**
 * A cluster that already runs KubeRay when the feature is turned on (fact 8 of issue 25): its RayCluster
 * was stored at `v1alpha1` by an old KubeRay, the CRDs were upgraded since (v1 stored, v1alpha1 still
 * served) and a Helm-installed operator runs. Turning kuberay-operator on must leave that install in
 * charge — its CRDs untouched, the object readable at both versions — and every face must say the
 * feature is provided by it; turning it off is refused. Then InstantStart's own older install (v1-only
 * CRDs, an older image) is upgraded in place, v1alpha1 served again.
 */

/** Upstream-like CRDs: the v1.6.2 schemas, without InstantStart's label (as Helm's crds/ and kustomize install them). */
function upstreamCrds(versions: (v: Any) => Any | undefined): Any[] {
  return kuberayCrds().map((crd: Any) => {
    delete crd.metadata.labels;
    crd.spec.versions = crd.spec.versions.map(versions).filter(Boolean);
    return crd;
  });
}

/** The Deployment `helm install kuberay-operator kuberay/kuberay-operator --version 1.5.1` makes (labels as the chart's templates). */
const helmOperator = {
  apiVersion: 'apps/v1',
  kind: 'Deployment',
  metadata: {
    name: 'kuberay-operator',
    namespace: 'default',
    labels: {
      'app.kubernetes.io/name': 'kuberay-operator',
      'helm.sh/chart': 'kuberay-operator-1.5.1',
      'app.kubernetes.io/instance': 'kuberay-operator',
      'app.kubernetes.io/managed-by': 'Helm',
    },
  },
  spec: {
    replicas: 1,
    strategy: { type: 'Recreate' },
    selector: {
      matchLabels: { 'app.kubernetes.io/name': 'kuberay-operator', 'app.kubernetes.io/instance': 'kuberay-operator' },
    },
    template: {
      metadata: {
        labels: {
          'app.kubernetes.io/name': 'kuberay-operator',
          'app.kubernetes.io/instance': 'kuberay-operator',
          'app.kubernetes.io/component': 'kuberay-operator',
        },
      },
      spec: {
        containers: [{ name: 'kuberay-operator', image: 'quay.io/kuberay/operator:v1.5.1', command: ['/manager'] }],
      },
    },
  },
};

const oldCluster = {
  apiVersion: 'ray.io/v1alpha1',
  kind: 'RayCluster',
  metadata: { name: 'legacy', namespace: 'default' },
  spec: {
    rayVersion: '2.9.0',
    headGroupSpec: {
      rayStartParams: { 'dashboard-host': '0.0.0.0' },
      template: { spec: { containers: [{ name: 'ray-head', image: 'rayproject/ray:2.9.0' }] } },
    },
    workerGroupSpecs: [
      {
        groupName: 'small',
        replicas: 0,
        minReplicas: 0,
        maxReplicas: 2,
        rayStartParams: {},
        template: { spec: { containers: [{ name: 'ray-worker', image: 'rayproject/ray:2.9.0' }] } },
      },
    ],
  },
};

describe('KubeRay already on the cluster when the feature is turned on', () => {
  let sb: TestSandbox;
  let server: TestServer;
  let kube: TestKubeCluster;
  let mcp: Client;
  const apply = (...objects: object[]) =>
    kube.kubectl(['apply', '--server-side', '--force-conflicts', '-f', '-'], {
      input: objects.map((o) => stringify(o)).join('---\n'),
    });
  const getJson = async (args: string[]) => JSON.parse((await kube.kubectl([...args, '-o', 'json'])).stdout);
  const feature = async () => {
    const r = await server.api('GET', features);
    assert.equal(r.status, 200, JSON.stringify(r.body));
    return r.body.features.find((f: Any) => f.id === 'kuberay-operator');
  };
  const operationOk = async (r: { status: number; body: any }) => {
    assert.equal(r.status, 202, JSON.stringify(r.body));
    const op = await server.waitForOperation(r.body.operation.id);
    assert.equal(op.status, 'succeeded', JSON.stringify(op.error ?? op.phases));
    return op;
  };

  before(async () => {
    ({ sb, server } = await startSandboxAndServer(SPEED));
    await operationOk(
      await server.api('POST', '/api/v1/clusters', {
        name: 'rayx',
        availabilityZone: 'us-west-2a',
        instanceType: 'ml.c5.xlarge',
        instanceCount: 1,
        storage: { s3: false },
      }),
    );
    kube = await kubeAccess(sb, 'rayx-eks');
    mcp = new Client({ name: 'e2e-kuberay', version: '1.0.0' });
    await mcp.connect(new StreamableHTTPClientTransport(new URL(`${server.url}/mcp`)));
    // KubeRay 0.x: v1alpha1 was the storage version, and a RayCluster was stored at it.
    await apply(...upstreamCrds((v) => (v.name === 'v1alpha1' ? { ...v, storage: true } : undefined)));
    await apply(oldCluster);
    // Then upgraded to KubeRay 1.x with Helm: v1 stored, v1alpha1 still served; the operator runs in default.
    await apply(...upstreamCrds((v) => v), helmOperator);
    assert.deepEqual((await getJson(['get', 'crd', 'rayclusters.ray.io'])).status.storedVersions, ['v1alpha1', 'v1']);
  });
  after(() => stopAll(mcp, server, sb));

  it('turning the feature on leaves the existing KubeRay in charge: its CRDs untouched, v1alpha1 objects readable at both versions', async () => {
    const before = await getJson(['get', 'crd', 'rayclusters.ray.io']);
    const on = await server.api('PATCH', features, { 'kuberay-operator': true });
    assert.equal(on.status, 200, 'already on, through the existing install: nothing to start');
    assert.match(
      on.body.message,
      /kuberay-operator is provided by an existing KubeRay v1\.5\.1 .*which InstantStart leaves in charge/,
    );
    const after = await getJson(['get', 'crd', 'rayclusters.ray.io']);
    assert.equal(after.metadata.resourceVersion, before.metadata.resourceVersion, 'the CRD was not written');
    assert.equal(after.metadata.labels?.['app.kubernetes.io/managed-by'], undefined);
    assert.deepEqual(
      after.spec.versions.map((v: Any) => v.name),
      ['v1', 'v1alpha1'],
    );
    const alpha = await getJson(['get', 'rayclusters.v1alpha1.ray.io', 'legacy']);
    assert.equal(alpha.apiVersion, 'ray.io/v1alpha1');
    const v1 = await getJson(['get', 'rayclusters.v1.ray.io', 'legacy']);
    assert.equal(v1.apiVersion, 'ray.io/v1');
    assert.equal(v1.spec.headGroupSpec.template.spec.containers[0].image, 'rayproject/ray:2.9.0');
    // Nothing of InstantStart's own install was made beside it.
    assert.equal(
      (await kube.kubectl(['get', 'deployment', KUBERAY.name, '-n', KUBERAY.namespace], { allowFailure: true })).code,
      1,
    );
  });

  it('every face says the feature is provided by the existing KubeRay, with its version', async () => {
    const f = await feature();
    assert.equal(f.state, 'on');
    assert.equal(f.version, 'v1.5.1');
    assert.equal(
      f.providedBy,
      'an existing KubeRay v1.5.1 (operator Deployment default/kuberay-operator, Helm release kuberay-operator)',
    );
    assert.match(f.health, /leaves it in charge/);
    const text = (await call(mcp, 'get_features', { cluster: 'rayx' })).text;
    assert.match(
      text,
      /kuberay-operator: on v1\.5\.1 \[provided by an existing KubeRay v1\.5\.1 \(operator Deployment default\/kuberay-operator, Helm release kuberay-operator\), not InstantStart\]/,
    );
  });

  it('turning it off is refused by field, naming who provides it, and removes nothing', async () => {
    const r = await server.api('PATCH', features, { 'kuberay-operator': false });
    assert.equal(r.status, 422, JSON.stringify(r.body));
    assert.equal(r.body.errors[0].path, 'kuberay-operator');
    assert.match(
      r.body.errors[0].message,
      /provided by an existing KubeRay v1\.5\.1 .* which InstantStart did not install/,
    );
    const plan = await call(mcp, 'plan_features', { cluster: 'rayx', changes: { 'kuberay-operator': false } });
    assert.match(
      plan.text,
      /REFUSED: kuberay-operator cannot be turned off: it is provided by an existing KubeRay v1\.5\.1/,
    );
    assert.equal((await kube.kubectl(['get', 'crd', 'rayjobs.ray.io'], { allowFailure: true })).code, 0);
    assert.equal(
      (await kube.kubectl(['get', 'deployment', 'kuberay-operator', '-n', 'default'], { allowFailure: true })).code,
      0,
    );
  });

  it("InstantStart's own older install (v1-only CRDs, an older image) is upgraded when turned on: v1alpha1 served again, the pinned image", async () => {
    // As an older InstantStart left it: its labels, v1 only; the Helm release gone.
    await kube.kubectl(['delete', 'deployment', 'kuberay-operator', '-n', 'default']);
    await kube.kubectl(['delete', 'raycluster', 'legacy', '--wait=false']);
    await kube.kubectl(['delete', 'crd', 'rayclusters.ray.io', 'rayjobs.ray.io', 'rayservices.ray.io']);
    const older = kuberayCrds().map((crd: Any) => ({
      ...crd,
      spec: { ...crd.spec, versions: crd.spec.versions.filter((v: Any) => v.name === 'v1') },
    }));
    const labels = { 'app.kubernetes.io/name': 'kuberay', 'app.kubernetes.io/component': 'kuberay-operator' };
    const operator: Any = {
      ...helmOperator,
      metadata: {
        name: KUBERAY.name,
        namespace: KUBERAY.namespace,
        labels: { ...labels, 'app.kubernetes.io/managed-by': 'instantstart' },
      },
    };
    operator.spec = { ...structuredClone(helmOperator.spec), selector: { matchLabels: labels } };
    operator.spec.template.metadata.labels = labels;
    await kube.kubectl(['create', 'namespace', KUBERAY.namespace]);
    await apply(...older, operator);
    // The server keeps a cluster's features for 3 s: read until it has looked again (kubectl answers faster than that).
    let lagging = await feature();
    for (let i = 0; i < 50 && lagging.providedBy !== undefined; i++) {
      await new Promise((r) => setTimeout(r, 200));
      lagging = await feature();
    }
    assert.equal(lagging.state, 'on');
    assert.equal(lagging.providedBy, undefined);
    assert.match(
      lagging.health,
      /^InstantStart's KubeRay v1\.5\.1 is older than the pinned v1\.6\.2 \(CRD rayclusters\.ray\.io does not serve v1alpha1; missing .*\); turning the feature on upgrades it$/,
    );
    await operationOk(await server.api('PATCH', features, { 'kuberay-operator': true }));
    const crd = await getJson(['get', 'crd', 'rayjobs.ray.io']);
    assert.deepEqual(
      crd.spec.versions.map((v: Any) => [v.name, v.served, v.storage]),
      [
        ['v1', true, true],
        ['v1alpha1', true, false],
      ],
    );
    const deployment = await getJson(['get', 'deployment', KUBERAY.name, '-n', KUBERAY.namespace]);
    assert.equal(deployment.spec.template.spec.containers[0].image, KUBERAY.image);
    const f = await feature();
    assert.equal(f.state, 'on');
    assert.equal(f.version, KUBERAY.version);
    assert.doesNotMatch(f.health, /older/);
  });
});
