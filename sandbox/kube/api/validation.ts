// CONTRACT (owned by the validation/discovery helper; bodies are being written now).
import type { KubeCluster } from '../cluster.js';
import type { StatusCause } from '../errors.js';
import type { KubeObject, ResourceType } from '../types.js';

/**
 * Everything wrong with an object about to be stored (create, update, patch result, apply result):
 * metadata.name rules, built-in kinds' schema (required fields, types, enums), and for custom
 * resources the CRD version's openAPIV3Schema. Each cause names the field as the API server does
 * (`spec.containers[0].image`, `metadata.name`). Empty when valid.
 */
export function validateObject(_cluster: KubeCluster, _type: ResourceType, _obj: KubeObject): StatusCause[] {
  return [];
}
