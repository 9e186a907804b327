import { z } from 'zod';
import { AwsError } from '../../core/errors.js';
import { offsetPage } from '../../core/paging.js';
import type { OperationHandler, RequestContext } from '../../core/service.js';
import { validateInput, type ValidationStyle } from '../../core/validation.js';
import {
  attributeNames,
  attributeOf,
  PRODUCTS,
  priceListItem,
  SERVICE_CODES,
  type PriceListProduct,
} from './products.js';

/**
 * AWS Price List Service (pricing-2017-10-15; @aws-sdk/client-pricing's model): DescribeServices,
 * GetAttributeValues and GetProducts. Constraints from the API reference: MaxResults 1–100, FormatVersion
 * `aws_v1`, Filter {Type, Field, Value} all required, Type one of the model's FilterType values.
 */
const VALIDATION: ValidationStyle = { style: 'coral', code: 'InvalidParameterException' };

/**
 * The API's endpoints (API reference, "Service Endpoint"): api.pricing.us-east-1, eu-central-1 and ap-south-1.
 * Elsewhere the endpoint does not exist (a DNS failure on AWS); the sandbox answers UnknownEndpoint (assumed).
 */
export const PRICING_API_REGIONS = ['us-east-1', 'eu-central-1', 'ap-south-1'] as const;

const FILTER_TYPES = ['TERM_MATCH', 'EQUALS', 'CONTAINS', 'ANY_OF', 'NONE_OF'] as const;
const maxResults = z.number().int().min(1).max(100);
const formatVersion = z.literal('aws_v1');

const describeServicesSchema = z.object({
  ServiceCode: z.string().optional(),
  FormatVersion: formatVersion.optional(),
  NextToken: z.string().optional(),
  MaxResults: maxResults.optional(),
});
const attributeValuesSchema = z.object({
  ServiceCode: z.string(),
  AttributeName: z.string(),
  NextToken: z.string().optional(),
  MaxResults: maxResults.optional(),
});
const getProductsSchema = z.object({
  ServiceCode: z.string(),
  Filters: z.array(z.object({ Type: z.enum(FILTER_TYPES), Field: z.string(), Value: z.string() })).optional(),
  FormatVersion: formatVersion.optional(),
  NextToken: z.string().optional(),
  MaxResults: maxResults.optional(),
});

function requireEndpoint(ctx: RequestContext): void {
  if (!(PRICING_API_REGIONS as readonly string[]).includes(ctx.region))
    throw new AwsError(
      'UnknownEndpoint',
      `The Price List API has no endpoint in ${ctx.region}; it is served in ${PRICING_API_REGIONS.join(', ')}.`,
      400,
    );
}

function requireService(serviceCode: string): void {
  if (!(SERVICE_CODES as readonly string[]).includes(serviceCode))
    throw new AwsError('NotFoundException', `Service ${serviceCode} is not found.`, 400);
}

function page<T>(items: T[], req: { NextToken?: string; MaxResults?: number }) {
  return offsetPage(
    items,
    req.NextToken,
    req.MaxResults ?? 100,
    () =>
      new AwsError(
        'InvalidNextTokenException',
        'The pagination token is invalid. Try again without a pagination token.',
        400,
      ),
  );
}

function matches(p: PriceListProduct, f: { Type: (typeof FILTER_TYPES)[number]; Field: string; Value: string }) {
  const v = attributeOf(p, f.Field);
  switch (f.Type) {
    case 'TERM_MATCH':
    case 'EQUALS':
      return v === f.Value;
    case 'CONTAINS':
      return v !== undefined && v.includes(f.Value);
    case 'ANY_OF':
      return v !== undefined && f.Value.split(',').includes(v);
    case 'NONE_OF':
      return v === undefined || !f.Value.split(',').includes(v);
  }
}

const describeServices: OperationHandler = (input, ctx) => {
  requireEndpoint(ctx);
  const req = validateInput(describeServicesSchema, input, VALIDATION);
  if (req.ServiceCode !== undefined) requireService(req.ServiceCode);
  const codes = req.ServiceCode ? [req.ServiceCode] : [...SERVICE_CODES];
  const { items, next } = page(codes, req);
  return {
    Services: items.map((code) => ({ ServiceCode: code, AttributeNames: attributeNames(code) })),
    FormatVersion: 'aws_v1',
    NextToken: next,
  };
};

const getAttributeValues: OperationHandler = (input, ctx) => {
  requireEndpoint(ctx);
  const req = validateInput(attributeValuesSchema, input, VALIDATION);
  requireService(req.ServiceCode);
  if (!attributeNames(req.ServiceCode).includes(req.AttributeName))
    throw new AwsError('NotFoundException', `Attribute ${req.AttributeName} is not found for ${req.ServiceCode}.`, 400);
  const values = new Set<string>();
  for (const p of PRODUCTS)
    if (p.serviceCode === req.ServiceCode) {
      const v = attributeOf(p, req.AttributeName);
      if (v !== undefined) values.add(v);
    }
  const { items, next } = page([...values].sort(), req);
  return { AttributeValues: items.map((Value) => ({ Value })), NextToken: next };
};

const getProducts: OperationHandler = (input, ctx) => {
  requireEndpoint(ctx);
  const req = validateInput(getProductsSchema, input, VALIDATION);
  requireService(req.ServiceCode);
  const found = PRODUCTS.filter(
    (p) => p.serviceCode === req.ServiceCode && (req.Filters ?? []).every((f) => matches(p, f)),
  );
  const { items, next } = page(found, req);
  return { FormatVersion: 'aws_v1', PriceList: items.map(priceListItem), NextToken: next };
};

export const pricingOperations: Record<string, OperationHandler> = {
  DescribeServices: describeServices,
  GetAttributeValues: getAttributeValues,
  GetProducts: getProducts,
};
