import { AwsError } from '../../core/errors.js';

/**
 * General purpose bucket naming rules (S3 User Guide, "Bucket naming rules"): 3–63 characters of
 * lower-case letters, digits, dots and hyphens, starting and ending with a letter or digit, no
 * adjacent dots, not an IP address, and none of the prefixes and suffixes S3 reserves.
 */
const RESERVED_PREFIXES = ['xn--', 'sthree-', 'amzn-s3-demo-'];
const RESERVED_SUFFIXES = ['-s3alias', '--ol-s3', '.mrap', '--x-s3', '--table-s3'];

export function bucketNameProblem(name: string): string | undefined {
  if (name.length < 3 || name.length > 63) return 'must be between 3 and 63 characters long';
  if (!/^[a-z0-9.-]+$/.test(name))
    return 'can consist only of lowercase letters, numbers, periods (.), and hyphens (-)';
  if (!/^[a-z0-9]/.test(name) || !/[a-z0-9]$/.test(name)) return 'must begin and end with a letter or number';
  if (name.includes('..')) return 'must not contain two adjacent periods';
  if (/^\d{1,3}(\.\d{1,3}){3}$/.test(name)) return 'must not be formatted as an IP address';
  const prefix = RESERVED_PREFIXES.find((p) => name.startsWith(p));
  if (prefix) return `must not start with the reserved prefix '${prefix}'`;
  const suffix = RESERVED_SUFFIXES.find((s) => name.endsWith(s));
  if (suffix) return `must not end with the reserved suffix '${suffix}'`;
  return undefined;
}

export function assertValidBucketName(name: string): void {
  const problem = bucketNameProblem(name);
  if (problem)
    throw new AwsError('InvalidBucketName', `The specified bucket is not valid. Bucket names ${problem}.`, 400, {
      BucketName: name,
    });
}

/** Object keys are at most 1024 bytes of UTF-8. */
export function assertValidKey(key: string): void {
  if (Buffer.byteLength(key, 'utf8') > 1024) {
    throw new AwsError('KeyTooLongError', 'Your key is too long', 400, {
      Size: String(Buffer.byteLength(key, 'utf8')),
      MaxSizeAllowed: '1024',
    });
  }
}
