import assert from 'node:assert/strict';
import { sandboxInstalledCrds } from '../../sandbox/kube/controllers/installed-crds.js';
import type { KubeObject } from '../../src/domain/kube-object.js';
import {
  DeployContainerEndpointRequestSchema,
  DeployManagedEndpointRequestSchema,
  type DeployContainerEndpointRequest,
  type DeployManagedEndpointRequest,
} from '../../src/domain/schemas/inference/requests.js';
import { crdSchemas, strictViolations } from '../conformance/kube-strict.js';

/**
 * What the inference domain tests share: requests parsed by the real schemas (defaults applied, as
 * the faces hand them over), and the conformance check every built object must pass — the strict
 * reading of its kind's upstream definition (test/conformance/kube-strict.ts: built-in kinds against
 * client-node's OpenAPI, the operator's CRDs and KEDA's typed from upstream, ScaledObjects also through
 * @kubernetes-models/keda).
 */

const SCHEMAS = crdSchemas(sandboxInstalledCrds().map((crd) => ({ crd, origin: 'sandbox add-on CRD' })));

export function assertConforms(...objects: Array<KubeObject | undefined>): void {
  for (const obj of objects) {
    if (!obj) continue;
    const v = strictViolations(structuredClone(obj), SCHEMAS);
    assert.deepEqual(v, [], `${obj.kind} ${obj.metadata.name}:\n${v.join('\n')}`);
  }
}

export const managedRequest = (over: Record<string, unknown>): DeployManagedEndpointRequest =>
  DeployManagedEndpointRequestSchema.parse({
    name: 'qwen',
    instanceTypes: ['ml.g5.8xlarge'],
    model: { source: 'huggingface', modelId: 'Qwen/Qwen3-0.6B' },
    worker: { image: 'vllm/vllm-openai:v0.21.0-cu129', gpus: 1, port: 8000 },
    ...over,
  });

export const containerRequest = (over: Record<string, unknown>): DeployContainerEndpointRequest =>
  DeployContainerEndpointRequestSchema.parse({
    name: 'chat',
    engine: 'vllm',
    model: 'Qwen/Qwen3-0.6B',
    instanceGroup: 'gpu',
    gpus: 1,
    ...over,
  });

export const G5_FACTS = {
  instanceType: 'ml.g5.12xlarge',
  gpusPerNode: 4,
  taints: [],
  image: 'vllm/vllm-openai:v0.21.0-cu129',
};

/** Every string anywhere in `v` (to prove a secret never appears as a literal). */
export function allStrings(v: unknown, out: string[] = []): string[] {
  if (typeof v === 'string') out.push(v);
  else if (Array.isArray(v)) for (const x of v) allStrings(x, out);
  else if (v && typeof v === 'object') for (const x of Object.values(v)) allStrings(x, out);
  return out;
}
