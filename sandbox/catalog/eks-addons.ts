import { EKS_VERSIONS } from './eks-versions.js';

/**
 * The EKS add-ons the sandbox offers (what DescribeAddonVersions lists): the ones HyperPod on EKS
 * needs. Version strings follow AWS's `v<semver>-eksbuild.<n>` form; each version is compatible
 * with a range of Kubernetes minor versions, and one version per Kubernetes version is the default.
 */
export interface AddonVersionSpec {
  addonVersion: string;
  /** Compatible Kubernetes minor versions. */
  kubernetesVersions: string[];
  /** Marks the default for every Kubernetes version it supports (else the newest compatible is). */
  isDefault?: boolean;
}

export interface AddonPodIdentitySpec {
  serviceAccount: string;
  recommendedManagedPolicies: string[];
}

export interface AddonSpec {
  addonName: string;
  type: string;
  publisher: string;
  owner: 'aws' | 'community';
  defaultNamespace: string;
  requiresIamPermissions: boolean;
  /** Newest first. */
  versions: AddonVersionSpec[];
  /** Service accounts that CreateAddon `podIdentityAssociations` may name. */
  podIdentity: AddonPodIdentitySpec[];
  /**
   * Add-ons that must be ACTIVE on the cluster for this one to be healthy; while one is missing it
   * stays DEGRADED. AWS documents this for the HyperPod training operator.
   */
  requiresAddons?: string[];
  /**
   * Add-ons that must be running (`ACTIVE` or `UPDATING`), at least at these versions, when the add-on
   * finishes installing, or the install fails (`CREATE_FAILED`) naming each one. AWS documents this
   * for the HyperPod inference operator ("will fail to install if any of these dependencies are
   * missing"; each has a minimum version). Afterwards `requiresAddons` keeps it `DEGRADED` while one goes.
   */
  installRequires?: Array<{ addonName: string; minimumVersion: string }>;
  /** DescribeAddonVersions' `requiresConfiguration`: the add-on does not work without configuration values. */
  requiresConfiguration?: boolean;
}

const ALL = EKS_VERSIONS.map((v) => v.version);

/** Kubernetes minor versions from `from` to `to` (inclusive) that the catalogue knows. */
function k8s(from: string, to = ALL[0]!): string[] {
  const minor = (v: string) => Number(v.split('.')[1]);
  return ALL.filter((v) => minor(v) >= minor(from) && minor(v) <= minor(to));
}

const v = (addonVersion: string, kubernetesVersions: string[], isDefault = false): AddonVersionSpec => ({
  addonVersion,
  kubernetesVersions,
  isDefault,
});

const policy = (name: string) => `arn:aws:iam::aws:policy/${name}`;

export const EKS_ADDONS: AddonSpec[] = [
  {
    addonName: 'vpc-cni',
    type: 'networking',
    publisher: 'eks',
    owner: 'aws',
    defaultNamespace: 'kube-system',
    requiresIamPermissions: true,
    versions: [
      v('v1.21.1-eksbuild.1', k8s('1.29')),
      v('v1.20.4-eksbuild.2', k8s('1.29'), true),
      v('v1.19.6-eksbuild.1', k8s('1.29', '1.34')),
      v('v1.18.6-eksbuild.1', k8s('1.29', '1.33')),
    ],
    podIdentity: [{ serviceAccount: 'aws-node', recommendedManagedPolicies: [policy('AmazonEKS_CNI_Policy')] }],
  },
  {
    addonName: 'coredns',
    type: 'networking',
    publisher: 'eks',
    owner: 'aws',
    defaultNamespace: 'kube-system',
    requiresIamPermissions: false,
    versions: [
      v('v1.13.1-eksbuild.1', k8s('1.34')),
      v('v1.12.4-eksbuild.1', k8s('1.33')),
      v('v1.11.4-eksbuild.24', k8s('1.29', '1.32')),
      v('v1.11.3-eksbuild.2', k8s('1.29', '1.31')),
    ],
    podIdentity: [],
  },
  {
    addonName: 'kube-proxy',
    type: 'networking',
    publisher: 'eks',
    owner: 'aws',
    defaultNamespace: 'kube-system',
    requiresIamPermissions: false,
    versions: [
      v('v1.35.0-eksbuild.2', ['1.35']),
      v('v1.34.1-eksbuild.2', ['1.34']),
      v('v1.33.5-eksbuild.2', ['1.33']),
      v('v1.32.9-eksbuild.2', ['1.32']),
      v('v1.31.13-eksbuild.2', ['1.31']),
      v('v1.30.14-eksbuild.8', ['1.30']),
      v('v1.29.15-eksbuild.16', ['1.29']),
    ],
    podIdentity: [],
  },
  {
    addonName: 'eks-pod-identity-agent',
    type: 'security',
    publisher: 'eks',
    owner: 'aws',
    defaultNamespace: 'kube-system',
    requiresIamPermissions: false,
    versions: [
      v('v1.3.10-eksbuild.1', k8s('1.29')),
      v('v1.3.8-eksbuild.2', k8s('1.29')),
      v('v1.3.4-eksbuild.1', k8s('1.29', '1.33')),
    ],
    podIdentity: [],
  },
  {
    addonName: 'metrics-server',
    type: 'observability',
    publisher: 'eks',
    owner: 'community',
    defaultNamespace: 'kube-system',
    requiresIamPermissions: false,
    versions: [v('v0.8.0-eksbuild.5', k8s('1.29')), v('v0.7.2-eksbuild.4', k8s('1.29', '1.34'))],
    podIdentity: [],
  },
  {
    addonName: 'cert-manager',
    type: 'security',
    publisher: 'eks',
    owner: 'community',
    defaultNamespace: 'cert-manager',
    requiresIamPermissions: false,
    versions: [v('v1.19.1-eksbuild.1', k8s('1.30')), v('v1.18.2-eksbuild.2', k8s('1.29'), true)],
    podIdentity: [],
  },
  {
    addonName: 'aws-mountpoint-s3-csi-driver',
    type: 'storage',
    publisher: 'eks',
    owner: 'aws',
    defaultNamespace: 'kube-system',
    requiresIamPermissions: true,
    versions: [v('v2.2.0-eksbuild.1', k8s('1.29')), v('v1.15.0-eksbuild.1', k8s('1.29', '1.34'))],
    podIdentity: [{ serviceAccount: 's3-csi-driver-sa', recommendedManagedPolicies: [] }],
  },
  {
    addonName: 'aws-fsx-csi-driver',
    type: 'storage',
    publisher: 'eks',
    owner: 'aws',
    defaultNamespace: 'kube-system',
    requiresIamPermissions: true,
    versions: [v('v1.7.0-eksbuild.1', k8s('1.29')), v('v1.6.0-eksbuild.1', k8s('1.29', '1.34'))],
    podIdentity: [
      { serviceAccount: 'fsx-csi-controller-sa', recommendedManagedPolicies: [policy('AmazonFSxFullAccess')] },
    ],
  },
  {
    addonName: 'amazon-sagemaker-hyperpod-training-operator',
    type: 'machine-learning',
    publisher: 'eks',
    owner: 'aws',
    defaultNamespace: 'aws-hyperpod',
    requiresIamPermissions: true,
    versions: [v('v1.2.1-eksbuild.1', k8s('1.30')), v('v1.1.3-eksbuild.1', k8s('1.29', '1.33'))],
    podIdentity: [
      {
        serviceAccount: 'hp-training-operator-controller-manager',
        recommendedManagedPolicies: [policy('AmazonSageMakerHyperPodTrainingOperatorAccess')],
      },
    ],
    requiresAddons: ['cert-manager', 'eks-pod-identity-agent'],
  },
  {
    addonName: 'amazon-sagemaker-hyperpod-inference',
    type: 'machine-learning',
    publisher: 'eks',
    owner: 'aws',
    defaultNamespace: 'hyperpod-inference-system',
    requiresIamPermissions: true,
    versions: [v('v1.1.0-eksbuild.1', k8s('1.30')), v('v1.0.0-eksbuild.1', k8s('1.30', '1.33'))],
    podIdentity: [{ serviceAccount: 'hyperpod-inference-controller-manager', recommendedManagedPolicies: [] }],
    requiresConfiguration: true,
    // AWS's setup guide: "Install the dependency EKS Add-Ons", each with its minimum version.
    installRequires: [
      { addonName: 'aws-mountpoint-s3-csi-driver', minimumVersion: 'v1.14.1-eksbuild.1' },
      { addonName: 'aws-fsx-csi-driver', minimumVersion: 'v1.6.0-eksbuild.1' },
      { addonName: 'metrics-server', minimumVersion: 'v0.7.2-eksbuild.4' },
      { addonName: 'cert-manager', minimumVersion: 'v1.18.2-eksbuild.2' },
    ],
    requiresAddons: ['cert-manager', 'aws-mountpoint-s3-csi-driver', 'aws-fsx-csi-driver', 'metrics-server'],
  },
  {
    addonName: 'amazon-sagemaker-hyperpod-observability',
    type: 'machine-learning',
    publisher: 'eks',
    owner: 'aws',
    defaultNamespace: 'hyperpod-observability',
    requiresIamPermissions: false,
    versions: [v('v1.0.4-eksbuild.1', k8s('1.29')), v('v1.0.2-eksbuild.1', k8s('1.29', '1.33'))],
    podIdentity: [],
  },
  {
    addonName: 'amazon-sagemaker-hyperpod-taskgovernance',
    type: 'machine-learning',
    publisher: 'eks',
    owner: 'aws',
    defaultNamespace: 'kueue-system',
    requiresIamPermissions: false,
    versions: [
      v('v1.3.2-eksbuild.1', k8s('1.29')),
      v('v1.3.0-eksbuild.1', k8s('1.29', '1.34')),
      v('v1.2.0-eksbuild.1', k8s('1.29', '1.33')),
    ],
    podIdentity: [],
  },
];

export function findAddon(addonName: string): AddonSpec | undefined {
  return EKS_ADDONS.find((a) => a.addonName === addonName);
}

/** The version CreateAddon installs on a cluster of this Kubernetes version when none is given. */
export function defaultAddonVersion(addon: AddonSpec, kubernetesVersion: string): string | undefined {
  const compatible = addon.versions.filter((x) => x.kubernetesVersions.includes(kubernetesVersion));
  return (compatible.find((x) => x.isDefault) ?? compatible[0])?.addonVersion;
}

export function isAddonVersionCompatible(addon: AddonSpec, addonVersion: string, kubernetesVersion: string): boolean {
  return addon.versions.some(
    (x) => x.addonVersion === addonVersion && x.kubernetesVersions.includes(kubernetesVersion),
  );
}

/** `v1.18.2-eksbuild.2` < `v1.19.1-eksbuild.1`: numeric semver, then the eksbuild number. */
export function compareAddonVersions(a: string, b: string): number {
  const parts = (v: string) => (v.match(/\d+/g) ?? []).map(Number);
  const x = parts(a);
  const y = parts(b);
  for (let i = 0; i < Math.max(x.length, y.length); i++) {
    const d = (x[i] ?? 0) - (y[i] ?? 0);
    if (d) return d;
  }
  return 0;
}
