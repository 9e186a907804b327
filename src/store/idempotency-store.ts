import type { Database } from './database.js';
import { guardWrite } from './store-failures.js';

/**
 * What the server remembers of one Idempotency-Key: the request it named (a digest, never the body:
 * bodies may carry tokens) and, once that request succeeded, its answer. `status` undefined means the
 * request has not been answered: it is under way, or a crash interrupted it.
 */
export interface IdempotencyRecord {
  key: string;
  /** sha256 of the request's method, route, parameters and canonical body. */
  fingerprint: string;
  /** The request in words ("DELETE /api/v1/clusters/demo/storage/sx"), for the 409 that names it. */
  request: string;
  status?: number;
  /** The answer's JSON text (while status is unset: the answer the request promised before it acted). */
  answer?: string;
  /** The operation the answer named, when the request started (or found) one. */
  operationId?: string;
  createdAt: string;
  answeredAt?: string;
}

/**
 * The idempotency keys of mutating requests (src/api/idempotency.ts is their one user). A key is
 * written when its request starts — before anything is changed — so that a retry after a crash still
 * finds which request the key named; the answer is written when the request succeeds. Pruned with the
 * operations (retention.ts). Writes the store cannot make throw StoreUnavailableError.
 *
 * @example
 * const keys = new IdempotencyStore(db);
 * keys.begin({ key: 'k1', fingerprint, request: 'POST /api/v1/clusters' });
 * keys.answer('k1', 202, JSON.stringify(body), operationId);
 * keys.find('k1'); // → { key: 'k1', status: 202, answer: '…', operationId, … }
 */
export class IdempotencyStore {
  private readonly sql: ReturnType<typeof prepare>;

  constructor(
    private readonly db: Database,
    private readonly now: () => Date = () => new Date(),
  ) {
    this.sql = prepare(db);
  }

  find(key: string): IdempotencyRecord | undefined {
    const row = this.sql.find.get(key) as Row | undefined;
    return row ? recordOf(row) : undefined;
  }

  /** Records that the key's request has started (a row for the key replaced only when it was never answered). */
  begin(r: { key: string; fingerprint: string; request: string }): void {
    guardWrite(this.db.name, () => this.sql.begin.run(r.key, r.fingerprint, r.request, this.now().toISOString()));
  }

  /** Records the key's successful answer. */
  answer(key: string, status: number, answer: string, operationId?: string): void {
    guardWrite(this.db.name, () =>
      this.sql.answer.run(status, answer, operationId ?? null, this.now().toISOString(), key),
    );
  }

  /**
   * Records, before a request acts, the answer it will give (status still unset): a retry after a crash
   * that finds the change made but its evidence gone (a deleted job) answers this. Kept only until answered.
   */
  promise(key: string, answer: string): void {
    guardWrite(this.db.name, () => this.sql.promise.run(answer, key));
  }

  /** Forgets a key whose request failed: it changed nothing to replay, so the key may be sent again. */
  forget(key: string): void {
    guardWrite(this.db.name, () => this.sql.forget.run(key));
  }
}

interface Row {
  key: string;
  fingerprint: string;
  request: string;
  status: number | null;
  answer: string | null;
  operation_id: string | null;
  created_at: string;
  answered_at: string | null;
}

const recordOf = (r: Row): IdempotencyRecord => ({
  key: r.key,
  fingerprint: r.fingerprint,
  request: r.request,
  ...(r.status !== null ? { status: r.status } : {}),
  ...(r.answer !== null ? { answer: r.answer } : {}),
  ...(r.operation_id !== null ? { operationId: r.operation_id } : {}),
  createdAt: r.created_at,
  ...(r.answered_at !== null ? { answeredAt: r.answered_at } : {}),
});

function prepare(db: Database) {
  return {
    find: db.prepare('SELECT * FROM idempotency_keys WHERE key = ?'),
    begin: db.prepare(
      `INSERT INTO idempotency_keys (key, fingerprint, request, created_at) VALUES (?, ?, ?, ?)
       ON CONFLICT (key) DO UPDATE SET fingerprint = excluded.fingerprint, request = excluded.request, created_at = excluded.created_at
       WHERE idempotency_keys.status IS NULL`,
    ),
    answer: db.prepare(
      'UPDATE idempotency_keys SET status = ?, answer = ?, operation_id = ?, answered_at = ? WHERE key = ?',
    ),
    promise: db.prepare('UPDATE idempotency_keys SET answer = ? WHERE key = ? AND status IS NULL'),
    forget: db.prepare('DELETE FROM idempotency_keys WHERE key = ? AND status IS NULL'),
  };
}
