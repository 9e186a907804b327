/**
 * A request under an Idempotency-Key as the route's service sees it (src/api/idempotency.ts): whether
 * it is the retry of one a crash interrupted (the key was recorded, its answer never), and the answer
 * that interrupted run promised before it acted. A change that leaves no trace to find it by once done
 * (a deleted job) promises its answer before it acts; its retry, finding the thing gone, answers that.
 */
export interface KeyedCall {
  key: string;
  interrupted: boolean;
  /** The promised answer (JSON text) of the interrupted run, if it got that far. */
  promised?: string;
  /** Records the answer this request will give, before it acts. */
  promise(answer: unknown): void;
}
