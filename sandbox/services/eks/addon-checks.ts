import { ADDON_CONFIGURATION_SCHEMAS, checkAgainstSchema } from '../../catalog/eks-addon-schemas.js';
import { isAddonVersionCompatible, type AddonSpec } from '../../catalog/eks-addons.js';
import type { SandboxState } from '../../core/store.js';
import { findRole } from '../iam/public.js';
import { invalidParameter } from './errors.js';
import { checkPodIdentityRole } from './pod-identity-model.js';
import type { StoredCluster } from './state.js';

/** Checks CreateAddon and UpdateAddon share: version, IRSA role, configuration values, pod identity. */
export function checkAddonVersion(spec: AddonSpec, addonVersion: string, c: StoredCluster): void {
  if (!isAddonVersionCompatible(spec, addonVersion, c.version)) {
    throw invalidParameter(
      `Addon version ${addonVersion} specified is not supported for ${spec.addonName} on Kubernetes ${c.version}`,
      { clusterName: c.name, addonName: spec.addonName },
    );
  }
}

export function checkServiceAccountRole(
  state: SandboxState,
  roleArn: string | undefined,
  spec: AddonSpec,
  c: StoredCluster,
): void {
  if (roleArn && !(roleArn.startsWith('arn:') && findRole(state, roleArn))) {
    throw invalidParameter(`serviceAccountRoleArn: role ${roleArn} does not exist.`, {
      clusterName: c.name,
      addonName: spec.addonName,
    });
  }
}

/** configurationValues must be a JSON document valid against DescribeAddonConfiguration's schema. */
export function checkConfigurationValues(values: string | undefined, spec: AddonSpec, c: StoredCluster): void {
  const about = { clusterName: c.name, addonName: spec.addonName };
  if (!values) {
    // An add-on that cannot run unconfigured (its schema has required keys) refuses a create without values.
    const schema = ADDON_CONFIGURATION_SCHEMAS[spec.addonName];
    const problem = schema?.required?.length ? checkAgainstSchema({}, schema) : undefined;
    if (problem)
      throw invalidParameter(
        `Addon ${spec.addonName} requires configuration values: Json schema validation failed with error: [${problem}]`,
        about,
      );
    return;
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(values);
  } catch {
    throw invalidParameter(
      'ConfigurationValue provided in request is not supported: configurationValues is not valid JSON (the sandbox does not read YAML).',
      about,
    );
  }
  const schema = ADDON_CONFIGURATION_SCHEMAS[spec.addonName];
  const problem = schema ? checkAgainstSchema(parsed, schema) : undefined;
  if (problem)
    throw invalidParameter(
      `ConfigurationValue provided in request is not supported: Json schema validation failed with error: [${problem}]`,
      about,
    );
}

/** Returns the associations with their role ARNs resolved; the service accounts must be the add-on's. */
export function checkAddonPodIdentity(
  state: SandboxState,
  list: { serviceAccount: string; roleArn: string }[] | undefined,
  spec: AddonSpec,
  c: StoredCluster,
): { serviceAccount: string; roleArn: string }[] {
  const about = { clusterName: c.name, addonName: spec.addonName };
  const out: { serviceAccount: string; roleArn: string }[] = [];
  for (const [i, item] of (list ?? []).entries()) {
    if (!spec.podIdentity.some((p) => p.serviceAccount === item.serviceAccount)) {
      const known = spec.podIdentity.map((p) => p.serviceAccount);
      throw invalidParameter(
        known.length
          ? `podIdentityAssociations.${i + 1}.serviceAccount: ${spec.addonName} uses the service account(s) ${known.join(', ')}, not ${item.serviceAccount}.`
          : `podIdentityAssociations: ${spec.addonName} does not support EKS Pod Identity.`,
        about,
      );
    }
    if (out.some((o) => o.serviceAccount === item.serviceAccount))
      throw invalidParameter(`podIdentityAssociations: service account ${item.serviceAccount} is named twice.`, about);
    out.push({
      serviceAccount: item.serviceAccount,
      roleArn: checkPodIdentityRole(state, item.roleArn, `podIdentityAssociations.${i + 1}.roleArn`, c.name),
    });
  }
  return out;
}
