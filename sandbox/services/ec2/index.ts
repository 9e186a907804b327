import { keyed, type Keyed } from '../../core/keyed.js';
import type { ServiceModule } from '../../core/service.js';
import type { SandboxState } from '../../core/store.js';
import { catalogOperations } from './catalog-ops.js';
import { endpointOperations, tickEndpoints } from './endpoints.js';
import { gatewayOperations, tickNatGateways } from './gateways.js';
import { routeTableOperations } from './route-tables.js';
import { securityGroupOperations } from './security-groups.js';
import { allEc2Regions } from './state.js';
import { subnetOperations } from './subnets.js';
import { tagAndInterfaceOperations } from './tags-and-interfaces.js';
import { vpcOperations } from './vpcs.js';
import { EC2_ERRORS } from './wire.js';

/** Amazon EC2 (query protocol): regions, zones, instance types and the VPC network. */
export const ec2: ServiceModule = {
  signingName: 'ec2',
  protocol: 'ec2',
  xmlNamespace: 'http://ec2.amazonaws.com/doc/2016-11-15/',
  errors: EC2_ERRORS,
  operations: {
    ...catalogOperations,
    ...vpcOperations,
    ...subnetOperations,
    ...gatewayOperations,
    ...routeTableOperations,
    ...securityGroupOperations,
    ...endpointOperations,
    ...tagAndInterfaceOperations,
  },
  tick({ state, now }) {
    let changed = false;
    for (const [, r] of allEc2Regions(state)) {
      if (tickNatGateways(r, now)) changed = true;
      if (tickEndpoints(r, now)) changed = true;
    }
    return changed;
  },
  inventory(state: SandboxState) {
    const out: Record<string, unknown[]> = {};
    for (const [region, r] of allEc2Regions(state)) {
      for (const [type, items] of Object.entries(r)) {
        const list = keyed.values(items as Keyed<object>).map((item) => ({ region, ...item }));
        if (list.length) (out[type] ??= []).push(...list);
      }
    }
    return out;
  },
};
