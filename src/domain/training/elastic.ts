import { PreconditionError, type FieldProblem } from '../errors.js';
import type { Elastic } from '../schemas/training-policies.js';
import type { TrainingKind } from '../schemas/training.js';

/**
 * Elastic training and what it cannot be combined with. HyperPod's elastic training scales a
 * HyperPodPyTorchJob by data-parallel replicas through checkpoint-and-resume; AWS documents it as
 * incompatible with spot capacity (instances taken back mid-scale), with managed tiered
 * checkpointing, and with checkpointless training (which AWS also documents as incompatible with
 * managed tiered checkpointing). The service reads the facts (the group's capacity type, the
 * cluster's tiered checkpointing) and asks here before anything is created.
 */

/** `spec.elasticPolicy` of a HyperPodPyTorchJob. */
export function elasticPolicyManifest(e: Elastic): Record<string, unknown> {
  return Object.fromEntries(
    Object.entries(e)
      .filter(([, v]) => v !== undefined)
      .map(([k, v]) => [k, Array.isArray(v) ? [...v] : v]),
  );
}

export interface TrainingCompatibilityFacts {
  kind: TrainingKind;
  /** The target instance group's name and capacity type (on-demand, spot, training-plan). */
  group: string;
  capacityType: string;
  /** Whether managed tiered checkpointing is enabled on the cluster (TieredStorageConfig Mode Enable). */
  tieredCheckpointing: boolean;
}

/** What the request asks that these rules look at. */
export interface TrainingCompatibilityRequest {
  elastic?: Elastic;
  checkpointless?: boolean;
  /** RayJob retries as a whole: restart escalation and log monitoring are the training operator's. */
  faultTolerance?: { restartPolicy?: unknown; logMonitoring?: Record<string, unknown>; customRules?: unknown[] };
}

/** Every reason the combination cannot run, each naming the field to change; [] when it can. */
export function trainingCompatibilityProblems(
  req: TrainingCompatibilityRequest,
  facts: TrainingCompatibilityFacts,
): FieldProblem[] {
  const problems: FieldProblem[] = [];
  if (req.elastic) {
    if (facts.kind !== 'HyperPodPyTorchJob')
      problems.push({
        path: 'elastic',
        message: `applies to HyperPodPyTorchJob recipes only; a ${facts.kind} sizes its Ray cluster itself`,
      });
    if (facts.capacityType === 'spot')
      problems.push({
        path: 'elastic',
        message: `is not available on instance group '${facts.group}': it runs spot instances, and HyperPod elastic training does not support spot capacity. Choose an on-demand or training-plan group, or leave elastic out`,
      });
    if (facts.tieredCheckpointing)
      problems.push({
        path: 'elastic',
        message:
          'is not available while managed tiered checkpointing is enabled on the cluster (HyperPod does not combine them). Turn the tiered-checkpointing feature off, or leave elastic out',
      });
    if (req.checkpointless)
      problems.push({
        path: 'checkpointless',
        message:
          'cannot be combined with elastic training (HyperPod does not support both on one job); leave one of them out',
      });
  }
  if (req.checkpointless && facts.tieredCheckpointing)
    problems.push({
      path: 'checkpointless',
      message:
        'is not available while managed tiered checkpointing is enabled on the cluster (HyperPod does not combine them)',
    });
  if (req.checkpointless && facts.kind !== 'HyperPodPyTorchJob')
    problems.push({
      path: 'checkpointless',
      message: `applies to HyperPodPyTorchJob recipes only, not a ${facts.kind}`,
    });
  if (facts.kind === 'RayJob' && req.faultTolerance) {
    const ft = req.faultTolerance;
    const presets = Object.values(ft.logMonitoring ?? {}).some((v) => v !== undefined);
    if (presets || (ft.customRules?.length ?? 0) > 0)
      problems.push({
        path: 'faultTolerance.logMonitoring',
        message:
          'log monitoring is done by the HyperPod training operator, which does not run RayJobs; leave it out (a RayJob retries as a whole: jobMaxRetryCount)',
      });
  }
  return problems;
}

/**
 * Refuses (422, every field named) a request whose elastic, checkpointless or fault-tolerance
 * settings cannot run on this group and cluster.
 *
 * @example
 * checkTrainingCompatibility({ elastic: { minReplicas: 1, maxReplicas: 4 } }, { kind: 'HyperPodPyTorchJob', group:
 * 'spot-gpus', capacityType: 'spot', tieredCheckpointing: false });
 * // throws PreconditionError, problems: [{ path: 'elastic', message: 'is not available on instance group
 * \'spot-gpus\': it runs spot instances, …' }]
 */
export function checkTrainingCompatibility(req: TrainingCompatibilityRequest, facts: TrainingCompatibilityFacts): void {
  const problems = trainingCompatibilityProblems(req, facts);
  if (problems.length === 0) return;
  throw new PreconditionError({
    message: problems.map((p) => `${p.path} ${p.message}`).join('; '),
    problems,
    remedy: "Change the named fields (or the cluster's settings) and submit again; nothing was created.",
  });
}
