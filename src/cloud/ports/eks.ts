import type { OfferedAddonVersion } from '../../domain/features/addon-version.js';
import type { EksKubernetesVersion } from '../../domain/kubernetes-versions.js';

/**
 * Amazon EKS: clusters, add-ons and pod identity associations. The answers keep EKS's own member
 * names (camelCase, as DescribeCluster and DescribeAddon send them) for the members the product reads.
 */

/**
 * EKS cluster statuses (`ClusterStatus` of @aws-sdk/client-eks 3.1175.0); any other string EKS may
 * add later still reads (as "not one of these").
 */
export type EksClusterStatus = 'CREATING' | 'ACTIVE' | 'DELETING' | 'FAILED' | 'UPDATING' | 'PENDING' | (string & {});

/** A cluster as DescribeCluster (or CreateCluster) answers it: the members the product reads. */
export interface EksCluster {
  name?: string;
  arn?: string;
  version?: string;
  status?: EksClusterStatus;
  /** The Kubernetes API server's URL; absent until the control plane is up. */
  endpoint?: string;
  /** The API server's CA bundle (base64 PEM). */
  certificateAuthority?: { data?: string };
  /** The OIDC issuer (IRSA). */
  identity?: { oidc?: { issuer?: string } };
  resourcesVpcConfig?: {
    vpcId?: string;
    subnetIds?: string[];
    securityGroupIds?: string[];
    clusterSecurityGroupId?: string;
  };
  /** `authenticationMode`: API, API_AND_CONFIG_MAP or CONFIG_MAP (AuthenticationMode, client-eks 3.1175.0). */
  accessConfig?: { authenticationMode?: 'API' | 'API_AND_CONFIG_MAP' | 'CONFIG_MAP' | (string & {}) };
  /** What EKS found wrong with a failed cluster: `code` as ClusterIssueCode, kept as sent. */
  health?: { issues?: Array<{ code?: string; message?: string; resourceIds?: string[] }> };
  tags?: Record<string, string>;
}

/**
 * Add-on statuses (`AddonStatus` of @aws-sdk/client-eks 3.1175.0); a newer one still reads.
 */
export type EksAddonStatus =
  | 'CREATING'
  | 'ACTIVE'
  | 'CREATE_FAILED'
  | 'UPDATING'
  | 'DELETING'
  | 'DELETE_FAILED'
  | 'DEGRADED'
  | 'UPDATE_FAILED'
  | (string & {});

/** An installed add-on as DescribeAddon answers it: the members the product reads. */
export interface EksAddon {
  addonName?: string;
  addonVersion?: string;
  status?: EksAddonStatus;
  /** What EKS found wrong (a degraded or failed add-on): `code` is AddonIssueCode, kept as sent. */
  health?: { issues?: Array<{ code?: string; message?: string; resourceIds?: string[] }> };
  /** The configuration values (JSON) it was installed with. */
  configurationValues?: string;
  /** ARNs of the pod identity associations made with it. */
  podIdentityAssociations?: string[];
  tags?: Record<string, string>;
}

export interface EksClusterSpec {
  name: string;
  roleArn: string;
  subnetIds: string[];
  securityGroupIds: string[];
  version?: string;
  tags: Record<string, string>;
}

export interface PodIdentityAssociationFacts {
  associationId: string;
  associationArn?: string;
  /** From DescribePodIdentityAssociation (list answers do not carry it). */
  roleArn?: string;
}

export interface EksPort {
  describeCluster(region: string, name: string): Promise<EksCluster | undefined>;
  /** The Kubernetes versions EKS offers for new clusters in the Region, with its default marked (DescribeClusterVersions). */
  clusterVersions(region: string): Promise<EksKubernetesVersion[]>;
  createCluster(region: string, spec: EksClusterSpec): Promise<EksCluster>;
  deleteCluster(region: string, name: string): Promise<void>;
  describeAddon(region: string, clusterName: string, addonName: string): Promise<EksAddon | undefined>;
  defaultAddonVersion(region: string, addonName: string, kubernetesVersion: string): Promise<string | undefined>;
  /** Every version of an add-on EKS offers for a Kubernetes version, newest first, with the default marked (DescribeAddonVersions). */
  addonVersions(region: string, addonName: string, kubernetesVersion: string): Promise<OfferedAddonVersion[]>;
  createAddon(
    region: string,
    clusterName: string,
    addonName: string,
    options: {
      version?: string;
      /** Bound through the add-on (CreateAddon's podIdentityAssociations): EKS deletes them with it. */
      podIdentityAssociations?: ReadonlyArray<{ serviceAccount: string; roleArn: string }>;
      /** The add-on's configuration values (JSON). */
      configurationValues?: string;
      tags: Record<string, string>;
    },
  ): Promise<void>;
  /** UpdateAddon: another version (and, when given, other configuration values) of an installed add-on. */
  updateAddon(
    region: string,
    clusterName: string,
    addonName: string,
    options: { version: string; configurationValues?: string },
  ): Promise<void>;
  deleteAddon(region: string, clusterName: string, addonName: string): Promise<void>;
  /** The pod identity association of a service account (ListPodIdentityAssociations); undefined when there is none. */
  podIdentityAssociation(
    region: string,
    clusterName: string,
    namespace: string,
    serviceAccount: string,
  ): Promise<PodIdentityAssociationFacts | undefined>;
  /** UpdatePodIdentityAssociation: the role the service account's pods get. */
  updatePodIdentityAssociationRole(
    region: string,
    clusterName: string,
    associationId: string,
    roleArn: string,
  ): Promise<void>;
  /** CreatePodIdentityAssociation (a workload's own, not an add-on's); its id. */
  createPodIdentityAssociation(
    region: string,
    clusterName: string,
    association: { namespace: string; serviceAccount: string; roleArn: string; tags: Record<string, string> },
  ): Promise<string>;
}
