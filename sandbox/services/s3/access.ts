import { AwsError } from '../../core/errors.js';
import type { RequestContext } from '../../core/service.js';
import { noSuchBucket } from './errors.js';
import { header, type S3Request } from './http.js';
import { peekBucket, type StoredBucket } from './state.js';

/**
 * A bucket addressed through another region's endpoint: S3 answers 301 PermanentRedirect and names
 * the bucket's region in `x-amz-bucket-region`, which the AWS CLI uses to re-sign and retry.
 */
export class WrongRegionError extends AwsError {
  constructor(
    readonly bucket: string,
    readonly bucketRegion: string,
  ) {
    super(
      'PermanentRedirect',
      'The bucket you are attempting to access must be addressed using the specified endpoint. Please send all future requests to this endpoint.',
      301,
      { Endpoint: `s3.${bucketRegion}.amazonaws.com`, Bucket: bucket },
      { 'x-amz-bucket-region': bucketRegion },
    );
  }
}

/**
 * The request's bucket, after the checks every bucket-scoped operation makes: it exists, it is
 * owned by the expected account (`x-amz-expected-bucket-owner`), and it lives in the signing region.
 */
export function requireBucket(
  ctx: RequestContext,
  req: S3Request,
  options: { anyRegion?: boolean } = {},
): StoredBucket {
  const bucket = peekBucket(ctx.state, req.bucket);
  if (!bucket) throw noSuchBucket(req.bucket);
  const expectedOwner = header(req.raw, 'x-amz-expected-bucket-owner');
  if (expectedOwner !== undefined && expectedOwner !== ctx.accountId)
    throw new AwsError('AccessDenied', 'Access Denied', 403);
  if (!options.anyRegion && bucket.region !== ctx.region) throw new WrongRegionError(bucket.name, bucket.region);
  return bucket;
}
