import { defineCapability } from '../capability.js';
import { readPortOf } from './read-port.js';
import { registerDoctorRoutes } from './routes.js';
import { DoctorService } from './service.js';
import { registerCheckAccountTool } from './tools/check-account.js';

/**
 * `instantstart doctor` (issue 30): the read-only readiness of the account and Region — credentials, the product's
 * IAM permissions simulated for the caller, quotas, Kubernetes versions, Elastic IP headroom. Built from its read
 * port only (read-port.ts): one GET, one read-only tool.
 */
export const doctor = defineCapability<DoctorService>({
  name: 'doctor',
  service: (deps) => new DoctorService(readPortOf(deps)),
  routes: registerDoctorRoutes,
  tools: [registerCheckAccountTool],
});

export type { DoctorReadPort } from './read-port.js';
export type { DoctorService };
export { DOCTOR_PATHS } from './paths.js';
