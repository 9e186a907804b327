import { offsetPage } from '../../core/paging.js';
import { badRequest } from './errors.js';

/** FSx paging: opaque NextTokens; without MaxResults everything is returned. */
export function pageOf<T>(
  items: T[],
  maxResults: number | undefined,
  nextToken: string | undefined,
): { page: T[]; nextToken?: string } {
  const { items: page, next } = offsetPage(items, nextToken, maxResults, () =>
    badRequest('The NextToken value is not valid.'),
  );
  return next ? { page, nextToken: next } : { page };
}
