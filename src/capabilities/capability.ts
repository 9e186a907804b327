import type { FastifyInstance } from 'fastify';
import type { ApiContext, OperationsApi, ServiceKey } from '../api/context.js';
import type { LiveTopics } from '../api/live-topics.js';
import type { RouteRegistry } from '../api/route.js';
import type { CloudPort } from '../cloud/ports.js';
import type { AnyWorkflow } from '../engine/workflow.js';
import type { OperationKind } from '../domain/operation-kinds.js';
import type { OperationView } from '../domain/schemas/operations.js';
import type { ToolRegistration } from '../mcp/tool-set.js';
import type { WorkflowDeps } from '../workflows/context.js';

/**
 * A capability is one folder under src/capabilities that owns everything of one part of the product:
 * its durable operations (workflows/), its business rules (a service), its REST routes, its MCP
 * tools (tools/, REST calls only) and its UI (ui/index.tsx, found by the UI's glob). The composition
 * root lists capabilities once (all.ts); nothing else names them.
 *
 * Layering inside a folder (checked by scripts/check-layers.mjs): routes parse → call the service →
 * map; the service and views hold the rules; workflows use ports (cloud, engine, domain); tools import
 * only src/mcp's kit and src/domain.
 *
 * A capability is a module: outside its folder it is reached through its index.ts only — this definition (which is its
 * service key), its own port types (`P`, in its ports.ts: a store of the server's database, the AWS catalogue) and what
 * other capabilities may reuse.
 */
export interface Capability<S = unknown, P extends object = NoPorts> extends ServiceKey<S> {
  /** The folder name, e.g. `instance-groups`. */
  readonly name: string;
  /**
   * Its own ports, each named with what it holds: the composition root supplies them for this capability
   * (`supplyPorts`, src/capabilities/supplied-ports.ts), the server refuses to start when one is missing, and its
   * workflows and service get them beside the common deps (`deps.keptStorages`).
   */
  ports?: { readonly [K in keyof P]-?: string };
  /** The durable operation kinds this capability owns. */
  workflows?(deps: WorkflowDeps & P): AnyWorkflow[];
  /** Builds the capability's service for one cloud and account (once per workspace, on first use). */
  service?(deps: ServiceDeps & P): S;
  /** Registers the REST routes; `service()` answers 503 while the cloud is not available. */
  routes?(r: RouteContext<S>): void;
  /** MCP tools: each registers one tool that is a REST call (src/mcp/tool-kit.ts). */
  tools?: ToolRegistration[];
  /**
   * What a retry of one of its operation kinds must pass first, on every face (REST, MCP, UI): e.g.
   * a scale's quota check, so that a retry cannot repeat a count that no longer fits. Throws a 4xx
   * problem to refuse; nothing is retried then.
   */
  retryChecks?: { readonly [kind: string]: (service: S, operation: OperationView) => Promise<void> };
}

/** A capability that needs no port of its own. */
export type NoPorts = Record<never, never>;

/**
 * What every capability's service is built from: the workspace's cloud, the operations, and the other capabilities'
 * services. What only some capabilities need is their own port (Capability.ports), not a field here.
 */
export interface ServiceDeps {
  cloud: CloudPort;
  defaultRegion: string;
  operations: ServiceOperations;
  /** Another capability's service (built on first use), by its key: the capability as its index.ts exports it. */
  service<T>(capability: ServiceKey<T>): T;
}

/** What services use of the operation engine: the routes' view, and reads over many targets at once. */
export interface ServiceOperations extends OperationsApi {
  /** The newest operation of each target among these kinds (one store query, not one per target). */
  latestPerTarget(kinds: readonly OperationKind[]): OperationView[];
}

export interface RouteContext<S> {
  app: FastifyInstance;
  routes: RouteRegistry;
  api: ApiContext;
  /** This capability's service in the open workspace (throws UnavailableError → 503 until there is one). */
  service(): S;
  /** The Region a request names, or the server's default. */
  region(requested?: string): string;
  /** What browsers can watch over the WebSocket (src/api/live-topics.ts). */
  live: LiveTopics;
  /** Runs the retry check the operation's capability declares for its kind (Capability.retryChecks), if any. */
  checkRetry(operation: OperationView): Promise<void>;
}

export type { ToolRegistration };

/** Identity function that fixes the service type `S` for the routes and the port types `P` for the service. */
export function defineCapability<S = never, P extends object = NoPorts>(
  capability: Capability<S, P>,
): Capability<S, P> {
  return capability;
}
