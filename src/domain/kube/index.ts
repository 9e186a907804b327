import { CLUSTER_ROLE } from './cluster-role.js';
import { CLUSTER_ROLE_BINDING } from './cluster-role-binding.js';
import { CUSTOM_RESOURCE_DEFINITION } from './custom-resource-definition.js';
import { DAEMON_SET } from './daemon-set.js';
import { DEPLOYMENT } from './deployment.js';
import { EVENT } from './event.js';
import { HYPERPOD_NODE_CLASS } from './hyperpod-node-class.js';
import { HYPERPOD_PYTORCH_JOB } from './hyperpod-pytorch-job.js';
import { INGRESS } from './ingress.js';
import { INFERENCE_ENDPOINT_CONFIG } from './inference-endpoint-config.js';
import { JUMPSTART_MODEL } from './jumpstart-model.js';
import { JOB } from './job.js';
import type { KubeKind, KubeResource } from './kind.js';
import { NAMESPACE } from './namespace.js';
import { NODE } from './node.js';
import { NODE_POOL } from './node-pool.js';
import { PERSISTENT_VOLUME } from './persistent-volume.js';
import { PERSISTENT_VOLUME_CLAIM } from './persistent-volume-claim.js';
import { POD } from './pod.js';
import { RAY_CLUSTER } from './ray-cluster.js';
import { RAY_JOB } from './ray-job.js';
import { ROLE } from './role.js';
import { ROLE_BINDING } from './role-binding.js';
import { SCALED_OBJECT } from './scaled-object.js';
import { SECRET } from './secret.js';
import { SERVICE } from './service.js';
import { SERVICE_ACCOUNT } from './service-account.js';

/**
 * Every kind InstantStart creates or reads, so a manifest (apiVersion + kind) finds where it is
 * served without a discovery round trip. A kind not listed here is looked up by discovery.
 */
export const KNOWN_KINDS: readonly KubeKind[] = [
  NODE,
  POD,
  EVENT,
  NAMESPACE,
  SERVICE_ACCOUNT,
  PERSISTENT_VOLUME,
  PERSISTENT_VOLUME_CLAIM,
  DAEMON_SET,
  DEPLOYMENT,
  JOB,
  SECRET,
  CUSTOM_RESOURCE_DEFINITION,
  CLUSTER_ROLE,
  CLUSTER_ROLE_BINDING,
  ROLE,
  ROLE_BINDING,
  SERVICE,
  INGRESS,
  HYPERPOD_NODE_CLASS,
  NODE_POOL,
  HYPERPOD_PYTORCH_JOB,
  RAY_JOB,
  RAY_CLUSTER,
  INFERENCE_ENDPOINT_CONFIG,
  JUMPSTART_MODEL,
  SCALED_OBJECT,
] as KubeKind[];

const BY_TYPE = new Map(KNOWN_KINDS.map((k) => [`${k.apiVersion} ${k.kind}`, k]));

/** The known descriptor of a manifest's kind, or undefined. */
export const knownKind = (apiVersion: string, kind: string): KubeKind<KubeResource> | undefined =>
  BY_TYPE.get(`${apiVersion} ${kind}`);
