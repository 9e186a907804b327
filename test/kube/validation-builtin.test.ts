import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { validateObject } from '../../sandbox/kube/api/validation.js';
import { makeMemoryKubeCluster } from '../../sandbox/kube/cluster.js';
import type { StatusCause } from '../../sandbox/kube/errors.js';
import { builtinType } from '../../sandbox/kube/resources.js';
import type { KubeObject, OwnerReference } from '../../sandbox/kube/types.js';

/** What kube-apiserver refuses for the built-in kinds users create most, field by field. */

const cluster = makeMemoryKubeCluster();
const check = (
  group: string,
  resource: string,
  obj: Omit<KubeObject, 'apiVersion' | 'kind'> & Partial<KubeObject>,
): StatusCause[] => {
  const type = builtinType(group, resource);
  return validateObject(cluster, type, {
    apiVersion: group ? `${group}/${type.version}` : type.version,
    kind: type.kind,
    ...obj,
  } as KubeObject);
};
const fields = (causes: StatusCause[]) => causes.map((c) => `${c.field}: ${c.message}`);
const has = (causes: StatusCause[], field: string, reason: string, message: RegExp | string) =>
  assert.ok(
    causes.some(
      (c) =>
        c.field === field &&
        c.reason === reason &&
        (typeof message === 'string' ? c.message === message : message.test(c.message ?? '')),
    ),
    `expected ${field} ${reason} ${message} in\n${fields(causes).join('\n')}`,
  );

const template = (
  labels: Record<string, string>,
  spec: Record<string, unknown> = { containers: [{ name: 'app', image: 'nginx' }] },
) => ({ metadata: { labels }, spec });

describe('validation of built-in kinds', () => {
  it('accepts a well-formed pod and deployment', () => {
    assert.deepEqual(
      check('', 'pods', {
        metadata: { name: 'web', labels: { app: 'web' } },
        spec: {
          containers: [
            {
              name: 'web',
              image: 'nginx:1.27',
              ports: [{ containerPort: 80 }],
              resources: { requests: { cpu: '500m', memory: '1Gi' }, limits: { cpu: 1, memory: '2Gi' } },
            },
          ],
        },
      }),
      [],
    );
    assert.deepEqual(
      check('apps', 'deployments', {
        metadata: { name: 'web' },
        spec: {
          replicas: 2,
          selector: { matchLabels: { app: 'web' } },
          template: template({ app: 'web', tier: 'front' }),
        },
      }),
      [],
    );
  });

  it('names pod fields that are missing or wrong the way the API server does', () => {
    const causes = check('', 'pods', {
      metadata: { name: 'Web_1' },
      spec: {
        containers: [
          { name: 'a', image: 'x', volumeMounts: [{ name: 'data', mountPath: '/d' }] },
          { name: 'a' },
          { image: 'y', ports: [{ containerPort: 70000 }] },
        ],
        restartPolicy: 'Sometimes',
      },
    });
    has(
      causes,
      'metadata.name',
      'FieldValueInvalid',
      /^Invalid value: "Web_1": a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '\.', and must start and end with an alphanumeric character \(e\.g\. 'example\.com', regex used for validation is '/,
    );
    has(causes, 'spec.containers[1].name', 'FieldValueDuplicate', 'Duplicate value: "a"');
    has(causes, 'spec.containers[1].image', 'FieldValueRequired', 'Required value');
    has(causes, 'spec.containers[2].name', 'FieldValueRequired', 'Required value');
    has(
      causes,
      'spec.containers[2].ports[0].containerPort',
      'FieldValueInvalid',
      'Invalid value: 70000: must be between 1 and 65535, inclusive',
    );
    has(causes, 'spec.containers[0].volumeMounts[0].name', 'FieldValueNotFound', 'Not found: "data"');
    has(
      causes,
      'spec.restartPolicy',
      'FieldValueNotSupported',
      'Unsupported value: "Sometimes": supported values: "Always", "OnFailure", "Never"',
    );
    has(
      check('', 'pods', { metadata: { name: 'p' }, spec: {} }),
      'spec.containers',
      'FieldValueRequired',
      'Required value',
    );
  });

  it('reports a value of the wrong JSON type by its field, once', () => {
    const causes = check('apps', 'deployments', {
      metadata: { name: 'web' },
      spec: { replicas: '3', selector: { matchLabels: { app: 'web' } }, template: template({ app: 'web' }) },
    });
    assert.deepEqual(causes, [
      {
        field: 'spec.replicas',
        reason: 'FieldValueInvalid',
        message: 'Invalid value: "string": spec.replicas in body must be of type integer: "string"',
      },
    ]);
    const labels = check('', 'configmaps', { metadata: { name: 'c', labels: { n: 1 as unknown as string } } });
    has(
      labels,
      'metadata.labels.n',
      'FieldValueInvalid',
      'Invalid value: "integer": metadata.labels.n in body must be of type string: "integer"',
    );
  });

  it('requires the selector to match the template labels, and a valid template', () => {
    const causes = check('apps', 'deployments', {
      metadata: { name: 'web' },
      spec: {
        replicas: -1,
        selector: { matchLabels: { app: 'web' } },
        template: template({ app: 'api' }, { containers: [{ name: 'app', image: 'nginx' }], restartPolicy: 'Never' }),
      },
    });
    has(causes, 'spec.template.metadata.labels', 'FieldValueInvalid', /`selector` does not match template `labels`$/);
    has(causes, 'spec.replicas', 'FieldValueInvalid', 'Invalid value: -1: must be greater than or equal to 0');
    has(
      causes,
      'spec.template.spec.restartPolicy',
      'FieldValueNotSupported',
      'Unsupported value: "Never": supported values: "Always"',
    );
    const missing = check('apps', 'statefulsets', {
      metadata: { name: 'db' },
      spec: { template: template({ app: 'db' }, { containers: [{ name: 'db' }] }) },
    });
    has(missing, 'spec.selector', 'FieldValueRequired', 'Required value');
    has(missing, 'spec.template.spec.containers[0].image', 'FieldValueRequired', 'Required value');
    const expressions = check('apps', 'replicasets', {
      metadata: { name: 'r' },
      spec: {
        selector: { matchExpressions: [{ key: 'app', operator: 'In', values: ['a', 'b'] }] },
        template: template({ app: 'b' }),
      },
    });
    assert.deepEqual(expressions, []);
    has(
      check('apps', 'daemonsets', { metadata: { name: 'd' }, spec: { selector: {}, template: template({}) } }),
      'spec.selector',
      'FieldValueInvalid',
      /empty selector is invalid for daemonset$/,
    );
  });

  it('requires a Job restart policy of OnFailure or Never', () => {
    const none = check('batch', 'jobs', { metadata: { name: 'train' }, spec: { template: template({}) } });
    has(
      none,
      'spec.template.spec.restartPolicy',
      'FieldValueRequired',
      'Required value: valid values: "OnFailure", "Never"',
    );
    const always = check('batch', 'jobs', {
      metadata: { name: 'train' },
      spec: {
        backoffLimit: -2,
        template: template({}, { containers: [{ name: 'a', image: 'i' }], restartPolicy: 'Always' }),
      },
    });
    has(
      always,
      'spec.template.spec.restartPolicy',
      'FieldValueNotSupported',
      'Unsupported value: "Always": supported values: "OnFailure", "Never"',
    );
    has(always, 'spec.backoffLimit', 'FieldValueInvalid', 'Invalid value: -2: must be greater than or equal to 0');
    assert.deepEqual(
      check('batch', 'jobs', {
        metadata: { name: 'train' },
        spec: { template: template({}, { containers: [{ name: 'a', image: 'i' }], restartPolicy: 'Never' }) },
      }),
      [],
    );
  });

  it('checks services: DNS-1035 names, ports with a port and names when there are several', () => {
    const causes = check('', 'services', {
      metadata: { name: '1svc' },
      spec: { type: 'Balanced', ports: [{ port: 80 }, { name: 'b', port: 0 }, { name: 'b', protocol: 'HTTP' }] },
    });
    has(
      causes,
      'metadata.name',
      'FieldValueInvalid',
      /a DNS-1035 label must consist of lower case alphanumeric characters or '-', start with an alphabetic character/,
    );
    has(
      causes,
      'spec.type',
      'FieldValueNotSupported',
      'Unsupported value: "Balanced": supported values: "ClusterIP", "ExternalName", "LoadBalancer", "NodePort"',
    );
    has(causes, 'spec.ports[0].name', 'FieldValueRequired', 'Required value');
    has(causes, 'spec.ports[1].port', 'FieldValueInvalid', 'Invalid value: 0: must be between 1 and 65535, inclusive');
    has(causes, 'spec.ports[2].port', 'FieldValueRequired', 'Required value');
    has(causes, 'spec.ports[2].name', 'FieldValueDuplicate', 'Duplicate value: "b"');
    has(causes, 'spec.ports[2].protocol', 'FieldValueNotSupported', /supported values: "SCTP", "TCP", "UDP"$/);
    has(
      check('', 'services', { metadata: { name: 'svc' }, spec: {} }),
      'spec.ports',
      'FieldValueRequired',
      'Required value',
    );
  });

  it('checks volumes and claims: capacity, access modes, a volume source, storage requests', () => {
    const pv = check('', 'persistentvolumes', {
      metadata: { name: 'pv1' },
      spec: { accessModes: ['ReadWriteSometimes'] },
    });
    has(pv, 'spec.capacity', 'FieldValueRequired', 'Required value');
    has(
      pv,
      'spec.accessModes',
      'FieldValueNotSupported',
      /^Unsupported value: "ReadWriteSometimes": supported values: "ReadOnlyMany", "ReadWriteMany", "ReadWriteOnce", "ReadWriteOncePod"$/,
    );
    has(pv, 'spec', 'FieldValueRequired', 'Required value: must specify a volume type');
    assert.deepEqual(
      check('', 'persistentvolumes', {
        metadata: { name: 'pv1' },
        spec: {
          capacity: { storage: '1200Gi' },
          accessModes: ['ReadWriteMany'],
          csi: { driver: 'fsx.csi.aws.com', volumeHandle: 'fs-1' },
        },
      }),
      [],
    );
    const pvc = check('', 'persistentvolumeclaims', {
      metadata: { name: 'data' },
      spec: { resources: { requests: { storage: 'lots' } } },
    });
    has(pvc, 'spec.accessModes', 'FieldValueRequired', 'Required value: at least 1 access mode is required');
    has(
      pvc,
      'spec.resources[storage]',
      'FieldValueInvalid',
      /^Invalid value: "lots": quantities must match the regular expression/,
    );
    has(
      check('', 'persistentvolumeclaims', { metadata: { name: 'data' }, spec: { accessModes: ['ReadWriteOnce'] } }),
      'spec.resources[storage]',
      'FieldValueRequired',
      'Required value',
    );
  });

  it('checks a CRD: group, name, scope, one storage version, structural schemas', () => {
    const causes = check('apiextensions.k8s.io', 'customresourcedefinitions', {
      metadata: { name: 'things.example.com' },
      spec: {
        group: 'example',
        scope: 'Global',
        names: { plural: 'widgets', kind: 'Widget' },
        versions: [
          {
            name: 'v1',
            served: true,
            storage: false,
            schema: { openAPIV3Schema: { type: 'object', properties: { spec: { properties: {} } } } },
          },
          { name: 'v2', served: true, storage: false },
        ],
      },
    });
    has(
      causes,
      'spec.group',
      'FieldValueInvalid',
      'Invalid value: "example": should be a domain with at least one dot',
    );
    has(
      causes,
      'metadata.name',
      'FieldValueInvalid',
      'Invalid value: "things.example.com": must be spec.names.plural+"."+spec.group',
    );
    has(
      causes,
      'spec.scope',
      'FieldValueNotSupported',
      'Unsupported value: "Global": supported values: "Cluster", "Namespaced"',
    );
    has(causes, 'spec.versions', 'FieldValueInvalid', /must have exactly one version marked as storage version$/);
    has(
      causes,
      'spec.versions[0].schema.openAPIV3Schema.properties[spec].type',
      'FieldValueRequired',
      'Required value: must not be empty for specified object fields',
    );
    has(
      causes,
      'spec.versions[1].schema.openAPIV3Schema',
      'FieldValueRequired',
      'Required value: schemas are required',
    );
    const missing = check('apiextensions.k8s.io', 'customresourcedefinitions', {
      metadata: { name: 'x.example.com' },
      spec: { names: { plural: 'x' } },
    });
    for (const field of ['spec.group', 'spec.names.kind', 'spec.scope', 'spec.versions'])
      has(missing, field, 'FieldValueRequired', 'Required value');
  });

  it('applies each kind its naming rule, and checks label and annotation keys and values', () => {
    has(
      check('', 'namespaces', { metadata: { name: 'team.a' } }),
      'metadata.name',
      'FieldValueInvalid',
      /a lowercase RFC 1123 label must consist of/,
    );
    assert.deepEqual(
      check('rbac.authorization.k8s.io', 'clusterroles', {
        metadata: { name: 'system:controller:gc' },
        rules: [{ apiGroups: [''], resources: ['pods'], verbs: ['get'] }],
      }),
      [],
    );
    has(
      check('rbac.authorization.k8s.io', 'roles', {
        metadata: { name: 'a/b' },
        rules: [{ apiGroups: [''], resources: ['pods'], verbs: [] }],
      }),
      'metadata.name',
      'FieldValueInvalid',
      'Invalid value: "a/b": may not contain \'/\'',
    );
    has(
      check('', 'configmaps', { metadata: { generateName: 'Cfg-' } }),
      'metadata.generateName',
      'FieldValueInvalid',
      /RFC 1123 subdomain/,
    );
    has(
      check('', 'configmaps', { metadata: {} }),
      'metadata.name',
      'FieldValueRequired',
      'Required value: name or generateName is required',
    );
    const labelled = check('', 'configmaps', {
      metadata: { name: 'c', labels: { 'bad key!': 'v', 'example.com/ok': 'not ok!' }, annotations: { 'x/y/z': '1' } },
      data: { 'a b': '1' },
    });
    has(
      labelled,
      'metadata.labels',
      'FieldValueInvalid',
      /^Invalid value: "bad key!": name part must consist of alphanumeric characters, '-', '_' or '\.'/,
    );
    has(
      labelled,
      'metadata.labels',
      'FieldValueInvalid',
      /^Invalid value: "not ok!": a valid label must be an empty string or consist of alphanumeric characters/,
    );
    has(
      labelled,
      'metadata.annotations',
      'FieldValueInvalid',
      /^Invalid value: "x\/y\/z": a qualified name must consist of/,
    );
    has(labelled, 'data[a b]', 'FieldValueInvalid', /a valid config key must consist of alphanumeric characters/);
  });

  it('does not hold status to the required fields of the schema (the server fills it)', () => {
    const pod = {
      metadata: { name: 'p' },
      spec: { containers: [{ name: 'a', image: 'i' }] },
      status: { phase: 'Running', containerStatuses: [{ name: 'a' }] },
    };
    assert.deepEqual(check('', 'pods', pod), []);
    has(
      check('', 'pods', {
        ...pod,
        metadata: { name: 'p', ownerReferences: [{ kind: 'ReplicaSet', name: 'r' } as unknown as OwnerReference] },
      }),
      'metadata.ownerReferences[0].uid',
      'FieldValueRequired',
      'Required value',
    );
  });
});
