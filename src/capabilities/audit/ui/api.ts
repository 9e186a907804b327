import { apiToken } from '@kit/api/client.js';
import { rest } from '@kit/api/rest.js';
import type { AuditEvent, AuditPage } from '@domain/schemas/audit.js';
import { useInfiniteQuery } from '@tanstack/react-query';
import { AUDIT_PATHS } from '../paths.js';

/** The Audit page's filters, as the REST list takes them (ListAuditQuerySchema). */
export interface AuditFilters {
  face?: AuditEvent['face'];
  outcome?: AuditEvent['outcome'];
  kind?: string;
  target?: string;
}

export const listAudit = (filters: AuditFilters, nextToken?: string) =>
  rest(AUDIT_PATHS.list).get<AuditPage>({ ...filters, limit: 50, nextToken });

/** The timeline, newest first, a page at a time ("Load older" asks for the next). */
export function useAuditEvents(filters: AuditFilters) {
  return useInfiniteQuery({
    queryKey: ['audit', filters],
    queryFn: ({ pageParam }) => listAudit(filters, pageParam),
    initialPageParam: undefined as string | undefined,
    getNextPageParam: (last) => last.nextToken,
  });
}

/** Downloads the JSON-lines export of the filtered timeline (with the token, which a plain link could not send). */
export async function downloadAuditExport(filters: AuditFilters): Promise<void> {
  const url = rest(AUDIT_PATHS.export).url({ ...filters });
  const token = apiToken();
  const res = await fetch(url, { headers: token ? { authorization: `Bearer ${token}` } : {} });
  if (!res.ok) throw new Error(`The export failed: ${res.status} ${res.statusText}`);
  const link = document.createElement('a');
  link.href = URL.createObjectURL(await res.blob());
  link.download = 'audit.jsonl';
  link.click();
  URL.revokeObjectURL(link.href);
}
