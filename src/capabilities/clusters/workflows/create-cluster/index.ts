import { clusterTarget, resourceNames } from '../../../../domain/naming.js';
import type { PhaseDefinition } from '../../../../engine/workflow.js';
import type { WorkflowDeps } from '../../../../workflows/context.js';
import { defineWorkflow, wholeClusterLocks, type KindWorkflow } from '../../../../workflows/define.js';
import { dependenciesPhase } from './dependencies-phase.js';
import { hyperpodPhase } from './hyperpod-phase.js';
import { eksAddonsPhase, eksPhase, iamPhase } from './iam-eks-phases.js';
import { networkPhase } from './network-phase.js';
import { storagePhase } from './storage-phase.js';
import type { CreateClusterInput, CreateClusterState } from './types.js';

export type { CreateClusterInput, CreateClusterState } from './types.js';

/** Stores the selection so later calls act on this cluster (SPEC phase 2). */
function activeClusterPhase(deps: WorkflowDeps): PhaseDefinition<CreateClusterInput, CreateClusterState> {
  return {
    name: 'active-cluster',
    title: 'Select as the active cluster',
    expectedSeconds: 1,
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
 * create-cluster: network → iam → eks → eks-addons → active-cluster → dependencies → hyperpod → storage.
 * Each phase observes first, so a retry or a resume after a crash continues where reality is.
 */
export function createClusterWorkflow(deps: WorkflowDeps): KindWorkflow<'create-cluster', CreateClusterState> {
  return defineWorkflow('create-cluster', {
    target: (input) => clusterTarget(input.region, input.name),
    locks: (input) => wholeClusterLocks(input.region, input.name),
    initialState: () => ({}),
    phases: [
      networkPhase(deps),
      iamPhase(deps),
      eksPhase(deps),
      eksAddonsPhase(deps),
      activeClusterPhase(deps),
      dependenciesPhase(deps),
      hyperpodPhase(deps),
      storagePhase(deps),
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
