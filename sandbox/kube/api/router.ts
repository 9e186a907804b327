// CONTRACT (owned by the API helper; bodies are being written now).
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { KubeRequestContext } from './context.js';

/**
 * Serves one request of a cluster's Kubernetes API. `path` is the request path after the
 * cluster's endpoint prefix (always starts with `/`), with its query string.
 */
export async function handleKubeApi(_req: IncomingMessage, res: ServerResponse, _path: string, _ctx: KubeRequestContext): Promise<void> {
  res.writeHead(503).end();
}
