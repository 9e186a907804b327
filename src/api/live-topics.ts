import type { z } from 'zod';

/**
 * Things a browser can watch over the one WebSocket (/api/v1/ws) beyond operations: a capability
 * defines a topic (its params as a zod schema, and how to start one shared watch), the socket code
 * validates what a browser asks for and counts who watches what. The messages carry no data: they
 * only say "this changed", and the page refetches through its usual REST queries.
 *
 * Client → server: `{ type: 'watch' | 'unwatch', topic, params }`.
 * Server → client: `{ type: 'changed', topic, params }` (params as parsed).
 */
export interface LiveTopic<P extends Record<string, unknown> = Record<string, unknown>> {
  params: z.ZodType<P>;
  /**
   * Starts watching `params`; `changed` is called on each change seen. Returns the stop function.
   * Implementations share one watch per distinct params among every caller (one per cluster, say),
   * so a watch costs the cloud the same whether one browser tab or fifty look.
   */
  watch(params: P, changed: () => void): () => void;
}

export class LiveTopics {
  private readonly topics = new Map<string, LiveTopic>();

  define<P extends Record<string, unknown>>(name: string, topic: LiveTopic<P>): void {
    if (this.topics.has(name)) throw new Error(`live topic '${name}' is defined twice`);
    this.topics.set(name, topic as unknown as LiveTopic);
  }

  get(name: string): LiveTopic | undefined {
    return this.topics.get(name);
  }
}
