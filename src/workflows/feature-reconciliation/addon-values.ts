import { canonicalJson } from '../../domain/canonical-json.js';
import { inferenceOperatorConfigurationValues } from '../../domain/features/install-pieces.js';
import { featureDefinition, featureRoleName } from '../../domain/features/registry.js';
import type { AddonValuesId } from '../../domain/features/types.js';
import type { FeatureId } from '../../domain/schemas/features.js';
import type { FeatureFacts } from './feature-facts.js';

/**
 * The configuration values of an add-on InstantStart builds from the cluster's facts (the inference
 * operator's: its roles, TLS bucket, HyperPod cluster), and how the values an installed add-on holds
 * differ from them — an add-on installed before a role was renamed names the old role until it is
 * reconfigured (the inference execution role must be `SageMakerHyperPodInference*`, registry.ts).
 */

/** The values, from the role ARNs made for the feature's identities (by registry identity id). */
export function addonValues(values: AddonValuesId, facts: FeatureFacts, roleArns: ReadonlyMap<string, string>): string {
  switch (values) {
    case 'inference-operator':
      return inferenceOperatorConfigurationValues({
        region: facts.region,
        eksClusterName: facts.eksClusterName,
        hyperpodClusterArn: facts.hyperpodClusterArn,
        tlsBucket: facts.tlsBucket,
        roleArns,
      });
  }
}

/** The ARNs the feature's roles have when InstantStart makes them (at path `/`, named by featureRoleName). */
function namedRoleArns(facts: FeatureFacts, feature: FeatureId): Map<string, string> {
  return new Map(
    featureDefinition(feature).identities.map((i) => [
      i.id,
      `arn:aws:iam::${facts.accountId}:role/${featureRoleName(facts.clusterName, facts.region, i)}`,
    ]),
  );
}

const parsed = (text: string | undefined): Record<string, unknown> | undefined => {
  try {
    const v = text ? (JSON.parse(text) as unknown) : undefined;
    return v && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
};

/**
 * Why the add-on's values (`held`, DescribeAddon's configurationValues) are not the ones InstantStart
 * would install now, in words; undefined when they are (compared as JSON, key order aside), or when the
 * facts cannot build them yet (no HyperPod cluster).
 */
export function addonValuesDrift(
  values: AddonValuesId,
  facts: FeatureFacts,
  feature: FeatureId,
  held: string | undefined,
): string | undefined {
  if (!facts.hyperpodClusterArn) return undefined;
  let wanted: Record<string, unknown> | undefined;
  try {
    wanted = parsed(addonValues(values, facts, namedRoleArns(facts, feature)));
  } catch {
    return undefined;
  }
  if (!wanted) return undefined;
  const current = parsed(held) ?? {};
  const differ = [...new Set([...Object.keys(wanted), ...Object.keys(current)])].filter(
    (k) => canonicalJson(wanted[k]) !== canonicalJson(current[k]),
  );
  if (differ.length === 0) return undefined;
  const role = (v: unknown) => (typeof v === 'string' ? v.split('/').pop() : 'none');
  const words = differ.map((k) =>
    k === 'executionRoleArn' ? `executionRoleArn names ${role(current[k])}, not ${role(wanted[k])}` : `${k} differs`,
  );
  return `configuration out of date (${words.join('; ')}): turn the feature on again to reconfigure it`;
}
