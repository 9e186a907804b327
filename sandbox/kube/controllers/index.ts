// CONTRACT (owned by the controllers helper; bodies are being written now).
import type { SandboxRuntime } from '../../core/service.js';
import type { SandboxState } from '../../core/store.js';
import type { KubeCluster } from '../cluster.js';

export interface ControllerContext {
  state: SandboxState;
  now: number;
  runtime: SandboxRuntime;
}

/** Once, when a cluster's Kubernetes API first comes up: default namespaces, service accounts, kube-system workloads. Idempotent. */
export function bootstrapCluster(_cluster: KubeCluster, _ctx: ControllerContext): void {}

/** Every sandbox tick, for every live cluster: nodes from HyperPod, workloads, scheduler, jobs, services, GC, add-ons. Idempotent. */
export function runControllers(_cluster: KubeCluster, _ctx: ControllerContext): void {}
