import { isTerminal, keys, usePollInterval } from '@kit/api/queries.js';
import { rest } from '@kit/api/rest.js';
import type { Accepted, EventsPage, OperationView } from '@kit/api/types.js';
import { useQuery } from '@tanstack/react-query';
import { OPERATION_PATHS } from '../paths.js';

/**
 * The operations capability's REST calls and queries (its paths are the capability's paths.ts). The operation query
 * keys are the kit's (`keys.operation`): the live channel and every "start" button write into them.
 */

export const listOperations = (query: { status?: string; kind?: string; target?: string; limit?: number } = {}) =>
  rest(OPERATION_PATHS.list)
    .get<{ operations: OperationView[] }>(query)
    .then((r) => r.operations);
export const getOperation = (id: string) => rest(OPERATION_PATHS.one, { id }).get<OperationView>();
export const getOperationEvents = (id: string, after: number, limit = 1000) =>
  rest(OPERATION_PATHS.events, { id }).get<EventsPage>({ after, limit });
export const retryPhase = (id: string, phase: string) =>
  rest(OPERATION_PATHS.retryPhase, { id, phase }).post<Accepted>();
export const cancelOperation = (id: string) => rest(OPERATION_PATHS.cancel, { id }).post<Accepted>();

export function useOperations() {
  const poll = usePollInterval();
  return useQuery({
    queryKey: keys.operationList,
    queryFn: () => listOperations({ limit: 100 }),
    refetchInterval: poll,
  });
}
export function useOperation(id: string) {
  const poll = usePollInterval();
  return useQuery({
    queryKey: keys.operation(id),
    queryFn: () => getOperation(id),
    refetchInterval: (q) => (q.state.data && isTerminal(q.state.data) ? false : poll),
  });
}
