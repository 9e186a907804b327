import { z } from 'zod';
import type { ValidationStyle } from '../../core/validation.js';

/** Service Quotas' request members with its model's constraints; constraint failures are IllegalArgumentException. */
export const QUOTAS_VALIDATION: ValidationStyle = { style: 'coral', code: 'IllegalArgumentException' };

export const serviceCode = z
  .string()
  .min(1)
  .max(63)
  .regex(/^[a-zA-Z][a-zA-Z0-9-]{1,63}$/);
export const quotaCode = z
  .string()
  .min(1)
  .max(128)
  .regex(/^[a-zA-Z][a-zA-Z0-9-]{1,128}$/);
const nextToken = z
  .string()
  .min(0)
  .max(2048)
  .regex(/^[a-zA-Z0-9/+]*={0,2}$/);
const maxResults = z.number().int().min(1).max(100);
export const REQUEST_STATUSES = [
  'PENDING',
  'CASE_OPENED',
  'APPROVED',
  'DENIED',
  'CASE_CLOSED',
  'NOT_APPROVED',
  'INVALID_REQUEST',
] as const;
const level = z.enum(['ACCOUNT', 'RESOURCE', 'ALL']);

export const listQuotasSchema = z.object({
  ServiceCode: serviceCode,
  NextToken: nextToken.optional(),
  MaxResults: maxResults.optional(),
  QuotaCode: quotaCode.optional(),
  QuotaAppliedAtLevel: level.optional(),
});

export const listDefaultsSchema = z.object({
  ServiceCode: serviceCode,
  NextToken: nextToken.optional(),
  MaxResults: maxResults.optional(),
});

export const getQuotaSchema = z.object({
  ServiceCode: serviceCode,
  QuotaCode: quotaCode,
  ContextId: z.string().optional(),
});

export const requestIncreaseSchema = z.object({
  ServiceCode: serviceCode,
  QuotaCode: quotaCode,
  DesiredValue: z.number().min(0).max(10_000_000_000),
  ContextId: z.string().optional(),
  SupportCaseAllowed: z.boolean().optional(),
});

export const getRequestSchema = z.object({
  RequestId: z
    .string()
    .min(1)
    .max(128)
    .regex(/^[0-9a-zA-Z][a-zA-Z0-9-]{1,128}$/),
});

export const historySchema = z.object({
  ServiceCode: serviceCode.optional(),
  Status: z.enum(REQUEST_STATUSES).optional(),
  NextToken: nextToken.optional(),
  MaxResults: maxResults.optional(),
  QuotaRequestedAtLevel: level.optional(),
});

export const historyByQuotaSchema = historySchema.extend({ ServiceCode: serviceCode, QuotaCode: quotaCode });
