/**
 * The Kubernetes versions EKS offers, as DescribeClusterVersions answered in February 2026 (dates
 * and platform versions are AWS's; see docs/SANDBOX.md). The statuses are a fixed snapshot rather
 * than computed from the sandbox clock, so a create that works today still works next year.
 */
export interface EksVersionInfo {
  version: string;
  /** Latest platform version, e.g. `eks.13`. */
  platformVersion: string;
  /** A patch release of that minor version, as `kubernetesPatchVersion` reports it. */
  patchVersion: string;
  releaseDate: string;
  endOfStandardSupport: string;
  endOfExtendedSupport: string;
  versionStatus: 'STANDARD_SUPPORT' | 'EXTENDED_SUPPORT' | 'UNSUPPORTED';
}

export const EKS_VERSIONS: EksVersionInfo[] = [
  {
    version: '1.35',
    platformVersion: 'eks.3',
    patchVersion: '1.35.0',
    releaseDate: '2026-01-27',
    endOfStandardSupport: '2027-03-27',
    endOfExtendedSupport: '2028-03-27',
    versionStatus: 'STANDARD_SUPPORT',
  },
  {
    version: '1.34',
    platformVersion: 'eks.13',
    patchVersion: '1.34.2',
    releaseDate: '2025-10-02',
    endOfStandardSupport: '2026-12-02',
    endOfExtendedSupport: '2027-12-02',
    versionStatus: 'STANDARD_SUPPORT',
  },
  {
    version: '1.33',
    platformVersion: 'eks.27',
    patchVersion: '1.33.6',
    releaseDate: '2025-05-29',
    endOfStandardSupport: '2026-07-29',
    endOfExtendedSupport: '2027-07-29',
    versionStatus: 'STANDARD_SUPPORT',
  },
  {
    version: '1.32',
    platformVersion: 'eks.34',
    patchVersion: '1.32.10',
    releaseDate: '2025-01-23',
    endOfStandardSupport: '2026-03-23',
    endOfExtendedSupport: '2027-03-23',
    versionStatus: 'STANDARD_SUPPORT',
  },
  {
    version: '1.31',
    platformVersion: 'eks.50',
    patchVersion: '1.31.14',
    releaseDate: '2024-09-26',
    endOfStandardSupport: '2025-11-26',
    endOfExtendedSupport: '2026-11-26',
    versionStatus: 'EXTENDED_SUPPORT',
  },
  {
    version: '1.30',
    platformVersion: 'eks.58',
    patchVersion: '1.30.14',
    releaseDate: '2024-05-23',
    endOfStandardSupport: '2025-07-23',
    endOfExtendedSupport: '2026-07-23',
    versionStatus: 'EXTENDED_SUPPORT',
  },
  {
    version: '1.29',
    platformVersion: 'eks.61',
    patchVersion: '1.29.15',
    releaseDate: '2024-01-23',
    endOfStandardSupport: '2025-03-23',
    endOfExtendedSupport: '2026-03-23',
    versionStatus: 'EXTENDED_SUPPORT',
  },
];

/**
 * The version CreateCluster uses when none is given (and DescribeClusterVersions marks
 * `defaultVersion`): the newest one in standard support, 1.35 — newer than any version SageMaker
 * HyperPod supports (catalog/hyperpod-eks-requirements.ts), as EKS's default is whenever EKS releases a
 * version before HyperPod supports it. A client that creates EKS at "EKS's default" gets a cluster
 * HyperPod's CreateCluster refuses, as it would on a real account.
 */
export const DEFAULT_EKS_VERSION: string = EKS_VERSIONS.find((v) => v.versionStatus === 'STANDARD_SUPPORT')!.version;

export function findEksVersion(version: string): EksVersionInfo | undefined {
  return EKS_VERSIONS.find((v) => v.version === version);
}
