import { keyed, type Keyed } from '../../core/keyed.js';
import type { SandboxState } from '../../core/store.js';

/**
 * EKS state, per region. Add-ons, access entries, pod identity associations and updates live
 * inside their cluster, because on AWS they cannot outlive it: deleting the cluster takes them all.
 */
export type ClusterStatus = 'CREATING' | 'ACTIVE' | 'DELETING' | 'FAILED' | 'UPDATING' | 'PENDING';
export type AuthenticationMode = 'API' | 'API_AND_CONFIG_MAP' | 'CONFIG_MAP';
export type AddonStatus =
  | 'CREATING'
  | 'ACTIVE'
  | 'CREATE_FAILED'
  | 'UPDATING'
  | 'DELETING'
  | 'DELETE_FAILED'
  | 'DEGRADED'
  | 'UPDATE_FAILED';

export interface LogSetup {
  types: string[];
  enabled: boolean;
}

export interface HealthIssue {
  code: string;
  message: string;
  resourceIds?: string[];
}

export interface StoredAccessPolicy {
  policyArn: string;
  accessScope: { type: 'cluster' | 'namespace'; namespaces: string[] };
  associatedAt: number;
  modifiedAt: number;
}

export interface StoredAccessEntry {
  principalArn: string;
  accessEntryArn: string;
  type: string;
  username: string;
  kubernetesGroups: string[];
  tags: Keyed<string>;
  createdAt: number;
  modifiedAt: number;
  policies: StoredAccessPolicy[];
}

export interface StoredPodIdentityAssociation {
  associationId: string;
  associationArn: string;
  namespace: string;
  serviceAccount: string;
  roleArn: string;
  targetRoleArn?: string;
  /** Set with targetRoleArn: the external id EKS uses to assume the target role. */
  externalId?: string;
  /** Session policy (JSON text). */
  policy?: string;
  disableSessionTags: boolean;
  /** The add-on that made it (CreateAddon podIdentityAssociations); such associations go with it. */
  ownerArn?: string;
  tags: Keyed<string>;
  createdAt: number;
  modifiedAt: number;
}

export interface StoredAddon {
  addonName: string;
  addonArn: string;
  addonVersion: string;
  status: AddonStatus;
  /** Sandbox instant at which CREATING / UPDATING / DELETING completes. */
  readyAt?: number;
  /** When the create completed (sandbox ms), for the admin inventory. */
  activeAt?: number;
  /** create-failure fault message: the create ends CREATE_FAILED at readyAt with this health issue. */
  failureMessage?: string;
  serviceAccountRoleArn?: string;
  configurationValues?: string;
  podIdentityAssociationIds: string[];
  /** namespaceConfig.namespace when the caller chose one. */
  namespace?: string;
  /** DeleteAddon `preserve`: only the management goes, the software stays (nothing to keep in the sandbox). */
  preserve?: boolean;
  healthIssues: HealthIssue[];
  tags: Keyed<string>;
  createdAt: number;
  modifiedAt: number;
}

export interface StoredUpdate {
  id: string;
  status: 'InProgress' | 'Failed' | 'Cancelled' | 'Successful';
  type: string;
  params: { type: string; value: string }[];
  addonName?: string;
  /** What the update applies when it completes (the cluster or add-on keeps its old settings until then). */
  changes: UpdateChanges;
  createdAt: number;
  completeAt: number;
}

export interface UpdateChanges {
  authenticationMode?: AuthenticationMode;
  logging?: LogSetup[];
  deletionProtection?: boolean;
  supportType?: 'STANDARD' | 'EXTENDED';
  addonVersion?: string;
  serviceAccountRoleArn?: string;
  configurationValues?: string;
}

export interface StoredCluster {
  name: string;
  arn: string;
  version: string;
  platformVersion: string;
  roleArn: string;
  status: ClusterStatus;
  createdAt: number;
  /** When CREATING / UPDATING / DELETING completes (sandbox ms). */
  readyAt?: number;
  /** When the create completed (sandbox ms): the cluster's own service time, for the admin inventory. */
  activeAt?: number;
  /** create-failure fault message: the cluster goes FAILED at readyAt with this health issue. */
  failureMessage?: string;
  endpointId: string;
  oidcId: string;
  vpcId: string;
  subnetIds: string[];
  securityGroupIds: string[];
  clusterSecurityGroupId?: string;
  controlPlaneEniIds: string[];
  endpointPublicAccess: boolean;
  endpointPrivateAccess: boolean;
  publicAccessCidrs: string[];
  serviceIpv4Cidr: string;
  ipFamily: 'ipv4' | 'ipv6';
  logging: LogSetup[];
  authenticationMode: AuthenticationMode;
  bootstrapClusterCreatorAdminPermissions: boolean;
  supportType: 'STANDARD' | 'EXTENDED';
  bootstrapSelfManagedAddons: boolean;
  deletionProtection: boolean;
  zonalShiftEnabled?: boolean;
  controlPlaneTier?: string;
  clientRequestToken?: string;
  /** Who called CreateCluster (role ARN for assumed roles): the bootstrap cluster admin. */
  creatorArn: string;
  tags: Keyed<string>;
  addons: Keyed<StoredAddon>;
  /** By principal ARN. */
  accessEntries: Keyed<StoredAccessEntry>;
  podIdentityAssociations: Keyed<StoredPodIdentityAssociation>;
  updates: StoredUpdate[];
}

export interface EksRegionState {
  clusters: Keyed<StoredCluster>;
}

const regionsOf = (state: SandboxState) => state.eks as Keyed<EksRegionState> | undefined;

/** `state.eks[region]`, created lazily. */
export function eksRegion(state: SandboxState, region: string): EksRegionState {
  const all = (state.eks ??= {}) as Keyed<EksRegionState>;
  return keyed.ensure(all, region, () => ({ clusters: {} }));
}

/** Every region's EKS state (for ticks and the inventory); does not create the section. */
export function eksRegions(state: SandboxState): Array<[string, EksRegionState]> {
  return keyed.entries(regionsOf(state));
}

/** The clusters of a region (empty when there are none); does not create the section. */
export function clustersIn(state: SandboxState, region: string): StoredCluster[] {
  return keyed.values(keyed.get(regionsOf(state), region)?.clusters);
}

/** A cluster by name or by arn (`arn:aws:eks:<region>:<acct>:cluster/<name>`). */
export function findCluster(state: SandboxState, region: string, nameOrArn: string): StoredCluster | undefined {
  const name = nameOrArn.startsWith('arn:') ? nameOrArn.slice(nameOrArn.lastIndexOf('/') + 1) : nameOrArn;
  const c = keyed.get(keyed.get(regionsOf(state), region)?.clusters, name);
  if (c && nameOrArn.startsWith('arn:') && c.arn !== nameOrArn) return undefined;
  return c;
}
