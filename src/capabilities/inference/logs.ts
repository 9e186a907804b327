import type { Readable } from 'node:stream';
import type { KubePort } from '../../cloud/ports.js';
import type { KubePod } from '../../domain/kube/pod.js';
import type { EndpointLogsAnswer } from '../../domain/schemas/inference.js';
import { refuse } from './facts.js';

/** Pods read per request: an endpoint of 64 replicas answers the first ten (name one with `pod`). */
export const MAX_LOG_PODS = 10;
/** Bytes read per pod (the kubelet stops there: limitBytes). */
export const MAX_LOG_BYTES = 256 * 1024;

async function text(stream: Readable): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const c of stream) chunks.push(Buffer.isBuffer(c) ? c : Buffer.from(c as string));
  return Buffer.concat(chunks).toString('utf8');
}

/**
 * The capped tail of an endpoint's pods' logs: the last `tailLines` lines of each pod within MAX_LOG_BYTES, pod by
 * pod (a pod that has not started says why instead of failing the answer).
 */
export async function endpointLogs(
  kube: KubePort,
  endpoint: string,
  namespace: string,
  pods: readonly KubePod[],
  query: { tailLines: number; pod?: string },
): Promise<EndpointLogsAnswer> {
  const chosen = query.pod ? pods.filter((p) => p.metadata.name === query.pod) : pods.slice(0, MAX_LOG_PODS);
  if (query.pod && chosen.length === 0)
    throw refuse(
      'pod',
      `${query.pod} is not a pod of endpoint ${namespace}/${endpoint} (get_endpoint lists its pods).`,
    );
  const answers = await Promise.all(
    chosen.map(async (p) => {
      try {
        const stream = await kube.logs(
          { name: p.metadata.name, namespace },
          { tailLines: query.tailLines, limitBytes: MAX_LOG_BYTES, container: p.spec.containers[0] },
        );
        const body = await text(stream);
        const lines = body.split('\n');
        if (lines.at(-1) === '') lines.pop();
        return {
          pod: p.metadata.name,
          lines,
          truncated: Buffer.byteLength(body) >= MAX_LOG_BYTES || lines.length >= query.tailLines,
        };
      } catch (err) {
        return {
          pod: p.metadata.name,
          lines: [],
          truncated: false,
          error: err instanceof Error ? err.message : String(err),
        };
      }
    }),
  );
  return { endpoint, namespace, pods: answers };
}
