import { clusterTarget } from '../../../../domain/naming.js';
import type { ClusterWorkflowDeps } from '../../ports.js';
import { defineWorkflow, wholeClusterLocks, type KindWorkflow } from '../../../../workflows/define.js';
import { eksPhase, hyperpodPhase } from './cluster-phases.js';
import { iamPhase, networkPhase } from './iam-network-phases.js';
import { loadBalancersPhase } from './load-balancers-phase.js';
import { mlflowPhase, storagePhase } from './mlflow-storage-phases.js';
import type { DeleteClusterState } from './types.js';
import { verifyPhase } from './verify-phase.js';

export type { DeleteClusterInput, DeleteClusterState } from './types.js';

/**
 * delete-cluster: the create in reverse, as a saga. Every step treats "already gone" as success, so
 * a second delete — or a delete after a failed create — is harmless. Every removal goes on past its
 * own failure (onFailure: 'continue'): a HyperPod cluster that cannot be deleted must not leave the
 * EKS cluster, roles and NAT gateway behind. The verify phase then lists what remains and why, and
 * the operation fails; a retry re-runs every failed phase, then verify.
 */
export function deleteClusterWorkflow(deps: ClusterWorkflowDeps): KindWorkflow<'delete-cluster', DeleteClusterState> {
  return defineWorkflow('delete-cluster', {
    target: (input) => clusterTarget(input.region, input.name),
    locks: (input) => wholeClusterLocks(input.region, input.name),
    initialState: () => ({}),
    phases: [
      loadBalancersPhase(deps),
      hyperpodPhase(deps),
      mlflowPhase(deps),
      storagePhase(deps),
      eksPhase(deps),
      iamPhase(deps),
      networkPhase(deps),
      verifyPhase(deps),
    ],
    result: (_state, input) => ({
      clusterName: input.name,
      region: input.region,
      storageKept: input.keepStorage,
      kept: (input.keeps ?? []).map((k) => `${k.kind} ${k.name}`),
    }),
  });
}
