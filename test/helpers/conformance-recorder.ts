import { appendFileSync, mkdirSync } from 'node:fs';
import { basename, join } from 'node:path';
import type { CloudObserver } from '../../src/cloud/observer.js';
import type { KubeObject } from '../../src/domain/kube-object.js';

/**
 * Records what a test server sends to its clouds — every AWS request and every Kubernetes apply —
 * when `INSTANTSTART_CONFORMANCE_DIR` is set (scripts/test.mjs sets it for the whole suite), one JSON
 * line each, in a file per test process. test/conformance/ holds the records to their upstream
 * definitions once every other test has run. Secret values and binary bodies are not written.
 */

export const CONFORMANCE_DIR_ENV = 'INSTANTSTART_CONFORMANCE_DIR';

export type ConformanceRecord =
  | { type: 'aws'; test: string; service: string; operation: string; region: string; input: unknown }
  | { type: 'kube'; test: string; region: string; cluster: string; object: KubeObject };

/** JSON without what must not or cannot be kept: binary bodies and streams become a marker, so member presence survives. */
function replacer(this: unknown, key: string, value: unknown): unknown {
  if (
    value instanceof Uint8Array ||
    (value && typeof value === 'object' && typeof (value as { pipe?: unknown }).pipe === 'function')
  )
    return '<binary>';
  if (
    value &&
    typeof value === 'object' &&
    (value as { type?: unknown }).type === 'Buffer' &&
    Array.isArray((value as { data?: unknown }).data)
  )
    return '<binary>';
  return value;
}

function redactSecret(object: KubeObject): KubeObject {
  if (object.kind !== 'Secret') return object;
  const blank = (values: unknown, placeholder: string) =>
    values && typeof values === 'object'
      ? Object.fromEntries(Object.keys(values).map((k) => [k, placeholder]))
      : values;
  const out = { ...object } as KubeObject & { data?: unknown; stringData?: unknown };
  if ('data' in out) out.data = blank(out.data, 'cmVkYWN0ZWQ=');
  if ('stringData' in out) out.stringData = blank(out.stringData, 'redacted');
  return out;
}

/** The observer a test server is started with, or undefined when nothing is being recorded. */
export function conformanceObserver(): CloudObserver | undefined {
  const dir = process.env[CONFORMANCE_DIR_ENV];
  if (!dir) return undefined;
  mkdirSync(dir, { recursive: true });
  const test = basename(process.argv[1] ?? 'unknown').replace(/\.js$/, '');
  const file = join(dir, `${test}-${process.pid}.jsonl`);
  const write = (record: ConformanceRecord) => appendFileSync(file, `${JSON.stringify(record, replacer)}\n`);
  return {
    awsRequest: ({ service, operation, region, input }) =>
      write({ type: 'aws', test, service, operation, region, input }),
    kubeApply: ({ region, cluster, object }) =>
      write({ type: 'kube', test, region, cluster, object: redactSecret(object) }),
  };
}
