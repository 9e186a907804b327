import type { FastifyInstance } from 'fastify';
import type { ApiContext, OperationsApi, ServiceKey } from '../api/context.js';
import type { LiveTopics } from '../api/live-topics.js';
import type { RouteRegistry } from '../api/route.js';
import type { AwsCatalog } from '../cloud/aws/catalog.js';
import type { CloudPort } from '../cloud/ports.js';
import type { AnyWorkflow } from '../engine/workflow.js';
import type { OperationView } from '../domain/schemas/operations.js';
import type { ToolRegistration } from '../mcp/tool-set.js';
import type { ActiveClusterPort, KeptStoragesPort, TrainingRecordsPort, WorkflowDeps } from '../workflows/context.js';
import type { OperationsLookup } from './clusters/views.js';

/**
 * A capability is one folder under src/capabilities that owns everything of one part of the product:
 * its durable operations (workflows/), its business rules (a service), its REST routes, its MCP
 * tools (tools/, REST calls only) and its UI (ui/index.tsx, found by the UI's glob). The composition
 * root lists capabilities once (all.ts); nothing else names them.
 *
 * Layering inside a folder (checked by scripts/check-layers.mjs): routes parse → call the service →
 * map; the service and views hold the rules; workflows use ports (cloud, engine, domain); tools import
 * only src/mcp's kit and src/domain.
 */
export interface Capability<S = unknown> extends ServiceKey<S> {
  /** The folder name, e.g. `instance-groups`. */
  readonly name: string;
  /** The durable operation kinds this capability owns. */
  workflows?(deps: WorkflowDeps): AnyWorkflow[];
  /** Builds the capability's service for one cloud and account (once per workspace, on first use). */
  service?(deps: ServiceDeps): S;
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

/** What a capability's service is built from: the workspace's ports, and the other capabilities' services. */
export interface ServiceDeps {
  cloud: CloudPort;
  catalog: AwsCatalog;
  defaultRegion: string;
  operations: OperationsApi & OperationsLookup;
  activeCluster: ActiveClusterPort;
  /** Training templates and each cluster's default MLflow server, kept in the server's store. */
  training: TrainingRecordsPort;
  /** Storages removed keeping their data, until forgotten (kept by a cluster's delete). */
  keptStorages: KeptStoragesPort;
  /** Another capability's service (built on first use). */
  service<T>(capability: ServiceKey<T>): T;
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

/** Identity function that fixes the service type `S` for the routes. */
export function defineCapability<S = never>(capability: Capability<S>): Capability<S> {
  return capability;
}
