import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import type { AnyRestToolSpec } from './tool-kit.js';

/**
 * A destructive tool (annotations.destructiveHint, with a `confirm` field) asks the **user**, not the model, when the
 * client can be asked: MCP elicitation (`elicitation/create`, spec 2025-06-18), a yes/no form the client shows its
 * user. The model's own `confirm` then counts for nothing — a model that sets it unasked cannot delete anything. A
 * client that cannot be asked (no `elicitation` capability, or the stateless HTTP endpoint, where a request to the
 * client has no session to come back on) keeps the `confirm` field, as before.
 */
export type ConfirmAsker = (spec: AnyRestToolSpec, args: Record<string, unknown>) => Promise<ConfirmAnswer>;
export type ConfirmAnswer = { confirmed: true } | { confirmed: false; why: string };

/** Whether a tool's call is confirmed through elicitation: destructive, with a `confirm` field in its input. */
export const confirmsByElicitation = (spec: AnyRestToolSpec): boolean =>
  spec.annotations.destructiveHint === true &&
  typeof (spec.input as { shape?: Record<string, unknown> }).shape === 'object' &&
  'confirm' in ((spec.input as { shape: Record<string, unknown> }).shape ?? {});

/** The asker for a server whose transport can carry a request to the client; undefined when this client cannot answer one. */
export function elicitingAsker(server: Server): ConfirmAsker | undefined {
  if (!server.getClientCapabilities()?.elicitation) return undefined;
  return async (spec, args) => {
    const what = Object.entries(args)
      .filter(([k, v]) => k !== 'confirm' && k !== 'idempotencyKey' && v !== undefined)
      .map(([k, v]) => `${k}: ${typeof v === 'string' ? v : JSON.stringify(v)}`)
      .join(', ');
    const answer = await server.elicitInput({
      message: `${spec.title} (${what}). This cannot be undone. Go ahead?`,
      requestedSchema: {
        type: 'object',
        properties: { confirm: { type: 'boolean', title: `Yes, ${spec.title.toLowerCase()}`, default: false } },
        required: ['confirm'],
      },
    });
    if (answer.action === 'accept' && answer.content?.confirm === true) return { confirmed: true };
    return {
      confirmed: false,
      why:
        answer.action === 'accept'
          ? 'the user did not say yes'
          : answer.action === 'decline'
            ? 'the user declined it'
            : 'the user cancelled the question',
    };
  };
}
