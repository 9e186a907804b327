import { PreconditionError } from '../../domain/errors.js';
import { clusterOfTarget } from '../../domain/naming.js';
import { featureManifests } from '../../domain/cluster-dependencies.js';
import { dependencyClosure, whatNeeds } from '../../domain/features/graph.js';
import { isNoOp, planFeatures, refusalProblems, type FeaturePlan } from '../../domain/features/plan.js';
import { installPlanObjects, removePlanObjects } from '../../domain/features/plan-objects.js';
import { featureDefinition, featureRoleName } from '../../domain/features/registry.js';
import type { FeatureDefinition, FeatureInstall } from '../../domain/features/types.js';
import {
  FEATURE_IDS,
  type FeatureChanges,
  type FeatureId,
  type FeaturePlanAnswer,
  type FeaturesAnswer,
  type FeaturesUnchanged,
  type FeatureState,
} from '../../domain/schemas/features.js';
import type { OperationView } from '../../domain/schemas/operations.js';
import { resolveAddonVersion } from '../../workflows/addon-compatibility.js';
import type { WorkflowDeps } from '../../workflows/context.js';
import { ReadCache } from '../../workflows/read-cache.js';
import { featureIdentityStates } from '../../workflows/feature-identities.js';
import type { ServiceDeps } from '../capability.js';
import { autoscaling } from '../autoscaling/index.js';
import { featureActuals, readAllFeatures, type FeatureReadResult } from './workflows/actual-state.js';
import { existingClusterFacts, type FeatureFacts } from '../../workflows/feature-reconciliation/feature-facts.js';
import { readInferenceEndpointObjects, readLoadBalancerHolders } from '../../workflows/load-balancer-holders.js';
import { holderName } from '../../domain/kube-load-balancers.js';
import { primaryInstall, readSource } from '../../workflows/feature-reconciliation/feature-reading.js';
import { changedKeys, featuresTarget } from './workflows/set-features.js';

type Started = { operation: OperationView; existing: boolean };

/** One line per thing a feature installs, for the faces. */
function installWords(i: FeatureInstall, d: FeatureDefinition): string {
  switch (i.kind) {
    case 'eks-addon': {
      const pods = d.identities
        .filter((x) => i.podIdentityAssociations?.includes(x.id))
        .flatMap((x) =>
          x.bindings.flatMap((b) => (b.kind === 'pod-identity' ? [`${b.namespace}/${b.serviceAccount}`] : [])),
        );
      return `EKS add-on ${i.addonName} (${i.namespace})${pods.length ? ` with pod identity for ${pods.join(', ')}` : ''}${i.configurationValues ? ', with configuration values built from the cluster' : ''}`;
    }
    case 'manifests':
      return `Kubernetes objects: ${i.source}`;
    case 'cluster-setting':
      return `HyperPod cluster setting ${i.field} (UpdateCluster)${i.operation ? `, through ${i.operation}'s phases` : ''}`;
    case 's3-bucket':
      return `S3 bucket: ${i.purpose}`;
    case 'subnet-tags':
      return `subnet tag ${i.key}=${i.value} on the ${i.subnets} subnets`;
  }
}

/**
 * The rules of managed features (docs/FEATURES.md): each feature's state read from the cluster, the
 * plan of a change (the dry run), and set-features started only when the plan changes something and
 * refuses nothing.
 */
export class FeaturesService {
  /** GET's answers, kept a few seconds and dropped when an operation touches the cluster (never stale after the user's own change). */
  private readonly answers = new ReadCache<FeaturesAnswer>({ ttlMs: 3_000 });

  constructor(private readonly deps: ServiceDeps) {
    deps.operations.on('operation', (op) => {
      const cluster = clusterOfTarget(op.target);
      if (cluster) this.answers.invalidate(`${cluster.region}/${cluster.name}`);
    });
  }

  private get workflowDeps(): WorkflowDeps {
    return { cloud: this.deps.cloud };
  }

  private async read(
    region: string,
    cluster: string,
  ): Promise<{ facts: FeatureFacts; readings: Map<FeatureId, FeatureReadResult> }> {
    const { facts, hyperpod } = await existingClusterFacts(this.workflowDeps, region, cluster);
    const readings = await readAllFeatures(readSource(this.workflowDeps, facts, async () => hyperpod));
    return { facts, readings };
  }

  /** Every feature as the cluster has it (AWS and Kubernetes), with the set-features operation running on it, if any. */
  async get(region: string, cluster: string): Promise<FeaturesAnswer> {
    return this.answers.get(`${region}/${cluster}`, () => this.readAnswer(region, cluster));
  }

  private async readAnswer(region: string, cluster: string): Promise<FeaturesAnswer> {
    const { facts, readings } = await this.read(region, cluster);
    const features = await Promise.all(FEATURE_IDS.map((id) => this.featureState(facts, id, readings.get(id)!)));
    const running = this.deps.operations.activeFor(featuresTarget(region, cluster));
    return { cluster, features, ...(running ? { runningOperationId: running.id } : {}) };
  }

  private async featureState(facts: FeatureFacts, id: FeatureId, reading: FeatureReadResult): Promise<FeatureState> {
    const d = featureDefinition(id);
    let health = reading.health;
    let identities: FeatureState['identities'] = [];
    if (d.identities.length) {
      try {
        const states = await featureIdentityStates(this.workflowDeps, facts, id, reading.config);
        identities = states.map((s) => ({ id: s.identity, title: s.title, roleName: s.roleName, present: s.present }));
      } catch (err) {
        const nameOf = (i: (typeof d.identities)[number]) => {
          try {
            return featureRoleName(facts.clusterName, facts.region, i);
          } catch {
            return `instantstart-${facts.clusterName}-${i.roleSuffix}`;
          }
        };
        identities = d.identities.map((i) => ({ id: i.id, title: i.title, roleName: nameOf(i), present: false }));
        health = `${health}; its identities could not be read: ${err instanceof Error ? err.message : String(err)}`;
      }
    }
    const version = 'version' in reading ? reading.version : undefined;
    const providedBy = 'providedBy' in reading ? reading.providedBy : undefined;
    return {
      id,
      title: d.title,
      summary: d.summary,
      toggleable: d.toggleable,
      state: reading.state,
      ...(version ? { version } : {}),
      ...(providedBy ? { providedBy } : {}),
      health,
      config: reading.config,
      needs: [...d.needs],
      neededBy: whatNeeds(id),
      installs: d.installs.map((i) => installWords(i, d)),
      identities,
    };
  }

  /**
   * The plan of a change against the cluster as it is (read afresh, never from GET's cache), with every add-on's
   * version checked against
   * the cluster (DescribeAddonVersions) — nothing is changed.
   */
  async plan(
    region: string,
    cluster: string,
    changes: FeatureChanges,
  ): Promise<{ plan: FeaturePlan; answer: FeaturePlanAnswer; providedBy: Map<FeatureId, string> }> {
    // A role name IAM could not take (a long cluster name) is refused on `name` before any AWS call.
    for (const id of dependencyClosure(changedKeys(changes).filter((k) => changes[k] !== false)))
      for (const i of featureDefinition(id).identities) featureRoleName(cluster, region, i);
    const { facts, readings } = await this.read(region, cluster);
    const providedBy = new Map(
      [...readings].flatMap(([id, r]) => ('providedBy' in r && r.providedBy ? [[id, r.providedBy] as const] : [])),
    );
    const actuals = featureActuals(readings, changedKeys(changes));
    const inference = actuals['inference-operator'];
    if (inference?.enabled && Object.hasOwn(changes, 'inference-operator') && changes['inference-operator'] === false)
      actuals['inference-operator'] = { ...inference, inUseBy: await inferenceOperatorUsers(this.workflowDeps, facts) };
    const plan = planFeatures(actuals, changes);
    const versions = new Map<FeatureId, string>();
    for (const i of plan.install) {
      const install = primaryInstall(i.feature);
      if (install.kind !== 'eks-addon') continue;
      versions.set(
        i.feature,
        await resolveAddonVersion(this.workflowDeps, {
          region,
          feature: i.feature,
          addonName: install.addonName,
          ...(typeof i.config.version === 'string' ? { version: i.config.version } : {}),
          kubernetesVersion: facts.kubernetesVersion,
          ...(facts.authenticationMode ? { authenticationMode: facts.authenticationMode } : {}),
        }),
      );
    }
    const objectFacts = (id: FeatureId) => ({
      cluster,
      region,
      tlsBucket: facts.tlsBucket,
      ...(versions.has(id) ? { version: versions.get(id)! } : {}),
      manifests: (set: Parameters<typeof featureManifests>[0]) => {
        try {
          return featureManifests(set, region).map(
            (o) => `${o.kind}/${o.metadata.namespace ? `${o.metadata.namespace}/` : ''}${o.metadata.name}`,
          );
        } catch (err) {
          return [`the ${set} manifests (${err instanceof Error ? err.message : String(err)})`];
        }
      },
    });
    const answer: FeaturePlanAnswer = {
      install: plan.install.map((i) => ({
        feature: i.feature,
        reason: i.reason,
        neededBy: i.neededBy,
        config: i.config,
        objects: installPlanObjects(
          i.feature,
          objectFacts(i.feature),
          i.reason === 'reconfigure',
          i.outdated !== undefined,
        ),
      })),
      remove: plan.remove.map((feature) => ({ feature, objects: removePlanObjects(feature, objectFacts(feature)) })),
      unchanged: plan.unchanged,
      refused: plan.refused,
      noOp: isNoOp(plan),
    };
    return { plan, answer, providedBy };
  }

  /**
   * Applies a change: refused (422 naming the refused feature and what needs it) before anything is
   * done; nothing to do (200, no operation) when the cluster already matches; else set-features (202).
   */
  async set(
    region: string,
    cluster: string,
    changes: FeatureChanges,
    idempotencyKey?: string,
  ): Promise<{ started: Started } | { unchanged: FeaturesUnchanged }> {
    const input = { cluster, region, changes };
    const { plan, answer, providedBy } = await this.plan(region, cluster, changes);
    if (plan.refused.length) {
      const problems = refusalProblems(plan);
      throw new PreconditionError({
        message: `Features cannot be changed as asked: ${problems.map((p) => `${p.path} ${p.message}`).join('; ')}. Nothing was changed.`,
        problems,
      });
    }
    const autoscalingOn = plan.install.find((i) => i.feature === 'autoscaling');
    if (autoscalingOn) {
      await this.deps
        .service(autoscaling)
        .checkGroups(region, cluster, autoscalingOn.config.instanceGroups as string[], (path) =>
          path === 'instanceGroups' ? 'autoscaling.instanceGroups' : 'autoscaling',
        );
    }
    if (isNoOp(plan)) {
      const others = plan.unchanged
        .filter((id) => providedBy.has(id))
        .map((id) => ` ${id} is provided by ${providedBy.get(id)}, which InstantStart leaves in charge.`);
      return {
        unchanged: {
          noOp: true,
          message: `Nothing to do: ${plan.unchanged.join(', ')} already ${plan.unchanged.length === 1 ? 'is' : 'are'} as asked.${others.join('')} No operation was started.`,
          plan: answer,
        },
      };
    }
    return { started: this.deps.operations.start('set-features', input, { idempotencyKey }) };
  }
}

/**
 * What still needs the inference operator's add-on: its endpoint objects (their operator deletes their load balancers),
 * and every load balancer the AWS Load Balancer Controller it brings made (the controller deletes it only while it runs:
 * turned off first, the load balancer is left in the VPC and the object stays Terminating).
 */
async function inferenceOperatorUsers(deps: WorkflowDeps, facts: FeatureFacts): Promise<string[]> {
  const kube = await deps.cloud.kube(facts.region, facts.eksClusterName);
  const endpoints = (await readInferenceEndpointObjects(kube)).map(
    ({ object: o }) => `${o.kind} ${o.metadata.namespace}/${o.metadata.name}`,
  );
  const balanced = (await readLoadBalancerHolders(kube))
    .filter((h) => h.controller === 'aws-load-balancer-controller' && !h.ownedByEndpoint)
    .map((h) => `${holderName(h)}${h.address ? ` (load balancer ${h.address})` : ''}`);
  return [...endpoints, ...balanced];
}
