import { badRequest } from './errors.js';

/** Opaque NextTokens (base64 of the position), validated on the way back in. */
export function pageOf<T>(items: T[], maxResults: number | undefined, nextToken: string | undefined): { page: T[]; nextToken?: string } {
  let start = 0;
  if (nextToken !== undefined) {
    let decoded: unknown;
    try {
      decoded = JSON.parse(Buffer.from(nextToken, 'base64').toString('utf8'));
    } catch {
      decoded = undefined;
    }
    const offset = (decoded as { offset?: unknown } | undefined)?.offset;
    if (typeof offset !== 'number' || !Number.isInteger(offset) || offset < 0) throw badRequest('The NextToken value is not valid.');
    start = offset;
  }
  const end = maxResults === undefined ? items.length : start + maxResults;
  const page = items.slice(start, end);
  return end < items.length ? { page, nextToken: Buffer.from(JSON.stringify({ offset: end })).toString('base64') } : { page };
}
