/**
 * Which Kubernetes version a new cluster's EKS control plane runs: one that EKS offers in the Region
 * (DescribeClusterVersions, read from AWS) and that SageMaker HyperPod supports (documented only —
 * AWS has no API that says it, so it is data here, with its source). Pure rules; the catalog and the
 * create workflow read EKS's side.
 */

/**
 * The Kubernetes versions SageMaker HyperPod supports on EKS. No AWS API reports this; it is read from
 * AWS's documentation and must be updated when AWS extends it:
 * - "Getting started with Amazon EKS support in SageMaker HyperPod", Requirements → "Kubernetes version
 *   support": "SageMaker HyperPod supports Kubernetes versions 1.28, …, 1.33 and 1.34" (the newest page
 *   seen lists 1.34; older copies of the same page stop at 1.31, 1.32 or 1.33).
 * - "Using the HyperPod training operator" → Supported versions (the training-operator add-on every
 *   cluster of ours gets): Kubernetes 1.28–1.34.
 * Read on 2026-12-07 (shared/reference/real-account-facts.md, fact 7).
 */
export const HYPERPOD_KUBERNETES_SUPPORT = {
  versions: ['1.28', '1.29', '1.30', '1.31', '1.32', '1.33', '1.34'],
  sources: [
    'https://docs.aws.amazon.com/sagemaker/latest/dg/sagemaker-hyperpod-eks-prerequisites.html',
    'https://docs.aws.amazon.com/sagemaker/latest/dg/sagemaker-eks-operator.html',
  ],
  readOn: '2026-12-07',
} as const;

/** What EKS says of one Kubernetes version in a Region (DescribeClusterVersions' ClusterVersionInformation). */
export interface EksKubernetesVersion {
  version: string;
  /** EKS's `defaultVersion`: what CreateCluster uses when no version is given. */
  isDefault: boolean;
  /** EKS's `versionStatus`: STANDARD_SUPPORT, EXTENDED_SUPPORT (costs more per hour) or UNSUPPORTED. */
  status: string;
  /** When standard support ends (ISO date), when EKS says. */
  endOfStandardSupport?: string;
}

/** One version as the catalog shows it: which side supports it, and whether create may use it. */
export interface KubernetesVersionOption {
  version: string;
  /** EKS offers it in the Region; with its status and whether it is EKS's default. */
  eks: { offered: boolean; isDefault: boolean; status?: string; endOfStandardSupport?: string };
  /** SageMaker HyperPod supports it (HYPERPOD_KUBERNETES_SUPPORT). */
  hyperpod: boolean;
  /** Both do: create-cluster accepts it. */
  usable: boolean;
  /** The version create-cluster uses when none is asked for. */
  isChosenDefault: boolean;
}

/** `1.9` < `1.10`: versions compare by their numbers, not as text. */
export function compareKubernetesVersions(a: string, b: string): number {
  const pa = a.split('.').map(Number);
  const pb = b.split('.').map(Number);
  for (let i = 0; i < Math.max(pa.length, pb.length); i++) {
    const d = (pa[i] ?? 0) - (pb[i] ?? 0);
    if (d !== 0) return d;
  }
  return 0;
}

export function hyperPodSupportsKubernetes(version: string): boolean {
  return (HYPERPOD_KUBERNETES_SUPPORT.versions as readonly string[]).includes(version);
}

/** "1.28 to 1.34": HyperPod's range, as messages say it. */
export function hyperPodKubernetesRange(): string {
  const v = HYPERPOD_KUBERNETES_SUPPORT.versions;
  return `${v[0]} to ${v[v.length - 1]}`;
}

/** EKS's offered versions that HyperPod supports too, newest first. */
export function usableKubernetesVersions(offered: readonly EksKubernetesVersion[]): EksKubernetesVersion[] {
  return offered
    .filter((v) => hyperPodSupportsKubernetes(v.version) && v.status !== 'UNSUPPORTED')
    .sort((a, b) => compareKubernetesVersions(b.version, a.version));
}

/**
 * The version a create uses when the user asks for none, or undefined when EKS offers no version
 * HyperPod supports in the Region.
 *
 * EKS's own default comes first when HyperPod supports it: it is the version AWS recommends for new
 * clusters and the one EKS's add-ons (vpc-cni, coredns, the HyperPod training operator) are marked
 * default for — never newer than HyperPod's documented range by our own choice. Otherwise (EKS's
 * default is newer than HyperPod supports, as it is whenever EKS releases first) the newest version
 * both support, preferring one still in standard support: extended support costs six times as much
 * per cluster-hour and ends sooner.
 *
 * @example
 * chooseKubernetesVersion([{ version: '1.35', isDefault: true, status: 'STANDARD_SUPPORT' },
 *                          { version: '1.34', isDefault: false, status: 'STANDARD_SUPPORT' }]); // '1.34'
 */
export function chooseKubernetesVersion(offered: readonly EksKubernetesVersion[]): string | undefined {
  const usable = usableKubernetesVersions(offered);
  const chosen = usable.find((v) => v.isDefault) ?? usable.find((v) => v.status === 'STANDARD_SUPPORT') ?? usable[0];
  return chosen?.version;
}

/**
 * Every version either side knows, newest first: EKS's offered versions and HyperPod's supported
 * ones, each saying which side supports it and which one create uses by default.
 */
export function kubernetesVersionOptions(offered: readonly EksKubernetesVersion[]): KubernetesVersionOption[] {
  const chosen = chooseKubernetesVersion(offered);
  const byVersion = new Map(offered.map((v) => [v.version, v]));
  const all = [...new Set([...offered.map((v) => v.version), ...HYPERPOD_KUBERNETES_SUPPORT.versions])].sort((a, b) =>
    compareKubernetesVersions(b, a),
  );
  return all.map((version) => {
    const eks = byVersion.get(version);
    const offeredByEks = eks !== undefined && eks.status !== 'UNSUPPORTED';
    const hyperpod = hyperPodSupportsKubernetes(version);
    return {
      version,
      eks: {
        offered: offeredByEks,
        isDefault: eks?.isDefault ?? false,
        ...(eks ? { status: eks.status } : {}),
        ...(eks?.endOfStandardSupport ? { endOfStandardSupport: eks.endOfStandardSupport } : {}),
      },
      hyperpod,
      usable: offeredByEks && hyperpod,
      isChosenDefault: version === chosen,
    };
  });
}
