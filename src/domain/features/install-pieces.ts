import type { KubeObject } from '../kube-object.js';

/**
 * The pieces of features InstantStart builds itself: the KubeRay operator's manifests (pinned) and
 * the inference operator add-on's configuration values.
 *
 * CONTRACT STUB (issue 16): the signatures are fixed; the bodies are being built.
 */

/** KubeRay's CRDs (RayCluster, RayJob, RayService) and its operator (namespace, service account, RBAC, Deployment), pinned. */
export function kuberayOperatorManifests(): KubeObject[] {
  throw new Error('kuberayOperatorManifests is not built yet (issue 16)');
}

/** The facts the inference operator add-on's configuration values are built from. */
export interface InferenceOperatorFacts {
  region: string;
  eksClusterName: string;
  hyperpodClusterArn: string;
  tlsBucket: string;
  /** Role ARNs by the registry's identity ids: execution, gated-model, load-balancer-controller, keda. */
  roleArns: ReadonlyMap<string, string>;
}

/** The add-on's `configurationValues` JSON (the keys sagemaker-hyperpod-cli's helm_to_addon.sh sets). */
export function inferenceOperatorConfigurationValues(_facts: InferenceOperatorFacts): string {
  throw new Error('inferenceOperatorConfigurationValues is not built yet (issue 16)');
}
