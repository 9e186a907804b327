import { keyed } from '../../core/keyed.js';
import { awsQueryErrors } from '../../core/error-styles.js';
import type { ServiceModule } from '../../core/service.js';
import type { SandboxState } from '../../core/store.js';
import { oidcOperations } from './oidc.js';
import { policyOperations } from './policies.js';
import { rolePolicyOperations } from './role-policies.js';
import { roleOperations } from './roles.js';
import { peekIam } from './state.js';
import { simulateOperations } from './simulate.js';
import { roleTagOperations } from './tags.js';

/** IAM roles, managed policies and OIDC providers, for the account (global: any signing region). */
function inventory(state: SandboxState): Record<string, unknown[]> {
  const section = peekIam(state);
  return {
    roles: keyed.values(section?.roles).map((r) => ({
      name: r.roleName,
      arn: r.arn,
      attachedPolicies: r.attachedPolicyArns,
      inlinePolicies: keyed.keys(r.inlinePolicies),
      tags: r.tags,
    })),
    policies: keyed.values(section?.policies).map((p) => ({ name: p.policyName, arn: p.arn })),
    oidcProviders: keyed
      .values(section?.oidcProviders)
      .map((p) => ({ arn: p.arn, url: p.url, clientIds: p.clientIds, tags: p.tags })),
  };
}

export const iam: ServiceModule = {
  signingName: 'iam',
  protocol: 'awsQuery',
  xmlNamespace: 'https://iam.amazonaws.com/doc/2010-05-08/',
  global: true,
  errors: awsQueryErrors(),
  operations: {
    ...roleOperations,
    ...roleTagOperations,
    ...rolePolicyOperations,
    ...policyOperations,
    ...oidcOperations,
    ...simulateOperations,
  },
  inventory,
};
