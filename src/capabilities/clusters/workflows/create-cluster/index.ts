import { clusterTarget, resourceNames } from '../../../../domain/naming.js';
import type { PhaseDefinition } from '../../../../engine/workflow.js';
import type { ClusterWorkflowDeps } from '../../ports.js';
import { defineWorkflow, wholeClusterLocks, type KindWorkflow } from '../../../../workflows/define.js';
import { dependenciesPhase } from './dependencies-phase.js';
import { hyperpodPhase } from './hyperpod-phase.js';
import { eksAddonsPhase, eksPhase, iamPhase } from './iam-eks-phases.js';
import { natReadyPhase } from './nat-ready-phase.js';
import { networkPhase } from './network-phase.js';
import { storagePhase } from './storage-phase.js';
import type { CreateClusterInput, CreateClusterState } from './types.js';

export type { CreateClusterInput, CreateClusterState } from './types.js';

/** Selects the new cluster as the active one, the cluster the user works with (SPEC phase 2). */
function activeClusterPhase(deps: ClusterWorkflowDeps): PhaseDefinition<CreateClusterInput, CreateClusterState> {
  return {
    name: 'active-cluster',
    title: 'Select as the active cluster',
    expectedSeconds: 1,
    deadline: { actSeconds: 60, waitSeconds: 60 }, // one row in the server's own store
    async observe(ctx) {
      const current = deps.activeCluster.get();
      return current?.name === ctx.input.name && current.region === ctx.input.region ? 'done' : 'needs-act';
    },
    async act(ctx) {
      deps.activeCluster.set({ name: ctx.input.name, region: ctx.input.region });
      ctx.log(`Active cluster is now ${ctx.input.name} (${ctx.input.region})`);
    },
  };
}

/**
 * create-cluster, as a graph (docs/OPERATIONS.md draws it): each phase starts once what it reads or
 * relies on is done, and independent phases run side by side — each still journaled, resumed and
 * retried alone.
 *
 *   network ──┬─────────────── nat-ready ──────────────┐
 *   iam ──────┴─ eks ─┬─ eks-addons ────────────────────┼─ hyperpod
 *                     ├─ dependencies ──────────────────┘
 *                     ├─ active-cluster
 *                     └─ storage
 *
 * - network and iam need nothing of each other (subnets and roles are unrelated resources).
 * - eks needs the subnets and security group (network) and the cluster role (iam), not the NAT
 *   gateway: its wait (nat-ready) runs beside EKS's 8–12 minutes.
 * - eks-addons and dependencies both need only an ACTIVE EKS cluster: EKS accepts add-ons in any
 *   order (an add-on that needs another, like the training operator needing the pod identity agent,
 *   is DEGRADED until it runs) and manifests go to the Kubernetes API. dependencies sets the default
 *   features through the features reconciler, which installs needs of its own list first.
 * - storage needs the Kubernetes API (its PV/PVC) and the compute subnet (FSx): it runs beside the
 *   add-ons and HyperPod, so an FSx file system (~10 minutes) no longer follows HyperPod.
 * - hyperpod needs the NAT gateway available (its nodes reach AWS through it), the base add-ons (nodes
 *   join through vpc-cni, kube-proxy, coredns) and the dependencies (installed before CreateCluster,
 *   hyperpod-apis.md §5.1); the execution role and EKS come through eks.
 * Each phase observes first, so a retry or a resume after a crash continues where reality is.
 */
export function createClusterWorkflow(deps: ClusterWorkflowDeps): KindWorkflow<'create-cluster', CreateClusterState> {
  return defineWorkflow('create-cluster', {
    target: (input) => clusterTarget(input.region, input.name),
    locks: (input) => wholeClusterLocks(input.region, input.name),
    initialState: () => ({}),
    // In an order they can run in (each names only phases above it); `after` as drawn above.
    phases: [
      { ...networkPhase(deps), after: [] },
      { ...natReadyPhase(deps), after: ['network'] },
      { ...iamPhase(deps), after: [] },
      { ...eksPhase(deps), after: ['network', 'iam'] },
      { ...eksAddonsPhase(deps), after: ['eks'] },
      { ...activeClusterPhase(deps), after: ['eks'] },
      { ...dependenciesPhase(deps), after: ['eks'] },
      { ...hyperpodPhase(deps), after: ['nat-ready', 'eks-addons', 'dependencies'] },
      { ...storagePhase(deps), after: ['eks'] },
    ],
    result: (state, input) => {
      const names = state.accountId ? resourceNames(input.name, state.accountId, input.region) : undefined;
      return {
        clusterName: input.name,
        region: input.region,
        hyperpodClusterArn: state.hyperpodClusterArn,
        eksClusterName: names?.eksCluster,
        eksClusterArn: state.eksClusterArn,
        vpcId: state.vpcId,
        computeSubnetId: state.subnets?.compute,
        s3Bucket: state.bucket,
        fsxFileSystemId: state.fileSystemId,
        statusUrl: `/api/v1/clusters/${input.name}?region=${input.region}`,
      };
    },
  });
}
