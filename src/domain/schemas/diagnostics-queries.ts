import { z } from 'zod';
import { ClusterRefSchema, RegionSchema } from './common.js';
import { NodeIdSchema } from './nodes.js';
import { StorageNamespaceSchema } from './storage.js';
import { TrainingJobNameSchema } from './training.js';

// What the diagnostics' GETs take (src/capabilities/diagnostics/paths.ts); the answer is DiagnosisSchema (diagnostics.ts).

export const ClusterCreationDiagnosisParamsSchema = z.object({ name: ClusterRefSchema });

export const ClusterCreationDiagnosisQuerySchema = z
  .object({
    region: RegionSchema.optional().describe("AWS Region of the cluster; defaults to the server's region."),
    operationId: z
      .string()
      .min(1)
      .max(64)
      .regex(/^[A-Za-z0-9_-]+$/, 'must be an operation id')
      .optional()
      .describe("The create-cluster operation to diagnose; default: the cluster's newest create-cluster operation."),
  })
  .strict();
export type ClusterCreationDiagnosisQuery = z.output<typeof ClusterCreationDiagnosisQuerySchema>;

export const NodeDiagnosisParamsSchema = z.object({ name: ClusterRefSchema, node: NodeIdSchema });

export const NodeDiagnosisQuerySchema = z
  .object({ region: RegionSchema.optional().describe("AWS Region of the cluster; defaults to the server's region.") })
  .strict();

export const NcclDiagnosisParamsSchema = z
  .object({ name: ClusterRefSchema, namespace: StorageNamespaceSchema, job: TrainingJobNameSchema })
  .strict();

export const NcclDiagnosisQuerySchema = NodeDiagnosisQuerySchema;
