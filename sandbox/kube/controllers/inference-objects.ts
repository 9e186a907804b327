import type { KubeObject } from '../types.js';
import type { EndpointPlan } from './inference-plan.js';
import { controllerRef, type Any } from './util.js';

/**
 * The Kubernetes objects the HyperPod inference operator makes for an endpoint (its ClusterRole at
 * aws/sagemaker-hyperpod-cli 011ca92, `charts/inference-operator/config/rbac/role.yaml`, lets it make
 * core, apps, batch and networking.k8s.io objects and keda.sh ScaledObjects), each owned by the
 * InferenceEndpointConfig / JumpStartModel so deleting it collects them.
 *
 * Upstream names: the model server is the Deployment named after the endpoint, whose pods carry
 * `app: <name>` (the CLI's `list_pods` finds an endpoint's pods by that label; its walkthrough shows
 * pods `<name>-<hash>-<id>` and the HPA `keda-hpa-<name>-scaled-object` on `Deployment/<name>`), and
 * the ScaledObject is `<name>-scaled-object`. Assumed (no public source names them): the Service
 * `<name>` (port 80 → the worker's port), the router Deployment and Service `<name>-router` (the vLLM
 * production-stack router, whose routing logics are exactly the CRD's four strategies), its
 * ScaledObject `<name>-router-scaled-object`, the Ingress `<name>`, the model volume's static
 * PersistentVolume `<namespace>-<name>-model` and claim `<name>-model`, the LMCache environment
 * for the KV cache, and the label `inference.sagemaker.aws.amazon.com/endpoint: <name>` on everything.
 */

export const ENDPOINT_LABEL = 'inference.sagemaker.aws.amazon.com/endpoint';
export const ROUTER_IMAGE = 'lmcache/lmstack-router:v0.1.7';
const ROUTER_PORT = 8000;

export const names = (endpoint: string) => ({
  deployment: endpoint,
  service: endpoint,
  router: `${endpoint}-router`,
  scaledObject: `${endpoint}-scaled-object`,
  routerScaledObject: `${endpoint}-router-scaled-object`,
  ingress: endpoint,
  claim: `${endpoint}-model`,
});

const meta = (owner: KubeObject, plan: EndpointPlan, name: string, extra: Record<string, string> = {}) => ({
  name,
  namespace: plan.namespace,
  labels: { [ENDPOINT_LABEL]: plan.name, ...extra },
  ownerReferences: [controllerRef(owner)],
});

/** Where the pods may run: one instance type, an ordered preference among several, or the user's own affinity. */
function placement(plan: EndpointPlan): Any {
  const key = 'node.kubernetes.io/instance-type';
  if (plan.instanceType) return { nodeSelector: { [key]: plan.instanceType } };
  if (plan.instanceTypes) {
    const types = plan.instanceTypes;
    return {
      affinity: {
        nodeAffinity: {
          requiredDuringSchedulingIgnoredDuringExecution: {
            nodeSelectorTerms: [{ matchExpressions: [{ key, operator: 'In', values: types }] }],
          },
          // The first type most preferred: descending weights, as AWS describes the fallback order.
          preferredDuringSchedulingIgnoredDuringExecution: types.map((t, i) => ({
            weight: Math.max(1, 100 - i * 10),
            preference: { matchExpressions: [{ key, operator: 'In', values: [t] }] },
          })),
        },
      },
    };
  }
  if (plan.nodeAffinity) return { affinity: { nodeAffinity: plan.nodeAffinity } };
  return {};
}

/** LMCache's settings for the worker (vLLM with the LMCache connector), from `kvCacheSpec`. */
function kvCacheEnv(plan: EndpointPlan): Any[] {
  const kv = plan.kvCache;
  if (!kv) return [];
  const env = [
    { name: 'LMCACHE_USE_EXPERIMENTAL', value: 'True' },
    { name: 'LMCACHE_LOCAL_CPU', value: kv.enableL1Cache === false ? 'False' : 'True' },
  ];
  const l2 = kv.l2CacheSpec as Any | undefined;
  if (kv.enableL2Cache && l2?.l2CacheLocalUrl)
    env.push({ name: 'LMCACHE_REMOTE_URL', value: String(l2.l2CacheLocalUrl) });
  if (kv.enableL2Cache && l2?.l2CacheBackend)
    env.push({ name: 'LMCACHE_REMOTE_BACKEND', value: String(l2.l2CacheBackend).toLowerCase() });
  if (kv.cacheConfigFile) env.push({ name: 'LMCACHE_CONFIG_FILE', value: String(kv.cacheConfigFile) });
  return env;
}

function modelVolume(plan: EndpointPlan): Any {
  const m = plan.model;
  if (m.source === 's3' || m.source === 'fsx')
    return { name: m.volumeName, persistentVolumeClaim: { claimName: names(plan.name).claim, readOnly: true } };
  const own = plan.extraVolumes.find((v) => v?.name === m.volumeName);
  return own ?? { name: m.volumeName, emptyDir: {} };
}

/** The Hugging Face download the operator runs before the server: `hf download` into the model volume. */
function downloadContainer(plan: EndpointPlan): Any[] {
  const hf = plan.model.huggingFace;
  if (plan.model.source !== 'huggingface' || !hf) return [];
  return [
    {
      name: 'model-download',
      image: 'public.ecr.aws/sagemaker/hyperpod-model-downloader:latest',
      command: [
        'hf',
        'download',
        hf.modelId,
        ...(hf.revision ? ['--revision', hf.revision] : []),
        '--local-dir',
        plan.model.mountPath,
      ],
      // The token reaches only this init container, from its Secret (the CRD's tokenSecretRef says so).
      ...(hf.tokenSecretRef || hf.endpoint
        ? {
            env: [
              ...(hf.tokenSecretRef ? [{ name: 'HF_TOKEN', valueFrom: { secretKeyRef: hf.tokenSecretRef } }] : []),
              ...(hf.endpoint ? [{ name: 'HF_ENDPOINT', value: hf.endpoint }] : []),
            ],
          }
        : {}),
      volumeMounts: [{ name: plan.model.volumeName, mountPath: plan.model.mountPath }],
    },
  ];
}

export function modelDeployment(owner: KubeObject, plan: EndpointPlan, replicas: number): KubeObject {
  const c = plan.container;
  const labels = { app: plan.name, [ENDPOINT_LABEL]: plan.name };
  const volume = modelVolume(plan);
  const container: Any = {
    name: 'worker',
    image: c.image,
    ...(c.command ? { command: c.command } : {}),
    ...(c.args ? { args: c.args } : {}),
    env: [...c.env, ...kvCacheEnv(plan)],
    ports: [{ name: c.portName, containerPort: c.port, protocol: 'TCP' }],
    resources: c.resources,
    ...(c.workingDir ? { workingDir: c.workingDir } : {}),
    ...(c.probes.livenessProbe ? { livenessProbe: c.probes.livenessProbe } : {}),
    ...(c.probes.readinessProbe ? { readinessProbe: c.probes.readinessProbe } : {}),
    ...(c.probes.startupProbe ? { startupProbe: c.probes.startupProbe } : {}),
    volumeMounts: [{ name: plan.model.volumeName, mountPath: plan.model.mountPath }],
  };
  if (container.env.length === 0) delete container.env;
  const others = plan.extraVolumes.filter((v) => v?.name !== plan.model.volumeName);
  return {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: meta(owner, plan, names(plan.name).deployment, { app: plan.name }),
    spec: {
      replicas,
      selector: { matchLabels: { app: plan.name } },
      template: {
        metadata: { labels },
        spec: {
          ...placement(plan),
          ...(plan.serviceAccountName ? { serviceAccountName: plan.serviceAccountName } : {}),
          initContainers: [...downloadContainer(plan), ...plan.initContainers],
          containers: [container],
          volumes: [volume, ...others],
        },
      },
    },
  };
}

export function modelService(owner: KubeObject, plan: EndpointPlan): KubeObject {
  return {
    apiVersion: 'v1',
    kind: 'Service',
    metadata: meta(owner, plan, names(plan.name).service, { app: plan.name }),
    spec: {
      type: 'ClusterIP',
      selector: { app: plan.name },
      ports: [{ name: plan.container.portName, port: 80, targetPort: plan.container.port, protocol: 'TCP' }],
    },
  };
}

/** The router in front of the workers (intelligent routing): it discovers them by their `app` label. */
export function routerObjects(owner: KubeObject, plan: EndpointPlan): KubeObject[] {
  if (!plan.routing) return [];
  const n = names(plan.name);
  const labels = { app: n.router, [ENDPOINT_LABEL]: plan.name };
  const deployment: KubeObject = {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: meta(owner, plan, n.router, { app: n.router }),
    spec: {
      replicas: 1,
      selector: { matchLabels: { app: n.router } },
      template: {
        metadata: { labels },
        spec: {
          containers: [
            {
              name: 'router',
              image: ROUTER_IMAGE,
              command: ['vllm-router'],
              args: [
                '--host',
                '0.0.0.0',
                '--port',
                String(ROUTER_PORT),
                '--service-discovery',
                'k8s',
                '--k8s-namespace',
                plan.namespace,
                '--k8s-label-selector',
                `app=${plan.name}`,
                '--k8s-port',
                String(plan.container.port),
                '--routing-logic',
                plan.routing.strategy,
              ],
              ports: [{ name: 'http', containerPort: ROUTER_PORT, protocol: 'TCP' }],
              resources: { requests: { cpu: '1', memory: '2Gi' } },
            },
          ],
        },
      },
    },
  };
  const service: KubeObject = {
    apiVersion: 'v1',
    kind: 'Service',
    metadata: meta(owner, plan, n.router, { app: n.router }),
    spec: {
      type: 'ClusterIP',
      selector: { app: n.router },
      ports: [{ name: 'http', port: 80, targetPort: ROUTER_PORT, protocol: 'TCP' }],
    },
  };
  return [deployment, service];
}

/**
 * The ALB in front of the endpoint: an Ingress of class `alb` for the AWS Load Balancer Controller
 * (annotations of its v2.13 docs: scheme, IP targets, health-check path, the target group's load
 * balancing algorithm; HTTPS with the custom certificate when one is given), to the router when
 * there is one. Assumed: the scheme is internal (the SageMaker endpoint reaches it inside the VPC).
 */
export function ingress(owner: KubeObject, plan: EndpointPlan): KubeObject | undefined {
  const lb = plan.loadBalancer;
  if (!lb) return undefined;
  const n = names(plan.name);
  const cert = plan.tls?.customCertificateConfig as Any | undefined;
  return {
    apiVersion: 'networking.k8s.io/v1',
    kind: 'Ingress',
    metadata: {
      ...meta(owner, plan, n.ingress),
      annotations: {
        'alb.ingress.kubernetes.io/scheme': 'internal',
        'alb.ingress.kubernetes.io/target-type': 'ip',
        'alb.ingress.kubernetes.io/healthcheck-path': String(lb.healthCheckPath ?? '/ping'),
        'alb.ingress.kubernetes.io/target-group-attributes': `load_balancing.algorithm.type=${lb.routingAlgorithm ?? 'least_outstanding_requests'}`,
        ...(cert?.acmArn
          ? {
              'alb.ingress.kubernetes.io/listen-ports': '[{"HTTPS":443}]',
              'alb.ingress.kubernetes.io/certificate-arn': String(cert.acmArn),
            }
          : { 'alb.ingress.kubernetes.io/listen-ports': '[{"HTTP":80}]' }),
      },
    },
    spec: {
      ingressClassName: 'alb',
      rules: [
        {
          ...(cert?.domainName ? { host: String(cert.domainName) } : {}),
          http: {
            paths: [
              {
                path: '/',
                pathType: 'Prefix',
                backend: { service: { name: plan.routing ? n.router : n.service, port: { number: 80 } } },
              },
            ],
          },
        },
      ],
    },
  };
}

/** The model volume's static PersistentVolume and claim (Mountpoint for S3 or FSx for Lustre CSI), when the source is one. */
export function modelStorage(owner: KubeObject, plan: EndpointPlan): { pv?: KubeObject; pvc?: KubeObject } {
  const m = plan.model;
  if (m.source !== 's3' && m.source !== 'fsx') return {};
  const n = names(plan.name);
  const pvName = `${plan.namespace}-${plan.name}-model`;
  const csi: Any =
    m.source === 's3'
      ? {
          driver: 's3.csi.aws.com',
          volumeHandle: `${pvName}-s3`,
          volumeAttributes: { bucketName: m.s3!.bucket },
        }
      : {
          driver: 'fsx.csi.aws.com',
          volumeHandle: m.fsx!.fileSystemId,
          volumeAttributes: {
            ...(m.fsx!.dnsName ? { dnsname: m.fsx!.dnsName } : {}),
            ...(m.fsx!.mountName ? { mountname: m.fsx!.mountName } : {}),
          },
        };
  const pv: KubeObject = {
    apiVersion: 'v1',
    kind: 'PersistentVolume',
    // A cluster-scoped object cannot be owned by a namespaced one: the operator removes it with the endpoint.
    metadata: {
      name: pvName,
      labels: { [ENDPOINT_LABEL]: plan.name },
      annotations: { [OWNER_UID]: owner.metadata.uid! },
    },
    spec: {
      capacity: { storage: '1200Gi' },
      accessModes: ['ReadOnlyMany'],
      persistentVolumeReclaimPolicy: 'Retain',
      storageClassName: '',
      ...(m.source === 's3'
        ? {
            mountOptions: [
              'read-only',
              `region ${m.s3!.region}`,
              ...(m.s3!.prefix ? [`prefix ${m.s3!.prefix.replace(/\/?$/, '/')}`] : []),
            ],
          }
        : {}),
      csi,
      claimRef: { namespace: plan.namespace, name: n.claim },
    },
  };
  const pvc: KubeObject = {
    apiVersion: 'v1',
    kind: 'PersistentVolumeClaim',
    metadata: meta(owner, plan, n.claim),
    spec: {
      accessModes: ['ReadOnlyMany'],
      storageClassName: '',
      volumeName: pvName,
      resources: { requests: { storage: '1200Gi' } },
    },
  };
  return { pv, pvc };
}

export const OWNER_UID = 'inference.sagemaker.aws.amazon.com/owner-uid';
