import assert from 'node:assert/strict';
import { handleDiscovery } from '../../sandbox/kube/api/discovery.js';
import { makeMemoryKubeCluster, type KubeCluster } from '../../sandbox/kube/cluster.js';
import { CRD_TYPE, NAMESPACE_TYPE } from '../../sandbox/kube/resources.js';
import type { KubeObject } from '../../sandbox/kube/types.js';

/** What the discovery and validation tests share: a CronTab CRD and JSON answers of handleDiscovery. */

export const AGGREGATED_ACCEPT =
  'application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList,application/json;g=apidiscovery.k8s.io;v=v2beta1;as=APIGroupDiscoveryList,application/json';

export function cronTabCrd(options: { established?: boolean; versions?: unknown[] } = {}): KubeObject {
  return {
    apiVersion: 'apiextensions.k8s.io/v1',
    kind: 'CustomResourceDefinition',
    metadata: { name: 'crontabs.stable.example.com' },
    spec: {
      group: 'stable.example.com',
      scope: 'Namespaced',
      names: {
        plural: 'crontabs',
        singular: 'crontab',
        kind: 'CronTab',
        listKind: 'CronTabList',
        shortNames: ['ct'],
        categories: ['all'],
      },
      versions: options.versions ?? [
        {
          name: 'v1',
          served: true,
          storage: true,
          subresources: {
            status: {},
            scale: { specReplicasPath: '.spec.replicas', statusReplicasPath: '.status.replicas' },
          },
          schema: {
            openAPIV3Schema: {
              type: 'object',
              description: 'A schedule of jobs.',
              properties: {
                spec: {
                  type: 'object',
                  required: ['cronSpec'],
                  properties: {
                    cronSpec: {
                      type: 'string',
                      pattern: '^(\\S+ ){4}\\S+$',
                      description: 'When the job runs, in cron syntax.',
                    },
                    image: { type: 'string' },
                    replicas: { type: 'integer', minimum: 1, maximum: 10 },
                    size: { type: 'string', enum: ['small', 'large'] },
                    port: { 'x-kubernetes-int-or-string': true },
                    note: { type: 'string', nullable: true },
                    tags: { type: 'array', items: { type: 'string' }, 'x-kubernetes-list-type': 'set' },
                    steps: {
                      type: 'array',
                      items: {
                        type: 'object',
                        required: ['name'],
                        properties: { name: { type: 'string', maxLength: 8 }, seconds: { type: 'number' } },
                      },
                    },
                    extra: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true },
                    env: { type: 'object', additionalProperties: { type: 'string' } },
                  },
                },
                status: { type: 'object', properties: { replicas: { type: 'integer' } } },
              },
            },
          },
        },
      ],
    },
    ...(options.established === false
      ? {}
      : {
          status: {
            conditions: [
              { type: 'Established', status: 'True' },
              { type: 'NamesAccepted', status: 'True' },
            ],
          },
        }),
  };
}

/** A memory cluster with namespace `default` and, unless told otherwise, the CronTab CRD established. */
export function clusterWithCrd(crd: KubeObject | undefined = cronTabCrd()): KubeCluster {
  const cluster = makeMemoryKubeCluster();
  cluster.objects.create(NAMESPACE_TYPE, { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'default' } });
  if (crd) cluster.objects.create(CRD_TYPE, crd);
  return cluster;
}

export interface JsonAnswer {
  status: number;
  contentType: string;
  // Discovery documents are deep JSON; tests read them by path.
  body: any;
}

export function getJson(cluster: KubeCluster, path: string, accept = 'application/json, */*'): JsonAnswer {
  const answer = handleDiscovery(cluster, path, accept);
  assert.ok(answer, `${path} is served`);
  return {
    status: answer.status,
    contentType: answer.headers['content-type'] ?? '',
    body: JSON.parse(String(answer.body)),
  };
}
