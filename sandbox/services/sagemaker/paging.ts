import { offsetPage } from '../../core/paging.js';
import { validation } from './errors.js';

/**
 * SageMaker list paging: `MaxResults` and an opaque `NextToken`; a token the sandbox did not issue
 * is a ValidationException.
 */
export function page<T>(
  items: T[],
  input: { MaxResults?: number; NextToken?: string },
  defaultMax: number,
): { items: T[]; NextToken?: string } {
  const { items: slice, next } = offsetPage(items, input.NextToken, input.MaxResults ?? defaultMax, () =>
    validation('Invalid pagination token: the NextToken was not issued by this operation.'),
  );
  return { items: slice, ...(next ? { NextToken: next } : {}) };
}

/** Sorts by a key in the requested order (SageMaker's default is Ascending). */
export function sorted<T>(
  items: T[],
  key: (item: T) => string | number,
  order: 'Ascending' | 'Descending' | undefined,
): T[] {
  const dir = order === 'Descending' ? -1 : 1;
  return [...items].sort((a, b) => {
    const ka = key(a);
    const kb = key(b);
    return ka < kb ? -dir : ka > kb ? dir : 0;
  });
}
