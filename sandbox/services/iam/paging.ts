import { invalidInput } from './errors.js';

/**
 * IAM's Marker/MaxItems paging: `IsTruncated` says whether there is more, and `Marker` (opaque)
 * resumes after the last item returned. Default page size 100, as IAM's.
 */
export function pageOf<T>(items: T[], req: { Marker?: string; MaxItems?: number }): { page: T[]; IsTruncated: boolean; Marker?: string } {
  const start = req.Marker === undefined ? 0 : decode(req.Marker);
  const size = req.MaxItems ?? 100;
  const page = items.slice(start, start + size);
  const end = start + page.length;
  const truncated = end < items.length;
  return { page, IsTruncated: truncated, ...(truncated ? { Marker: Buffer.from(`iam:${end}`).toString('base64') } : {}) };
}

function decode(marker: string): number {
  const m = /^iam:(\d+)$/.exec(Buffer.from(marker, 'base64').toString('utf8'));
  if (!m) throw invalidInput('Invalid Marker: it was not returned by a previous call of this operation.');
  return Number(m[1]);
}
