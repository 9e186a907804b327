import type { CostLine, HourlyCost } from './schemas/plans.js';

/** AWS's convention for turning a monthly price into an hourly one (its pricing pages use 730 hours a month). */
export const HOURS_PER_MONTH = 730;

/** A price as the pricing port gives it (src/cloud/ports/pricing.ts), restated here so the domain needs no port. */
export interface PriceOf {
  amount: number;
  unit: string;
  source: { serviceCode: string; sku: string; effectiveDate: string; description?: string };
}

/** What is to be priced: an item, how many of it, and its price when the Price List has one. */
export interface CostItem {
  item: CostLine['item'];
  description: string;
  quantity: number;
  price: PriceOf | undefined;
  /** Why it is not priced, when that is known before asking (a training plan's instances are paid with the plan). */
  missing?: string;
}

/** Per hour from a price's unit: `Hrs` as is, `GB-Mo` over 730 hours; another unit is not an hourly cost. */
function perHour(price: PriceOf): number | undefined {
  if (price.unit === 'Hrs') return price.amount;
  if (price.unit === 'GB-Mo') return price.amount / HOURS_PER_MONTH;
  return undefined;
}

/**
 * The hourly cost of `items`: each line price × quantity with its source, and the total of the lines priced.
 * A line without a price says so and the total is marked incomplete — never a guessed figure.
 */
export function hourlyCost(items: readonly CostItem[]): HourlyCost {
  const lines: CostLine[] = items.map(({ item, description, quantity, price, missing }) => {
    const hourly = price ? perHour(price) : undefined;
    if (!price || hourly === undefined)
      return {
        item,
        description,
        quantity,
        missing:
          missing ??
          (price ? `priced per ${price.unit}, not per hour` : 'the Price List has no on-demand price for it here'),
      };
    return {
      item,
      description,
      quantity,
      unitPrice: price.amount,
      priceUnit: price.unit,
      hourlyUsd: hourly * quantity,
      source: price.source,
    };
  });
  const totalHourlyUsd = lines.reduce((sum, l) => sum + (l.hourlyUsd ?? 0), 0);
  return {
    currency: 'USD',
    lines,
    totalHourlyUsd,
    complete: lines.every((l) => l.hourlyUsd !== undefined),
    note: 'On-demand prices from the AWS Price List API, before taxes, discounts and Savings Plans; data transfer, NAT gateway data processed, S3 storage and requests are billed apart by use.',
  };
}
