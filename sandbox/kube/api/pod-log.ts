import type { ServerResponse } from 'node:http';
import type { KubeCluster } from '../cluster.js';
import { followLogs, readLogs, type LogOptions } from '../controllers/logs.js';
import { badRequest, notFound, type StatusCause } from '../errors.js';
import type { KubeObject } from '../types.js';
import type { ResourceRequest } from './paths.js';
import { invalidOptions } from './write-options.js';

/**
 * `GET …/pods/<name>/log`: plain text from the simulated containers, or a chunked stream with
 * `follow=true` that ends when the container does (or the client goes away).
 */

const invalidLogOptions = (causes: StatusCause[]) => invalidOptions('PodLogOptions', causes, '');

function intParam(query: URLSearchParams, key: string, min: number): number | undefined {
  const text = query.get(key);
  if (text === null || text === '') return undefined;
  const n = Number(text);
  if (!Number.isInteger(n)) throw badRequest(`${key}: Invalid value: "${text}": must be an integer`);
  if (n < min)
    throw invalidLogOptions([
      { field: key, message: `Invalid value: ${n}: must be greater than ${min === 0 ? 'or equal to 0' : min - 1}` },
    ]);
  return n;
}

const names = (list: unknown) =>
  ((Array.isArray(list) ? list : []) as Array<{ name?: string }>).map((c) => c.name ?? '');

/** The container a log request reads: the one named, else the pod's only container. */
function containerOf(pod: KubeObject, requested: string | null): string {
  const spec = (pod.spec ?? {}) as { containers?: unknown; initContainers?: unknown; ephemeralContainers?: unknown };
  const main = names(spec.containers);
  const init = names(spec.initContainers);
  const name = pod.metadata.name;
  if (requested) {
    if (![...main, ...init, ...names(spec.ephemeralContainers)].includes(requested))
      throw badRequest(`container ${requested} is not valid for pod ${name}`);
    return requested;
  }
  if (main.length === 1) return main[0]!;
  throw badRequest(
    `a container name must be specified for pod ${name}, choose one of: [${main.join(' ')}]${init.length ? ` or one of the init containers: [${init.join(' ')}]` : ''}`,
  );
}

export function podLog(cluster: KubeCluster, r: ResourceRequest, res: ServerResponse, query: URLSearchParams): void {
  const pod = cluster.objects.get(r.type, r.namespace, r.name!);
  if (!pod) throw notFound(r.type, r.name!);
  const sinceTime = query.get('sinceTime');
  if (sinceTime && Number.isNaN(Date.parse(sinceTime)))
    throw badRequest(`sinceTime: Invalid value: "${sinceTime}": must be an RFC 3339 time`);
  const tailLines = intParam(query, 'tailLines', 0);
  const sinceSeconds = intParam(query, 'sinceSeconds', 1);
  const limitBytes = intParam(query, 'limitBytes', 1);
  if (sinceTime && sinceSeconds !== undefined)
    throw invalidLogOptions([
      {
        field: 'sinceSeconds',
        reason: 'FieldValueForbidden',
        message: 'Forbidden: at most one of `sinceTime` or `sinceSeconds` may be specified',
      },
    ]);
  const options: LogOptions = {
    container: containerOf(pod, query.get('container')),
    ...(tailLines !== undefined ? { tailLines } : {}),
    ...(sinceSeconds !== undefined ? { sinceSeconds } : {}),
    ...(sinceTime ? { sinceTime } : {}),
    ...(limitBytes !== undefined ? { limitBytes } : {}),
    previous: query.get('previous') === 'true',
    timestamps: query.get('timestamps') === 'true',
    // One instant for the first read and the follow after it: a line printed between two looks at the clock would be
    // lost.
    at: cluster.now(),
  };
  const text = readLogs(cluster, pod, options);
  if (query.get('follow') !== 'true') {
    res.writeHead(200, {
      'content-type': 'text/plain',
      'content-length': Buffer.byteLength(text),
      'cache-control': 'no-cache, private',
    });
    res.end(text);
    return;
  }
  res.writeHead(200, {
    'content-type': 'text/plain',
    'cache-control': 'no-cache, private',
    'transfer-encoding': 'chunked',
  });
  res.flushHeaders();
  if (text) res.write(text);
  let sent = Buffer.byteLength(text);
  let stop = () => {};
  const end = () => {
    stop();
    if (!res.writableEnded) res.end();
  };
  stop = followLogs(
    cluster,
    pod,
    options,
    (chunk) => {
      if (res.writableEnded || res.destroyed) return;
      // limitBytes bounds the whole stream, not just what was there when it started.
      const room = limitBytes === undefined ? Infinity : limitBytes - sent;
      const piece =
        room >= Buffer.byteLength(chunk) ? chunk : Buffer.from(chunk).subarray(0, Math.max(0, room)).toString('utf8');
      sent += Buffer.byteLength(piece);
      if (piece) res.write(piece);
      if (limitBytes !== undefined && sent >= limitBytes) end();
    },
    end,
    () => !res.writableNeedDrain,
  );
  res.on('close', () => stop());
}
