import type { HyperPodCluster } from '../../cloud/ports.js';
import { PreconditionError } from '../../domain/errors.js';
import { featureDefinition, featureRoleName } from '../../domain/features/registry.js';
import { managedEndpointManifest, type ManagedEndpointFacts } from '../../domain/inference/managed-endpoint.js';
import { routingChangeRefusal } from '../../domain/inference/routing-change.js';
import type { KubeInferenceEndpointConfig } from '../../domain/kube/inference-endpoint-config.js';
import type { KubeJumpStartModel } from '../../domain/kube/jumpstart-model.js';
import type { KubeObject } from '../../domain/kube-object.js';
import type { DeployManagedEndpointRequest } from '../../domain/schemas/inference.js';
import type { ResolvedStorage } from '../../workflows/storage-volumes.js';

/**
 * A managed endpoint's one object (an InferenceEndpointConfig or a JumpStartModel), built by the domain from the
 * facts the service read, and the rule a re-deploy meets: the routing strategy, once set, stays (AWS refuses the
 * change by field name; so do we, before anything is applied).
 */

/** The ARN of the inference-operator feature's execution role (the one its managed policy may pass). */
export function executionRoleArn(hp: HyperPodCluster, region: string): string | undefined {
  const account = /^arn:aws[a-z-]*:sagemaker:[^:]*:(\d{12}):/.exec(hp.ClusterArn ?? '')?.[1];
  const identity = featureDefinition('inference-operator').identities.find((i) => i.id === 'execution');
  if (!account || !identity || !hp.ClusterName) return undefined;
  const partition = /^arn:(aws[a-z-]*):/.exec(hp.ClusterArn ?? '')?.[1] ?? 'aws';
  return `arn:${partition}:iam::${account}:role/${featureRoleName(hp.ClusterName, region, identity)}`;
}

/** What the domain needs of a storage: an S3 bucket (its Region) and prefix, or an FSx file system. */
function storageFact(s: ResolvedStorage, region: string): ManagedEndpointFacts['storage'] {
  if (s.kind === 's3')
    return { kind: 's3', bucket: s.bucket ?? '', region: s.bucketRegion ?? region, prefix: s.prefix ?? '' };
  return { kind: 'fsx', fileSystemId: s.fileSystemId ?? '' };
}

export function managedManifest(
  req: DeployManagedEndpointRequest,
  read: { region: string; cluster: HyperPodCluster; storage: ResolvedStorage | undefined },
): KubeObject {
  const role = req.model.source === 'jumpstart' ? executionRoleArn(read.cluster, read.region) : undefined;
  const facts: ManagedEndpointFacts = {
    namespace: req.namespace,
    ...(read.storage ? { storage: storageFact(read.storage, read.region) } : {}),
    ...(role ? { executionRoleArn: role } : {}),
  };
  return managedEndpointManifest(req, facts);
}

/** 422 naming routing.strategy (or routing) when the re-deploy would change it; nothing is applied then. */
export function refuseRoutingChange(
  current: KubeInferenceEndpointConfig | KubeJumpStartModel,
  next: KubeObject & { spec?: Record<string, unknown> },
): void {
  const problem = routingChangeRefusal(current, { spec: next.spec ?? {} });
  if (problem)
    throw new PreconditionError({
      message: `${problem.path}: ${problem.message}.`,
      problems: [problem],
      remedy: 'Deploy again with the strategy it has, or delete the endpoint and deploy it anew.',
    });
}
