import { randomUUID } from 'node:crypto';
import { AwsError, isAwsError } from '../../../core/errors.js';
import type { RawHttpRequest, RawHttpResponse, SandboxRuntime } from '../../../core/service.js';
import { readCredentialScope, verifySigV4, type IncomingSignedRequest } from '../../../core/sigv4.js';
import { mlflowError } from './errors.js';
import { MLFLOW_HANDLERS, type Input } from './handlers.js';
import { allServers, findServerByArn, isServing, type StoredTrackingServer } from './state.js';

/**
 * The MLflow REST API of SageMaker's managed tracking servers, on the sandbox's HTTP port. It is
 * reached the way the sagemaker-mlflow plugin reaches AWS's: requests signed with SigV4 for the
 * service `sagemaker-mlflow` (region from the server's ARN), the server named by the
 * `x-mlflow-sm-tracking-server-arn` header, paths under `/api/2.0/mlflow/` (or the older
 * `/api/2.0/preview/mlflow/`). One endpoint serves every server of every region, as AWS's regional
 * host serves every server of its region; a request without the header is routed by its Host when
 * that is a server's own `TrackingServerUrl` host.
 *
 * Answers and refusals are MLflow's JSON (`{"error_code", "message"}`); an unsigned or badly signed
 * request never reaches a server's data.
 */

export const MLFLOW_SIGNING_NAME = 'sagemaker-mlflow';
const ROUTING_HEADER = 'x-mlflow-sm-tracking-server-arn';
const PATH = /^\/api\/2\.0\/(?:preview\/)?mlflow\/(.+)$/;

/** What the server records of an MLflow call (the sandbox's call log). */
export interface MlflowCall {
  response: RawHttpResponse;
  operation: string;
  region: string;
  input: unknown;
  errorCode?: string;
  /** The call changed the store (save the state). */
  wrote: boolean;
}

/** Whether a request is for the MLflow endpoint: signed for `sagemaker-mlflow`, or unsigned on an MLflow path. */
export function isMlflowRequest(raw: RawHttpRequest, rawQuery: string): boolean {
  const scope = readCredentialScope(signedOf(raw, rawQuery));
  return scope ? scope.service === MLFLOW_SIGNING_NAME : PATH.test(raw.path);
}

const signedOf = (raw: RawHttpRequest, rawQuery: string): IncomingSignedRequest => ({
  method: raw.method,
  rawPath: raw.rawPath,
  rawQuery,
  headers: raw.headers,
  body: raw.body,
});

export function serveMlflow(raw: RawHttpRequest, rawQuery: string, runtime: SandboxRuntime): MlflowCall {
  const requestId = randomUUID();
  const route = routeOf(raw);
  const operation = route && 'handler' in route ? route.name : 'Unknown';
  let region = readCredentialScope(signedOf(raw, rawQuery))?.region ?? '';
  let input: unknown = {};
  try {
    const verdict = verifySigV4(signedOf(raw, rawQuery));
    if (!verdict.ok) {
      throw verdict.reason === 'missing' || verdict.reason === 'malformed'
        ? mlflowError('UNAUTHENTICATED', verdict.message)
        : mlflowError('PERMISSION_DENIED', verdict.message);
    }
    if (verdict.scope.service !== MLFLOW_SIGNING_NAME)
      throw mlflowError(
        'PERMISSION_DENIED',
        `Credential should be scoped to correct service: '${MLFLOW_SIGNING_NAME}'.`,
      );
    if (!route)
      throw mlflowError(
        'ENDPOINT_NOT_FOUND',
        `No API endpoint ${raw.method} ${raw.path} (the sandbox serves ${Object.values(MLFLOW_HANDLERS)
          .map((h) => h.path)
          .join(', ')} under /api/2.0/mlflow/).`,
      );
    if (!('handler' in route))
      throw mlflowError('BAD_REQUEST', `${raw.method} is not allowed for ${raw.path}; use ${route.allowed}.`);
    const server = serverOf(raw, runtime);
    region = server.region;
    if (verdict.scope.region !== server.region) {
      throw mlflowError(
        'PERMISSION_DENIED',
        `Credential should be scoped to a valid region, not '${verdict.scope.region}': tracking server '${server.name}' is in ${server.region}.`,
      );
    }
    if (!isServing(server.status))
      throw mlflowError(
        'TEMPORARILY_UNAVAILABLE',
        `Tracking server '${server.name}' is ${server.status}; it answers MLflow requests once it is Created or Started.`,
      );
    const injected = runtime.faults.intercept(MLFLOW_SIGNING_NAME, operation);
    if (injected)
      throw injected.kind === 'throttle'
        ? mlflowError('REQUEST_LIMIT_EXCEEDED', 'Rate exceeded')
        : new AwsError(injected.code, injected.message, injected.status);
    input = raw.method === 'GET' ? queryInput(raw.query) : jsonInput(raw.body);
    const body = route.handler.run(input as Input, server, runtime.clock.now());
    return { response: json(200, body, requestId), operation, region, input, wrote: route.handler.writes };
  } catch (err) {
    const e = isAwsError(err) ? err : internal(err);
    return {
      response: json(e.status, { error_code: e.code, message: e.message }, requestId),
      operation,
      region,
      input,
      errorCode: e.code,
      wrote: false,
    };
  }
}

type Route = { name: string; handler: (typeof MLFLOW_HANDLERS)[string]['handler'] } | { allowed: string };

function routeOf(raw: RawHttpRequest): Route | undefined {
  const tail = PATH.exec(raw.path)?.[1]?.replace(/\/+$/, '');
  if (!tail) return undefined;
  for (const [name, { path, handler }] of Object.entries(MLFLOW_HANDLERS)) {
    if (path !== tail) continue;
    return handler.method.split('|').includes(raw.method)
      ? { name, handler }
      : { allowed: handler.method.replace('|', ' or ') };
  }
  return undefined;
}

function serverOf(raw: RawHttpRequest, runtime: SandboxRuntime): StoredTrackingServer {
  const arn = raw.headers.get(ROUTING_HEADER)?.[0];
  const state = runtime.store.state;
  if (arn) {
    const server = findServerByArn(state, arn);
    if (!server) throw mlflowError('RESOURCE_DOES_NOT_EXIST', `Tracking server '${arn}' does not exist.`);
    return server;
  }
  const host = raw.headers.get('host')?.[0]?.toLowerCase();
  const byHost = host ? allServers(state).find((s) => new URL(s.url).host === host) : undefined;
  if (!byHost)
    throw mlflowError(
      'INVALID_PARAMETER_VALUE',
      `Name the tracking server with the ${ROUTING_HEADER} header (its ARN), as the sagemaker-mlflow plugin does.`,
    );
  return byHost;
}

/** GET parameters: repeated names become lists (`experiment_ids=1&experiment_ids=2`). */
function queryInput(query: URLSearchParams): Input {
  const out: Input = Object.create(null) as Input;
  for (const key of new Set(query.keys())) {
    const all = query.getAll(key);
    Object.defineProperty(out, key, {
      value: all.length > 1 ? all : all[0],
      enumerable: true,
      writable: true,
      configurable: true,
    });
  }
  return out;
}

function jsonInput(body: Buffer): Input {
  if (body.length === 0) return {};
  let parsed: unknown;
  try {
    parsed = JSON.parse(body.toString('utf8'));
  } catch {
    throw mlflowError('BAD_REQUEST', 'Malformed request: the body is not valid JSON.');
  }
  if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed))
    throw mlflowError('BAD_REQUEST', 'Malformed request: the body must be a JSON object.');
  return parsed as Input;
}

function json(status: number, body: unknown, requestId: string): RawHttpResponse {
  return {
    status,
    headers: { 'content-type': 'application/json', 'x-request-id': requestId },
    body: JSON.stringify(body),
  };
}

function internal(err: unknown): AwsError {
  process.stderr.write(`sandbox: MLflow handler failed: ${err instanceof Error ? err.stack : String(err)}\n`);
  return mlflowError('INTERNAL_ERROR', 'An internal error occurred.');
}
