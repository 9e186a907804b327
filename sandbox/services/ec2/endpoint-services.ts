import { createHash } from 'node:crypto';
import { findRegion } from '../../catalog/regions.js';

/**
 * The AWS services a VPC endpoint can reach in each region (what DescribeVpcEndpointServices
 * lists). Gateway endpoints route a service's prefix list; interface endpoints put ENIs in subnets.
 */
const GATEWAY_SERVICES = ['s3', 'dynamodb'];
const INTERFACE_SERVICES = [
  's3',
  'sts',
  'ec2',
  'ecr.api',
  'ecr.dkr',
  'eks',
  'eks-auth',
  'sagemaker.api',
  'sagemaker.runtime',
  'logs',
  'monitoring',
  'ssm',
  'ssmmessages',
  'ec2messages',
  'elasticloadbalancing',
  'fsx',
];

export interface EndpointService {
  serviceName: string;
  types: Array<'Gateway' | 'Interface'>;
}

export function endpointServices(region: string): EndpointService[] {
  if (!findRegion(region)) return [];
  const names = [...new Set([...GATEWAY_SERVICES, ...INTERFACE_SERVICES])].sort();
  return names.map((short) => ({
    serviceName: `com.amazonaws.${region}.${short}`,
    types: [
      ...(GATEWAY_SERVICES.includes(short) ? (['Gateway'] as const) : []),
      ...(INTERFACE_SERVICES.includes(short) ? (['Interface'] as const) : []),
    ],
  }));
}

/** The managed prefix list id of a gateway service in a region (stable, like AWS's). */
export function prefixListId(serviceName: string): string {
  return `pl-${createHash('sha256').update(serviceName).digest('hex').slice(0, 8)}`;
}
