import { DescribeAccountAttributesCommand, DescribeAddressesCommand } from '@aws-sdk/client-ec2';
import type { AwsClients } from './clients.js';
import { awsCall } from './errors.js';

/**
 * The Region's Elastic IP headroom. EC2 DescribeAccountAttributes (EC2 API Reference 2016-11-15) answers
 * `vpc-max-elastic-ips` (the VPC Elastic IP limit of the Region) among its attributes; the SDK's AttributeNames
 * enum lists only `default-vpc` and `supported-platforms`, so no names are sent and every attribute is read.
 * DescribeAddresses with no filter lists every address of the account in the Region.
 */
export async function elasticIpHeadroom(
  clients: AwsClients,
  region: string,
): Promise<{ limit?: number; inUse: number }> {
  const ec2 = clients.ec2(region);
  const [attributes, addresses] = await Promise.all([
    awsCall('ec2', 'DescribeAccountAttributes', () => ec2.send(new DescribeAccountAttributesCommand({}))),
    awsCall('ec2', 'DescribeAddresses', () => ec2.send(new DescribeAddressesCommand({}))),
  ]);
  const attribute = attributes.AccountAttributes?.find((a) => a.AttributeName === 'vpc-max-elastic-ips');
  const value = Number(attribute?.AttributeValues?.[0]?.AttributeValue);
  return { ...(Number.isFinite(value) && attribute ? { limit: value } : {}), inUse: addresses.Addresses?.length ?? 0 };
}
