import { GetProductsCommand, type Filter } from '@aws-sdk/client-pricing';
import type { Price, PricedItem, PricingPort } from '../ports/pricing.js';
import { TtlCache, type CatalogCache } from './catalog/cache.js';
import type { AwsClients } from './clients.js';
import { awsCall } from './errors.js';

/** Prices change a few times a year; a day keeps a plan's look-ups off the API without serving old prices long. */
export const PRICE_TTL_MS = 24 * 60 * 60_000;

/**
 * How each priced item is found in the Price List (GetProducts, @aws-sdk/client-pricing): its service code,
 * TERM_MATCH filters, the unit of the price dimension to read and, where one filter cannot tell the product
 * (a usage type carries a billing-Region prefix), the usage type's ending. Attribute names and values:
 * `regionCode`, `productFamily`, SageMaker's `instanceName` and EC2's "NAT Gateway" family are the public price
 * files'; HyperPod's `component` "Cluster", EKS's `AmazonEKS-Hours:perCluster` and FSx's Lustre attributes are
 * assumed (docs/PLAN.md → Prices).
 */
interface Lookup {
  serviceCode: string;
  filters: Record<string, string>;
  unit: string;
  usageTypeEndsWith?: string;
}

/** FSx for Lustre as the product creates it (src/cloud/aws/storage.ts): PERSISTENT_2 at 250 MB/s/TiB. */
const LUSTRE = { fileSystemType: 'Lustre', deploymentOption: 'Persistent_2', throughputCapacity: '250' };

export function priceLookup(region: string, item: PricedItem): Lookup {
  switch (item.kind) {
    case 'hyperpod-instance':
      return {
        serviceCode: 'AmazonSageMaker',
        filters: { regionCode: region, instanceName: item.instanceType, component: 'Cluster' },
        unit: 'Hrs',
      };
    case 'eks-cluster':
      return {
        serviceCode: 'AmazonEKS',
        filters: { regionCode: region },
        unit: 'Hrs',
        usageTypeEndsWith: 'AmazonEKS-Hours:perCluster',
      };
    case 'nat-gateway':
      return {
        serviceCode: 'AmazonEC2',
        filters: { regionCode: region, productFamily: 'NAT Gateway' },
        unit: 'Hrs',
        usageTypeEndsWith: 'NatGateway-Hours',
      };
    case 'fsx-lustre-storage':
      return { serviceCode: 'AmazonFSx', filters: { regionCode: region, ...LUSTRE }, unit: 'GB-Mo' };
  }
}

/** The parts of a Price List item (a JSON string) the product reads. */
interface PriceListItem {
  product?: { sku?: string; attributes?: Record<string, string> };
  terms?: {
    OnDemand?: Record<
      string,
      {
        effectiveDate?: string;
        priceDimensions?: Record<
          string,
          { unit?: string; description?: string; pricePerUnit?: Record<string, string> }
        >;
      }
    >;
  };
}

/** The first on-demand USD price of `unit` among the items, with its source. */
export function readPrice(serviceCode: string, items: readonly string[], lookup: Lookup): Price | undefined {
  for (const raw of items) {
    const item = JSON.parse(raw) as PriceListItem;
    const usageType = item.product?.attributes?.usagetype ?? '';
    if (lookup.usageTypeEndsWith && !usageType.endsWith(lookup.usageTypeEndsWith)) continue;
    for (const term of Object.values(item.terms?.OnDemand ?? {})) {
      for (const dim of Object.values(term.priceDimensions ?? {})) {
        const usd = dim.pricePerUnit?.USD;
        if (dim.unit !== lookup.unit || usd === undefined || !Number.isFinite(Number(usd))) continue;
        return {
          amount: Number(usd),
          unit: lookup.unit,
          currency: 'USD',
          source: {
            serviceCode,
            sku: item.product?.sku ?? '',
            effectiveDate: term.effectiveDate ?? '',
            ...(dim.description ? { description: dim.description } : {}),
          },
        };
      }
    }
  }
  return undefined;
}

/** The Price List API through the SDK, each answer kept a day (one request serves concurrent callers). */
export class PricingAdapter implements PricingPort {
  private readonly cache: CatalogCache;

  constructor(
    private readonly clients: AwsClients,
    { ttlMs = PRICE_TTL_MS, now }: { ttlMs?: number; now?: () => number } = {},
  ) {
    this.cache = new TtlCache({ ttlMs, ...(now ? { now } : {}) });
  }

  price(region: string, item: PricedItem): Promise<Price | undefined> {
    const lookup = priceLookup(region, item);
    const key = `${lookup.serviceCode}:${JSON.stringify(lookup.filters)}:${lookup.unit}:${lookup.usageTypeEndsWith ?? ''}`;
    return this.cache.get(key, () => this.load(lookup));
  }

  private async load(lookup: Lookup): Promise<Price | undefined> {
    const Filters: Filter[] = Object.entries(lookup.filters).map(([Field, Value]) => ({
      Type: 'TERM_MATCH',
      Field,
      Value,
    }));
    const items: string[] = [];
    let NextToken: string | undefined;
    do {
      const r = await awsCall('pricing', 'GetProducts', () =>
        this.clients.pricing().send(
          new GetProductsCommand({
            ServiceCode: lookup.serviceCode,
            Filters,
            FormatVersion: 'aws_v1',
            MaxResults: 100,
            NextToken,
          }),
        ),
      );
      items.push(...((r.PriceList ?? []) as string[]).map(String));
      NextToken = r.NextToken;
      const found = readPrice(lookup.serviceCode, items, lookup);
      if (found) return found;
    } while (NextToken);
    return undefined;
  }
}
