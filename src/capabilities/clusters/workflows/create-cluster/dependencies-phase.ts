import { createClusterDependencyFeatures } from '../../../../domain/cluster-dependencies.js';
import { CloudError } from '../../../../domain/errors.js';
import type { PhaseDefinition } from '../../../../engine/workflow.js';
import type { WorkflowDeps } from '../../../../workflows/context.js';
import { featureFacts } from '../../../../workflows/feature-reconciliation/feature-facts.js';
import { readSource } from '../../../../workflows/feature-reconciliation/feature-reading.js';
import { reconcilePhase } from '../../../../workflows/feature-reconciliation/reconcile.js';
import { ADDON_SET_EXPECTED_SECONDS, namesFor } from './iam-eks-phases.js';
import type { CreateClusterInput, CreateClusterState } from './types.js';

const features = (input: CreateClusterInput) =>
  createClusterDependencyFeatures({ s3: input.storage.s3, fsx: Boolean(input.storage.fsxLustre) });

/**
 * "Set the default features": what HyperPod needs before it makes nodes (the health-monitoring
 * agent, the device plugins), the training operator with what it stands on, and the CSI driver of
 * each storage create makes — through the features reconciler (src/capabilities/features), the same
 * one set-features uses. Each feature is observed first and skipped when already on, so a retry (or
 * a cluster someone prepared by hand) installs only what is missing; a failed add-on is deleted and
 * installed again.
 */
export function dependenciesPhase(deps: WorkflowDeps): PhaseDefinition<CreateClusterInput, CreateClusterState> {
  return reconcilePhase<CreateClusterInput, CreateClusterState>(deps, {
    name: 'dependencies',
    title:
      'Default features: cert-manager, health-monitoring agent, device plugins, training operator, storage CSI drivers',
    expectedSeconds: ADDON_SET_EXPECTED_SECONDS,
    deadline: { actSeconds: 900, waitSeconds: 2700 }, // several features, each an add-on or a chart, one after another
    action: 'install',
    items: (ctx) => features(ctx.input).map((feature) => ({ feature, config: {} })),
    async source(ctx) {
      let facts = ctx.state.featureFacts;
      if (!facts) {
        const names = await namesFor(deps, ctx);
        const eks = await deps.cloud.eks.describeCluster(ctx.input.region, names.eksCluster);
        if (!eks)
          throw new CloudError({
            service: 'eks',
            operation: 'DescribeCluster',
            code: 'ResourceNotFoundException',
            message: `EKS cluster ${names.eksCluster} disappeared.`,
          });
        facts = await featureFacts(deps, {
          region: ctx.input.region,
          cluster: ctx.input.name,
          accountId: ctx.state.accountId!,
          eks,
          ...(ctx.input.storage.s3 ? { sharedBucket: names.bucket } : {}),
        });
        ctx.setState({ featureFacts: facts });
      }
      // The HyperPod cluster is made after this phase: no feature create sets reads it.
      return readSource(deps, facts);
    },
    pollKey: (ctx) => `eks:${ctx.input.region}:dependencies:${ctx.input.name}`,
  });
}
