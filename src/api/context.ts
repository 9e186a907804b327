import type { AuditTrailPort } from './audit-trail.js';
import type { ApiToken } from './guard/token.js';
import type { CloudAccess } from '../domain/schemas/config.js';
import type { InputOf, OperationKind } from '../domain/operation-kinds.js';
import type { LogLine, OperationSnapshot, OperationStatus, OperationView } from '../domain/schemas/operations.js';

/** What the routes use of the operation engine (src/engine). */
export interface OperationsApi {
  /** Type-checked against the kind's input schema (src/domain/operation-kinds.ts); 409 when a running operation holds what it needs. */
  start<K extends OperationKind>(
    kind: K,
    input: InputOf<K>,
    options?: { idempotencyKey?: string },
  ): { operation: OperationView; existing: boolean };
  get(id: string): OperationView;
  byIdempotencyKey(key: string): OperationView | undefined;
  activeFor(target: string): OperationView | undefined;
  list(query: { status?: OperationStatus; kind?: OperationKind; target?: string; limit: number }): OperationView[];
  events(id: string, after: number, limit: number): { lines: LogLine[]; nextAfter: number };
  retryPhase(id: string, phase: string): OperationView;
  cancel(id: string): OperationView;
  waitFor(id: string, timeoutMs: number): Promise<OperationView>;
  /** After every change of an operation: the engine's snapshot (a face adds the links it answers with). */
  on(event: 'operation', listener: (op: OperationSnapshot) => void): unknown;
  on(event: 'log', listener: (e: { operationId: string; line: LogLine }) => void): unknown;
  off(event: string, listener: (...args: never[]) => void): unknown;
}

/** The store of Idempotency-Keys (src/store/idempotency-store.ts), as idempotency.ts uses it. */
export interface IdempotencyKeysPort {
  find(key: string):
    | {
        fingerprint: string;
        request: string;
        status?: number;
        answer?: string;
        operationId?: string;
        createdAt: string;
      }
    | undefined;
  begin(record: { key: string; fingerprint: string; request: string }): void;
  answer(key: string, status: number, answer: string, operationId?: string): void;
  promise(key: string, answer: string): void;
  forget(key: string): void;
}

export interface ServerConfig {
  cloud: 'sandbox' | 'aws';
  region: string;
  version: string;
  /** How many times faster than real time the cloud's clock runs (the sandbox's speed; 1 on AWS). */
  clockSpeed?: number;
  /**
   * Reads the cloud's current time and speed (the sandbox's own clock, given by the composition root, which alone
   * may talk to the sandbox); absent on AWS, whose clock is the server's.
   */
  cloudClock?: CloudClockSource;
  /**
   * The API tokens, each with its scope (read < operate < admin); once there is one, every request must
   * carry one (required when binding beyond loopback). None: a loopback server open to its machine.
   */
  tokens?: readonly ApiToken[];
}

/** The cloud's time (epoch ms) and how many times faster than real time it runs. */
export type CloudClockSource = () => Promise<{ now: number; speed: number }>;

/** The account the server acts in (null until STS says) and whether it can act there now. */
export interface CloudAccessState {
  accountId: string | null;
  access: CloudAccess;
}

/** Everything the HTTP layer is built with. */
export interface ApiContext {
  config: ServerConfig;
  /** Whether the server can act on its cloud: the account, or the credential problem and its remedy. */
  cloudAccess(): CloudAccessState;
  /** Checks the credentials again; when they work, the account's data directory is opened and its operations resume. */
  checkCloudAccess(): Promise<CloudAccessState>;
  /** The parts below need the cloud: while it is not available they throw UnavailableError (503). */
  operations: OperationsApi;
  /** Each mutating request's Idempotency-Key and its answer (needs the cloud too: keys are kept per account). */
  idempotencyKeys: IdempotencyKeysPort;
  /** A capability's service in the open workspace (src/capabilities/capability.ts). */
  service<S>(key: ServiceKey<S>): S;
  /** Where each mutating request's audit event goes (audit-trail.ts); undefined while there is no workspace. */
  audit?(): AuditTrailPort | undefined;
}

/** Names a service (a capability is one); `S` only carries its type. */
export interface ServiceKey<S> {
  readonly name: string;
  /** Never set: it only ties the key to its service's type. */
  readonly __service?: S;
}
