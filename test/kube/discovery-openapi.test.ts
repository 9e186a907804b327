import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { handleDiscovery } from '../../sandbox/kube/api/discovery.js';
import { makeMemoryKubeCluster } from '../../sandbox/kube/cluster.js';
import { CRD_TYPE } from '../../sandbox/kube/resources.js';
import { clusterWithCrd, cronTabCrd, getJson } from './discovery-fixtures.js';

type Doc = any;

/** What kubectl 1.32's QueryParamVerifierV3 checks: the first PATCH operation of the kind declares `fieldValidation`. */
function patchDeclaresFieldValidation(doc: Doc, gvk: { group: string; version: string; kind: string }): boolean {
  for (const item of Object.values(doc.paths) as Doc[]) {
    const op = item.patch;
    if (!op) continue;
    const g = op['x-kubernetes-group-version-kind'];
    if (g?.group !== gvk.group || g?.version !== gvk.version || g?.kind !== gvk.kind) continue;
    return (op.parameters as Array<{ name: string }>).some((p) => p.name === 'fieldValidation');
  }
  return false;
}

/** The schema `kubectl explain` picks: the component whose x-kubernetes-group-version-kind lists the kind. */
function schemaOfKind(doc: Doc, kind: string): Doc {
  return Object.values(doc.components.schemas).find((s: Doc) =>
    (s['x-kubernetes-group-version-kind'] ?? []).some((g: Doc) => g.kind === kind),
  );
}

const resolve = (doc: Doc, schema: Doc): Doc => {
  const ref = schema.$ref ?? schema.allOf?.[0]?.$ref;
  return ref ? doc.components.schemas[ref.split('/').pop()] : schema;
};

describe('OpenAPI documents', () => {
  it('indexes one v3 document per group/version, each URL carrying the hash of its content', () => {
    const root = getJson(makeMemoryKubeCluster(), '/openapi/v3').body;
    assert.deepEqual(Object.keys(root.paths).sort(), [
      'api/v1',
      'apis/apiextensions.k8s.io/v1',
      'apis/apps/v1',
      'apis/autoscaling/v2',
      'apis/batch/v1',
      'apis/networking.k8s.io/v1',
      'apis/rbac.authorization.k8s.io/v1',
      'apis/storage.k8s.io/v1',
    ]);
    assert.match(root.paths['api/v1'].serverRelativeURL, /^\/openapi\/v3\/api\/v1\?hash=[0-9A-F]{128}$/);
  });

  it('serves core/v1 with Pod tagged by its group/version/kind and a PATCH that declares fieldValidation', () => {
    const doc = getJson(makeMemoryKubeCluster(), '/openapi/v3/api/v1').body;
    assert.equal(doc.openapi, '3.0.0');
    const pod = doc.components.schemas['io.k8s.api.core.v1.Pod'];
    assert.deepEqual(pod['x-kubernetes-group-version-kind'], [{ group: '', version: 'v1', kind: 'Pod' }]);
    assert.ok(patchDeclaresFieldValidation(doc, { group: '', version: 'v1', kind: 'Pod' }));
    const patch = doc.paths['/api/v1/namespaces/{namespace}/pods/{name}'].patch;
    assert.equal(patch['x-kubernetes-action'], 'patch');
    assert.ok(patch.requestBody.content['application/strategic-merge-patch+json']);
    assert.ok(doc.paths['/api/v1/namespaces/{namespace}/pods/{name}/log'].get);
    assert.ok(doc.paths['/api/v1/pods'].get, 'pods of every namespace');
  });

  it('describes fields with their types, required lists and documentation, down to pod.spec.containers', () => {
    const doc = getJson(makeMemoryKubeCluster(), '/openapi/v3/api/v1').body;
    const spec = resolve(doc, schemaOfKind(doc, 'Pod').properties.spec);
    assert.deepEqual(spec.required, ['containers']);
    assert.equal(spec.properties.containers.type, 'array');
    const container = resolve(doc, spec.properties.containers.items);
    assert.deepEqual(container.required, ['name']);
    assert.equal(container.properties.image.type, 'string');
    assert.match(container.properties.image.description, /image name/i);
    const ports = resolve(doc, container.properties.ports.items);
    assert.equal(ports.properties.containerPort.type, 'integer');
    const resources = resolve(doc, container.properties.resources);
    assert.equal(
      resources.properties.limits.additionalProperties.$ref,
      '#/components/schemas/io.k8s.apimachinery.pkg.api.resource.Quantity',
    );
  });

  it('puts the scale subresource of apps/v1 under autoscaling/v1 Scale', () => {
    const doc = getJson(makeMemoryKubeCluster(), '/openapi/v3/apis/apps/v1').body;
    const scale = doc.paths['/apis/apps/v1/namespaces/{namespace}/deployments/{name}/scale'].patch;
    assert.deepEqual(scale['x-kubernetes-group-version-kind'], { group: 'autoscaling', version: 'v1', kind: 'Scale' });
    assert.ok(doc.components.schemas['io.k8s.api.autoscaling.v1.Scale']);
    assert.ok(patchDeclaresFieldValidation(doc, { group: 'apps', version: 'v1', kind: 'Deployment' }));
    assert.deepEqual(doc.components.schemas['io.k8s.api.apps.v1.DeploymentList']['x-kubernetes-group-version-kind'], [
      { group: 'apps', version: 'v1', kind: 'DeploymentList' },
    ]);
  });

  it('publishes an established CRD version with its schema, and a new hash when the CRD changes', () => {
    const cluster = clusterWithCrd();
    const root = getJson(cluster, '/openapi/v3').body;
    const url = root.paths['apis/stable.example.com/v1'].serverRelativeURL;
    const doc = getJson(cluster, '/openapi/v3/apis/stable.example.com/v1').body;
    const cronTab = doc.components.schemas['com.example.stable.v1.CronTab'];
    assert.deepEqual(cronTab['x-kubernetes-group-version-kind'], [
      { group: 'stable.example.com', version: 'v1', kind: 'CronTab' },
    ]);
    assert.deepEqual(cronTab.properties.spec.required, ['cronSpec']);
    assert.ok(cronTab.properties.metadata, 'metadata is declared as ObjectMeta');
    assert.ok(doc.components.schemas['io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta']);
    assert.ok(patchDeclaresFieldValidation(doc, { group: 'stable.example.com', version: 'v1', kind: 'CronTab' }));

    const crd = cluster.objects.get(CRD_TYPE, undefined, 'crontabs.stable.example.com')!;
    const changed = structuredClone(crd);
    (changed.spec as Doc).versions[0].schema.openAPIV3Schema.properties.spec.properties.owner = { type: 'string' };
    cluster.objects.update(CRD_TYPE, changed);
    assert.notEqual(getJson(cluster, '/openapi/v3').body.paths['apis/stable.example.com/v1'].serverRelativeURL, url);
    assert.equal(
      handleDiscovery(clusterWithCrd(cronTabCrd({ established: false })), '/openapi/v3/apis/stable.example.com/v1', ''),
      undefined,
    );
  });

  it('serves /openapi/v2 as Swagger 2.0 JSON, and its protobuf header to kubectl', () => {
    const cluster = clusterWithCrd();
    const swagger = getJson(cluster, '/openapi/v2', 'application/json').body;
    assert.equal(swagger.swagger, '2.0');
    assert.deepEqual(swagger.definitions['io.k8s.api.apps.v1.Deployment']['x-kubernetes-group-version-kind'], [
      { group: 'apps', version: 'v1', kind: 'Deployment' },
    ]);
    assert.deepEqual(swagger.definitions['io.k8s.apimachinery.pkg.util.intstr.IntOrString'], {
      'x-kubernetes-int-or-string': true,
      type: 'string',
      format: 'int-or-string',
    });
    const patch = swagger.paths['/apis/stable.example.com/v1/namespaces/{namespace}/crontabs/{name}'].patch;
    assert.ok(patch.parameters.some((p: Doc) => p.name === 'body' && p.in === 'body'));
    assert.ok(!JSON.stringify(swagger).includes('#/components/schemas/'), 'references point at definitions');

    const proto = handleDiscovery(
      cluster,
      '/openapi/v2',
      'application/com.github.proto-openapi.spec.v2@v1.0+protobuf',
    )!;
    assert.equal(proto.headers['content-type'], 'application/com.github.proto-openapi.spec.v2.v1.0+protobuf');
    assert.ok(Buffer.isBuffer(proto.body));
    assert.equal((proto.body as Buffer).subarray(0, 5).toString('latin1'), '\n\x032.0');
  });
});
