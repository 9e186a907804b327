import { keyed } from '../../core/keyed.js';
import { findAddon } from '../../catalog/eks-addons.js';
import { clusterEndpoint, clusterOidcIssuer } from './public.js';
import type {
  StoredAccessEntry,
  StoredAccessPolicy,
  StoredAddon,
  StoredCluster,
  StoredPodIdentityAssociation,
  StoredUpdate,
} from './state.js';

/** Wire shapes of EKS outputs. State keeps epoch ms; outputs carry `Date`s, which JSON renders as epoch seconds. */
export function renderCluster(
  c: StoredCluster,
  region: string,
  sandbox: { endpointUrl: string; ca: { base64Data: string } },
): Record<string, unknown> {
  const live = c.status !== 'CREATING' && c.status !== 'FAILED';
  return {
    name: c.name,
    arn: c.arn,
    createdAt: new Date(c.createdAt),
    version: c.version,
    ...(live ? { endpoint: clusterEndpoint(c, sandbox.endpointUrl) } : {}),
    // As on AWS, the authority's data appears with the endpoint; an empty object until then.
    certificateAuthority: live ? { data: sandbox.ca.base64Data } : {},
    roleArn: c.roleArn,
    resourcesVpcConfig: {
      subnetIds: c.subnetIds,
      securityGroupIds: c.securityGroupIds,
      ...(c.clusterSecurityGroupId ? { clusterSecurityGroupId: c.clusterSecurityGroupId } : {}),
      vpcId: c.vpcId,
      endpointPublicAccess: c.endpointPublicAccess,
      endpointPrivateAccess: c.endpointPrivateAccess,
      publicAccessCidrs: c.publicAccessCidrs,
    },
    kubernetesNetworkConfig: {
      serviceIpv4Cidr: c.serviceIpv4Cidr,
      ipFamily: c.ipFamily,
      elasticLoadBalancing: { enabled: false },
    },
    logging: { clusterLogging: c.logging },
    identity: { oidc: { issuer: clusterOidcIssuer(c, region) } },
    status: c.status,
    ...(c.clientRequestToken ? { clientRequestToken: c.clientRequestToken } : {}),
    platformVersion: c.platformVersion,
    tags: c.tags,
    health: {
      issues:
        c.status === 'FAILED' && c.failureMessage
          ? [{ code: 'Other', message: c.failureMessage, resourceIds: [c.name] }]
          : [],
    },
    accessConfig: {
      bootstrapClusterCreatorAdminPermissions: c.bootstrapClusterCreatorAdminPermissions,
      authenticationMode: c.authenticationMode,
    },
    upgradePolicy: { supportType: c.supportType },
    ...(c.zonalShiftEnabled !== undefined ? { zonalShiftConfig: { enabled: c.zonalShiftEnabled } } : {}),
    ...(c.controlPlaneTier ? { controlPlaneScalingConfig: { tier: c.controlPlaneTier } } : {}),
    deletionProtection: c.deletionProtection,
  };
}

export function renderAddon(c: StoredCluster, a: StoredAddon): Record<string, unknown> {
  const spec = findAddon(a.addonName);
  const piaArns = a.podIdentityAssociationIds
    .map((id) => keyed.get(c.podIdentityAssociations, id)?.associationArn)
    .filter((x): x is string => !!x);
  return {
    addonName: a.addonName,
    clusterName: c.name,
    status: a.status,
    addonVersion: a.addonVersion,
    health: { issues: a.healthIssues },
    addonArn: a.addonArn,
    createdAt: new Date(a.createdAt),
    modifiedAt: new Date(a.modifiedAt),
    ...(a.serviceAccountRoleArn ? { serviceAccountRoleArn: a.serviceAccountRoleArn } : {}),
    tags: a.tags,
    ...(spec ? { publisher: spec.publisher, owner: spec.owner } : {}),
    ...(a.configurationValues ? { configurationValues: a.configurationValues } : {}),
    podIdentityAssociations: piaArns,
    ...(a.namespace ? { namespaceConfig: { namespace: a.namespace } } : {}),
  };
}

export function renderAccessEntry(c: StoredCluster, e: StoredAccessEntry): Record<string, unknown> {
  return {
    clusterName: c.name,
    principalArn: e.principalArn,
    kubernetesGroups: e.kubernetesGroups,
    accessEntryArn: e.accessEntryArn,
    createdAt: new Date(e.createdAt),
    modifiedAt: new Date(e.modifiedAt),
    tags: e.tags,
    username: e.username,
    type: e.type,
  };
}

export function renderAssociatedPolicy(p: StoredAccessPolicy): Record<string, unknown> {
  return {
    policyArn: p.policyArn,
    accessScope: { type: p.accessScope.type, namespaces: p.accessScope.namespaces },
    associatedAt: new Date(p.associatedAt),
    modifiedAt: new Date(p.modifiedAt),
  };
}

export function renderPodIdentityAssociation(
  c: StoredCluster,
  a: StoredPodIdentityAssociation,
): Record<string, unknown> {
  return {
    clusterName: c.name,
    namespace: a.namespace,
    serviceAccount: a.serviceAccount,
    roleArn: a.roleArn,
    associationArn: a.associationArn,
    associationId: a.associationId,
    tags: a.tags,
    createdAt: new Date(a.createdAt),
    modifiedAt: new Date(a.modifiedAt),
    ...(a.ownerArn ? { ownerArn: a.ownerArn } : {}),
    disableSessionTags: a.disableSessionTags,
    ...(a.targetRoleArn ? { targetRoleArn: a.targetRoleArn, externalId: a.externalId } : {}),
    ...(a.policy ? { policy: a.policy } : {}),
  };
}

export function renderPodIdentitySummary(c: StoredCluster, a: StoredPodIdentityAssociation): Record<string, unknown> {
  return {
    clusterName: c.name,
    namespace: a.namespace,
    serviceAccount: a.serviceAccount,
    associationArn: a.associationArn,
    associationId: a.associationId,
    ...(a.ownerArn ? { ownerArn: a.ownerArn } : {}),
  };
}

export function renderUpdate(u: StoredUpdate): Record<string, unknown> {
  return { id: u.id, status: u.status, type: u.type, params: u.params, createdAt: new Date(u.createdAt), errors: [] };
}
