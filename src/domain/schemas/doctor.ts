import { z } from 'zod';
import { ClusterRefSchema, InstanceTypeSchema, RegionSchema } from './common.js';

/**
 * `instantstart doctor` (issue 30 item 6): the read-only readiness of the account and Region the server acts in.
 * Each line is ok, missing (a create would fail) or warning (it may, or doctor could not tell), with the exact fix.
 */

/** An IAM user or role ARN (what SimulatePrincipalPolicy's PolicySourceArn takes). */
const PrincipalArnSchema = z
  .string()
  .regex(/^arn:aws[a-z-]*:iam::\d{12}:(role|user)\/[\w+=,.@/-]{1,512}$/, 'an IAM role or user ARN')
  .describe('Simulate this IAM role or user instead of the caller (e.g. the role the server will run as).');

export const DoctorQuerySchema = z
  .object({
    region: RegionSchema.optional(),
    instanceTypes: z
      .string()
      .max(400)
      .optional()
      .transform((s, ctx) => {
        const list = (s ?? '')
          .split(',')
          .map((t) => t.trim())
          .filter(Boolean);
        for (const t of list)
          if (!InstanceTypeSchema.safeParse(t).success) {
            ctx.addIssue({ code: 'custom', message: `'${t}' is not a HyperPod instance type (ml.<family>.<size>)` });
            return z.NEVER;
          }
        return [...new Set(list)];
      })
      .describe('Comma-separated HyperPod instance types whose quotas to check, e.g. ml.g5.8xlarge,ml.p5.48xlarge.'),
    principalArn: PrincipalArnSchema.optional(),
    cluster: ClusterRefSchema.optional().describe('An existing cluster whose add-ons and their dependencies to check.'),
  })
  .strict();
export type DoctorQuery = z.output<typeof DoctorQuerySchema>;

export const DoctorLineSchema = z.object({
  area: z.enum(['credentials', 'permissions', 'quotas', 'kubernetes', 'network', 'cluster']),
  status: z.enum(['ok', 'missing', 'warning']),
  title: z.string().describe('What was checked, in one line.'),
  detail: z.string().describe('What was found.'),
  fix: z.string().optional().describe('The exact fix: an IAM statement to add, a quota to request, …'),
  action: z.string().optional().describe('For a permission line: the IAM action denied.'),
  calls: z.array(z.string()).optional().describe('For a permission line: the AWS calls that need the action.'),
});
export type DoctorLine = z.infer<typeof DoctorLineSchema>;

export const DoctorReportSchema = z.object({
  ok: z.boolean().describe('Every line is ok.'),
  region: z.string(),
  accountId: z.string().optional(),
  callerArn: z.string().optional(),
  principalArn: z.string().optional().describe('The IAM user or role whose policies were simulated.'),
  lines: z.array(DoctorLineSchema),
});
export type DoctorReport = z.infer<typeof DoctorReportSchema>;
