import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import { findRegion, REGIONS } from './catalog/regions.js';
import { CallLog, callSubject, isMutatingOperation } from './core/calls.js';
import { CertificateAuthority } from './core/certificate-authority.js';
import { OidcSigningKeys } from './core/oidc-signing-keys.js';
import { SandboxClock } from './core/clock.js';
import { SANDBOX_ACCOUNT_ID } from './core/credentials.js';
import { AwsError, isAwsError } from './core/errors.js';
import { FaultRegistry } from './core/faults.js';
import { paramsDigest, requestId as newRequestId } from './core/ids.js';
import type { RawHttpRequest, RawHttpResponse, RequestContext, SandboxRuntime, ServiceModule } from './core/service.js';
import { readCredentialScope, verifySigV4, type IncomingSignedRequest } from './core/sigv4.js';
import { StateStore } from './core/store.js';
import { listenShared } from './core/shared-port.js';
import { kubeCallEntry } from './kube/call-entry.js';
import { KubernetesApis } from './kube/service.js';
import { handleAdmin } from './admin.js';
import { matchServe, serveDirect } from './admin-serve.js';
import { jsonError, jsonSuccess, parseJsonBody } from './protocols/json.js';
import { nestQueryParams, queryError, querySuccess, readQueryParams } from './protocols/query.js';
import { matchRoute, routeQueryInput } from './protocols/rest.js';
import { restXmlError } from './protocols/rest-xml.js';
import { decodeAwsChunked } from './protocols/aws-chunked.js';
import { SERVICES } from './services/index.js';
import { serveOidcIssuer } from './services/eks/oidc-issuer.js';
import { serveHuggingFace } from './services/huggingface/http.js';
import { isMlflowRequest, serveMlflow } from './services/sagemaker/mlflow/public.js';

export interface SandboxOptions {
  port?: number;
  host?: string;
  /** Sandbox seconds per real second. */
  speed?: number;
  stateDir: string;
  /** How often (real ms) simulated controllers run between requests. */
  tickIntervalMs?: number;
}

export interface RunningSandbox {
  url: string;
  port: number;
  runtime: SandboxRuntime;
  calls: CallLog;
  services: ServiceModule[];
  /** Runs every simulated controller now (tests use it after moving the clock). */
  tick(): void;
  stop(): Promise<void>;
}

const MAX_BODY_BYTES = 1024 * 1024 * 1024;

/**
 * Starts the sandbox cloud: one HTTP endpoint on loopback serving every emulated AWS service
 * (picked from the SigV4 credential scope) plus the `/_sandbox/*` admin API.
 */
export async function startSandbox(options: SandboxOptions): Promise<RunningSandbox> {
  const { port = 4566, host = '127.0.0.1', tickIntervalMs = 200 } = options;
  const EXPENSIVE_TICK_MS = 50;
  let clock: SandboxClock;
  const store = new StateStore(options.stateDir, () => clock.snapshot());
  clock = new SandboxClock(store.state.clock);
  if (options.speed !== undefined) clock.setSpeed(options.speed);
  const faults = new FaultRegistry();
  const calls = new CallLog();
  const ca = await CertificateAuthority.loadOrCreate(options.stateDir);
  const runtime: SandboxRuntime = {
    store,
    clock,
    faults,
    endpointUrl: '',
    blobDir: store.blobDir(),
    ca,
    oidcKeys: new OidcSigningKeys(options.stateDir),
  };
  const services = SERVICES;
  for (const s of services) s.init?.(runtime);
  const kube = new KubernetesApis(runtime);

  /** Runs every simulated controller now (a clock jump, or a test asking). */
  let lastTickMs = 0;
  let lastTickEnd = 0;
  const runTick = (): void => {
    const started = performance.now();
    const now = clock.now();
    let changed = false;
    for (const s of services) {
      if (s.tick?.({ state: store.state, now, runtime })) changed = true;
    }
    if (changed) store.markDirty();
    kube.tick(store.state, now);
    lastTickEnd = performance.now();
    lastTickMs = lastTickEnd - started;
  };
  /**
   * Before each request and on the interval. While a tick is cheap (small worlds: a few ms) it runs
   * every time, so a request always sees the world up to now. Once ticks get expensive (thousands
   * of nodes and their pods), requests between ticks are served from the last one for up to three
   * tick-lengths, so the controllers take at most about a quarter of the time and requests are not
   * starved behind back-to-back ticks.
   */
  const tick = (): void => {
    if (lastTickMs > EXPENSIVE_TICK_MS && performance.now() - lastTickEnd < lastTickMs * 3) return;
    runTick();
  };

  const server = createServer((req, res) => {
    handle(req, res).catch((err: unknown) => {
      process.stderr.write(`sandbox: unhandled error: ${err instanceof Error ? err.stack : String(err)}\n`);
      if (!res.headersSent) res.writeHead(500, { 'content-type': 'text/plain' });
      res.end('internal sandbox error');
    });
  });

  // The Kubernetes APIs of the sandbox EKS clusters: HTTPS on the same port, certificates of the sandbox CA.
  const tlsHost = /^[\d.]+$/.test(host) && host !== '0.0.0.0' ? [host] : [];
  const tls = await ca.issueServerCertificate({
    commonName: 'sandbox-kube-apiserver',
    dnsNames: ['localhost'],
    ipAddresses: [...new Set(['127.0.0.1', ...tlsHost])],
  });
  const httpsServer = createHttpsServer({ cert: tls.certificatePem, key: tls.privateKeyPem }, (req, res) => {
    if (faults.takeReset('kubernetes', req.method ?? 'GET')) return void req.socket.destroy();
    const held = faults.hold('kubernetes', req.method ?? 'GET');
    // (`lands` is for AWS calls: a Kubernetes call is held before it is served either way.)
    if (held) void held.until.then(() => req.socket.destroyed || serveKube(req, res));
    else serveKube(req, res);
  });

  function serveKube(req: IncomingMessage, res: ServerResponse): void {
    tick();
    res.once('finish', () => {
      const entry = kubeCallEntry(req, res.statusCode, new Date(clock.now()).toISOString());
      if (entry) calls.record(entry);
    });
    kube
      .serve(req, res)
      .then((served) => {
        if (!served) {
          res.writeHead(404, { 'content-type': 'application/json' });
          res.end(
            JSON.stringify({
              kind: 'Status',
              apiVersion: 'v1',
              status: 'Failure',
              reason: 'NotFound',
              code: 404,
              message: 'Kubernetes APIs are served at /k8s/<endpoint id> (see the EKS cluster endpoint)',
            }),
          );
        }
      })
      .catch((err: unknown) => {
        process.stderr.write(`sandbox: unhandled kube error: ${err instanceof Error ? err.stack : String(err)}\n`);
        if (!res.headersSent) res.writeHead(500);
        res.end();
      });
  }

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', 'http://sandbox');
    // One request straight to a pod's server, streamed both ways (admin-serve.ts): its body is the server's to read.
    const direct = matchServe((req.url ?? '/').split('?')[0] ?? '/');
    if (direct) {
      tick();
      await serveDirect(direct, url.search, req, res, (name) => kube.clusterNamed(name));
      return;
    }
    const body = await readBody(req);
    const rawPath = (req.url ?? '/').split('?')[0] ?? '/';
    const rawQuery = (req.url ?? '').includes('?') ? (req.url ?? '').slice((req.url ?? '').indexOf('?') + 1) : '';
    if (url.pathname.startsWith('/_sandbox/') || url.pathname === '/_sandbox') {
      tick();
      const out = await handleAdmin({
        method: req.method ?? 'GET',
        url,
        body,
        runtime,
        calls,
        services,
        tick: runTick,
        kube,
      });
      send(res, out);
      return;
    }
    // The Hugging Face Hub simulation: its path prefix cannot be a bucket name (no underscores), and its callers send
    // Hub tokens, not SigV4.
    const hub = serveHuggingFace(
      runtime.endpointUrl,
      (req.method ?? 'GET').toUpperCase(),
      rawPath,
      url.searchParams,
      req.headers.authorization,
    );
    if (hub) {
      send(res, hub);
      return;
    }
    // Issuer documents are public (unsigned); a signed request for the same path is S3's (a bucket may be named like
    // the issuer host).
    const signedRequest = req.headers.authorization !== undefined || url.searchParams.has('X-Amz-Signature');
    const issuerDocument = signedRequest
      ? undefined
      : serveOidcIssuer(runtime, req.method ?? 'GET', req.headers.host, url.pathname);
    if (issuerDocument) {
      send(res, issuerDocument);
      return;
    }
    const headers = headerMap(req);
    const raw: RawHttpRequest = {
      method: (req.method ?? 'GET').toUpperCase(),
      rawPath,
      path: safeDecodePath(url.pathname),
      query: url.searchParams,
      headers,
      body,
    };
    // SageMaker managed MLflow's REST API: signed for `sagemaker-mlflow`, answered in MLflow's JSON, not an AWS
    // protocol.
    if (isMlflowRequest(raw, rawQuery)) {
      tick();
      const call = serveMlflow(raw, rawQuery, runtime);
      calls.record(
        callEntryAt(
          clock,
          'sagemaker-mlflow',
          call.operation,
          call.region,
          call.input,
          call.response.status,
          call.errorCode,
        ),
      );
      if (call.wrote) store.markDirty();
      send(res, call.response);
      return;
    }
    const out = await dispatchAws(
      raw,
      rawQuery,
      () => req.socket.destroyed,
      () => req.socket.destroy(),
    );
    if (out) send(res, out);
  }

  /** The answer to one AWS call; undefined for a call held by a hang fault whose client gave up, or whose connection a fault reset (never answered). */
  function dispatchAws(
    raw: RawHttpRequest,
    rawQuery: string,
    abandoned: () => boolean,
    resetConnection: () => void,
  ): RawHttpResponse | undefined | Promise<RawHttpResponse | undefined> {
    const rid = newRequestId();
    const signed: IncomingSignedRequest = {
      method: raw.method,
      rawPath: raw.rawPath,
      rawQuery,
      headers: raw.headers,
      body: raw.body,
    };
    const scope = readCredentialScope(signed);
    // Unsigned requests still get their service's own error shape, so the service is guessed from the request.
    const service = scope ? services.find((s) => s.signingName === scope.service) : guessService(raw, services);
    const fail = (err: AwsError, operation = 'Unknown') => renderError(service, err, rid, raw, operation);

    if (!service) {
      return {
        status: 400,
        headers: { 'content-type': 'text/plain' },
        body: `The sandbox does not serve service '${scope?.service ?? '?'}'. Served: ${services.map((s) => s.signingName).join(', ')}`,
      };
    }
    const verdict = verifySigV4(signed);
    if (!verdict.ok) {
      const style = service.errors;
      const e =
        verdict.reason === 'missing'
          ? new AwsError(style.missingAuth.code, verdict.message, style.missingAuth.status)
          : verdict.reason === 'unknown-key'
            ? new AwsError(style.unknownKey.code, verdict.message, style.unknownKey.status)
            : verdict.reason === 'expired' && service.protocol === 'restXml'
              ? new AwsError(
                  raw.query.has('X-Amz-Signature') ? 'AccessDenied' : 'RequestTimeTooSkewed',
                  verdict.message,
                  403,
                )
              : new AwsError(style.badSignature.code, verdict.message, style.badSignature.status);
      return fail(e);
    }
    const region = verdict.scope.region;
    if (!service.global && !findRegion(region)) {
      return fail(
        new AwsError(
          'UnknownEndpoint',
          `The sandbox does not serve region '${region}'. Regions: ${REGIONS.map((r) => r.regionName).join(', ')}`,
          400,
        ),
      );
    }

    // Resolve the operation and decode its input, per protocol.
    let operation: string;
    let input: unknown;
    let restXml: ReturnType<NonNullable<ServiceModule['resolveRestXml']>>;
    try {
      if (service.protocol === 'restXml') {
        if (isChunked(raw)) raw.body = decodeAwsChunked(raw.body);
        restXml = service.resolveRestXml!(raw);
        if (!restXml)
          throw new AwsError(
            service.errors.unknownOperation.code,
            `${raw.method} ${raw.path} is not implemented by the sandbox`,
            service.errors.unknownOperation.status,
          );
        operation = restXml.operation;
        input = restXml.params;
      } else if (service.protocol === 'awsJson1_1') {
        const target = raw.headers.get('x-amz-target')?.[0] ?? '';
        const [prefix, op] = target.split('.');
        operation = op ?? '';
        if (prefix !== service.targetPrefix || !service.operations[operation]) {
          throw new AwsError(
            service.errors.unknownOperation.code,
            `Operation '${target}' is not supported by the ${service.signingName} sandbox`,
            service.errors.unknownOperation.status,
          );
        }
        input = parseJsonBody(raw.body, service.errors.serialization);
      } else if (service.protocol === 'restJson1') {
        const match = matchRoute(service.routes ?? [], raw.method, raw.rawPath);
        if (!match || 'methodMismatch' in match) {
          throw new AwsError(
            service.errors.unknownOperation.code,
            `${raw.method} ${raw.path} is not an operation of the ${service.signingName} sandbox`,
            service.errors.unknownOperation.status,
          );
        }
        operation = match.route.operation;
        const bodyInput =
          raw.method === 'GET' || raw.method === 'DELETE' ? {} : parseJsonBody(raw.body, service.errors.serialization);
        input = { ...bodyInput, ...routeQueryInput(match.route, raw.query), ...match.labels };
      } else {
        const params = readQueryParams(raw.method, raw.query, raw.body, raw.headers.get('content-type')?.[0]);
        operation = params.get('Action') ?? '';
        if (!service.operations[operation]) {
          throw new AwsError(
            service.errors.unknownOperation.code,
            operation
              ? `The action ${operation} is not valid for this web service.`
              : 'The request must contain the parameter Action',
            service.errors.unknownOperation.status,
          );
        }
        input = nestQueryParams(params);
      }
    } catch (err) {
      const e = isAwsError(err)
        ? err
        : new AwsError(service.errors.serialization.code, String(err), service.errors.serialization.status);
      calls.record(callEntryAt(clock, service.signingName, 'Unknown', region, raw.body, e.status, e.code, rid));
      return fail(e);
    }

    const record = (status: number, errorCode?: string) =>
      calls.record(callEntryAt(clock, service.signingName, operation, region, input, status, errorCode, rid));

    const serve = (): RawHttpResponse | Promise<RawHttpResponse> => {
      const injected = faults.intercept(service.signingName, operation);
      if (injected) {
        const e =
          injected.kind === 'throttle'
            ? new AwsError(service.errors.throttling.code, 'Rate exceeded', service.errors.throttling.status)
            : new AwsError(injected.code, injected.message, injected.status);
        record(e.status, e.code);
        return fail(e, operation);
      }

      tick();
      const ctx: RequestContext = {
        service: service.signingName,
        operation,
        region,
        accountId: SANDBOX_ACCOUNT_ID,
        principal: verdict.principal,
        requestId: rid,
        state: store.state,
        now: () => clock.now(),
        runtime,
      };
      const finish = (out: RawHttpResponse): RawHttpResponse => {
        record(out.status);
        if (isMutatingOperation(operation)) store.markDirty();
        return out;
      };
      const onError = (err: unknown): RawHttpResponse => {
        const e = isAwsError(err) ? err : internalError(service, err);
        record(e.status, e.code);
        return fail(e, operation);
      };
      try {
        if (restXml) {
          const result = restXml.handle(ctx);
          return result instanceof Promise ? result.then(finish, onError) : finish(result);
        }
        const output = service.operations[operation]!(input, ctx);
        return finish(renderSuccess(service, operation, output, rid));
      } catch (err) {
        return onError(err);
      }
    };
    // A hang fault holds the call until it ends; a client that gave up meanwhile gets nothing, and
    // the call never happened (as if the network had lost it) — unless the fault `lands`: then the
    // call is served at once and only its answer is held (the cloud acted, the client never heard).
    if (faults.takeReset(service.signingName, operation)) {
      resetConnection();
      return undefined;
    }
    const held = faults.hold(service.signingName, operation);
    if (!held) return serve();
    if (held.lands) {
      const out = serve();
      return held.until.then(async () => (abandoned() ? undefined : out));
    }
    return held.until.then(() => (abandoned() ? undefined : serve()));
  }

  const shared = await listenShared(server, httpsServer, port, host);
  const actualPort = (shared.front.address() as AddressInfo).port;
  runtime.endpointUrl = `http://${host}:${actualPort}`;
  const ticker = setInterval(tick, tickIntervalMs);
  ticker.unref();

  return {
    url: runtime.endpointUrl,
    port: actualPort,
    runtime,
    calls,
    services,
    tick: runTick,
    async stop() {
      clearInterval(ticker);
      store.flush();
      await shared.close();
    },
  };
}

function renderSuccess(service: ServiceModule, operation: string, output: unknown, rid: string): RawHttpResponse {
  switch (service.protocol) {
    case 'awsJson1_1':
      return jsonSuccess(output, rid, 'application/x-amz-json-1.1');
    case 'restJson1':
      return jsonSuccess(
        output,
        rid,
        'application/json',
        service.routes?.find((r) => r.operation === operation)?.status ?? 200,
      );
    case 'ec2':
    case 'awsQuery':
      return querySuccess(service.protocol, operation, output, rid, service.xmlNamespace ?? '');
    default:
      throw new Error(`renderSuccess: ${service.protocol} renders itself`);
  }
}

function renderError(
  service: ServiceModule | undefined,
  err: AwsError,
  rid: string,
  raw: RawHttpRequest,
  operation: string,
): RawHttpResponse {
  const out = renderErrorBody(service, err, rid, raw, operation);
  return { ...out, headers: { ...(out.headers ?? {}), ...err.headers } };
}

function renderErrorBody(
  service: ServiceModule | undefined,
  err: AwsError,
  rid: string,
  raw: RawHttpRequest,
  _operation: string,
): RawHttpResponse {
  switch (service?.protocol) {
    case 'awsJson1_1':
      return jsonError(err, rid, 'application/x-amz-json-1.1');
    case 'restJson1':
      return jsonError(err, rid, 'application/json');
    case 'ec2':
    case 'awsQuery':
      return queryError(service.protocol, err, rid, service.xmlNamespace);
    default:
      return restXmlError(err, rid, raw.method, raw.path);
  }
}

function internalError(service: ServiceModule, err: unknown): AwsError {
  process.stderr.write(
    `sandbox: ${service.signingName} handler failed: ${err instanceof Error ? err.stack : String(err)}\n`,
  );
  return new AwsError(
    service.errors.internal.code,
    'We encountered an internal error. Please try again.',
    service.errors.internal.status,
  );
}

/** Without a credential scope we still answer in the protocol the client most likely speaks. */
function guessService(raw: RawHttpRequest, services: ServiceModule[]): ServiceModule | undefined {
  const target = raw.headers.get('x-amz-target')?.[0];
  if (target) return services.find((s) => s.targetPrefix && target.startsWith(`${s.targetPrefix}.`));
  const text = raw.body.toString('utf8', 0, Math.min(raw.body.length, 4096));
  const action = raw.query.get('Action') ?? new URLSearchParams(text).get('Action');
  if (action) {
    return services.find((s) => (s.protocol === 'ec2' || s.protocol === 'awsQuery') && s.operations[action]);
  }
  return services.find((s) => s.protocol === 'restXml');
}

function callEntryAt(
  clock: SandboxClock,
  service: string,
  operation: string,
  region: string,
  params: unknown,
  status: number,
  errorCode?: string,
  requestId?: string,
) {
  return {
    time: new Date().toISOString(),
    sandboxTime: new Date(clock.now()).toISOString(),
    service,
    operation,
    region,
    paramsDigest: paramsDigest(params),
    ...(callSubject(params) ? { subject: callSubject(params) } : {}),
    mutating: isMutatingOperation(operation),
    status,
    ...(errorCode ? { errorCode } : {}),
    ...(requestId ? { requestId } : {}),
  };
}

function isChunked(raw: RawHttpRequest): boolean {
  const enc = raw.headers.get('content-encoding')?.[0] ?? '';
  const sha = raw.headers.get('x-amz-content-sha256')?.[0] ?? '';
  return enc.split(',').some((e) => e.trim() === 'aws-chunked') || sha.startsWith('STREAMING-');
}

function headerMap(req: IncomingMessage): Map<string, string[]> {
  const map = new Map<string, string[]>();
  for (let i = 0; i < req.rawHeaders.length; i += 2) {
    const name = req.rawHeaders[i]!.toLowerCase();
    const list = map.get(name) ?? [];
    list.push(req.rawHeaders[i + 1]!);
    map.set(name, list);
  }
  return map;
}

function safeDecodePath(path: string): string {
  try {
    return decodeURIComponent(path);
  } catch {
    return path;
  }
}

async function readBody(req: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > MAX_BODY_BYTES) throw new Error('request body larger than the sandbox accepts (1 GiB)');
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks);
}

function send(res: ServerResponse, out: RawHttpResponse): void {
  const body = out.body === undefined ? undefined : typeof out.body === 'string' ? Buffer.from(out.body) : out.body;
  const headers: Record<string, string | number> = { ...(out.headers ?? {}) };
  if (body && headers['content-length'] === undefined) headers['content-length'] = body.length;
  res.writeHead(out.status, headers);
  res.end(body);
}
