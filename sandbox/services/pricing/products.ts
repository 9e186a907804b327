import {
  EKS_CLUSTER_HOURLY_USD,
  FSX_LUSTRE_PERSISTENT_2_250_GIB_MONTH_USD,
  HYPERPOD_HOURLY_USD,
  NAT_GATEWAY_HOURLY_USD,
  NAT_GATEWAY_PER_GB_USD,
  PRICE_LIST_EFFECTIVE_DATE,
  PRICE_LIST_PUBLICATION_DATE,
  PRICE_LIST_VERSION,
} from '../../catalog/prices.js';
import { REGIONS } from '../../catalog/regions.js';
import { unitHash } from '../../core/ids.js';

/**
 * The sandbox's price list: one product per (service, Region, priced thing), in the shape a Price List
 * API `GetProducts` answer carries as a JSON string (AWS Billing User Guide, "Price List API" → reading the
 * price list: `product` with `sku`, `productFamily` and `attributes`; `terms.OnDemand.<sku>.<offerTermCode>`
 * with `effectiveDate` and `priceDimensions.<rateCode>` with `unit` and `pricePerUnit.USD`).
 *
 * Attribute names and values: `servicecode`, `regionCode`, `location`, `productFamily`, `usagetype` and
 * `operation` are attributes every AWS price list product has. SageMaker's instance products have
 * `productFamily` "ML Instance", `instanceName` ("ml.p5.48xlarge") and `component` ("Hosting", "Training", …);
 * HyperPod cluster usage's `component` value "Cluster" and usage type `<prefix>-Cluster:<instance>` are
 * assumed. EC2's NAT gateway products have `productFamily` "NAT Gateway" and usage types
 * `[<prefix>-]NatGateway-Hours` / `-Bytes`; EKS's cluster-hour usage type `<prefix>-AmazonEKS-Hours:perCluster`
 * and FSx's attribute names (`fileSystemType`, `deploymentOption`, `throughputCapacity`, `storageType`) are
 * assumed from the public price files' conventions (docs/SANDBOX.md).
 */
export interface PriceListProduct {
  serviceCode: string;
  sku: string;
  productFamily: string;
  attributes: Record<string, string>;
  unit: string;
  usd: string;
  description: string;
}

/** Billing Region prefixes of usage types (us-east-1 has none for EC2's, `USE1` elsewhere). */
const USAGE_PREFIX: Record<string, string> = {
  'us-east-1': 'USE1',
  'us-east-2': 'USE2',
  'us-west-2': 'USW2',
  'eu-west-1': 'EU',
  'eu-north-1': 'EUN1',
  'ap-northeast-1': 'APN1',
  'ap-southeast-2': 'APS2',
};

const LOCATION: Record<string, string> = {
  'us-east-1': 'US East (N. Virginia)',
  'us-east-2': 'US East (Ohio)',
  'us-west-2': 'US West (Oregon)',
  'eu-west-1': 'EU (Ireland)',
  'eu-north-1': 'EU (Stockholm)',
  'ap-northeast-1': 'Asia Pacific (Tokyo)',
  'ap-southeast-2': 'Asia Pacific (Sydney)',
};

/** The service codes the sandbox knows, with the attribute names `DescribeServices` lists. */
export const SERVICE_CODES = ['AmazonSageMaker', 'AmazonEKS', 'AmazonEC2', 'AmazonFSx'] as const;

/** A stable 16-character SKU like AWS's (upper-case letters and digits). */
function skuOf(key: string): string {
  const alphabet = 'ABCDEFGHJKLMNPQRSTUVWXYZ23456789';
  let out = '';
  for (let i = 0; i < 16; i++) out += alphabet[Math.floor(unitHash(`${key}|${i}`) * alphabet.length)];
  return out;
}

function product(
  serviceCode: string,
  region: string,
  productFamily: string,
  attributes: Record<string, string>,
  price: { unit: string; usd: string; description: string },
): PriceListProduct {
  const all: Record<string, string> = {
    servicecode: serviceCode,
    regionCode: region,
    location: LOCATION[region] ?? region,
    locationType: 'AWS Region',
    ...attributes,
  };
  return {
    serviceCode,
    sku: skuOf(`${serviceCode}|${region}|${all.usagetype}`),
    productFamily,
    attributes: all,
    ...price,
  };
}

function productsOfRegion(region: string): PriceListProduct[] {
  const prefix = USAGE_PREFIX[region] ?? region;
  const ec2Prefix = region === 'us-east-1' ? '' : `${prefix}-`;
  const out: PriceListProduct[] = [];
  for (const [instanceName, usd] of Object.entries(HYPERPOD_HOURLY_USD)) {
    out.push(
      product(
        'AmazonSageMaker',
        region,
        'ML Instance',
        {
          servicename: 'Amazon SageMaker',
          instanceName,
          component: 'Cluster',
          usagetype: `${prefix}-Cluster:${instanceName}`,
          operation: 'RunInstance',
        },
        { unit: 'Hrs', usd, description: `$${usd} per SageMaker HyperPod cluster ${instanceName} hour` },
      ),
    );
  }
  out.push(
    product(
      'AmazonEKS',
      region,
      'Compute',
      {
        servicename: 'Amazon Elastic Container Service for Kubernetes',
        usagetype: `${prefix}-AmazonEKS-Hours:perCluster`,
        operation: 'CreateOperation',
      },
      { unit: 'Hrs', usd: EKS_CLUSTER_HOURLY_USD, description: `$${EKS_CLUSTER_HOURLY_USD} per hour per EKS cluster` },
    ),
    product(
      'AmazonEC2',
      region,
      'NAT Gateway',
      {
        servicename: 'Amazon Elastic Compute Cloud',
        usagetype: `${ec2Prefix}NatGateway-Hours`,
        operation: 'NatGateway',
        group: 'NGW:NatGateway',
      },
      { unit: 'Hrs', usd: NAT_GATEWAY_HOURLY_USD, description: `$${NAT_GATEWAY_HOURLY_USD} per NAT Gateway Hour` },
    ),
    product(
      'AmazonEC2',
      region,
      'NAT Gateway',
      {
        servicename: 'Amazon Elastic Compute Cloud',
        usagetype: `${ec2Prefix}NatGateway-Bytes`,
        operation: 'NatGateway',
        group: 'NGW:NatGateway',
      },
      {
        unit: 'GB',
        usd: NAT_GATEWAY_PER_GB_USD,
        description: `$${NAT_GATEWAY_PER_GB_USD} per GB Data Processed by NAT Gateways`,
      },
    ),
    product(
      'AmazonFSx',
      region,
      'Storage',
      {
        servicename: 'Amazon FSx',
        fileSystemType: 'Lustre',
        deploymentOption: 'Persistent_2',
        throughputCapacity: '250',
        storageType: 'SSD',
        usagetype: `${prefix}-Persistent_2-250-Storage`,
        operation: 'CreateFileSystem',
      },
      {
        unit: 'GB-Mo',
        usd: FSX_LUSTRE_PERSISTENT_2_250_GIB_MONTH_USD,
        description: `$${FSX_LUSTRE_PERSISTENT_2_250_GIB_MONTH_USD} per GB-month of Lustre Persistent_2 250 MB/s/TiB SSD storage`,
      },
    ),
  );
  return out;
}

/** Every product of every Region the sandbox plays (the price list is global: one API serves all Regions' prices). */
export const PRODUCTS: readonly PriceListProduct[] = REGIONS.flatMap((r) => productsOfRegion(r.regionName));

/** Offer term and rate codes: AWS's on-demand offer term code is JRTCKXETXF; rate codes add a dimension code. */
const ON_DEMAND_TERM = 'JRTCKXETXF';
const RATE_CODE = '6YS6EN2CT7';

/** A product as one `PriceList` entry: the JSON document, as a string (the API's `SynthesizedJsonPriceListJsonItem`). */
export function priceListItem(p: PriceListProduct): string {
  const offer = `${p.sku}.${ON_DEMAND_TERM}`;
  return JSON.stringify({
    product: { productFamily: p.productFamily, attributes: p.attributes, sku: p.sku },
    serviceCode: p.serviceCode,
    terms: {
      OnDemand: {
        [offer]: {
          priceDimensions: {
            [`${offer}.${RATE_CODE}`]: {
              unit: p.unit,
              endRange: 'Inf',
              description: p.description,
              appliesTo: [],
              rateCode: `${offer}.${RATE_CODE}`,
              beginRange: '0',
              pricePerUnit: { USD: p.usd },
            },
          },
          sku: p.sku,
          effectiveDate: PRICE_LIST_EFFECTIVE_DATE,
          offerTermCode: ON_DEMAND_TERM,
          termAttributes: {},
        },
      },
    },
    version: PRICE_LIST_VERSION,
    publicationDate: PRICE_LIST_PUBLICATION_DATE,
  });
}

/** The attribute names a service's products carry (what `DescribeServices` lists), sorted. */
export function attributeNames(serviceCode: string): string[] {
  const names = new Set<string>(['productFamily']);
  for (const p of PRODUCTS) if (p.serviceCode === serviceCode) for (const k of Object.keys(p.attributes)) names.add(k);
  return [...names].sort();
}

/** A product's value of an attribute, `productFamily` included (AWS filters on it like an attribute). */
export function attributeOf(p: PriceListProduct, name: string): string | undefined {
  if (name === 'productFamily') return p.productFamily;
  if (name === 'sku') return p.sku;
  return Object.hasOwn(p.attributes, name) ? p.attributes[name] : undefined;
}
