import { createHash } from 'node:crypto';
import type { KubeObject } from '../../domain/kube-object.js';

/**
 * A deploy is one server-side apply of a set of objects, not an operation, so nothing of ours records that it
 * happened before its answer is recorded (src/api/idempotency.ts). Each object carries the digest of the
 * Idempotency-Key it was applied under (the annotation training's submit uses), so a retry under that key after a
 * crash between the apply and the recorded answer finds what it made and answers it, instead of refusing the name
 * as taken. The same key with another body is refused by the idempotency layer (409) before this is reached.
 */
export const DEPLOY_KEY_ANNOTATION = 'instantstart.dev/idempotency-key';

const digest = (key: string): string => createHash('sha256').update(key).digest('hex').slice(0, 32);

/** The manifest with the key's digest added to its annotations (unchanged without a key). */
export function withDeployKey<T extends KubeObject>(manifest: T, key: string | undefined): T {
  if (key === undefined) return manifest;
  return {
    ...manifest,
    metadata: {
      ...manifest.metadata,
      annotations: { ...manifest.metadata.annotations, [DEPLOY_KEY_ANNOTATION]: digest(key) },
    },
  };
}

/** True when the object was applied under this key. */
export const deployedUnder = (
  obj: { metadata: { annotations?: Record<string, string> } } | undefined,
  key: string | undefined,
): boolean => key !== undefined && obj?.metadata.annotations?.[DEPLOY_KEY_ANNOTATION] === digest(key);
