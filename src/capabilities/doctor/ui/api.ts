import type { DoctorReport } from '@domain/schemas/doctor.js';
import { rest } from '@kit/api/rest.js';
import { useQuery } from '@tanstack/react-query';
import { DOCTOR_PATHS } from '../paths.js';

/** The doctor capability's one REST call: the readiness report (a GET; it changes nothing). */
export const checkAccount = (query: { instanceTypes?: string; principalArn?: string }) =>
  rest(DOCTOR_PATHS.check).get<DoctorReport>({
    instanceTypes: query.instanceTypes || undefined,
    principalArn: query.principalArn || undefined,
  });

/** The report for what the user asked; read on opening and on "Check again", never polled (it asks IAM ~50 times). */
export function useReadiness(query: { instanceTypes?: string; principalArn?: string }) {
  return useQuery({
    queryKey: ['doctor', query.instanceTypes ?? '', query.principalArn ?? ''],
    queryFn: () => checkAccount(query),
    staleTime: 60_000,
    gcTime: 60_000,
    refetchOnWindowFocus: false,
    retry: false,
  });
}
