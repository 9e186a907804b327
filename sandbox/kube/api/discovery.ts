// CONTRACT (owned by the validation/discovery helper; bodies are being written now).
import type { KubeCluster } from '../cluster.js';

export interface SimpleResponse {
  status: number;
  headers: Record<string, string>;
  body: string | Buffer;
}

/**
 * `/version`, `/api`, `/api/v1`, `/apis`, `/apis/<group>`, `/apis/<group>/<version>` (legacy and,
 * when the Accept header asks for it, aggregated discovery `apidiscovery.k8s.io/v2`),
 * `/openapi/v2`, `/openapi/v3`, `/openapi/v3/<path>`. Undefined when `path` is none of them.
 */
export function handleDiscovery(_cluster: KubeCluster, _path: string, _accept: string): SimpleResponse | undefined {
  return undefined;
}
