import type { SandboxState } from '../../core/store.js';
import { getSecurityGroup, getSubnet } from '../ec2/public.js';
import { invalidNetworkSettings } from './errors.js';

/**
 * Where a Lustre file system's network interface goes: exactly one subnet (Lustre file systems
 * live in one Availability Zone), and security groups of that subnet's VPC. Every problem is
 * InvalidNetworkSettings naming the offending subnet or group, as FSx reports it.
 */
export function checkNetwork(
  state: SandboxState,
  region: string,
  subnetIds: string[],
  securityGroupIds: string[],
): { vpcId: string; subnetId: string } {
  if (subnetIds.length !== 1) {
    throw invalidNetworkSettings(
      `Lustre file systems require exactly one subnet in SubnetIds; ${subnetIds.length} were provided.`,
    );
  }
  const subnetId = subnetIds[0]!;
  const subnet = getSubnet(state, region, subnetId);
  if (!subnet)
    throw invalidNetworkSettings(`The subnet ID '${subnetId}' does not exist`, { InvalidSubnetId: subnetId });
  for (const groupId of securityGroupIds) {
    const group = getSecurityGroup(state, region, groupId);
    if (!group)
      throw invalidNetworkSettings(`The security group '${groupId}' does not exist`, {
        InvalidSecurityGroupId: groupId,
      });
    if (group.vpcId !== subnet.vpcId) {
      throw invalidNetworkSettings(
        `The security group '${groupId}' does not belong to the VPC of subnet '${subnetId}' (${subnet.vpcId})`,
        { InvalidSecurityGroupId: groupId },
      );
    }
  }
  if (subnet.availableIpAddressCount < 1) {
    throw invalidNetworkSettings(
      `The subnet '${subnetId}' has no free IP addresses for the file system's network interface`,
      { InvalidSubnetId: subnetId },
    );
  }
  return { vpcId: subnet.vpcId, subnetId };
}
