import type { OidcSigningKeys } from './oidc-signing-keys.js';
import type { CertificateAuthority } from './certificate-authority.js';
import type { Principal } from './credentials.js';
import type { SandboxClock } from './clock.js';
import type { FaultRegistry } from './faults.js';
import type { SandboxState, StateStore } from './store.js';
import type { ValidationStyle } from './validation.js';

/** The five wire protocols the services we emulate speak. */
export type Protocol = 'awsJson1_1' | 'restJson1' | 'ec2' | 'awsQuery' | 'restXml';

/** What every handler gets: who called, where, when (sandbox time), and the world. */
export interface RequestContext {
  service: string;
  operation: string;
  region: string;
  accountId: string;
  principal: Principal;
  requestId: string;
  state: SandboxState;
  /** Sandbox time, epoch ms. */
  now(): number;
  runtime: SandboxRuntime;
}

/** Shared machinery of a running sandbox, for handlers, ticks and the admin API. */
export interface SandboxRuntime {
  store: StateStore;
  clock: SandboxClock;
  faults: FaultRegistry;
  /** Base URL of the AWS endpoint, e.g. http://127.0.0.1:4566 */
  endpointUrl: string;
  /** Directory for large payloads (S3 object bodies). */
  blobDir: string;
  /** Signs the Kubernetes API's TLS certificates; EKS hands its certificate out. */
  ca: CertificateAuthority;
  /** The EKS clusters' OIDC issuer signing keys (JWKS, service account tokens). */
  oidcKeys: OidcSigningKeys;
}

/** What a tick (a simulated controller step) gets. Ticks must be idempotent functions of state and time. */
export interface TickContext {
  state: SandboxState;
  now: number;
  runtime: SandboxRuntime;
}

/**
 * A handler receives the decoded input (JSON body, query parameters nested into objects, or
 * REST labels + query + body merged into one object) and returns the output object. It validates
 * everything first and throws `AwsError` before changing any state.
 */
export type OperationHandler = (input: any, ctx: RequestContext) => unknown;

export interface RestRoute {
  method: 'GET' | 'POST' | 'PUT' | 'DELETE' | 'PATCH' | 'HEAD';
  /** Template such as `/clusters/{name}/addons/{addonName}`. */
  path: string;
  operation: string;
  /** Query parameter name → input member name (e.g. `maxResults` → `maxResults`). */
  query?: Record<string, string>;
  /** Query parameters that carry lists (repeated). */
  listQuery?: string[];
  status?: number;
}

export interface RawHttpRequest {
  method: string;
  rawPath: string;
  /** Decoded path. */
  path: string;
  query: URLSearchParams;
  headers: Map<string, string[]>;
  body: Buffer;
}

export interface RawHttpResponse {
  status: number;
  headers?: Record<string, string>;
  body?: Buffer | string;
}

/** REST-XML (S3) resolves its operation from method, path and query itself. */
export type RestXmlResolver = (
  req: RawHttpRequest,
) =>
  | { operation: string; params: unknown; handle: (ctx: RequestContext) => RawHttpResponse | Promise<RawHttpResponse> }
  | undefined;

export interface ServiceErrorStyle {
  validation: ValidationStyle;
  throttling: { code: string; status: number };
  unknownOperation: { code: string; status: number };
  serialization: { code: string; status: number };
  /** SigV4 failures: unknown access key, bad signature, missing auth. */
  unknownKey: { code: string; status: number };
  badSignature: { code: string; status: number };
  missingAuth: { code: string; status: number };
  internal: { code: string; status: number };
}

export interface ServiceModule {
  /** Credential-scope service name, e.g. `sagemaker`, `eks`, `servicequotas`. */
  signingName: string;
  protocol: Protocol;
  /** awsJson1_1: the `X-Amz-Target` prefix (e.g. `SageMaker`). */
  targetPrefix?: string;
  /** Query protocols: the response namespace. */
  xmlNamespace?: string;
  /** Global services (IAM) accept any signing region. */
  global?: boolean;
  operations: Record<string, OperationHandler>;
  routes?: RestRoute[];
  resolveRestXml?: RestXmlResolver;
  errors: ServiceErrorStyle;
  /** Advances this service's state machines to `now`; returns true when it changed state. */
  tick?(ctx: TickContext): boolean;
  /** Every resource by type, for `GET /_sandbox/inventory`. */
  inventory?(state: SandboxState): Record<string, unknown[]>;
  /** Wiring at startup (e.g. registering the node-fault applier). */
  init?(runtime: SandboxRuntime): void;
}
