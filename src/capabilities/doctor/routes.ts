import { DoctorQuerySchema, DoctorReportSchema } from '../../domain/schemas/doctor.js';
import type { RouteContext } from '../capability.js';
import { DOCTOR_PATHS } from './paths.js';
import type { DoctorService } from './service.js';

/** One GET: a readiness check reads and never acts. */
export function registerDoctorRoutes({ app, routes, service, region }: RouteContext<DoctorService>): void {
  routes.define(
    app,
    {
      method: 'GET',
      url: DOCTOR_PATHS.check,
      operationId: 'checkAccount',
      tags: ['doctor'],
      summary:
        "Is the account and Region ready for InstantStart: credentials, the product's permissions, quotas, versions",
      description:
        "Read-only. Who the credentials are; every IAM action of the product's policy simulated for the caller (IAM SimulatePrincipalPolicy; an assumed role is simulated as its role; `principalArn` simulates another role or user instead); the quotas of `instanceTypes`; the Region's EKS and HyperPod Kubernetes versions; Elastic IP headroom; with `cluster`, that cluster's managed features (failed, missing a role, or on without what they need). Each line ok, missing or warning with its fix.",
      query: DoctorQuerySchema,
      responses: { 200: { description: 'The readiness lines', schema: DoctorReportSchema } },
    },
    async ({ query }) => service().check(region(query.region), query),
  );
}
