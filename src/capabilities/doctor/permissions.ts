import { CloudError } from '../../domain/errors.js';
import {
  callsNeeding,
  simulatedPrincipal,
  statementFor,
  statementSimulations,
} from '../../domain/iam/simulation-plan.js';
import { PRODUCT_POLICY, type ProductPolicyStatement } from '../../domain/iam/product-policy.js';
import type { DoctorLine } from '../../domain/schemas/doctor.js';
import type { DoctorReadPort } from './read-port.js';

/**
 * Every action of PRODUCT_POLICY simulated against the principal: one line per statement whose actions are all
 * allowed, one `missing` line per denied action naming its statement's `why`, the AWS calls that need it and the
 * statement to add. A simulation that cannot run (the caller may not simulate, the principal is not found) is one
 * `warning` line naming why — never a silent ok.
 */
export async function permissionLines(
  port: DoctorReadPort,
  where: { accountId: string; region: string; principalArn: string },
): Promise<DoctorLine[]> {
  const questions = PRODUCT_POLICY.flatMap((statement) =>
    statementSimulations(statement, where).map((q) => ({ statement, q })),
  );
  let decided: Awaited<ReturnType<DoctorReadPort['simulate']>>;
  try {
    decided = await port.simulate(
      questions.map(({ q }) => ({
        principalArn: where.principalArn,
        actions: q.actions,
        resources: q.resources,
        context: q.context,
      })),
    );
  } catch (err) {
    return [simulationFailed(err, where.principalArn)];
  }
  const answers = questions.map(({ statement }, i) => ({ statement, decisions: decided[i] ?? [] }));

  // The first denial of each action (its resource and decision), per statement in the policy's order.
  const denied = new Map<ProductPolicyStatement, Map<string, { resource: string; explicit: boolean }>>();
  for (const { statement, decisions } of answers)
    for (const d of decisions) {
      if (d.decision === 'allowed') continue;
      const of = denied.get(statement) ?? new Map();
      if (!of.has(d.action)) of.set(d.action, { resource: d.resource, explicit: d.decision === 'explicitDeny' });
      denied.set(statement, of);
    }

  const lines: DoctorLine[] = [];
  for (const statement of PRODUCT_POLICY) {
    const actions = denied.get(statement);
    if (!actions) {
      lines.push({
        area: 'permissions',
        status: 'ok',
        title: `${statement.sid}: ${statement.actions.length} action${statement.actions.length === 1 ? '' : 's'} allowed`,
        detail: statement.why,
      });
      continue;
    }
    for (const [action, { resource, explicit }] of actions) {
      const calls = callsNeeding(action);
      lines.push({
        area: 'permissions',
        status: 'missing',
        title: `${action} is ${explicit ? 'explicitly denied' : 'not allowed'}`,
        detail: `Needed by ${calls.join(', ')} on ${resource}: ${statement.why}`,
        fix: explicit
          ? `Remove the Deny on ${action} (a policy, permissions boundary or SCP of ${where.principalArn}), then allow it: ${statementFor(statement, action)}`
          : `Add to a policy of ${where.principalArn}: ${statementFor(statement, action)}`,
        action,
        calls,
      });
    }
  }
  return lines;
}

/** Why the permission check could not run, as one warning with its fix. */
function simulationFailed(err: unknown, principalArn: string): DoctorLine {
  const code = err instanceof CloudError ? err.code : 'Error';
  const message = err instanceof Error ? err.message : String(err);
  const denied = /AccessDenied/i.test(code);
  return {
    area: 'permissions',
    status: 'warning',
    title: 'The product’s permissions could not be checked',
    detail: `IAM SimulatePrincipalPolicy for ${principalArn} failed: ${code}: ${message}`,
    fix: denied
      ? `Allow the caller to simulate itself: {"Effect":"Allow","Action":"iam:SimulatePrincipalPolicy","Resource":"${principalArn}"}`
      : /NoSuchEntity/i.test(code)
        ? `No IAM user or role ${principalArn}: check the ARN (a role under a path needs it: ?principalArn=).`
        : 'Try again; if it persists, check that IAM is reachable from the server.',
  };
}

/** The ARN doctor simulates for a caller, or the warning when IAM cannot simulate it (root, federated users). */
export function principalOf(
  callerArn: string,
  asked: string | undefined,
): { principalArn: string } | { line: DoctorLine } {
  if (asked) return { principalArn: asked };
  const principalArn = simulatedPrincipal(callerArn);
  if (principalArn) return { principalArn };
  return {
    line: {
      area: 'permissions',
      status: 'warning',
      title: 'The product’s permissions could not be checked',
      detail: `IAM's policy simulator takes a user or role; the caller is ${callerArn}${/:root$/.test(callerArn) ? ' (the root user may do everything — do not run the product as root)' : ''}.`,
      fix: 'Run the server as an IAM role or user, or name the role it will run as: ?principalArn=arn:aws:iam::<account>:role/<name>.',
    },
  };
}
