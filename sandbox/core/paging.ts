import type { AwsError } from './errors.js';

/**
 * Offset paging behind an opaque token, shared by every service whose lists are stable in order
 * (sorted, or in creation order). Services keep their own names (`NextToken`, `Marker`, …),
 * page-size rules and the error their API gives for a token it did not issue.
 */
export interface OffsetPage<T> {
  items: T[];
  /** Present when more items follow. */
  next?: string;
}

export function offsetPage<T>(
  items: T[],
  token: string | undefined,
  size: number | undefined,
  invalidToken: () => AwsError,
): OffsetPage<T> {
  const start = token === undefined ? 0 : decodeOffset(token, invalidToken);
  const slice = size === undefined ? items.slice(start) : items.slice(start, start + size);
  const end = start + slice.length;
  return end < items.length ? { items: slice, next: encodeOffset(end) } : { items: slice };
}

function encodeOffset(offset: number): string {
  return Buffer.from(JSON.stringify({ offset })).toString('base64url');
}

function decodeOffset(token: string, invalidToken: () => AwsError): number {
  try {
    const parsed = JSON.parse(Buffer.from(token, 'base64url').toString('utf8')) as { offset?: unknown };
    if (typeof parsed.offset === 'number' && Number.isInteger(parsed.offset) && parsed.offset >= 0)
      return parsed.offset;
  } catch {
    // not a token of ours: reported below
  }
  throw invalidToken();
}
