import { offsetPage } from '../../core/paging.js';
import { invalidInput } from './errors.js';

/**
 * IAM's Marker/MaxItems paging: `IsTruncated` says whether there is more, and `Marker` (opaque)
 * resumes after the last item returned. Default page size 100, as IAM's.
 */
export function pageOf<T>(
  items: T[],
  req: { Marker?: string; MaxItems?: number },
): { page: T[]; IsTruncated: boolean; Marker?: string } {
  const { items: page, next } = offsetPage(items, req.Marker, req.MaxItems ?? 100, () =>
    invalidInput('Invalid Marker: it was not returned by a previous call of this operation.'),
  );
  return { page, IsTruncated: next !== undefined, ...(next ? { Marker: next } : {}) };
}
