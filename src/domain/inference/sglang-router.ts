import type { PolicyRule } from '../kube/cluster-role.js';
import type { DeploymentManifest } from '../kube/deployment.js';
import type { KubeObject } from '../kube-object.js';
import type { ServiceManifest } from '../kube/service.js';
import {
  COMPONENT_LABEL,
  ENDPOINT_LABEL,
  endpointLabels,
  MODEL_SERVER,
  ROUTER,
  ROUTER_METRICS_PORT,
  ROUTER_PORT,
  routerName,
  SERVICE_PORT,
} from './names.js';
import { scrapeAnnotations } from './serving-pod.js';

/**
 * The SGLang router in front of a multi-replica SGLang endpoint (`python3 -m sglang_router.launch_router`,
 * sgl-project/sglang `sglang_router/router_args.py`; hyperpod-apis.md §3.6): it finds the endpoint's
 * model-server pods by Kubernetes service discovery (`--service-discovery --selector k=v …`, in its own
 * namespace, on the servers' port) and routes with `--policy` (cache_aware: longest prefix match
 * unless the load is unbalanced). Discovery lists and watches pods, so the router runs as its own
 * ServiceAccount with a Role for exactly that; everything is named `<endpoint>-router`. The router
 * needs no GPU and is pinned to no instance group (no nodeSelector), so it carries no group
 * tolerations: it runs on any untainted node of the cluster, the servers on their group's nodes.
 */

export type RouterObjects = {
  deployment: DeploymentManifest;
  service: ServiceManifest;
  serviceAccount: KubeObject;
  role: KubeObject;
  roleBinding: KubeObject;
};

const RBAC = 'rbac.authorization.k8s.io/v1';
const DISCOVERY_RULES: readonly PolicyRule[] = [
  { apiGroups: [''], resources: ['pods'], verbs: ['get', 'list', 'watch'] },
];

export function routerArgs(p: { endpoint: string; namespace: string; serverPort: number; policy: string }): string[] {
  return [
    '--host',
    '0.0.0.0',
    '--port',
    String(ROUTER_PORT),
    '--service-discovery',
    '--selector',
    `${ENDPOINT_LABEL}=${p.endpoint}`,
    `${COMPONENT_LABEL}=${MODEL_SERVER}`,
    '--service-discovery-port',
    String(p.serverPort),
    '--service-discovery-namespace',
    p.namespace,
    '--policy',
    p.policy,
    '--prometheus-host',
    '0.0.0.0',
    '--prometheus-port',
    String(ROUTER_METRICS_PORT),
  ];
}

export function routerObjects(p: {
  endpoint: string;
  namespace: string;
  image: string;
  serverPort: number;
  policy: string;
}): RouterObjects {
  const name = routerName(p.endpoint);
  const labels = endpointLabels(p.endpoint, 'sglang', ROUTER);
  const selector = { [ENDPOINT_LABEL]: p.endpoint, [COMPONENT_LABEL]: ROUTER };
  const meta = { name, namespace: p.namespace, labels };
  return {
    serviceAccount: { apiVersion: 'v1', kind: 'ServiceAccount', metadata: { ...meta, labels: { ...labels } } },
    role: {
      apiVersion: RBAC,
      kind: 'Role',
      metadata: { ...meta, labels: { ...labels } },
      rules: DISCOVERY_RULES.map((r) => ({
        apiGroups: [...r.apiGroups],
        resources: [...r.resources],
        verbs: [...r.verbs],
      })),
    },
    roleBinding: {
      apiVersion: RBAC,
      kind: 'RoleBinding',
      metadata: { ...meta, labels: { ...labels } },
      roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'Role', name },
      subjects: [{ kind: 'ServiceAccount', name, namespace: p.namespace }],
    },
    deployment: {
      apiVersion: 'apps/v1',
      kind: 'Deployment',
      metadata: { ...meta, labels: { ...labels } },
      spec: {
        replicas: 1,
        selector: { matchLabels: { ...selector } },
        template: {
          metadata: { labels: { ...labels }, annotations: scrapeAnnotations(ROUTER_METRICS_PORT) },
          spec: {
            serviceAccountName: name,
            containers: [
              {
                name: 'router',
                image: p.image,
                command: ['python3', '-m', 'sglang_router.launch_router'],
                args: routerArgs(p),
                ports: [
                  { name: 'http', containerPort: ROUTER_PORT, protocol: 'TCP' },
                  { name: 'metrics', containerPort: ROUTER_METRICS_PORT, protocol: 'TCP' },
                ],
                readinessProbe: { httpGet: { path: '/health', port: 'http' }, periodSeconds: 10, failureThreshold: 3 },
              },
            ],
          },
        },
      },
    },
    service: routerService(p.namespace, name, labels, selector),
  };
}

function routerService(
  namespace: string,
  name: string,
  labels: Record<string, string>,
  selector: Record<string, string>,
): ServiceManifest {
  return {
    apiVersion: 'v1',
    kind: 'Service',
    metadata: { name, namespace, labels: { ...labels } },
    spec: {
      type: 'ClusterIP',
      selector: { ...selector },
      ports: [
        { name: 'http', port: SERVICE_PORT, targetPort: ROUTER_PORT, protocol: 'TCP' },
        { name: 'metrics', port: ROUTER_METRICS_PORT, targetPort: ROUTER_METRICS_PORT, protocol: 'TCP' },
      ],
    },
  };
}

/** The selector of endpoint `endpoint`'s router pods (what its Service targets when the router is in front). */
export const routerSelector = (endpoint: string): Record<string, string> => ({
  [ENDPOINT_LABEL]: endpoint,
  [COMPONENT_LABEL]: ROUTER,
});
