import { z } from 'zod';
import { SetAutoscalingInputSchema } from './schemas/autoscaling.js';
import { CreateClusterInputSchema, DeleteClusterInputSchema } from './schemas/clusters.js';
import { SetFeaturesInputSchema } from './schemas/features.js';
import {
  AddInstanceGroupInputSchema,
  DeleteInstanceGroupInputSchema,
  ScaleInstanceGroupInputSchema,
  UpdateInstanceGroupInputSchema,
} from './schemas/instance-groups.js';
import { ModelDownloadInputSchema } from './schemas/model-downloads.js';
import { DeepHealthCheckInputSchema, NodeActionInputSchema } from './schemas/nodes.js';
import { AddStorageInputSchema, RemoveStorageInputSchema } from './schemas/storage.js';

/**
 * Every durable operation kind, written once: kind → the schema of its input (what the journal
 * stores). Each capability declares its kinds' input schemas in `schemas/<capability>.ts`; this map
 * assembles them. From it follow the kind names (list filters, the MCP tools' enums), the type of
 * `start(kind, input)` (a wrong input for a kind does not compile) and the engine's check at start-up
 * that every kind here has exactly one registered workflow and every workflow a kind here.
 *
 * Adding an operation kind: its input schema in the capability's schema file, one line here, its
 * workflow (defineWorkflow in src/workflows/define.ts) in the capability's `workflows/`.
 */
export const OPERATION_KINDS = {
  'create-cluster': CreateClusterInputSchema,
  'delete-cluster': DeleteClusterInputSchema,
  'add-instance-group': AddInstanceGroupInputSchema,
  'scale-instance-group': ScaleInstanceGroupInputSchema,
  'update-instance-group': UpdateInstanceGroupInputSchema,
  'delete-instance-group': DeleteInstanceGroupInputSchema,
  'set-autoscaling': SetAutoscalingInputSchema,
  'set-features': SetFeaturesInputSchema,
  'reboot-nodes': NodeActionInputSchema,
  'replace-nodes': NodeActionInputSchema,
  'delete-nodes': NodeActionInputSchema,
  'deep-health-check': DeepHealthCheckInputSchema,
  'add-storage': AddStorageInputSchema,
  'remove-storage': RemoveStorageInputSchema,
  'model-download': ModelDownloadInputSchema,
} as const;

export type OperationKinds = typeof OPERATION_KINDS;
export type OperationKind = keyof OperationKinds;
/** kind → its input type (the schema's output), e.g. `OperationInputs['delete-cluster']`. */
export type OperationInputs = { [K in OperationKind]: z.output<OperationKinds[K]> };
export type InputOf<K extends OperationKind> = OperationInputs[K];

/** The kind names, in the map's order. */
export const OPERATION_KIND_NAMES = Object.keys(OPERATION_KINDS) as [OperationKind, ...OperationKind[]];

export const OperationKindSchema = z
  .enum(OPERATION_KIND_NAMES)
  .describe(`Operation kind: ${OPERATION_KIND_NAMES.join(', ')}.`);

export function isOperationKind(kind: string): kind is OperationKind {
  return Object.hasOwn(OPERATION_KINDS, kind);
}
