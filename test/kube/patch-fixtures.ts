import assert from 'node:assert/strict';
import { KubeError } from '../../sandbox/kube/errors.js';
import { builtinType } from '../../sandbox/kube/resources.js';
import type { KubeObject, ManagedFieldsEntry, ResourceType } from '../../sandbox/kube/types.js';

/** Realistic objects for the patch tests (as the API stores them: defaults filled in). */

export const DEPLOYMENTS = builtinType('apps', 'deployments');
export const PODS = builtinType('', 'pods');
export const SERVICES = builtinType('', 'services');
export const JOBS = builtinType('batch', 'jobs');
export const WIDGETS: ResourceType = {
  group: 'example.com',
  version: 'v1',
  resource: 'widgets',
  singular: 'widget',
  kind: 'Widget',
  listKind: 'WidgetList',
  namespaced: true,
  verbs: ['get', 'patch'],
  subresources: { status: true },
  crd: 'widgets.example.com',
};
export const NOW = '2026-06-01T12:00:00Z';
export const LATER = '2026-06-01T12:05:00Z';

export type Any = Record<string, any>;

export function deployment(): KubeObject {
  return {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { name: 'web', namespace: 'default', labels: { app: 'web' } },
    spec: {
      replicas: 2,
      selector: { matchLabels: { app: 'web' } },
      strategy: { type: 'RollingUpdate', rollingUpdate: { maxSurge: '25%', maxUnavailable: '25%' } },
      template: {
        metadata: { labels: { app: 'web' } },
        spec: {
          containers: [
            {
              name: 'web',
              image: 'nginx:1.27',
              args: ['--port', '8080'],
              env: [{ name: 'MODE', value: 'prod' }],
              ports: [{ containerPort: 8080, protocol: 'TCP' }],
              volumeMounts: [{ name: 'cache', mountPath: '/cache' }],
            },
            { name: 'log-shipper', image: 'fluent-bit:3' },
          ],
          volumes: [{ name: 'cache', emptyDir: {} }],
          tolerations: [{ key: 'nvidia.com/gpu', operator: 'Exists', effect: 'NoSchedule' }],
        },
      },
    },
  };
}

export function service(): KubeObject {
  return {
    apiVersion: 'v1',
    kind: 'Service',
    metadata: { name: 'web', namespace: 'default' },
    spec: {
      selector: { app: 'web' },
      ports: [
        { name: 'http', port: 80, targetPort: 8080, protocol: 'TCP' },
        { name: 'metrics', port: 9090, targetPort: 9090, protocol: 'TCP' },
      ],
    },
  };
}

export function widget(): KubeObject {
  return {
    apiVersion: 'example.com/v1',
    kind: 'Widget',
    metadata: { name: 'w', namespace: 'default' },
    spec: { size: 3, tags: ['a', 'b'] },
  };
}

export const podSpec = (o: KubeObject): Any => (o.spec as Any).template.spec;
export const containers = (o: KubeObject): Any[] => podSpec(o).containers;
export const container = (o: KubeObject, name: string): Any => containers(o).find((c) => c.name === name)!;
export const entry = (o: KubeObject, manager: string, operation?: 'Apply' | 'Update'): ManagedFieldsEntry | undefined =>
  o.metadata.managedFields?.find((e) => e.manager === manager && (!operation || e.operation === operation));
export const fields = (o: KubeObject, manager: string): Any => entry(o, manager)?.fieldsV1 as Any;

/** Asserts that `fn` throws a KubeError with this code and returns it. */
export function kubeError(fn: () => unknown, code: number): KubeError {
  try {
    fn();
  } catch (e) {
    assert.ok(e instanceof KubeError, `expected a KubeError, got ${String(e)}`);
    assert.equal(e.code, code, e.message);
    return e;
  }
  assert.fail(`expected a ${code} KubeError`);
}
