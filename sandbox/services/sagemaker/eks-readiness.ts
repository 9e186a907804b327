import {
  HYPERPOD_KUBERNETES_VERSIONS,
  HYPERPOD_REQUIRED_DEPENDENCIES,
  type RequiredDependency,
} from '../../catalog/hyperpod-eks-requirements.js';
import type { SandboxState } from '../../core/store.js';
import { liveKubeObjects } from '../../kube/public.js';
import type { EksClusterView } from '../eks/public.js';
import { validation } from './errors.js';

/**
 * What CreateCluster checks inside the EKS cluster it is to orchestrate (sandbox/catalog/
 * hyperpod-eks-requirements.ts says what and why): its Kubernetes version is one HyperPod supports,
 * and HyperPod's dependencies chart is installed. The messages are assumed (AWS publishes neither);
 * both are ValidationException, like every other check of the request.
 */
export function checkEksReadiness(state: SandboxState, eks: EksClusterView): void {
  if (!HYPERPOD_KUBERNETES_VERSIONS.includes(eks.version)) {
    throw validation(
      `The EKS cluster '${eks.name}' in Orchestrator.Eks.ClusterArn runs Kubernetes version ${eks.version}, which SageMaker HyperPod does not support. ` +
        `Supported Kubernetes versions: ${HYPERPOD_KUBERNETES_VERSIONS.join(', ')}.`,
    );
  }
  const missing = HYPERPOD_REQUIRED_DEPENDENCIES.filter((d) => !isPresent(state, eks.arn, d));
  if (missing.length) {
    throw validation(
      `The EKS cluster '${eks.name}' in Orchestrator.Eks.ClusterArn is missing one or more required dependencies: ${missing.map((d) => d.label).join('; ')}. ` +
        'Install the SageMaker HyperPod dependencies Helm chart (helm_chart/HyperPodHelmChart in aws/sagemaker-hyperpod-cli) on the cluster, then create the HyperPod cluster.',
    );
  }
}

function isPresent(state: SandboxState, eksClusterArn: string, d: RequiredDependency): boolean {
  const objects = liveKubeObjects(state, eksClusterArn, {
    group: d.group,
    resource: d.resource,
    ...(d.namespace ? { namespace: d.namespace } : {}),
  });
  return objects.some(
    (o) =>
      o.kind === d.kind &&
      ('exact' in d.name ? o.metadata.name === d.name.exact : (o.metadata.name ?? '').includes(d.name.contains)),
  );
}
