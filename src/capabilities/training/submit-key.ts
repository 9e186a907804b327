import { createHash } from 'node:crypto';
import type { KubeObject } from '../../domain/kube-object.js';
import type { FoundJob } from './jobs.js';

/**
 * A submit is one Kubernetes apply, not an operation, so nothing of ours records that it happened
 * before its answer is recorded (src/api/idempotency.ts). The job itself carries the Idempotency-Key
 * it was submitted under (a digest: keys are the client's, annotations are readable by anyone who can
 * read the job), so a retry under that key after a crash between the apply and the recorded answer
 * finds the job it made and answers it, instead of refusing the name as taken.
 */
export const SUBMIT_KEY_ANNOTATION = 'instantstart.dev/idempotency-key';

export const submitKeyDigest = (key: string): string => createHash('sha256').update(key).digest('hex').slice(0, 32);

/** The manifest with the key's digest added to its annotations. */
export function withSubmitKey(manifest: KubeObject, key: string | undefined): KubeObject {
  if (key === undefined) return manifest;
  return {
    ...manifest,
    metadata: {
      ...manifest.metadata,
      annotations: { ...manifest.metadata.annotations, [SUBMIT_KEY_ANNOTATION]: submitKeyDigest(key) },
    },
  };
}

/** True when the job was submitted under this key. */
export const submittedUnder = (found: FoundJob | undefined, key: string | undefined): found is FoundJob =>
  key !== undefined && found?.job.metadata.annotations?.[SUBMIT_KEY_ANNOTATION] === submitKeyDigest(key);
