import type { BlockingOperation } from '../domain/errors.js';
import type { OperationSnapshot, OperationView } from '../domain/schemas/operations.js';
import { isSettledAnswer, settledAnswer } from '../domain/settled-answer.js';
import { OPERATION_STATUS_TOOL } from '../mcp/status-tool.js';

/**
 * Where a client follows an operation: the REST URL that reports it and the MCP tool that waits for it. The
 * engine answers operations and phases only; the faces add these links to every operation they answer with (a
 * view, a 202, a live update) and to the 409 naming an operation that holds what a request needs.
 */
export interface StatusLinks {
  /** GET it for the operation's progress. */
  statusUrl: string;
  /** The MCP tool that waits for it: wait_for_operation. */
  statusTool: string;
}

/** The REST endpoint that reports one operation. */
export function operationStatusUrl(id: string): string {
  return `/api/v1/operations/${encodeURIComponent(id)}`;
}

export function statusLinks(id: string): StatusLinks {
  return { statusUrl: operationStatusUrl(id), statusTool: OPERATION_STATUS_TOOL };
}

/** Linked views of finished operations, by the engine's snapshot: one object, so its JSON is written once. */
const settledViews = new WeakMap<OperationSnapshot, OperationView>();

/**
 * The operation as REST answers it: the engine's snapshot and where to follow it. A finished operation's snapshot is
 * a settled answer (src/domain/settled-answer.ts); its linked view is one too, made once per snapshot.
 */
export function withStatusLinks(operation: OperationSnapshot): OperationView {
  const settled: boolean = isSettledAnswer(operation); // a boolean: the guard would narrow the other branch away
  if (!settled) return { ...operation, ...statusLinks(operation.id) };
  let view = settledViews.get(operation);
  if (!view) {
    view = settledAnswer({ ...operation, ...statusLinks(operation.id) });
    settledViews.set(operation, view);
  }
  return view;
}

/** The running operation a 409 names, with where to wait for it. */
export function blockingWithLinks(operation: BlockingOperation): BlockingOperation & StatusLinks {
  return { ...operation, ...statusLinks(operation.id) };
}

/** The sentence that ends a 409 naming a running operation: how to wait for it, on both faces. */
export function waitForItSentence(id: string): string {
  const { statusUrl, statusTool } = statusLinks(id);
  return `Wait until it ends — ${statusTool} ${JSON.stringify({ operationId: id })} or GET ${statusUrl} — then send this request again.`;
}
