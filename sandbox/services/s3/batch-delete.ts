import { keyed } from '../../core/keyed.js';
import type { RawHttpResponse, RequestContext } from '../../core/service.js';
import { requireBucket } from './access.js';
import { removeBlob } from './blobs.js';
import { requireIntegrityHeader, verifyIntegrityHeaders } from './checksums.js';
import { malformedXml } from './errors.js';
import { xmlResponse, type S3Request } from './http.js';
import { findObject } from './objects.js';
import { childNodes, childText, parseXmlBody } from './xml-input.js';

/**
 * DeleteObjects (`POST /bucket?delete`): up to 1000 keys in one XML document. Missing keys count
 * as deleted (the bucket is unversioned); `Quiet` leaves successes out of the answer.
 */
const MAX_KEYS = 1000;

export function deleteObjects(req: S3Request, ctx: RequestContext): RawHttpResponse {
  const bucket = requireBucket(ctx, req);
  requireIntegrityHeader(req.raw);
  verifyIntegrityHeaders(req.raw, req.raw.body);
  const doc = parseXmlBody(req.raw.body, 'Delete');
  const quiet = childText(doc, 'Quiet')?.trim().toLowerCase() === 'true';
  const entries = childNodes(doc, 'Object').map((node) => {
    const key = childText(node, 'Key');
    if (key === undefined) throw malformedXml();
    return { key, versionId: childText(node, 'VersionId')?.trim() };
  });
  if (entries.length === 0 || entries.length > MAX_KEYS) throw malformedXml();

  const deleted: { Key: string }[] = [];
  const errors: { Key: string; VersionId?: string; Code: string; Message: string }[] = [];
  for (const { key, versionId } of entries) {
    if (versionId !== undefined && versionId !== 'null') {
      errors.push({
        Key: key,
        VersionId: versionId,
        Code: 'NoSuchVersion',
        Message: 'The specified version does not exist.',
      });
      continue;
    }
    const object = findObject(bucket, key);
    if (object) {
      keyed.delete(bucket.objects, key);
      removeBlob(ctx.runtime, object.blob);
    }
    deleted.push({ Key: key });
  }
  return xmlResponse(ctx.requestId, 'DeleteResult', {
    '#flat:Deleted': quiet ? [] : deleted,
    '#flat:Error': errors,
  });
}
