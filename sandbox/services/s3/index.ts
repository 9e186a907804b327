import { s3Errors } from '../../core/error-styles.js';
import type { ServiceModule } from '../../core/service.js';
import type { SandboxState } from '../../core/store.js';
import { resolveS3 } from './router.js';
import type { S3State } from './state.js';

/**
 * Amazon S3 over REST-XML, path-style (`http://127.0.0.1:4566/bucket/key`). Operations are resolved
 * from method, path and query by `router.ts`; each renders its own response.
 */
function inventory(state: SandboxState): Record<string, unknown[]> {
  const buckets = Object.values((state.s3 as S3State | undefined)?.buckets ?? {});
  return {
    buckets: buckets.map((b) => ({ name: b.name, region: b.region, createdAt: new Date(b.createdAt).toISOString(), objectCount: Object.keys(b.objects).length })),
    objects: buckets.flatMap((b) => Object.values(b.objects).map((o) => ({ bucket: b.name, key: o.key, size: o.size, etag: o.etag }))),
    multipartUploads: buckets.flatMap((b) =>
      Object.values(b.uploads).map((u) => ({ bucket: b.name, key: u.key, uploadId: u.uploadId, parts: Object.keys(u.parts).length })),
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
