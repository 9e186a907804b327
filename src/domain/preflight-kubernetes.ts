import {
  chooseKubernetesVersion,
  compareKubernetesVersions,
  HYPERPOD_KUBERNETES_SUPPORT,
  hyperPodKubernetesRange,
  hyperPodSupportsKubernetes,
  usableKubernetesVersions,
  type EksKubernetesVersion,
} from './kubernetes-versions.js';
import type { PreflightRequest } from './preflight-facts.js';
import type { PreflightProblem } from './schemas/preflight.js';

// The preflight rules about the Kubernetes version: one both EKS (in the Region) and HyperPod support.

/**
 * The version asked for must be one EKS offers in the Region (HyperPod's range the request schema
 * checked already, before any AWS call); with none asked, EKS must offer one HyperPod supports.
 */
export function kubernetesVersionProblems(
  req: PreflightRequest,
  offered: EksKubernetesVersion[] | undefined,
): PreflightProblem[] {
  if (!offered) return [];
  const usable = usableKubernetesVersions(offered).map((v) => v.version);
  const listing = `list_kubernetes_versions / GET /api/v1/kubernetes-versions?region=${req.region}`;
  const eksOffers = offered
    .filter((v) => v.status !== 'UNSUPPORTED')
    .map((v) => v.version)
    .sort(compareKubernetesVersions);
  if (req.kubernetesVersion === undefined) {
    if (usable.length > 0) return [];
    return [
      {
        field: 'region',
        code: 'NoSupportedKubernetesVersion',
        message: `EKS offers Kubernetes ${eksOffers.join(', ') || 'no version'} in ${req.region}; SageMaker HyperPod supports ${hyperPodKubernetesRange()}: no version fits both.`,
        remedy: `Create the cluster in another Region (${listing}).`,
      },
    ];
  }
  if (usable.includes(req.kubernetesVersion)) return [];
  const outOfRange = kubernetesVersionRangeProblem(req);
  if (outOfRange) return [outOfRange];
  return [
    {
      field: 'kubernetesVersion',
      code: 'KubernetesVersionNotOffered',
      message: `EKS does not offer Kubernetes ${req.kubernetesVersion} for new clusters in ${req.region} (it offers ${eksOffers.join(', ') || 'none'}).`,
      remedy: usable.length
        ? `Use one both support (${usable.join(', ')}), or leave kubernetesVersion out for ${chooseKubernetesVersion(offered)} (${listing}).`
        : `No version fits both in ${req.region}; create the cluster in another Region (${listing}).`,
    },
  ];
}

/**
 * A version SageMaker HyperPod does not support, decided from HyperPod's documented range alone — no
 * AWS call needed, so a create refuses it before anything else (ClusterService.create).
 *
 * @example
 * kubernetesVersionRangeProblem({ kubernetesVersion: '1.35' })?.message
 * // "SageMaker HyperPod does not support Kubernetes 1.35; it supports 1.28 to 1.34 (1.28, …, 1.34)."
 */
export function kubernetesVersionRangeProblem(req: {
  kubernetesVersion?: string | undefined;
}): PreflightProblem | undefined {
  if (req.kubernetesVersion === undefined || hyperPodSupportsKubernetes(req.kubernetesVersion)) return undefined;
  return {
    field: 'kubernetesVersion',
    code: 'KubernetesVersionNotSupported',
    message:
      `SageMaker HyperPod does not support Kubernetes ${req.kubernetesVersion}; it supports ${hyperPodKubernetesRange()} ` +
      `(${HYPERPOD_KUBERNETES_SUPPORT.versions.join(', ')}, as AWS documents it: ${HYPERPOD_KUBERNETES_SUPPORT.sources[0]}).`,
    remedy:
      'Use one of those that EKS offers in the Region (list_kubernetes_versions / GET /api/v1/kubernetes-versions), or leave kubernetesVersion out for the default.',
  };
}
