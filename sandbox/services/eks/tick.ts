import { keyed } from '../../core/keyed.js';
import { compareAddonVersions, findAddon } from '../../catalog/eks-addons.js';
import type { TickContext } from '../../core/service.js';
import { deleteManagedSecurityGroup, deleteNetworkInterface } from '../ec2/public.js';
import { addonIdentityIssues, addonRenderProblem } from './addon-identity.js';
import { grantCreatorAdmin } from './cluster-create.js';
import { eksRegions, type StoredAddon, type StoredCluster, type StoredUpdate } from './state.js';

/**
 * EKS's simulated controllers: clusters CREATING → ACTIVE (or FAILED), UPDATING → ACTIVE when their
 * update completes, DELETING → gone (with their network interfaces and cluster security group);
 * add-ons likewise, and add-ons whose prerequisites are missing are DEGRADED until they appear
 * (or whose operator lacks an IAM permission it needs: addon-identity.ts).
 */
export function eksTick({ state, now }: TickContext): boolean {
  let changed = false;
  for (const [region, rs] of eksRegions(state)) {
    for (const c of keyed.values(rs.clusters)) {
      if (c.status === 'DELETING' && c.readyAt !== undefined && now >= c.readyAt) {
        removeCluster(state, region, c);
        keyed.delete(rs.clusters, c.name);
        changed = true;
        continue;
      }
      if (c.status === 'CREATING' && c.readyAt !== undefined && now >= c.readyAt) {
        c.status = c.failureMessage ? 'FAILED' : 'ACTIVE';
        if (c.status === 'ACTIVE') c.activeAt = c.readyAt;
        delete c.readyAt;
        changed = true;
      }
      for (const u of c.updates)
        if (u.status === 'InProgress' && now >= u.completeAt) changed = completeUpdate(c, u) || changed;
      if (c.status === 'UPDATING' && !c.updates.some((u) => u.status === 'InProgress' && u.addonName === undefined)) {
        c.status = 'ACTIVE';
        changed = true;
      }
      changed = advanceAddons(c, now) || changed;
      changed = evaluateAddonHealth(state, region, c) || changed;
    }
  }
  return changed;
}

function removeCluster(state: TickContext['state'], region: string, c: StoredCluster): void {
  for (const id of c.controlPlaneEniIds) deleteNetworkInterface(state, region, id);
  if (c.clusterSecurityGroupId) {
    try {
      deleteManagedSecurityGroup(state, region, c.clusterSecurityGroupId);
    } catch {
      // Something outside EKS still uses the cluster security group; AWS leaves it behind then too.
    }
  }
}

function completeUpdate(c: StoredCluster, u: StoredUpdate): boolean {
  u.status = 'Successful';
  const ch = u.changes;
  if (u.addonName) {
    const a = keyed.get(c.addons, u.addonName);
    if (!a) return true;
    if (ch.addonVersion) a.addonVersion = ch.addonVersion;
    if (ch.serviceAccountRoleArn !== undefined) {
      if (ch.serviceAccountRoleArn) a.serviceAccountRoleArn = ch.serviceAccountRoleArn;
      else delete a.serviceAccountRoleArn;
    }
    if (ch.configurationValues !== undefined) {
      if (ch.configurationValues) a.configurationValues = ch.configurationValues;
      else delete a.configurationValues;
    }
    // The chart renders with the new values, or the update fails with its message.
    const refused = addonRenderProblem(a);
    if (a.status === 'UPDATING') a.status = refused ? 'UPDATE_FAILED' : 'ACTIVE';
    if (refused) {
      u.status = 'Failed';
      a.healthIssues = [refused];
    }
    a.modifiedAt = u.completeAt;
    return true;
  }
  if (ch.authenticationMode) {
    const from = c.authenticationMode;
    c.authenticationMode = ch.authenticationMode;
    // Leaving CONFIG_MAP, EKS gives the bootstrap cluster creator an access entry (when it was granted admin).
    if (from === 'CONFIG_MAP' && c.bootstrapClusterCreatorAdminPermissions) grantCreatorAdmin(c, u.completeAt);
  }
  if (ch.logging) c.logging = ch.logging;
  if (ch.deletionProtection !== undefined) c.deletionProtection = ch.deletionProtection;
  if (ch.supportType) c.supportType = ch.supportType;
  return true;
}

function advanceAddons(c: StoredCluster, now: number): boolean {
  let changed = false;
  for (const a of keyed.values(c.addons)) {
    if (a.readyAt === undefined || now < a.readyAt) continue;
    if (a.status === 'CREATING') {
      // A create-failure fault ends the create CREATE_FAILED with its message, as AWS reports a failed install.
      const missing = missingInstallDependencies(c, a) ?? addonRenderProblem(a);
      a.status = a.failureMessage || missing ? 'CREATE_FAILED' : 'ACTIVE';
      if (a.failureMessage) a.healthIssues = [{ code: 'InternalFailure', message: a.failureMessage, resourceIds: [] }];
      else if (missing) a.healthIssues = [missing];
      delete a.failureMessage;
      a.modifiedAt = a.readyAt;
      if (a.status === 'ACTIVE') a.activeAt = a.readyAt;
      delete a.readyAt;
      changed = true;
    } else if (a.status === 'DELETING') {
      removeAddon(c, a);
      changed = true;
    }
  }
  return changed;
}

/** The add-on and the pod identity associations it made go; `preserve` keeps only the in-cluster software, which the sandbox does not run. */
function removeAddon(c: StoredCluster, a: StoredAddon): void {
  for (const [id, p] of keyed.entries(c.podIdentityAssociations))
    if (p.ownerArn === a.addonArn) keyed.delete(c.podIdentityAssociations, id);
  keyed.delete(c.addons, a.addonName);
}

/** Present for a dependant: running, even while being updated. */
const RUNNING = new Set(['ACTIVE', 'UPDATING']);

/** The health issue of an install whose prerequisite add-ons are missing or too old (AddonSpec.installRequires), if any. */
function missingInstallDependencies(c: StoredCluster, a: StoredAddon): StoredAddon['healthIssues'][number] | undefined {
  const problems: string[] = [];
  const names: string[] = [];
  for (const need of findAddon(a.addonName)?.installRequires ?? []) {
    const dep = keyed.get(c.addons, need.addonName);
    if (!dep || !RUNNING.has(dep.status))
      problems.push(`${need.addonName} (${need.minimumVersion} or later) is not installed`);
    else if (compareAddonVersions(dep.addonVersion, need.minimumVersion) < 0)
      problems.push(`${need.addonName} is ${dep.addonVersion}; ${need.minimumVersion} or later is required`);
    else continue;
    names.push(need.addonName);
  }
  if (!problems.length) return undefined;
  return {
    code: 'ConfigurationConflict',
    message: `Dependency check failed: ${problems.join('; ')}. Install the dependency add-ons first, then create ${a.addonName} again.`,
    resourceIds: names,
  };
}

function evaluateAddonHealth(state: TickContext['state'], region: string, c: StoredCluster): boolean {
  let changed = false;
  for (const a of keyed.values(c.addons)) {
    if (a.status !== 'ACTIVE' && a.status !== 'DEGRADED') continue;
    const required = findAddon(a.addonName)?.requiresAddons ?? [];
    const missing = required.filter((name) => !RUNNING.has(keyed.get(c.addons, name)?.status ?? ''));
    const issues = [
      ...(missing.length
        ? [
            {
              code: 'InsufficientNumberOfReplicas',
              message: `The add-on is unhealthy because it requires the ${listed(required)} add-ons; not ACTIVE on this cluster: ${missing.join(', ')}.`,
              resourceIds: missing,
            },
          ]
        : []),
      ...addonIdentityIssues(state, region, c, a),
    ];
    const next = issues.length ? 'DEGRADED' : 'ACTIVE';
    if (a.status !== next || JSON.stringify(a.healthIssues) !== JSON.stringify(issues)) {
      a.status = next;
      a.healthIssues = issues;
      changed = true;
    }
  }
  return changed;
}

/** `a`, `a and b`, `a, b and c`. */
const listed = (names: readonly string[]): string =>
  names.length < 2 ? names.join('') : `${names.slice(0, -1).join(', ')} and ${names.at(-1)}`;
