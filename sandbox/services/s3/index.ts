import { keyed } from '../../core/keyed.js';
import { s3Errors } from '../../core/error-styles.js';
import type { ServiceModule } from '../../core/service.js';
import type { SandboxState } from '../../core/store.js';
import { resolveS3 } from './router.js';
import { allBuckets } from './state.js';

/**
 * Amazon S3 over REST-XML, path-style (`http://127.0.0.1:4566/bucket/key`). Operations are resolved
 * from method, path and query by `router.ts`; each renders its own response.
 */
function inventory(state: SandboxState): Record<string, unknown[]> {
  const buckets = allBuckets(state);
  return {
    buckets: buckets.map((b) => ({
      name: b.name,
      region: b.region,
      createdAt: new Date(b.createdAt).toISOString(),
      objectCount: keyed.keys(b.objects).length,
      tags: b.tags ?? {},
    })),
    objects: buckets.flatMap((b) =>
      keyed.values(b.objects).map((o) => ({ bucket: b.name, key: o.key, size: o.size, etag: o.etag })),
    ),
    multipartUploads: buckets.flatMap((b) =>
      keyed
        .values(b.uploads)
        .map((u) => ({ bucket: b.name, key: u.key, uploadId: u.uploadId, parts: keyed.keys(u.parts).length })),
    ),
  };
}

export const s3: ServiceModule = {
  signingName: 's3',
  protocol: 'restXml',
  errors: s3Errors(),
  // REST-XML resolves and renders its operations itself (`resolveRestXml`).
  operations: {},
  resolveRestXml: resolveS3,
  inventory,
};
