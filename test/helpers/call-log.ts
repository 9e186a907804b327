import assert from 'node:assert/strict';
import type { TestSandbox } from './sandbox.js';

/** "Nothing changed" checks on the sandbox call log, AWS calls and Kubernetes writes alike. */

/**
 * AWS calls and Kubernetes writes from the sandbox call log (it lists Kubernetes writes only when asked for by service:
 * sandbox/core/calls.ts), in the order they came.
 */
async function loggedCalls(sb: TestSandbox, filter: { mutating?: boolean; after?: number } = {}) {
  const [aws, kube] = await Promise.all([sb.calls(filter), sb.calls({ ...filter, service: 'kubernetes' })]);
  return [...aws, ...kube].sort((a, b) => a.seq - b.seq);
}

/** The sandbox call log's newest sequence number: mutating calls after it are counted by `mutatingSince`. */
export async function callMark(sb: TestSandbox): Promise<number> {
  return (await loggedCalls(sb)).at(-1)?.seq ?? 0;
}

/**
 * The mutating calls (AWS calls and Kubernetes writes) the sandbox logged after `mark`, as "<service> <operation>
 * <subject>"; the log itself is checked to hold some of each (the cluster's create made them).
 */
export async function mutatingSince(sb: TestSandbox, mark: number): Promise<string[]> {
  const all = await loggedCalls(sb, { mutating: true });
  assert.ok(
    all.some((c) => c.service !== 'kubernetes'),
    'the log records mutating AWS calls (the creates made some)',
  );
  assert.ok(
    all.some((c) => c.service === 'kubernetes'),
    'the log records Kubernetes writes (the creates made some)',
  );
  return all.filter((c) => c.seq > mark).map((c) => `${c.service} ${c.operation} ${c.subject ?? ''}`);
}
