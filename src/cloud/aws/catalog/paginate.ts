import { awsCall } from '../errors.js';

/**
 * Collects every item of a paginated AWS listing (an SDK v3 paginator), mapping any failure to a
 * CloudError that keeps AWS's code, exactly as a single awsCall would.
 *
 * @example
 * const quotas = await collectPages('servicequotas', 'ListServiceQuotas',
 *   () => paginateListServiceQuotas({ client }, { ServiceCode: 'sagemaker' }), (p) => p.Quotas);
 */
export function collectPages<P, T>(
  service: string,
  operation: string,
  pages: () => AsyncIterable<P>,
  items: (page: P) => T[] | undefined,
): Promise<T[]> {
  return awsCall(service, operation, async () => {
    const all: T[] = [];
    for await (const page of pages()) all.push(...(items(page) ?? []));
    return all;
  });
}

/** Splits `list` into runs of at most `size` (AWS APIs cap how many names one call may take). */
export function chunks<T>(list: readonly T[], size: number): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < list.length; i += size) out.push(list.slice(i, i + size));
  return out;
}

/** Runs `work` over `items` with at most `limit` calls in flight, keeping the input order. */
export async function mapLimited<T, R>(
  items: readonly T[],
  limit: number,
  work: (item: T) => Promise<R>,
): Promise<R[]> {
  const results = new Array<R>(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const i = next++;
      results[i] = await work(items[i]!);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return results;
}
