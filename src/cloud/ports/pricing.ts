/**
 * Prices read from the AWS Price List API (never a table of our own): what a plan's hourly cost is made of.
 * Each price says where it came from, so a user can check it: the service code, the SKU and the date the
 * price took effect.
 */

/** What the product prices. HyperPod cluster instances, EKS cluster-hours, NAT gateway-hours, FSx for Lustre storage. */
export type PricedItem =
  | { kind: 'hyperpod-instance'; instanceType: string }
  | { kind: 'eks-cluster' }
  | { kind: 'nat-gateway' }
  | { kind: 'fsx-lustre-storage' };

/** Where a price came from: the Price List product and its on-demand term. */
export interface PriceSource {
  /** The Price List service code (`AmazonSageMaker`, `AmazonEKS`, `AmazonEC2`, `AmazonFSx`). */
  serviceCode: string;
  sku: string;
  /** When this price took effect (the on-demand term's `effectiveDate`, ISO 8601). */
  effectiveDate: string;
  /** The price dimension's own words. */
  description?: string;
}

export interface Price {
  /** Per `unit`, in `currency`. */
  amount: number;
  /** The Price List's unit: `Hrs` (per hour), `GB-Mo` (per GiB-month). */
  unit: string;
  currency: 'USD';
  source: PriceSource;
}

export interface PricingPort {
  /**
   * The on-demand price of `item` in `region`, or undefined when the Price List has none (an instance type
   * not sold there). Cached: prices change rarely, so each answer is kept a day.
   */
  price(region: string, item: PricedItem): Promise<Price | undefined>;
}
