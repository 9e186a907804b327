import type { ContainerManifest } from '../kube/deployment.js';
import type { Loose } from '../kube/kind.js';
import { groupTolerations, type GroupTaint } from '../instance-groups/tolerations.js';
import { INSTANCE_GROUP_LABEL } from '../node-health-terms.js';
import type { EnvVarRequest } from '../schemas/training/fields.js';
import type { SecretKeyRefSchema } from '../schemas/inference/fields.js';
import { GPU_RESOURCE } from '../training/placement.js';
import type { z } from 'zod';
import { DATA_MOUNT, HF_TOKEN_ENV } from './names.js';
import type { ServingCommand } from './serving-command.js';

/**
 * The pod of a model server, shared by endpoint Deployments and pool workers: one container on the
 * instance group's nodes (`sagemaker.amazonaws.com/instance-group-name`, tolerating exactly the
 * group's taints, as training pods do), its GPUs as an extended
 * resource, the storage claim at /data, shared memory for tensor-parallel workers (PyTorch moves
 * tensors between processes through /dev/shm), a readiness probe on `/health` (vLLM and SGLang both
 * answer it once the model is loaded), and Prometheus scrape annotations on the pod.
 */

/** What the caller resolved: the group's instance type, accelerators and taints, the image, the storage's claim. */
export type ContainerEndpointFacts = {
  instanceType: string;
  gpusPerNode: number;
  /** The group's taints (HyperPod keeps them on its nodes): the serving pods tolerate exactly these. */
  taints: ReadonlyArray<GroupTaint>;
  /** EFA interfaces per node. Not requested: a replica runs on one node, where GPUs talk over NVLink/PCIe. */
  efaPerNode?: number;
  /** The resolved image: `req.image`, else DEFAULT_SERVING_IMAGES[engine]. */
  image: string;
  /** The PersistentVolumeClaim of `req.storage`, mounted at /data. */
  storageClaim?: string;
};

export type SecretRef = z.infer<typeof SecretKeyRefSchema>;

export const SERVER_CONTAINER = 'server';
const HTTP = 'http';

export function servingContainer(p: {
  image: string;
  command: ServingCommand;
  port: number;
  gpus: number;
  env?: readonly EnvVarRequest[];
  hfToken?: SecretRef;
  storageClaim?: string;
}): ContainerManifest {
  const gpus = p.gpus > 0 ? { [GPU_RESOURCE]: String(p.gpus) } : undefined;
  // The request's variables first; the token (by reference only, never a literal) is ours and wins.
  const env: Loose[] = [
    ...(p.env ?? []).filter((e) => e.name !== HF_TOKEN_ENV).map((e) => ({ name: e.name, value: e.value })),
    ...(p.hfToken
      ? [{ name: HF_TOKEN_ENV, valueFrom: { secretKeyRef: { name: p.hfToken.name, key: p.hfToken.key } } }]
      : []),
  ];
  return {
    name: SERVER_CONTAINER,
    image: p.image,
    ...(p.command.command.length ? { command: [...p.command.command] } : {}),
    ...(p.command.args.length ? { args: [...p.command.args] } : {}),
    ports: [{ name: HTTP, containerPort: p.port, protocol: 'TCP' }],
    ...(env.length ? { env } : {}),
    ...(gpus ? { resources: { limits: gpus } } : {}),
    // Loading a model takes minutes: the pod joins its Service only once /health answers.
    readinessProbe: {
      httpGet: { path: '/health', port: HTTP },
      periodSeconds: 10,
      timeoutSeconds: 5,
      failureThreshold: 3,
    },
    volumeMounts: [
      { name: 'dshm', mountPath: '/dev/shm' },
      ...(p.storageClaim ? [{ name: 'data', mountPath: DATA_MOUNT }] : []),
    ],
  };
}

/**
 * The pod spec around a serving container: placement on the group (its nodes, tolerating its taints;
 * no `tolerations` field when it has none), /dev/shm, the storage claim.
 */
export function servingPodSpec(p: {
  instanceGroup: string;
  taints: ReadonlyArray<GroupTaint>;
  container: ContainerManifest;
  storageClaim?: string;
}): Loose & {
  containers: ContainerManifest[];
} {
  const tolerations = groupTolerations(p.taints);
  return {
    nodeSelector: { [INSTANCE_GROUP_LABEL]: p.instanceGroup },
    ...(tolerations.length ? { tolerations } : {}),
    containers: [p.container],
    volumes: [
      { name: 'dshm', emptyDir: { medium: 'Memory' } },
      ...(p.storageClaim ? [{ name: 'data', persistentVolumeClaim: { claimName: p.storageClaim } }] : []),
    ],
  };
}

/** What the prometheus-community chart's `kubernetes-pods` job reads to scrape a pod (annotation values are strings). */
export const scrapeAnnotations = (port: number, path = '/metrics'): Record<string, string> => ({
  'prometheus.io/scrape': 'true',
  'prometheus.io/port': String(port),
  'prometheus.io/path': path,
});
