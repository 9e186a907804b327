/**
 * The prices the sandbox's Price List API answers with (sandbox/services/pricing). USD, on-demand.
 *
 * Where each figure comes from: none was read from AWS here (nobody here can reach it). Every figure is
 * "assumed": an approximation of the public pricing pages for us-east-1 as last remembered —
 * SageMaker HyperPod instances from https://aws.amazon.com/sagemaker/ai/pricing/ (HyperPod tab, which
 * lists the same hourly rates as SageMaker training instances), EKS from https://aws.amazon.com/eks/pricing/
 * (standard support, per cluster-hour), the NAT gateway from https://aws.amazon.com/vpc/pricing/ and
 * FSx for Lustre from https://aws.amazon.com/fsx/lustre/pricing/. The sandbox answers the same price in
 * every Region it plays (assumed: real prices differ by Region). Tests compare the product's answer with
 * what the sandbox's Price List API returns, never with these numbers.
 */

/** The effective date the sandbox's price list gives every price (assumed: one publication). */
export const PRICE_LIST_EFFECTIVE_DATE = '2026-11-01T00:00:00Z';
export const PRICE_LIST_VERSION = '20261101000000';
export const PRICE_LIST_PUBLICATION_DATE = '2026-11-01T00:00:00Z';

/** SageMaker HyperPod cluster usage, USD per instance-hour, by `ml.` instance type. All assumed (see above). */
export const HYPERPOD_HOURLY_USD: Readonly<Record<string, string>> = {
  'ml.p4d.24xlarge': '37.688',
  'ml.p4de.24xlarge': '47.11',
  'ml.p5.48xlarge': '113.068',
  'ml.p5e.48xlarge': '124.375',
  'ml.p5en.48xlarge': '126.48',
  'ml.p6-b200.48xlarge': '138.24',
  'ml.g5.xlarge': '1.408',
  'ml.g5.2xlarge': '1.515',
  'ml.g5.4xlarge': '2.03',
  'ml.g5.8xlarge': '3.06',
  'ml.g5.12xlarge': '7.09',
  'ml.g5.16xlarge': '5.12',
  'ml.g5.24xlarge': '10.18',
  'ml.g5.48xlarge': '20.36',
  'ml.g6.xlarge': '1.123',
  'ml.g6.2xlarge': '1.222',
  'ml.g6.4xlarge': '1.66',
  'ml.g6.8xlarge': '2.54',
  'ml.g6.12xlarge': '5.752',
  'ml.g6.16xlarge': '4.246',
  'ml.g6.24xlarge': '8.344',
  'ml.g6.48xlarge': '16.688',
  'ml.g6e.xlarge': '2.336',
  'ml.g6e.2xlarge': '2.818',
  'ml.g6e.4xlarge': '3.78',
  'ml.g6e.8xlarge': '5.705',
  'ml.g6e.12xlarge': '13.118',
  'ml.g6e.16xlarge': '9.553',
  'ml.g6e.24xlarge': '16.411',
  'ml.g6e.48xlarge': '37.742',
  'ml.trn1.32xlarge': '28.497',
  'ml.trn2.48xlarge': '62.0',
  'ml.c5.large': '0.119',
  'ml.c5.xlarge': '0.238',
  'ml.c5.2xlarge': '0.476',
  'ml.c5.4xlarge': '0.952',
  'ml.c5.9xlarge': '2.142',
  'ml.c5.12xlarge': '2.856',
  'ml.c5.18xlarge': '4.284',
  'ml.c5.24xlarge': '5.712',
  'ml.m5.large': '0.134',
  'ml.m5.xlarge': '0.269',
  'ml.m5.2xlarge': '0.538',
  'ml.m5.4xlarge': '1.075',
  'ml.m5.8xlarge': '2.15',
  'ml.m5.12xlarge': '3.226',
  'ml.m5.16xlarge': '4.301',
  'ml.m5.24xlarge': '6.451',
  'ml.t3.medium': '0.05',
  'ml.t3.large': '0.1',
  'ml.t3.xlarge': '0.2',
  'ml.t3.2xlarge': '0.399',
};

/** EKS standard support, USD per cluster-hour (assumed, see above). */
export const EKS_CLUSTER_HOURLY_USD = '0.10';
/** A NAT gateway, USD per gateway-hour (assumed, see above); data processed is billed per GB apart. */
export const NAT_GATEWAY_HOURLY_USD = '0.045';
export const NAT_GATEWAY_PER_GB_USD = '0.045';
/** FSx for Lustre PERSISTENT_2 at 250 MB/s/TiB, USD per GiB-month of SSD storage (assumed, see above). */
export const FSX_LUSTRE_PERSISTENT_2_250_GIB_MONTH_USD = '0.21';
