import { createHash } from 'node:crypto';
import { Sha256 } from '@aws-crypto/sha256-js';
import { HttpRequest } from '@smithy/protocol-http';
import { SignatureV4 } from '@smithy/signature-v4';
import { CloudError, cloudTimeout } from '../../domain/errors.js';
import type { CredentialsProvider } from './eks-token.js';
import { secondsOf } from '../timeouts.js';

/**
 * MLflow's REST API on a SageMaker managed tracking server, as AWS's sagemaker-mlflow plugin calls
 * it: paths under `/api/2.0/mlflow/`, signed with SigV4 for the service `sagemaker-mlflow` in the
 * server's Region (from its ARN), with the payload hash in `x-amz-content-sha256` and the server
 * named by the `x-mlflow-sm-tracking-server-arn` header.
 *
 * Where the calls go ({@link mlflowEndpoint}): an endpoint configured the standard way wins —
 * `SAGEMAKER_MLFLOW_CUSTOM_ENDPOINT` (the plugin's own setting), then `AWS_ENDPOINT_URL_SAGEMAKER_MLFLOW`
 * and `AWS_ENDPOINT_URL` (the AWS SDKs' settings, which `AWS_IGNORE_CONFIGURED_ENDPOINT_URLS=true`
 * turns off) — else AWS's regional MLflow host, `https://<region>.experiments.sagemaker.aws`, which
 * serves every server of the Region (the plugin's rule). So the sandbox, whose `AWS_ENDPOINT_URL`
 * already points every AWS client at it, is reached exactly as AWS is.
 *
 * Refusals keep MLflow's `error_code` as the CloudError code (RESOURCE_DOES_NOT_EXIST,
 * INVALID_PARAMETER_VALUE, PERMISSION_DENIED, …); throttling, 5xx and TEMPORARILY_UNAVAILABLE are
 * retryable; a silent endpoint is the retryable TimeoutError.
 */

export const MLFLOW_SERVICE = 'sagemaker-mlflow';
const ROUTING_HEADER = 'x-mlflow-sm-tracking-server-arn';
const RETRYABLE = new Set([
  'REQUEST_LIMIT_EXCEEDED',
  'RESOURCE_EXHAUSTED',
  'TEMPORARILY_UNAVAILABLE',
  'INTERNAL_ERROR',
  'DEADLINE_EXCEEDED',
]);

/** A tracking server's ARN, read: `arn:<partition>:sagemaker:<region>:<account>:mlflow-tracking-server/<name>`. */
export interface TrackingServerRef {
  arn: string;
  partition: string;
  region: string;
  account: string;
  name: string;
}

export function parseTrackingServerArn(arn: string): TrackingServerRef | undefined {
  const m =
    /^arn:(aws[a-z-]*):sagemaker:([a-z0-9-]+):(\d{12}):mlflow-tracking-server\/([a-zA-Z0-9](-*[a-zA-Z0-9]){0,255})$/.exec(
      arn,
    );
  return m ? { arn, partition: m[1]!, region: m[2]!, account: m[3]!, name: m[4]! } : undefined;
}

/**
 * The base URL MLflow calls for this server go to (rules above). `trackingServerUrl` (Describe's)
 * is the answer only in a partition whose MLflow host the plugin does not know.
 */
export function mlflowEndpoint(
  server: TrackingServerRef,
  trackingServerUrl: string | undefined,
  env: NodeJS.ProcessEnv = process.env,
): string | undefined {
  const configured = [
    env.SAGEMAKER_MLFLOW_CUSTOM_ENDPOINT,
    ...(env.AWS_IGNORE_CONFIGURED_ENDPOINT_URLS?.toLowerCase() === 'true'
      ? []
      : [env.AWS_ENDPOINT_URL_SAGEMAKER_MLFLOW, env.AWS_ENDPOINT_URL]),
  ];
  const chosen = configured.map((v) => v?.trim()).find((v) => v);
  if (chosen) return chosen.replace(/\/+$/, '');
  if (server.partition === 'aws' || server.partition === 'aws-us-gov')
    return `https://${server.region}.experiments.sagemaker.aws`;
  return trackingServerUrl?.replace(/\/+$/, '');
}

export interface MlflowTarget {
  server: TrackingServerRef;
  baseUrl: string;
}

type Query = Record<string, string | number | undefined>;

/** RFC 3986 encoding, as SigV4 canonicalises: a space is %20, never `+`. */
const encode = (text: string) =>
  encodeURIComponent(text).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);

export class MlflowRest {
  constructor(
    /** The credentials of this server's AWS identity (the SDK clients' own chain). */
    private readonly credentials: (region: string) => CredentialsProvider,
    private readonly timeoutMs: number,
  ) {}

  get<T>(target: MlflowTarget, operation: string, path: string, query: Query): Promise<T> {
    return this.call<T>(target, operation, 'GET', path, query, undefined);
  }

  post<T>(target: MlflowTarget, operation: string, path: string, body: object): Promise<T> {
    return this.call<T>(target, operation, 'POST', path, {}, JSON.stringify(body));
  }

  private async call<T>(
    target: MlflowTarget,
    operation: string,
    method: 'GET' | 'POST',
    path: string,
    query: Query,
    body: string | undefined,
  ): Promise<T> {
    const base = new URL(target.baseUrl);
    const fullPath = `${base.pathname.replace(/\/+$/, '')}/api/2.0/mlflow/${path}`;
    const params = Object.entries(query).filter((e): e is [string, string | number] => e[1] !== undefined);
    const queryString = params.map(([k, v]) => `${encode(k)}=${encode(String(v))}`).join('&');
    const payload = body ?? '';
    const headers: Record<string, string> = {
      host: base.host,
      'x-amz-content-sha256': createHash('sha256').update(payload).digest('hex'),
      [ROUTING_HEADER]: target.server.arn,
      accept: 'application/json',
      ...(body !== undefined ? { 'content-type': 'application/json' } : {}),
    };
    const signer = new SignatureV4({
      service: MLFLOW_SERVICE,
      region: target.server.region,
      sha256: Sha256,
      credentials: this.credentials(target.server.region),
    });
    const signed = await signer.sign(
      new HttpRequest({
        method,
        protocol: base.protocol,
        hostname: base.hostname,
        ...(base.port ? { port: Number(base.port) } : {}),
        path: fullPath,
        query: Object.fromEntries(params.map(([k, v]) => [k, String(v)])),
        headers,
        ...(body !== undefined ? { body } : {}),
      }),
    );
    const sendHeaders = Object.fromEntries(Object.entries(signed.headers).filter(([k]) => k.toLowerCase() !== 'host'));
    let res: Response;
    try {
      res = await fetch(`${base.origin}${fullPath}${queryString ? `?${queryString}` : ''}`, {
        method,
        headers: sendHeaders,
        ...(body !== undefined ? { body } : {}),
        signal: AbortSignal.timeout(this.timeoutMs),
      });
    } catch (err) {
      const e = err as { name?: string; message?: string; cause?: { code?: string; message?: string } };
      if (e?.name === 'TimeoutError' || e?.name === 'AbortError')
        throw cloudTimeout(MLFLOW_SERVICE, operation, secondsOf(this.timeoutMs));
      throw new CloudError({
        service: MLFLOW_SERVICE,
        operation,
        code: 'NetworkingError',
        message: `${MLFLOW_SERVICE} ${operation} could not reach ${base.origin}: ${e?.cause?.code ?? e?.cause?.message ?? e?.message ?? String(err)}`,
        retryable: true,
      });
    }
    const text = await res.text();
    const parsed = parseJson(text);
    if (res.ok) return (parsed ?? {}) as T;
    const code = typeof parsed?.error_code === 'string' ? parsed.error_code : `HTTP${res.status}`;
    const message = typeof parsed?.message === 'string' ? parsed.message : text.slice(0, 300) || res.statusText;
    throw new CloudError({
      service: MLFLOW_SERVICE,
      operation,
      code,
      message: `MLflow ${operation} on tracking server '${target.server.name}': ${message}`,
      httpStatus: res.status,
      retryable: RETRYABLE.has(code) || res.status === 429 || res.status >= 500,
    });
  }
}

function parseJson(text: string): Record<string, unknown> | undefined {
  if (!text) return undefined;
  try {
    const v = JSON.parse(text) as unknown;
    return v && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}
