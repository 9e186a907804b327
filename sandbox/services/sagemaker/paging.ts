import { validation } from './errors.js';

/**
 * SageMaker list paging: `MaxResults` and an opaque `NextToken`. The token carries the position
 * after the last item returned; a token the sandbox did not issue is a ValidationException.
 */
export function page<T>(items: T[], input: { MaxResults?: number; NextToken?: string }, defaultMax: number): { items: T[]; NextToken?: string } {
  const start = input.NextToken ? decode(input.NextToken) : 0;
  const size = input.MaxResults ?? defaultMax;
  const slice = items.slice(start, start + size);
  const end = start + slice.length;
  return { items: slice, ...(end < items.length ? { NextToken: encode(end) } : {}) };
}

function encode(offset: number): string {
  return Buffer.from(JSON.stringify({ offset })).toString('base64url');
}

function decode(token: string): number {
  try {
    const parsed = JSON.parse(Buffer.from(token, 'base64url').toString('utf8')) as { offset?: unknown };
    if (typeof parsed.offset === 'number' && Number.isInteger(parsed.offset) && parsed.offset >= 0) return parsed.offset;
  } catch {
    // fall through to the error below
  }
  throw validation('Invalid pagination token: the NextToken was not issued by this operation.');
}

/** Sorts by a key in the requested order (SageMaker's default is Ascending). */
export function sorted<T>(items: T[], key: (item: T) => string | number, order: 'Ascending' | 'Descending' | undefined): T[] {
  const dir = order === 'Descending' ? -1 : 1;
  return [...items].sort((a, b) => {
    const ka = key(a);
    const kb = key(b);
    return ka < kb ? -dir : ka > kb ? dir : 0;
  });
}
