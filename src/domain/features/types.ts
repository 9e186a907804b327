import type { FeatureId } from '../schemas/features.js';

/**
 * The vocabulary of the feature registry: what a feature installs and which IAM identities it
 * needs, as plain data. A reconciler turns each entry into AWS and Kubernetes calls; the features
 * API shows the same data as "what this feature installs"; nothing here calls anything.
 */

/**
 * The manifest sets InstantStart pins and builds itself. health-monitoring-agent and device-plugins are
 * built in cluster-dependencies.ts; kuberay-operator in install-pieces.ts (kuberayOperatorManifests).
 */
export type ManifestSetId = 'health-monitoring-agent' | 'device-plugins' | 'kuberay-operator';

/** Builders of EKS add-on configuration values that need the cluster's own facts (role ARNs, buckets): install-pieces.ts. */
export type AddonValuesId = 'inference-operator';

export type FeatureInstall =
  | {
      kind: 'eks-addon';
      /**
       * The version installed is the one the config pins, else the default EKS marks for the cluster's
       * Kubernetes version (DescribeAddonVersions, checked before any call that changes the cluster).
       */
      addonName: string;
      /** Where the add-on runs (its controllers and service accounts). */
      namespace: string;
      /** The `configurationValues` JSON the add-on is created with, built from the cluster's facts. */
      configurationValues?: AddonValuesId;
      /** Identities (by `FeatureIdentity.id`) bound through the add-on's own `podIdentityAssociations`. */
      podIdentityAssociations?: readonly string[];
    }
  | { kind: 'manifests'; set: ManifestSetId; source: string }
  | {
      /** A field of the HyperPod cluster itself, set through UpdateCluster (and read back from DescribeCluster). */
      kind: 'cluster-setting';
      field: 'TieredStorageConfig' | 'AutoScaling';
      /** The value that means "on"; config fields fill in the rest. */
      enabled: Record<string, string>;
      /** The value that means "off". */
      disabled: Record<string, string>;
      /** The durable operation that already owns this setting, when one does (its phases are reused, not copied). */
      operation?: 'set-autoscaling';
    }
  | { kind: 's3-bucket'; purpose: string }
  | { kind: 'subnet-tags'; subnets: 'private' | 'public'; key: string; value: string };

/** Who may assume a feature's role. */
export type IdentityBinding =
  | {
      /** EKS Pod Identity: a PodIdentityAssociation; the role trusts pods.eks.amazonaws.com. */
      kind: 'pod-identity';
      namespace: string;
      serviceAccount: string;
    }
  | {
      /**
       * IRSA: the cluster's IAM OIDC provider, a trust policy with `<issuer>:sub` (and `:aud` when
       * `audience`), and — when `annotate` — the `eks.amazonaws.com/role-arn` annotation we put on the
       * service account ourselves (an add-on annotates the service accounts it creates).
       */
      kind: 'irsa';
      namespace: string;
      /** `*` matches (StringLike) when the add-on creates several service accounts, e.g. per model. */
      serviceAccount: string;
      audience: boolean;
      annotate: boolean;
    }
  | {
      /** A service principal assumes the role (no pod), e.g. HyperPod's autoscaler. */
      kind: 'service';
      service: string;
    };

/** A sketch of a permission, enough to build the inline policy and to show it. `resource` names what it is scoped to. */
export type PermissionGrant =
  | {
      actions: readonly string[];
      resource:
        | 'shared-bucket'
        | 'shared-bucket-objects'
        | 'shared-bucket-checkpoints'
        | 'tls-bucket'
        | 'hyperpod-cluster'
        | 'any';
      /**
       * Granted only when the cluster has that resource; without it the grant is left out rather than
       * refusing the feature (the S3 CSI driver works without a shared bucket: each added storage grants
       * its own bucket, docs/STORAGE.md).
       */
      ifPresent?: boolean;
    }
  /** A policy document a project publishes for its controller (vendored by the reconciler, pinned to a version). */
  | { published: 'aws-load-balancer-controller'; version: string };

export interface FeatureIdentity {
  /** Stable within the feature, e.g. `execution`. */
  id: string;
  title: string;
  /** The role is `instantstart-<cluster>-<roleSuffix>` (see featureRoleName), unless it needs a `roleNamePrefix`. */
  roleSuffix: string;
  /**
   * A prefix the role's name must have because a managed policy passes only roles so named: the role
   * is then `<prefix>-<cluster>-<hash>` (naming.ts → prefixedRoleName), and `instantstart-<cluster>-<roleSuffix>`
   * is the name it had before — InstantStart still finds and removes a role of that name it made.
   */
  roleNamePrefix?: string;
  /** Who may assume it: one or more bindings (a role may trust a service and a service account). */
  bindings: readonly IdentityBinding[];
  managedPolicies: readonly string[];
  permissions: readonly PermissionGrant[];
}

export interface FeatureDefinition {
  id: FeatureId;
  title: string;
  /** One sentence: what turning it on gives the user. */
  summary: string;
  /** Offered as a toggle on the faces (false: part of every cluster, installed by create). */
  toggleable: boolean;
  /** Features that must be on (and installed first) for this one to work. */
  needs: readonly FeatureId[];
  /** Lowest add-on version of a needed feature this one works with, where one is documented. */
  needsMinimumVersions?: Partial<Record<FeatureId, string>>;
  /** What turning it on installs, in the order it is installed. */
  installs: readonly FeatureInstall[];
  identities: readonly FeatureIdentity[];
}
