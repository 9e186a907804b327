import { z } from 'zod';

/**
 * What every diagnostic answers (issue 29): findings with their evidence and a plain explanation, the commands a person
 * (or an agent, after asking) could run as text — never run — and where the subject stands on investigate → reboot →
 * replace. Diagnostics only read: they are built from read ports, and their REST routes are GETs.
 */

export const FindingSeveritySchema = z
  .enum(['critical', 'warning', 'info'])
  .describe('critical: the cause of the failure; warning: likely to cause one; info: checked and fine, or context.');

export const EvidenceSchema = z.object({
  source: z
    .string()
    .describe(
      'Where it was read: an AWS call (`sagemaker:DescribeClusterNode`), a Kubernetes read (`events of pod default/x`), an operation log (`operation op-… phase hyperpod`), a pod log (`rank 3 log`).',
    ),
  detail: z.string().describe('What it says, quoted or summarised in one line.'),
});

export const FindingSchema = z.object({
  severity: FindingSeveritySchema,
  /** A stable id of the kind of finding, for tests and agents (`quota-exceeded`, `nccl-timeout`, `efa-not-allocatable`). */
  code: z.string().describe('The kind of finding, stable across runs (e.g. quota-exceeded, nccl-timeout).'),
  title: z.string().describe('One line: what is wrong (or what was checked).'),
  explanation: z.string().describe('Why it matters and what causes it, in plain words.'),
  evidence: z.array(EvidenceSchema),
});

export const SuggestedCommandSchema = z.object({
  description: z.string().describe('What running it would do, and when to.'),
  kind: z.enum(['mcp', 'rest', 'aws', 'kubectl']).describe('How it is run.'),
  command: z
    .string()
    .describe(
      'The command as text: an MCP tool call `reboot_node {"cluster":"c","node":"i-…"}`, a REST call `POST /api/v1/…`, or an aws/kubectl command line. Never run by the diagnostic.',
    ),
  mutating: z.boolean().describe('Whether it changes anything (ask the user before running it).'),
});

export const EscalationStageSchema = z.enum(['investigate', 'reboot', 'replace', 'none']);

export const DiagnosisSchema = z.object({
  subject: z.object({
    kind: z.enum(['cluster-creation', 'node', 'nccl']),
    cluster: z.string(),
    region: z.string(),
    /** The operation, node id or namespace/job the diagnosis is about. */
    id: z.string().optional(),
  }),
  summary: z.string().describe('One or two sentences: the cause when found, else what was ruled out.'),
  findings: z.array(FindingSchema).describe('Most severe first.'),
  suggestions: z.array(SuggestedCommandSchema).describe('What to do next, as text; mutating ones need the user’s yes.'),
  escalation: z
    .object({
      stage: EscalationStageSchema.describe(
        'Where the subject stands on investigate → reboot → replace (node health); none when it does not apply.',
      ),
      next: EscalationStageSchema.optional().describe('The next step if this one does not help.'),
      why: z.string(),
    })
    .optional(),
  readOnly: z.literal(true).describe('Diagnostics never change anything.'),
  gatheredAt: z.string().describe('When the evidence was read (RFC 3339).'),
});

export type Finding = z.infer<typeof FindingSchema>;
export type SuggestedCommand = z.infer<typeof SuggestedCommandSchema>;
export type Diagnosis = z.infer<typeof DiagnosisSchema>;
