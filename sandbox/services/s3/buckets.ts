import { findRegion } from '../../catalog/regions.js';
import { AwsError } from '../../core/errors.js';
import { keyed, type Keyed } from '../../core/keyed.js';
import type { RawHttpResponse, RequestContext } from '../../core/service.js';
import { requireBucket } from './access.js';
import { removeBlob } from './blobs.js';
import { requireIntegrityHeader, verifyIntegrityHeaders } from './checksums.js';
import { invalidArgument, malformedXml, notImplemented } from './errors.js';
import {
  compareKeys,
  decodeToken,
  emptyResponse,
  encodeToken,
  header,
  OWNER,
  xmlResponse,
  type S3Request,
} from './http.js';
import { assertValidBucketName } from './names.js';
import { allBuckets, peekBucket, s3State } from './state.js';
import { readTagSet, renderTagSet } from './tags.js';
import { childNode, childText, parseXmlBody } from './xml-input.js';

/** Bucket operations. Buckets share one global namespace; each remembers the region it lives in. */

export function listBuckets(req: S3Request, ctx: RequestContext): RawHttpResponse {
  const q = req.raw.query;
  const maxText = q.get('max-buckets');
  const max = maxText === null ? undefined : Number(maxText);
  if (max !== undefined && (!Number.isInteger(max) || max < 1 || max > 10000)) {
    throw invalidArgument('max-buckets must be an integer between 1 and 10000', 'max-buckets', maxText ?? undefined);
  }
  const prefix = q.get('prefix') ?? undefined;
  const regionFilter = q.get('bucket-region') ?? undefined;
  const token = q.get('continuation-token');
  let after: string | undefined;
  if (token !== null) {
    const decoded = decodeToken(token) as { after?: unknown } | undefined;
    if (typeof decoded?.after !== 'string')
      throw invalidArgument('The continuation token provided is incorrect', 'continuation-token', token);
    after = decoded.after;
  }
  const all = allBuckets(ctx.state)
    .filter(
      (b) =>
        (prefix === undefined || b.name.startsWith(prefix)) &&
        (regionFilter === undefined || b.region === regionFilter),
    )
    .filter((b) => after === undefined || compareKeys(b.name, after) > 0)
    .sort((a, b) => compareKeys(a.name, b.name));
  const page = max === undefined ? all : all.slice(0, max);
  const truncated = page.length < all.length;
  return xmlResponse(ctx.requestId, 'ListAllMyBucketsResult', {
    Owner: OWNER,
    Buckets: {
      '#flat:Bucket': page.map((b) => ({ Name: b.name, CreationDate: new Date(b.createdAt), BucketRegion: b.region })),
    },
    ContinuationToken: truncated ? encodeToken({ after: page[page.length - 1]!.name }) : undefined,
    Prefix: prefix,
  });
}

export function createBucket(req: S3Request, ctx: RequestContext): RawHttpResponse {
  assertValidBucketName(req.bucket);
  let constraint: string | undefined;
  let tags: Keyed<string> | undefined;
  if (req.raw.body.length > 0) {
    const config = parseXmlBody(req.raw.body, 'CreateBucketConfiguration');
    if (config.Location !== undefined || config.Bucket !== undefined)
      throw notImplemented('Directory buckets (CreateBucketConfiguration Location/Bucket)');
    constraint = childText(config, 'LocationConstraint')?.trim() || undefined;
    const tagList = childNode(config, 'Tags');
    if (tagList) tags = readTagSet(tagList);
  }
  if (header(req.raw, 'x-amz-bucket-object-lock-enabled')?.toLowerCase() === 'true')
    throw notImplemented('S3 Object Lock');

  if (constraint === undefined) {
    if (ctx.region !== 'us-east-1') {
      throw new AwsError(
        'IllegalLocationConstraintException',
        'The unspecified location constraint is incompatible for the region specific endpoint this request was sent to.',
        400,
      );
    }
  } else if (constraint === 'us-east-1' || !findRegion(constraint)) {
    throw new AwsError('InvalidLocationConstraint', 'The specified location-constraint is not valid', 400, {
      LocationConstraint: constraint,
    });
  } else if (constraint !== ctx.region) {
    throw new AwsError(
      'IllegalLocationConstraintException',
      `The ${constraint} location constraint is incompatible for the region specific endpoint this request was sent to.`,
      400,
    );
  }

  const region = constraint ?? 'us-east-1';
  const existing = peekBucket(ctx.state, req.bucket);
  const created = { Location: `/${req.bucket}`, 'x-amz-bucket-arn': `arn:aws:s3:::${req.bucket}` };
  if (existing) {
    // us-east-1 keeps S3's legacy answer: re-creating a bucket you own there succeeds and changes nothing.
    if (region === 'us-east-1' && existing.region === 'us-east-1') return emptyResponse(ctx.requestId, 200, created);
    throw new AwsError(
      'BucketAlreadyOwnedByYou',
      'Your previous request to create the named bucket succeeded and you already own it.',
      409,
      { BucketName: req.bucket },
    );
  }
  keyed.set(s3State(ctx.state).buckets, req.bucket, {
    name: req.bucket,
    region,
    createdAt: ctx.now(),
    ...(tags && keyed.size(tags) > 0 ? { tags } : {}),
    objects: {},
    uploads: {},
  });
  return emptyResponse(ctx.requestId, 200, created);
}

export function headBucket(req: S3Request, ctx: RequestContext): RawHttpResponse {
  const bucket = requireBucket(ctx, req);
  return emptyResponse(ctx.requestId, 200, {
    'x-amz-bucket-region': bucket.region,
    'x-amz-access-point-alias': 'false',
  });
}

/** Answered from any region: it is how clients find out where a bucket lives. */
export function getBucketLocation(req: S3Request, ctx: RequestContext): RawHttpResponse {
  const bucket = requireBucket(ctx, req, { anyRegion: true });
  return xmlResponse(ctx.requestId, 'LocationConstraint', bucket.region === 'us-east-1' ? '' : bucket.region);
}

export function deleteBucket(req: S3Request, ctx: RequestContext): RawHttpResponse {
  const bucket = requireBucket(ctx, req);
  if (keyed.keys(bucket.objects).length > 0) {
    throw new AwsError('BucketNotEmpty', 'The bucket you tried to delete is not empty', 409, {
      BucketName: bucket.name,
    });
  }
  // As on S3, unfinished multipart uploads do not keep a bucket alive: they go with it.
  keyed.delete(s3State(ctx.state).buckets, bucket.name);
  for (const upload of keyed.values(bucket.uploads)) {
    for (const part of keyed.values(upload.parts)) removeBlob(ctx.runtime, part.blob);
  }
  return emptyResponse(ctx.requestId, 204);
}

export function putBucketTagging(req: S3Request, ctx: RequestContext): RawHttpResponse {
  const bucket = requireBucket(ctx, req);
  requireIntegrityHeader(req.raw);
  verifyIntegrityHeaders(req.raw, req.raw.body);
  const tagging = parseXmlBody(req.raw.body, 'Tagging');
  const tagSet = childNode(tagging, 'TagSet');
  if (!tagSet) throw malformedXml();
  const tags = readTagSet(tagSet);
  if (keyed.size(tags) > 0) bucket.tags = tags;
  else delete bucket.tags;
  return emptyResponse(ctx.requestId, 204);
}

export function getBucketTagging(req: S3Request, ctx: RequestContext): RawHttpResponse {
  const bucket = requireBucket(ctx, req);
  if (!bucket.tags) throw new AwsError('NoSuchTagSet', 'The TagSet does not exist', 404, { BucketName: bucket.name });
  return xmlResponse(ctx.requestId, 'Tagging', { TagSet: renderTagSet(bucket.tags) });
}

export function deleteBucketTagging(req: S3Request, ctx: RequestContext): RawHttpResponse {
  const bucket = requireBucket(ctx, req);
  delete bucket.tags;
  return emptyResponse(ctx.requestId, 204);
}
