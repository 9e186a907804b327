import { featureManifests } from '../../domain/cluster-dependencies.js';
import { featureDefinition } from '../../domain/features/registry.js';
import type { FeatureInstall } from '../../domain/features/types.js';
import { clusterTags } from '../../domain/naming.js';
import type { FeatureId } from '../../domain/schemas/features.js';
import type { WorkflowDeps } from '../context.js';
import { ensureFeatureIdentities, removeFeatureIdentities, removeFormerRoles } from '../feature-identities.js';
import { addonValues } from './addon-values.js';
import type { FeatureFacts } from './feature-facts.js';
import { providedByWords, readKubeRayInstall } from './kuberay-install.js';
import { primaryInstall } from './feature-reading.js';

/**
 * The mutations of one feature, as its registry entry states them: each is harmless to repeat (find
 * before create, server-side apply, CreateTags, the add-on's client token), so the reconciler may
 * call one again after a crash. The reconciler decides when; these only do.
 */

type Log = (message: string, level?: 'info' | 'warn') => void;

export interface FeatureChange {
  feature: FeatureId;
  config: Record<string, unknown>;
  /** The add-on version to install or move to (resolved before any change; add-on features only). */
  version?: string;
}

const title = (id: FeatureId) => featureDefinition(id).title;

/** The inference operator's bucket for endpoints' TLS certificates (kept when the feature is turned off: it may hold certificates). */
async function ensureTlsBucket(deps: WorkflowDeps, facts: FeatureFacts, log: Log): Promise<void> {
  await deps.cloud.storage.ensureBucket(
    facts.region,
    facts.tlsBucket,
    clusterTags(facts.clusterName, 'inference-tls'),
    log,
  );
}

/** The load balancer controller places internet-facing ALBs in subnets tagged elb, internal ones in internal-elb (kept when turned off: harmless, and maybe not only ours). */
async function tagSubnets(
  deps: WorkflowDeps,
  facts: FeatureFacts,
  install: Extract<FeatureInstall, { kind: 'subnet-tags' }>,
  log: Log,
): Promise<void> {
  const network = await deps.cloud.network.find(facts.region, facts.clusterName);
  const subnets = network.subnets.filter((s) => s.role === install.subnets).map((s) => s.subnetId);
  if (subnets.length === 0) {
    log(
      `no ${install.subnets} subnets of ${facts.clusterName} found by InstantStart's tags: tag yours ${install.key}=${install.value} for load balancers`,
      'warn',
    );
    return;
  }
  await deps.cloud.network.tagSubnets(facts.region, subnets, { [install.key]: install.value });
  log(`tagged ${install.subnets} subnets ${subnets.join(', ')} ${install.key}=${install.value}`);
}

/** The roles of the feature's identities (by registry identity id), made first when it has any. */
async function identities(
  deps: WorkflowDeps,
  facts: FeatureFacts,
  change: FeatureChange,
  log: Log,
): Promise<ReadonlyMap<string, string>> {
  if (featureDefinition(change.feature).identities.length === 0) return new Map();
  return ensureFeatureIdentities(deps, facts, change.feature, change.config, log);
}

async function installAddon(
  deps: WorkflowDeps,
  facts: FeatureFacts,
  change: FeatureChange,
  install: Extract<FeatureInstall, { kind: 'eks-addon' }>,
  log: Log,
): Promise<void> {
  const roleArns = await identities(deps, facts, change, log);
  const definition = featureDefinition(change.feature);
  const podIdentityAssociations = definition.identities
    .filter((i) => install.podIdentityAssociations?.includes(i.id))
    .flatMap((i) =>
      i.bindings.flatMap((b) =>
        b.kind === 'pod-identity' ? [{ serviceAccount: b.serviceAccount, roleArn: roleArns.get(i.id) }] : [],
      ),
    )
    .map((p) => {
      if (!p.roleArn) throw new Error(`feature ${change.feature}: no role made for pod identity ${p.serviceAccount}`);
      return { serviceAccount: p.serviceAccount, roleArn: p.roleArn };
    });
  const configurationValues = install.configurationValues
    ? addonValues(install.configurationValues, facts, roleArns)
    : undefined;
  await deps.cloud.eks.createAddon(facts.region, facts.eksClusterName, install.addonName, {
    ...(change.version ? { version: change.version } : {}),
    ...(podIdentityAssociations.length ? { podIdentityAssociations } : {}),
    ...(configurationValues ? { configurationValues } : {}),
    tags: clusterTags(facts.clusterName, 'addon'),
  });
  const bound = podIdentityAssociations.map((p) => p.serviceAccount);
  log(
    `${definition.title}: installing add-on ${install.addonName} ${change.version ?? ''}${bound.length ? ` with pod identity for ${bound.join(', ')}` : ''}`
      .replace(/ +/g, ' ')
      .trim(),
  );
  // A role left under a former name (an install that named it failed: the add-on refuses it) goes now.
  if (configurationValues) await removeFormerRoles(deps, facts, change.feature, change.config, log);
}

/** Installs feature `change.feature`: its buckets and tags, its identities, then what it is (add-on, manifests, cluster setting), in registry order. */
export async function installFeature(
  deps: WorkflowDeps,
  facts: FeatureFacts,
  change: FeatureChange,
  log: Log,
): Promise<void> {
  const definition = featureDefinition(change.feature);
  const scoped: Log = (m, level) => log(m.startsWith(definition.title) ? m : `${definition.title}: ${m}`, level);
  for (const install of definition.installs) {
    switch (install.kind) {
      case 's3-bucket':
        await ensureTlsBucket(deps, facts, scoped);
        break;
      case 'subnet-tags':
        await tagSubnets(deps, facts, install, scoped);
        break;
      case 'eks-addon':
        await installAddon(deps, facts, change, install, scoped);
        break;
      case 'manifests': {
        const objects = featureManifests(install.set, facts.region);
        const kube = await deps.cloud.kube(facts.region, facts.eksClusterName);
        if (install.set === 'kuberay-operator') {
          // Read before anything is applied: another KubeRay is left in charge, never replaced.
          const found = await readKubeRayInstall(kube);
          if (found.owner === 'other') {
            scoped(`provided by ${providedByWords(found)}: left in charge, nothing applied`);
            break;
          }
          if (found.owner === 'instantstart' && found.outdated)
            scoped(`upgrading InstantStart's KubeRay (${found.outdated})`);
        }
        await identities(deps, facts, change, scoped);
        await kube.applyAll(objects);
        scoped(`applied ${objects.map((o) => `${o.kind}/${o.metadata.name}`).join(', ')}`);
        break;
      }
      case 'cluster-setting':
        if (install.field !== 'TieredStorageConfig')
          throw new Error(
            `${install.field} is set by its own operation (${install.operation ?? 'none'}), not by the reconciler`,
          );
        await identities(deps, facts, change, scoped);
        await setTieredStorage(deps, facts, change, scoped);
        break;
    }
  }
}

async function setTieredStorage(
  deps: WorkflowDeps,
  facts: FeatureFacts,
  change: FeatureChange,
  log: Log,
): Promise<void> {
  const pct = change.config.instanceMemoryAllocationPercentage as number | undefined;
  await deps.cloud.hyperpod.setTieredStorage(facts.region, facts.clusterName, {
    mode: 'Enable',
    ...(pct !== undefined ? { instanceMemoryAllocationPercentage: pct } : {}),
  });
  log(`TieredStorageConfig Mode Enable${pct !== undefined ? ` with ${pct}% of instance memory` : ''} (UpdateCluster)`);
}

/**
 * Changes the settings of a feature that is on: another add-on version (UpdateAddon) or another memory
 * share (UpdateCluster). An add-on whose values InstantStart builds gets them afresh with its roles
 * made first — so an add-on still naming a role's former name is pointed at the role's name now — and
 * then the former role goes (when InstantStart made it: nothing uses it any more).
 */
export async function reconfigureFeature(
  deps: WorkflowDeps,
  facts: FeatureFacts,
  change: FeatureChange,
  log: Log,
): Promise<void> {
  const install = primaryInstall(change.feature);
  const scoped: Log = (m, level) => log(`${title(change.feature)}: ${m}`, level);
  if (install.kind === 'eks-addon') {
    if (!change.version) throw new Error(`feature ${change.feature}: no version resolved to update to`);
    const configurationValues = install.configurationValues
      ? addonValues(install.configurationValues, facts, await identities(deps, facts, change, scoped))
      : undefined;
    await deps.cloud.eks.updateAddon(facts.region, facts.eksClusterName, install.addonName, {
      version: change.version,
      ...(configurationValues ? { configurationValues } : {}),
    });
    scoped(
      `updating add-on ${install.addonName} to ${change.version}${configurationValues ? ' with its configuration values rebuilt' : ''}`,
    );
    if (configurationValues) await removeFormerRoles(deps, facts, change.feature, change.config, scoped);
  } else if (install.kind === 'cluster-setting' && install.field === 'TieredStorageConfig') {
    await identities(deps, facts, change, scoped);
    await setTieredStorage(deps, facts, change, scoped);
  } else {
    // Manifest sets have no settings: what is on is what InstantStart pins.
    await installFeature(deps, facts, change, log);
  }
}

/** An add-on whose install failed is deleted, so that the next act installs it again. */
export async function deleteFailedAddon(deps: WorkflowDeps, facts: FeatureFacts, feature: FeatureId): Promise<void> {
  const install = primaryInstall(feature);
  if (install.kind === 'eks-addon')
    await deps.cloud.eks.deleteAddon(facts.region, facts.eksClusterName, install.addonName);
}

/** Removes what the feature is (add-on with its pod identity associations, manifests in reverse, the setting turned off); its identities go once it is gone. */
export async function uninstallFeature(
  deps: WorkflowDeps,
  facts: FeatureFacts,
  feature: FeatureId,
  log: Log,
): Promise<void> {
  const install = primaryInstall(feature);
  const scoped: Log = (m, level) => log(`${title(feature)}: ${m}`, level);
  switch (install.kind) {
    case 'eks-addon':
      await deps.cloud.eks.deleteAddon(facts.region, facts.eksClusterName, install.addonName);
      scoped(`removing add-on ${install.addonName}`);
      return;
    case 'manifests': {
      const kube = await deps.cloud.kube(facts.region, facts.eksClusterName);
      if (install.set === 'kuberay-operator') {
        const found = await readKubeRayInstall(kube);
        if (found.owner === 'other') {
          scoped(`provided by ${providedByWords(found)}, which InstantStart did not install: nothing removed`, 'warn');
          return;
        }
      }
      const objects = featureManifests(install.set, facts.region).reverse();
      for (const o of objects) await kube.deleteObject(o);
      scoped(`deleted ${objects.map((o) => `${o.kind}/${o.metadata.name}`).join(', ')}`);
      return;
    }
    case 'cluster-setting':
      if (install.field !== 'TieredStorageConfig')
        throw new Error(`${install.field} is set by its own operation, not by the reconciler`);
      await deps.cloud.hyperpod.setTieredStorage(facts.region, facts.clusterName, { mode: 'Disable' });
      scoped('TieredStorageConfig Mode Disable (UpdateCluster)');
  }
}

/** Whether turning the feature off also removes identities (after what it is has gone). */
export const hasIdentities = (feature: FeatureId): boolean => featureDefinition(feature).identities.length > 0;

export async function removeIdentities(
  deps: WorkflowDeps,
  facts: FeatureFacts,
  feature: FeatureId,
  config: Record<string, unknown>,
  log: Log,
): Promise<void> {
  await removeFeatureIdentities(deps, facts, feature, config, (m) => log(`${title(feature)}: ${m}`));
}
