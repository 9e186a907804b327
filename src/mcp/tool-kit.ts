import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { RequestHandlerExtra } from '@modelcontextprotocol/sdk/shared/protocol.js';
import type {
  CallToolResult,
  ServerNotification,
  ServerRequest,
  ToolAnnotations,
} from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import { IdempotencyKeySchema } from '../domain/schemas/operations.js';
import { RestApiError, RestUnreachableError, type RestClient } from './rest-client.js';

/**
 * What every tool file shares: one registration helper (input and output schemas, annotations,
 * error handling) so that each tool file only says which REST call it makes and how to word the
 * answer. Errors become readable `isError` results here and nowhere else (STYLE.md: one place).
 */

/** What a tool's `run` gets: the REST client and the MCP request's cancellation and progress. */
export interface ToolContext {
  api: RestClient;
  /** Aborted when the MCP client cancels the call or the connection closes. */
  signal: AbortSignal;
  /** Sends `notifications/progress` when the client asked for it (a no-op otherwise). */
  progress(progress: number, total: number | undefined, message: string): Promise<void>;
}

/** A successful answer: the first text line(s) for people and models, `data` for structuredContent. */
export interface ToolAnswer {
  text: string;
  data: unknown;
}

export interface RestToolSpec<I extends z.ZodObject, O extends z.ZodObject> {
  name: string;
  title: string;
  /** "When to use" text; it carries the workflow rules (SPEC.md → Workflow rules). */
  description: string;
  input: I;
  /**
   * The answer's shape (`outputSchema`, and `structuredContent` on every answer). Leave it out only
   * for a tool whose answer IS text (log lines): clients hand the model either the text or the
   * structured content, never reliably both, so such an answer is sent once, as text
   * (docs/MCP.md → Answers); give the reason in `textOnly`.
   */
  output?: O;
  /** Why the tool answers text only (required with no `output`, so no tool drops its schema by accident). */
  textOnly?: string;
  /**
   * The tool whose arguments these are, word for word (a dry run or plan of it: `check_cluster_request`,
   * `plan_cluster` take create_cluster's): the fields are listed typed but undescribed here, their descriptions being
   * that tool's (tool-list.test.ts checks the fields are the same). The description says so.
   */
  argumentsOf?: string;
  annotations: Omit<ToolAnnotations, 'title'>;
  /**
   * The tool holds its answer by design (a wait of up to minutes): over HTTP it is answered as an
   * event stream, whose headers leave at once and whose keep-alives hold the connection open.
   * Every other call is answered as one plain JSON body.
   */
  holdsAnswer?: boolean;
  /**
   * Request fields the REST API names differently from the tool's inputs (REST field → tool input,
   * e.g. `{ name: 'cluster' }`): a problem the server reports on `name` reads as one on `cluster`,
   * the field the agent sent. The tool inputs say `cluster` and `group` everywhere (docs/MCP.md).
   */
  restFields?: Readonly<Record<string, string>>;
  run(args: z.output<I>, ctx: ToolContext): Promise<ToolAnswer>;
}

/** Hints for tools that only read (GETs, and preflight POSTs that change nothing). */
export const READ_ONLY = { readOnlyHint: true, destructiveHint: false, idempotentHint: true } as const;

/** A tool spec whatever its schemas (what the tool set keeps). */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type AnyRestToolSpec = RestToolSpec<any, any>;

/**
 * Where tool files register while the tool set is built (tool-set.ts): it only records each spec,
 * so that the schemas and their JSON Schema are built once per process, not once per MCP exchange.
 * It is an McpServer only so that tool files keep one signature, `(server: McpServer, api) => void`.
 */
export class ToolCollector extends McpServer {
  readonly specs: AnyRestToolSpec[] = [];

  constructor() {
    super({ name: 'instantstart-tool-collector', version: '0' });
  }
}

/**
 * Registers one REST-backed tool: recorded by a {@link ToolCollector} (the tool set serves it),
 * registered as is on any other McpServer.
 */
export function registerRestTool<I extends z.ZodObject, O extends z.ZodObject>(
  server: McpServer,
  api: RestClient,
  declared: RestToolSpec<I, O>,
): void {
  if (!declared.output === !declared.textOnly)
    throw new Error(`${declared.name}: give an output schema, or textOnly with the reason it answers text only`);
  const spec = withIdempotencyKey(declared);
  if (server instanceof ToolCollector) {
    server.specs.push(spec);
    return;
  }
  server.registerTool(
    spec.name,
    {
      title: spec.title,
      description: spec.description,
      inputSchema: spec.input,
      ...(spec.output ? { outputSchema: spec.output } : {}),
      annotations: { title: spec.title, ...spec.annotations },
    },
    ((args: unknown, extra: ToolExtra) => runRestTool(spec, args, api, extra)) as never,
  );
}

/**
 * Every mutating tool (readOnlyHint false) takes an optional `idempotencyKey`, sent as the REST
 * `Idempotency-Key` header of the call's mutation: an agent that lost an answer repeats the call with
 * the same key and gets the operation the first call started. Added here, once, so that no mutating
 * tool can lack it and no tool file forwards it by hand (nor lets it slip into a request body).
 */
function withIdempotencyKey(spec: AnyRestToolSpec): AnyRestToolSpec {
  if (spec.annotations.readOnlyHint !== false) return spec;
  return {
    ...spec,
    input: spec.input.safeExtend({ idempotencyKey: IdempotencyKeySchema.optional() }),
    // A key used for another request is refused on the header (409): the agent sent it as idempotencyKey.
    restFields: { ...spec.restFields, 'Idempotency-Key': 'idempotencyKey' },
    run({ idempotencyKey, ...args }: { idempotencyKey?: string }, ctx: ToolContext) {
      return spec.run(args, idempotencyKey ? { ...ctx, api: ctx.api.withIdempotencyKey(idempotencyKey) } : ctx);
    },
  };
}

/**
 * Runs a tool whose arguments already passed its input schema. The answer's `data` goes through the
 * full output schema before it is sent: an answer off the contract is worded as an error here, and zod
 * drops fields the schema does not know (the listed schema a client validates against is shallower,
 * listed-schema.ts; an extra field from a newer server must not reach it either).
 *
 * The answer is the tool's short text for the model and `structuredContent` for programs, not the
 * same JSON twice: the text is written to carry what an agent needs (names, statuses, the next call),
 * clients that show the model `content` read it, clients that prefer structured content read the
 * data (docs/MCP.md → Answers).
 */
export async function runRestTool(
  spec: AnyRestToolSpec,
  args: unknown,
  api: RestClient,
  extra: ToolExtra,
): Promise<CallToolResult> {
  try {
    const answer = await spec.run(args, contextFor(api, extra));
    if (!spec.output) return { content: [{ type: 'text', text: answer.text }] };
    // A ZodError here (answer off the contract) is worded by describeToolError like any other.
    const structuredContent = spec.output.parse(answer.data) as Record<string, unknown>;
    return { content: [{ type: 'text', text: answer.text }], structuredContent };
  } catch (err) {
    return errorResult(describeToolError(spec.name, err, spec.restFields));
  }
}

export type ToolExtra = RequestHandlerExtra<ServerRequest, ServerNotification>;

function contextFor(api: RestClient, extra: ToolExtra): ToolContext {
  const token = extra._meta?.progressToken;
  return {
    api,
    signal: extra.signal,
    async progress(progress, total, message) {
      if (token === undefined || extra.signal.aborted) return;
      // A lost progress notification must never fail the tool call itself.
      await extra
        .sendNotification({
          method: 'notifications/progress',
          params: { progressToken: token, progress, total, message },
        })
        .catch(() => undefined);
    },
  };
}

export function errorResult(text: string): CallToolResult {
  return { content: [{ type: 'text', text }], isError: true };
}

/**
 * The one mapping from errors to what an agent reads: the problem's title and detail, then one line
 * per offending field (`- instanceType: is not offered in us-west-2b`), then what to do next.
 */
export function describeToolError(
  tool: string,
  err: unknown,
  restFields: Readonly<Record<string, string>> = {},
): string {
  if (err instanceof RestApiError) {
    // Servers often repeat the field messages in `detail`; say each thing once.
    const detailAddsNothing =
      !err.detail || err.detail === err.title || err.errors.some((p) => err.detail?.includes(p.message));
    const lines = [`${tool} failed: HTTP ${err.status} ${err.title}${detailAddsNothing ? '' : ` — ${err.detail}`}`];
    for (const p of err.errors) lines.push(`- ${toolPath(p.path, restFields) || '(request)'}: ${p.message}`);
    if (err.code) lines.push(`(code ${err.code})`);
    // The server's own advice for this refusal (which call turns a needed feature on, …) before the generic hint.
    if (err.remedy) lines.push(`To fix: ${err.remedy}`);
    const hint = hintFor(err.status);
    if (hint) lines.push(hint);
    return lines.join('\n');
  }
  if (err instanceof z.ZodError) {
    // Raised when a server answer is parsed against the shared schemas (e.g. a 202 body).
    return `${tool}: the server's answer does not match the documented shape (${z.prettifyError(err)}). The MCP server and the InstantStart server may be different versions.`;
  }
  if (err instanceof RestUnreachableError) {
    return err.timedOut
      ? `${tool} failed: ${err.message}. The server may be busy; call the tool again.`
      : `${tool} failed: ${err.message}. Is \`instantstart serve\` running there? (Nothing was changed by this call.)`;
  }
  return `${tool} failed: ${err instanceof Error ? err.message : String(err)}`;
}

/** A REST field path (`name`, `instanceGroups.1`) as the tool's input calls it (`cluster`, `groups.1`). */
function toolPath(path: string, restFields: Readonly<Record<string, string>>): string {
  const [head, ...rest] = path.split('.');
  const renamed = head !== undefined && Object.hasOwn(restFields, head) ? restFields[head] : head;
  return [renamed, ...rest].join('.');
}

function hintFor(status: number): string | undefined {
  switch (status) {
    case 400:
    case 422:
      return 'Nothing was changed. Fix the named fields (ask the user only if the choice is theirs: zone, instance type, capacity type, count) and call again.';
    case 401:
      return 'The server requires an API token: start the MCP server with `instantstart mcp --token <token>`, or send `Authorization: Bearer <token>` to /mcp.';
    case 404:
      return 'Check the name or id with list_clusters / list_operations.';
    case 409:
      return 'The request clashes with current state; read it with get_cluster or get_operation before trying again.';
    case 500:
      return 'InstantStart failed on its side (its log has the details). Read the current state (get_cluster, list_operations) before calling again.';
    default:
      // 502/503/504: AWS or the cluster's Kubernetes API did not answer as asked; the cause is in the
      // problem above. A read has changed nothing; an accepted operation goes on and retries by itself.
      return status > 500
        ? "A cloud service (AWS or the cluster's Kubernetes API) did not answer as asked: the cause is above. Try again shortly; an operation already accepted goes on by itself (wait_for_operation)."
        : undefined;
  }
}

/** A field that must name an operation (ids come from a mutating tool's answer or list_operations). */
export const OperationIdSchema = z
  .string()
  .min(1)
  .max(200)
  .describe("Operation id, from a mutating tool's answer (operationId) or list_operations.");
