import type { OperationSnapshot } from '../domain/schemas/operations.js';
import { isTerminal } from './views.js';

type Settle = (view: OperationSnapshot, force?: boolean) => void;

/**
 * The callers waiting for operations to end (OperationEngine.waitFor): each is answered with the view once
 * its operation is terminal, with its current view when its time is up, and with what there is when the
 * engine stops.
 */
export class OperationWaiters {
  private readonly waiting = new Map<string, Set<Settle>>();

  /** Resolves with the terminal view of `id`, or with `current()` after `timeoutMs`. */
  wait(id: string, timeoutMs: number, current: () => OperationSnapshot): Promise<OperationSnapshot> {
    return new Promise((resolve) => {
      const set = this.waiting.get(id) ?? new Set();
      this.waiting.set(id, set);
      const settle: Settle = (view, force = false) => {
        if (!force && !isTerminal(view.status)) return;
        clearTimeout(timer);
        set.delete(settle);
        if (set.size === 0 && this.waiting.get(id) === set) this.waiting.delete(id);
        resolve(view);
      };
      const timer = setTimeout(() => settle(current(), true), Math.max(0, timeoutMs));
      set.add(settle);
    });
  }

  /** The operation changed: its waiters are answered when it is terminal now. */
  changed(view: OperationSnapshot): void {
    for (const settle of [...(this.waiting.get(view.id) ?? [])]) settle(view);
  }

  /** The engine stopped: every waiter is answered with the operation's view as it stands. */
  releaseAll(viewOf: (id: string) => OperationSnapshot): void {
    for (const [id, set] of this.waiting) {
      const view = viewOf(id);
      for (const settle of [...set]) settle(view, true);
    }
  }
}
