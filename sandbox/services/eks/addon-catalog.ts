import { z } from 'zod';
import { ADDON_CONFIGURATION_SCHEMAS, renderSchema } from '../../catalog/eks-addon-schemas.js';
import { EKS_ADDONS, defaultAddonVersion, findAddon } from '../../catalog/eks-addons.js';
import type { RequestContext } from '../../core/service.js';
import { validateInput } from '../../core/validation.js';
import { invalidParameter } from './errors.js';
import { maxResults, nextToken, page } from './paging.js';

/** DescribeAddonVersions and DescribeAddonConfiguration: read-only views of the add-on catalogue. */
const VALIDATION = { style: 'coral', code: 'InvalidParameterException' } as const;

const versionsSchema = z.object({
  kubernetesVersion: z.string().optional(),
  maxResults: maxResults(),
  nextToken,
  addonName: z.string().optional(),
  types: z.array(z.string()).optional(),
  publishers: z.array(z.string()).optional(),
  owners: z.array(z.string()).optional(),
});

export function describeAddonVersions(input: unknown, _ctx: RequestContext) {
  const req = validateInput(versionsSchema, input, VALIDATION);
  const k8s = req.kubernetesVersion;
  const matching = EKS_ADDONS.filter(
    (a) =>
      (!req.addonName || a.addonName === req.addonName) &&
      (!req.types?.length || req.types.includes(a.type)) &&
      (!req.publishers?.length || req.publishers.includes(a.publisher)) &&
      (!req.owners?.length || req.owners.includes(a.owner)),
  )
    .map((a) => ({ spec: a, versions: a.versions.filter((v) => !k8s || v.kubernetesVersions.includes(k8s)) }))
    .filter((x) => x.versions.length > 0)
    .sort((x, y) => (x.spec.addonName < y.spec.addonName ? -1 : 1));
  const p = page(matching, (x) => x.spec.addonName, req);
  return {
    addons: p.items.map(({ spec, versions }) => ({
      addonName: spec.addonName,
      type: spec.type,
      addonVersions: versions.map((v) => ({
        addonVersion: v.addonVersion,
        architecture: ['amd64', 'arm64'],
        computeTypes: ['ec2'],
        compatibilities: v.kubernetesVersions
          .filter((kv) => !k8s || kv === k8s)
          .map((kv) => ({
            clusterVersion: kv,
            platformVersions: ['*'],
            defaultVersion: defaultAddonVersion(spec, kv) === v.addonVersion,
          })),
        requiresConfiguration: spec.requiresConfiguration ?? false,
        requiresIamPermissions: spec.requiresIamPermissions,
      })),
      publisher: spec.publisher,
      owner: spec.owner,
      defaultNamespace: spec.defaultNamespace,
    })),
    ...(p.nextToken ? { nextToken: p.nextToken } : {}),
  };
}

export function describeAddonConfiguration(input: unknown, _ctx: RequestContext) {
  const req = validateInput(
    z.object({ addonName: z.string().min(1), addonVersion: z.string().min(1) }),
    input,
    VALIDATION,
  );
  const spec = findAddon(req.addonName);
  if (!spec) throw invalidParameter(`Addon ${req.addonName} specified is not supported`, { addonName: req.addonName });
  if (!spec.versions.some((v) => v.addonVersion === req.addonVersion)) {
    throw invalidParameter(`Addon version ${req.addonVersion} specified is not supported for ${req.addonName}`, {
      addonName: req.addonName,
    });
  }
  return {
    addonName: spec.addonName,
    addonVersion: req.addonVersion,
    configurationSchema: renderSchema(
      ADDON_CONFIGURATION_SCHEMAS[spec.addonName] ?? { type: 'object', additionalProperties: false, properties: {} },
    ),
    podIdentityConfiguration: spec.podIdentity.map((p) => ({
      serviceAccount: p.serviceAccount,
      recommendedManagedPolicies: p.recommendedManagedPolicies,
    })),
  };
}
