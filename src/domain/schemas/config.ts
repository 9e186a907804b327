import { z } from 'zod';
import { CloudKindSchema } from './operations.js';

/** Why the server cannot act on its cloud right now, and what the person at the keyboard should do. */
export const CloudAccessProblemSchema = z.object({
  code: z
    .enum(['NoCredentials', 'CredentialsRejected', 'CloudUnreachable', 'DataDirectoryInUse'])
    .describe(
      "NoCredentials: the default credential chain found none; CredentialsRejected: AWS refused them (expired, wrong, no sts:GetCallerIdentity); CloudUnreachable: STS did not answer; DataDirectoryInUse: another server uses this account's data directory.",
    ),
  message: z.string().describe("What went wrong, with the SDK's or AWS's own words."),
  remedy: z
    .string()
    .describe('What to do about it (a profile, `aws sso login`, access keys, a role), then Check again.'),
});
export type CloudAccessProblem = z.infer<typeof CloudAccessProblemSchema>;

export const CloudAccessSchema = z.object({
  ready: z
    .boolean()
    .describe(
      "True once the server knows its account (STS GetCallerIdentity) and has opened that account's data directory.",
    ),
  checkedAt: z.string().describe('When the identity was last checked (ISO-8601).'),
  problem: CloudAccessProblemSchema.optional().describe('Present when not ready.'),
});
export type CloudAccess = z.infer<typeof CloudAccessSchema>;

export const ServerConfigViewSchema = z.object({
  cloud: CloudKindSchema,
  region: z.string().describe('The default Region of every call that omits one.'),
  accountId: z
    .string()
    .nullable()
    .describe('The AWS account the server acts in (000000000000 on the sandbox); null until its credentials work.'),
  version: z.string(),
  clockSpeed: z
    .number()
    .positive()
    .describe(
      "How many times faster than real time the cloud's clock runs: 1 on AWS; the sandbox's speed (`--sandbox-speed`, default 20) on the sandbox, whose event and launch times therefore run ahead of the wall clock.",
    ),
  cloudTime: z
    .string()
    .describe(
      "The cloud's own time when this answer was made (ISO-8601): the sandbox's clock, which runs `clockSpeed` times faster than the wall clock and may be far ahead of it; on AWS the server's clock. Ages of what the cloud timestamps (jobs, nodes, events) are measured against it, never against your wall clock.",
    ),
  cloudAccess: CloudAccessSchema,
});
export type ServerConfigView = z.infer<typeof ServerConfigViewSchema>;
