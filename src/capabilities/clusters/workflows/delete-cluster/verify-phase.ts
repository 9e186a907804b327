import { CloudError } from '../../../../domain/errors.js';
import { isKept } from '../../../../domain/cluster-teardown.js';
import { clusterResources } from '../../../../workflows/cluster-resources.js';
import type { ClusterWorkflowDeps } from '../../ports.js';
import { keepsOf, names, type Phase } from './types.js';

/**
 * Ends the saga with the truth: lists every resource of the cluster left in every service (by tag,
 * and the clusters and roles of its fixed names) but what the delete said it keeps, and fails naming
 * them and the failed phases (with their errors) that left them — one message says what and why.
 */
export function verifyPhase(deps: ClusterWorkflowDeps): Phase {
  return {
    name: 'verify',
    title: 'Verify nothing of the cluster remains but what it keeps',
    expectedSeconds: 10,
    deadline: { actSeconds: 300, waitSeconds: 300 }, // one tagged-resources read
    verdict: 'Verified: nothing tagged with the cluster remains but what it keeps',
    async observe(ctx) {
      const found = await clusterResources(deps.cloud, ctx.input.region, ctx.input.name, await names(deps, ctx));
      const keeps = keepsOf(ctx, found);
      const left = found
        .filter((r) => !isKept(keeps, r))
        .map((r) => `${r.kind} ${r.id}${r.status ? ` (${r.status})` : ''}`);
      if (left.length) {
        const failures = ctx.earlierFailures;
        const why = failures.length
          ? ` They remain because ${failures.length === 1 ? 'this phase' : 'these phases'} failed: ${failures.map((f) => `'${f.phase}' (${f.code}: ${f.message.replace(/\.$/, '')})`).join('; ')}. Fix the cause, then retry a failed phase: every failed phase runs again, in order, then this check.`
          : " Retry this operation's failed phase, or delete them by hand.";
        throw new CloudError({
          service: 'instantstart',
          operation: 'DeleteCluster',
          code: 'ResourcesRemain',
          message: `These resources of ${ctx.input.name} still exist: ${left.join('; ')}.${why}`,
        });
      }
      const active = deps.activeCluster.get();
      if (active?.name === ctx.input.name && active.region === ctx.input.region) deps.activeCluster.set(undefined);
      // The cluster is gone: so is its default MLflow link (a same-named cluster made later starts unlinked).
      deps.mlflowLinks.setClusterMlflow(ctx.input.region, ctx.input.name, undefined);
      const kept = found.filter((r) => isKept(keeps, r));
      if (kept.length) ctx.log(`Kept as the delete said: ${kept.map((r) => `${r.kind} ${r.id}`).join(', ')}`);
      return 'done';
    },
  };
}
