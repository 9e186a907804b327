import { DiagnosisSchema } from '../../domain/schemas/diagnostics.js';
import {
  ClusterCreationDiagnosisParamsSchema,
  ClusterCreationDiagnosisQuerySchema,
  NcclDiagnosisParamsSchema,
  NcclDiagnosisQuerySchema,
  NodeDiagnosisParamsSchema,
  NodeDiagnosisQuerySchema,
} from '../../domain/schemas/diagnostics-queries.js';
import type { RouteContext } from '../capability.js';
import { DIAGNOSTICS_PATHS } from './paths.js';
import type { DiagnosticsService } from './service.js';

const READ_ONLY_NOTE =
  'Read-only: it gathers evidence and answers suggested commands as text (mutating ones marked); it never runs one.';

/** GETs only: a diagnostic reads and never acts. */
export function registerDiagnosticsRoutes({ app, routes, service, region }: RouteContext<DiagnosticsService>): void {
  routes.define(
    app,
    {
      method: 'GET',
      url: DIAGNOSTICS_PATHS.clusterCreation,
      operationId: 'diagnoseClusterCreation',
      tags: ['diagnostics'],
      summary:
        "Why a cluster's create failed: the failed phase, its error and log, the cause with evidence, what was left behind",
      description: `The create-cluster operation named by operationId, else the cluster's newest. Causes told apart: quota, capacity, IAM trust or permission, subnet space, add-on × Kubernetes version, HyperPod's FailureMessage. ${READ_ONLY_NOTE}`,
      params: ClusterCreationDiagnosisParamsSchema,
      query: ClusterCreationDiagnosisQuerySchema,
      responses: { 200: { description: 'The diagnosis', schema: DiagnosisSchema } },
    },
    async ({ params, query }) => service().clusterCreation(region(query.region), params.name, query.operationId),
  );

  routes.define(
    app,
    {
      method: 'GET',
      url: DIAGNOSTICS_PATHS.node,
      operationId: 'diagnoseNode',
      tags: ['diagnostics'],
      summary: 'A node’s health and where it stands on investigate → reboot → replace, and why',
      description: `SageMaker's instance status, HyperPod's health and fault labels, the deep health check, the Kubernetes conditions, recent events, its pods and the node actions already run on it. ${READ_ONLY_NOTE}`,
      params: NodeDiagnosisParamsSchema,
      query: NodeDiagnosisQuerySchema,
      responses: { 200: { description: 'The diagnosis', schema: DiagnosisSchema } },
    },
    async ({ params, query }) => service().node(region(query.region), params.name, params.node),
  );

  routes.define(
    app,
    {
      method: 'GET',
      url: DIAGNOSTICS_PATHS.nccl,
      operationId: 'diagnoseNccl',
      tags: ['diagnostics'],
      summary:
        'Why a training job’s NCCL traffic stops or crawls: timeouts, EFA settings and devices, security group, zones',
      description: `The training job's ranks (a HyperPodPyTorchJob's pods, or a RayJob's Ray cluster pods with GPUs): the last 200 lines of each rank's log (and of the run before a restart), its FI_*/NCCL_* settings and EFA/GPU requests against the instance type's facts, the EFA devices its nodes advertise, the node security group's self rule, and the ranks' zones and group. ${READ_ONLY_NOTE}`,
      params: NcclDiagnosisParamsSchema,
      query: NcclDiagnosisQuerySchema,
      responses: { 200: { description: 'The diagnosis', schema: DiagnosisSchema } },
    },
    async ({ params, query }) => service().nccl(region(query.region), params.name, params.namespace, params.job),
  );
}
