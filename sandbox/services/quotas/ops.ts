import { keyed } from '../../core/keyed.js';
import { offsetPage } from '../../core/paging.js';
import { AwsError } from '../../core/errors.js';
import { hexId, unitHash } from '../../core/ids.js';
import type { OperationHandler, RequestContext } from '../../core/service.js';
import { validateInput } from '../../core/validation.js';
import {
  findQuotaDefinition,
  knownServiceCodes,
  listQuotaDefinitions,
  type QuotaDefinition,
} from '../../catalog/quotas.js';
import {
  getQuotaSchema,
  getRequestSchema,
  historyByQuotaSchema,
  historySchema,
  listDefaultsSchema,
  listQuotasSchema,
  QUOTAS_VALIDATION,
  requestIncreaseSchema,
} from './schemas.js';
import { peekQuotaRegion, quotaRegion, type StoredQuotaRequest } from './state.js';

const noSuchResource = (message: string) => new AwsError('NoSuchResourceException', message, 400);
const MINUTE = 60_000;

function requireService(serviceCode: string): void {
  if (!knownServiceCodes().includes(serviceCode)) {
    throw noSuchResource(
      `The request failed because the specified service does not exist. Service code: ${serviceCode}`,
    );
  }
}

function requireQuota(serviceCode: string, quotaCode: string): QuotaDefinition {
  requireService(serviceCode);
  const def = findQuotaDefinition(serviceCode, quotaCode);
  if (!def)
    throw noSuchResource(`The request failed because the specified quota does not exist. Quota code: ${quotaCode}`);
  return def;
}

const quotaArn = (ctx: RequestContext, def: QuotaDefinition) =>
  `arn:aws:servicequotas:${ctx.region}:${ctx.accountId}:${def.serviceCode}/${def.quotaCode}`;

function renderQuota(ctx: RequestContext, def: QuotaDefinition, value: number) {
  return {
    ServiceCode: def.serviceCode,
    ServiceName: def.serviceName,
    QuotaArn: quotaArn(ctx, def),
    QuotaCode: def.quotaCode,
    QuotaName: def.quotaName,
    Value: value,
    Unit: def.unit,
    Adjustable: def.adjustable,
    GlobalQuota: false,
    QuotaAppliedAtLevel: 'ACCOUNT',
    Description: def.description,
  };
}

const currentValue = (ctx: RequestContext, def: QuotaDefinition) =>
  keyed.get(peekQuotaRegion(ctx.state, ctx.region)?.applied, def.quotaCode) ?? def.defaultValue;

/** Opaque tokens; one the sandbox did not issue is InvalidPaginationTokenException. */
function page<T>(items: T[], req: { NextToken?: string; MaxResults?: number }) {
  const { items: slice, next } = offsetPage(
    items,
    req.NextToken,
    req.MaxResults ?? 100,
    () => new AwsError('InvalidPaginationTokenException', 'Invalid pagination token.', 400),
  );
  return { slice, NextToken: next };
}

const listServiceQuotas: OperationHandler = (input, ctx) => {
  const req = validateInput(listQuotasSchema, input, QUOTAS_VALIDATION);
  requireService(req.ServiceCode);
  if (req.QuotaCode !== undefined) requireQuota(req.ServiceCode, req.QuotaCode);
  const defs = listQuotaDefinitions(req.ServiceCode).filter(
    (d) => req.QuotaCode === undefined || d.quotaCode === req.QuotaCode,
  );
  const { slice, NextToken } = page(defs, req);
  return { Quotas: slice.map((d) => renderQuota(ctx, d, currentValue(ctx, d))), NextToken };
};

const listAWSDefaultServiceQuotas: OperationHandler = (input, ctx) => {
  const req = validateInput(listDefaultsSchema, input, QUOTAS_VALIDATION);
  requireService(req.ServiceCode);
  const { slice, NextToken } = page(listQuotaDefinitions(req.ServiceCode), req);
  return { Quotas: slice.map((d) => renderQuota(ctx, d, d.defaultValue)), NextToken };
};

const getServiceQuota: OperationHandler = (input, ctx) => {
  const req = validateInput(getQuotaSchema, input, QUOTAS_VALIDATION);
  const def = requireQuota(req.ServiceCode, req.QuotaCode);
  return { Quota: renderQuota(ctx, def, currentValue(ctx, def)) };
};

const getAWSDefaultServiceQuota: OperationHandler = (input, ctx) => {
  const req = validateInput(getQuotaSchema, input, QUOTAS_VALIDATION);
  const def = requireQuota(req.ServiceCode, req.QuotaCode);
  return { Quota: renderQuota(ctx, def, def.defaultValue) };
};

function renderRequest(ctx: RequestContext, r: StoredQuotaRequest) {
  const def = findQuotaDefinition(r.serviceCode, r.quotaCode)!;
  return {
    Id: r.id,
    CaseId: r.status === 'PENDING' ? undefined : r.caseId,
    ServiceCode: r.serviceCode,
    ServiceName: def.serviceName,
    QuotaCode: r.quotaCode,
    QuotaName: def.quotaName,
    DesiredValue: r.desiredValue,
    Status: r.status,
    Created: new Date(r.created),
    LastUpdated: new Date(r.lastUpdated),
    Requester: r.requester,
    QuotaArn: quotaArn(ctx, def),
    GlobalQuota: false,
    Unit: def.unit,
    QuotaRequestedAtLevel: 'ACCOUNT',
  };
}

const OPEN = new Set(['PENDING', 'CASE_OPENED']);

const requestServiceQuotaIncrease: OperationHandler = (input, ctx) => {
  const req = validateInput(requestIncreaseSchema, input, QUOTAS_VALIDATION);
  const def = requireQuota(req.ServiceCode, req.QuotaCode);
  if (!def.adjustable)
    throw new AwsError('IllegalArgumentException', `The quota ${def.quotaCode} is not adjustable.`, 400);
  const current = currentValue(ctx, def);
  if (req.DesiredValue <= current) {
    throw new AwsError(
      'IllegalArgumentException',
      `The desired value ${req.DesiredValue} must be greater than the current quota value ${current}.`,
      400,
    );
  }
  const open = keyed
    .values(peekQuotaRegion(ctx.state, ctx.region)?.requests)
    .find((r) => r.serviceCode === def.serviceCode && r.quotaCode === def.quotaCode && OPEN.has(r.status));
  if (open) {
    throw new AwsError(
      'ResourceAlreadyExistsException',
      `A request for this quota is already open (request ${open.id}); only one open request per quota is allowed.`,
      400,
    );
  }
  const now = ctx.now();
  const id = hexId(32);
  const stored: StoredQuotaRequest = {
    id,
    caseId: String(1_700_000_000_0 + Math.floor(unitHash(`case|${id}`) * 99_999_999)),
    serviceCode: def.serviceCode,
    quotaCode: def.quotaCode,
    desiredValue: req.DesiredValue,
    status: 'PENDING',
    created: now,
    lastUpdated: now,
    caseOpensAt: now + Math.round((2 + unitHash(`open|${id}`) * 3) * MINUTE),
    approvesAt: now + Math.round((30 + unitHash(`approve|${id}`) * 60) * MINUTE),
    requester: JSON.stringify({ accountId: ctx.accountId, callerArn: ctx.principal.arn }),
  };
  keyed.set(quotaRegion(ctx.state, ctx.region).requests, id, stored);
  return { RequestedQuota: renderRequest(ctx, stored) };
};

const getRequestedServiceQuotaChange: OperationHandler = (input, ctx) => {
  const req = validateInput(getRequestSchema, input, QUOTAS_VALIDATION);
  const found = keyed.get(peekQuotaRegion(ctx.state, ctx.region)?.requests, req.RequestId);
  if (!found)
    throw noSuchResource(
      `The request failed because the specified quota increase request does not exist. Request id: ${req.RequestId}`,
    );
  return { RequestedQuota: renderRequest(ctx, found) };
};

function history(ctx: RequestContext, filter: { serviceCode?: string; quotaCode?: string; status?: string }) {
  return keyed
    .values(peekQuotaRegion(ctx.state, ctx.region)?.requests)
    .filter(
      (r) =>
        (!filter.serviceCode || r.serviceCode === filter.serviceCode) &&
        (!filter.quotaCode || r.quotaCode === filter.quotaCode),
    )
    .filter((r) => !filter.status || r.status === filter.status)
    .sort((a, b) => b.created - a.created || (a.id < b.id ? -1 : 1));
}

const listRequestedServiceQuotaChangeHistory: OperationHandler = (input, ctx) => {
  const req = validateInput(historySchema, input, QUOTAS_VALIDATION);
  if (req.ServiceCode !== undefined) requireService(req.ServiceCode);
  const { slice, NextToken } = page(history(ctx, { serviceCode: req.ServiceCode, status: req.Status }), req);
  return { RequestedQuotas: slice.map((r) => renderRequest(ctx, r)), NextToken };
};

const listRequestedServiceQuotaChangeHistoryByQuota: OperationHandler = (input, ctx) => {
  const req = validateInput(historyByQuotaSchema, input, QUOTAS_VALIDATION);
  requireQuota(req.ServiceCode, req.QuotaCode);
  const { slice, NextToken } = page(
    history(ctx, { serviceCode: req.ServiceCode, quotaCode: req.QuotaCode, status: req.Status }),
    req,
  );
  return { RequestedQuotas: slice.map((r) => renderRequest(ctx, r)), NextToken };
};

export const quotaOperations: Record<string, OperationHandler> = {
  ListServiceQuotas: listServiceQuotas,
  GetServiceQuota: getServiceQuota,
  GetAWSDefaultServiceQuota: getAWSDefaultServiceQuota,
  ListAWSDefaultServiceQuotas: listAWSDefaultServiceQuotas,
  RequestServiceQuotaIncrease: requestServiceQuotaIncrease,
  GetRequestedServiceQuotaChange: getRequestedServiceQuotaChange,
  ListRequestedServiceQuotaChangeHistory: listRequestedServiceQuotaChangeHistory,
  ListRequestedServiceQuotaChangeHistoryByQuota: listRequestedServiceQuotaChangeHistoryByQuota,
};
