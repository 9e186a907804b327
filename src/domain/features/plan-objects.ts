import { KARPENTER_OBJECT_NAME } from '../autoscaling.js';
import type { FeatureId } from '../schemas/features.js';
import { featureDefinition, featureRoleName, formerFeatureRoleName } from './registry.js';
import type { FeatureIdentity, FeatureInstall } from './types.js';

/**
 * What installing or removing a feature creates, changes or deletes, in words a person checks before
 * saying yes (the plan's `objects`): read from the registry, so the plan and the reconciler agree.
 * Kept on removal, and so not listed as deleted: the inference operator's TLS bucket (it may hold
 * certificates) and its subnet tags (harmless, maybe not only ours), and autoscaling's ClusterRole
 * (set-autoscaling keeps it; it goes with the cluster).
 */
export interface PlannedObject {
  action: 'create' | 'update' | 'delete';
  kind: string;
  name: string;
}

export interface PlanObjectFacts {
  cluster: string;
  region: string;
  tlsBucket: string;
  /** The add-on version the install resolves to, when known. */
  version?: string;
  /** Manifest sets' objects, `Kind/name` (from the manifest builders). */
  manifests?: (set: Extract<FeatureInstall, { kind: 'manifests' }>['set']) => string[];
}

function identityObjects(
  facts: PlanObjectFacts,
  identity: FeatureIdentity,
  action: 'create' | 'delete',
): PlannedObject[] {
  const out: PlannedObject[] = [
    { action, kind: 'IAM role', name: featureRoleName(facts.cluster, facts.region, identity) },
  ];
  for (const b of identity.bindings) {
    if (b.kind === 'irsa' && b.annotate)
      out.push({
        action: 'update',
        kind: 'service account annotation',
        name: `${b.namespace}/${b.serviceAccount} eks.amazonaws.com/role-arn`,
      });
  }
  return out;
}

function installObjects(
  feature: FeatureId,
  install: FeatureInstall,
  facts: PlanObjectFacts,
  action: 'create' | 'delete',
  reconfigure: boolean,
): PlannedObject[] {
  switch (install.kind) {
    case 's3-bucket':
      return action === 'create' ? [{ action, kind: 'S3 bucket', name: facts.tlsBucket }] : [];
    case 'subnet-tags':
      return action === 'create'
        ? [
            {
              action: 'update',
              kind: 'subnet tag',
              name: `${install.key}=${install.value} on the ${install.subnets} subnets`,
            },
          ]
        : [];
    case 'eks-addon': {
      const pods = featureDefinition(feature)
        .identities.filter((i) => install.podIdentityAssociations?.includes(i.id))
        .flatMap((i) =>
          i.bindings.flatMap((b) => (b.kind === 'pod-identity' ? [`${b.namespace}/${b.serviceAccount}`] : [])),
        );
      return [
        {
          action: reconfigure ? 'update' : action,
          kind: 'EKS add-on',
          name: `${install.addonName}${facts.version && action === 'create' ? ` ${facts.version}` : ''}`,
        },
        ...(reconfigure ? [] : pods.map((p) => ({ action, kind: 'pod identity association', name: p }))),
      ];
    }
    case 'manifests':
      return (facts.manifests?.(install.set) ?? [install.source]).map((name) => ({
        action,
        kind: 'Kubernetes object',
        name,
      }));
    case 'cluster-setting': {
      const mode = action === 'create' ? install.enabled : install.disabled;
      const objects: PlannedObject[] = [
        {
          action: 'update',
          kind: 'HyperPod cluster setting',
          name: `${install.field} ${Object.entries(mode)
            .map(([k, v]) => `${k}=${v}`)
            .join(' ')}`,
        },
      ];
      if (install.field === 'AutoScaling' && action === 'create' && !reconfigure) {
        objects.push(
          { action: 'create', kind: 'Kubernetes object', name: `HyperpodNodeClass/${KARPENTER_OBJECT_NAME}` },
          { action: 'create', kind: 'Kubernetes object', name: `NodePool/${KARPENTER_OBJECT_NAME}` },
        );
      } else if (install.field === 'AutoScaling' && reconfigure) {
        objects.push({
          action: 'update',
          kind: 'Kubernetes object',
          name: `HyperpodNodeClass/${KARPENTER_OBJECT_NAME}`,
        });
      }
      return objects;
    }
  }
}

/** A role that moves to the name its managed policy asks for: made under the new name, the former one deleted (when InstantStart made it). */
function renamedRoleObjects(facts: PlanObjectFacts, identity: FeatureIdentity): PlannedObject[] {
  const former = formerFeatureRoleName(facts.cluster, identity);
  if (!former) return [];
  return [
    {
      action: 'create',
      kind: 'IAM role',
      name: `${featureRoleName(facts.cluster, facts.region, identity)} (when missing)`,
    },
    { action: 'delete', kind: 'IAM role', name: `${former} (its former name, when InstantStart made it)` },
  ];
}

/**
 * What turning `feature` on (or reconfiguring it) creates and changes, in install order: identities
 * first, then what it installs. `outdated`: a reconfigure because the feature is configured as InstantStart
 * would not configure it now (its add-on names a role's former name).
 */
export function installPlanObjects(
  feature: FeatureId,
  facts: PlanObjectFacts,
  reconfigure = false,
  outdated = false,
): PlannedObject[] {
  const d = featureDefinition(feature);
  // Autoscaling's ClusterRole is set-autoscaling's; it is made when missing and kept.
  const identities = reconfigure
    ? outdated
      ? d.identities.flatMap((i) => renamedRoleObjects(facts, i))
      : []
    : d.identities.flatMap((i) => identityObjects(facts, i, 'create'));
  // One provider per cluster issuer, however many of the feature's roles trust it.
  const irsa = !reconfigure && d.identities.some((i) => i.bindings.some((b) => b.kind === 'irsa'));
  const provider: PlannedObject[] = irsa
    ? [
        {
          action: 'create',
          kind: 'IAM OIDC provider',
          name: "the EKS cluster's issuer (when missing; kept while anything trusts it)",
        },
      ]
    : [];
  return [
    ...provider,
    ...identities,
    ...d.installs.flatMap((i) => installObjects(feature, i, facts, 'create', reconfigure)),
  ];
}

/** What turning `feature` off deletes and changes: what it installs (in reverse), then its identities (autoscaling's ClusterRole is kept). */
export function removePlanObjects(feature: FeatureId, facts: PlanObjectFacts): PlannedObject[] {
  const d = featureDefinition(feature);
  const installs = [...d.installs].reverse().flatMap((i) => installObjects(feature, i, facts, 'delete', false));
  const former = (i: FeatureIdentity): PlannedObject[] => {
    const name = formerFeatureRoleName(facts.cluster, i);
    return name
      ? [{ action: 'delete', kind: 'IAM role', name: `${name} (its former name, when InstantStart made it)` }]
      : [];
  };
  const identities =
    feature === 'autoscaling'
      ? []
      : d.identities.flatMap((i) => [...identityObjects(facts, i, 'delete'), ...former(i)]);
  return [...installs, ...identities];
}
