import { z } from 'zod';
import { OperationStatusSchema } from './operations.js';

/**
 * The audit timeline (issue 30, docs/AUDIT.md): one event per mutating request through any face, with who made it,
 * what it asked, what it sent to AWS and Kubernetes, and how it ended.
 */

/** Which face a request came through: the client's own claim (a header), beside the token that proves who it is. */
export const AuditFaceSchema = z.enum(['ui', 'rest', 'mcp']).describe('The face: ui, rest or mcp.');
export type AuditFace = z.infer<typeof AuditFaceSchema>;

/** accepted: answered 2xx; refused: 4xx (nothing changed); failed: 5xx. */
export const AuditOutcomeSchema = z.enum(['accepted', 'refused', 'failed']).describe('How the request was answered.');
export type AuditOutcome = z.infer<typeof AuditOutcomeSchema>;

export const AuditActorSchema = z.object({
  kind: z
    .enum(['token', 'local', 'anonymous'])
    .describe('token: an API token; local: a loopback server without tokens; anonymous: no valid token.'),
  tokenId: z
    .string()
    .optional()
    .describe('A stable, non-secret id of the token (the first 12 hex digits of its SHA-256), never the token.'),
  scope: z.enum(['read', 'operate', 'admin']).optional().describe("The token's scope."),
});
export type AuditActor = z.infer<typeof AuditActorSchema>;

export const AuditAwsCallSchema = z.object({
  service: z.string(),
  operation: z.string().describe('The AWS API operation, e.g. CreateCluster.'),
  region: z.string(),
  requestId: z.string().optional().describe("AWS's request id of the call (absent when the call got no answer)."),
  at: z.string(),
  error: z.string().optional().describe('The error code when AWS refused the call.'),
});
export type AuditAwsCall = z.infer<typeof AuditAwsCallSchema>;

export const AuditKubeRefSchema = z.object({
  verb: z.enum(['apply', 'patch', 'scale', 'delete']),
  cluster: z.string().describe('The EKS cluster whose API received the write.'),
  apiVersion: z.string(),
  kind: z.string(),
  namespace: z.string().optional(),
  name: z.string(),
  at: z.string(),
});
export type AuditKubeRef = z.infer<typeof AuditKubeRefSchema>;

export const AuditEventSchema = z.object({
  id: z.string(),
  at: z.string().describe('When the request arrived (ISO 8601).'),
  actor: AuditActorSchema,
  face: AuditFaceSchema,
  client: z.string().optional().describe("The MCP client's name, else the User-Agent, as the client sent it."),
  method: z.string(),
  route: z.string().describe('The route pattern, e.g. POST /api/v1/clusters/{name}/nodes/reboot.'),
  action: z.string().describe("The route's action (its OpenAPI operationId), e.g. rebootNodes."),
  target: z.string().describe("What it acted on: the operation's target, else the request path."),
  input: z.unknown().optional().describe('The validated parameters, query and body, with every secret value removed.'),
  inputDigest: z.string().optional().describe('SHA-256 of that secret-free input in canonical JSON.'),
  status: z.number().int().describe('The HTTP status answered.'),
  outcome: AuditOutcomeSchema,
  replay: z.boolean().describe('True when it was a repeat answered from its Idempotency-Key: it changed nothing.'),
  error: z.string().optional().describe('The problem code of a refusal.'),
  operationId: z.string().optional(),
  operationKind: z.string().optional(),
  operationStatus: z
    .union([OperationStatusSchema, z.literal('unknown')])
    .optional()
    .describe('The operation as it is now (read from the operation; unknown once retention removed it).'),
  awsCalls: z.array(AuditAwsCallSchema).describe('Each mutating AWS call it made, with its request id.'),
  kubeRefs: z.array(AuditKubeRefSchema).describe('Each Kubernetes object it applied, patched or deleted.'),
});
export type AuditEvent = z.infer<typeof AuditEventSchema>;

export const ListAuditQuerySchema = z
  .object({
    since: z.string().datetime({ offset: true }).optional().describe('Only events at or after this time.'),
    until: z.string().datetime({ offset: true }).optional().describe('Only events before this time.'),
    face: AuditFaceSchema.optional(),
    kind: z
      .string()
      .max(64)
      .regex(/^[A-Za-z0-9-]+$/, 'must be an action (rebootNodes) or operation kind (create-cluster)')
      .optional()
      .describe('Only events of this action or operation kind.'),
    target: z.string().max(256).optional().describe('Only events whose target contains this text.'),
    outcome: AuditOutcomeSchema.optional(),
    limit: z.coerce.number().int().min(1).max(500).default(50).describe('Events per page, newest first.'),
    nextToken: z
      .string()
      .max(64)
      .regex(/^[0-9]+$/, 'must be the nextToken of an earlier page')
      .optional()
      .describe('The nextToken of the previous page.'),
  })
  .strict();
export type ListAuditQuery = z.infer<typeof ListAuditQuerySchema>;

export const AuditPageSchema = z.object({
  events: z.array(AuditEventSchema),
  nextToken: z.string().optional().describe('Pass it back for the next (older) page; absent on the last.'),
});
export type AuditPage = z.infer<typeof AuditPageSchema>;

/** What the export takes: the list's filters, without paging (it streams every matching event). */
export const ExportAuditQuerySchema = ListAuditQuerySchema.omit({ limit: true, nextToken: true }).strict();
export type ExportAuditQuery = z.infer<typeof ExportAuditQuerySchema>;
