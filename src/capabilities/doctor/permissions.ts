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
 * Every action of PRODUCT_POLICY simulated against the principal: one ok line per statement whose actions are
 * allowed, one `missing` line per denied action naming its statement's `why`, the AWS calls that need it and the
 * statement to add (a `warning` when it is denied on some of the statement's resources only). A simulation that cannot run (the caller may not simulate, the principal is not found) is one
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
  // Per statement, per action: the first question (one context) that denied it on every resource asked — the
  // product cannot make that request at all — else the first that denied it on some resources only. A statement
  // lists the resources of all its actions (HyperPod clusters and MLflow servers), and an action is asked on each:
  // a caller's policy scoped to the action's own resource type is rightly denied on the others, so a partial
  // denial is a warning, not a missing permission.
  const findings = new Map<ProductPolicyStatement, Map<string, Denial>>();
  questions.forEach(({ statement, q }, i) => {
    const byAction = new Map<string, { denied: string[]; allowed: number; explicit: boolean }>();
    for (const d of decided[i] ?? []) {
      const seen = byAction.get(d.action) ?? { denied: [], allowed: 0, explicit: false };
      if (d.decision === 'allowed') seen.allowed += 1;
      else seen.denied.push(d.resource);
      if (d.decision === 'explicitDeny') seen.explicit = true;
      byAction.set(d.action, seen);
    }
    const of = findings.get(statement) ?? new Map<string, Denial>();
    for (const [action, seen] of byAction) {
      if (seen.denied.length === 0) continue;
      const denial: Denial = {
        whole: seen.allowed === 0,
        resources: seen.denied,
        explicit: seen.explicit,
        context: q.context,
      };
      const before = of.get(action);
      if (!before || (denial.whole && !before.whole)) of.set(action, denial);
    }
    if (of.size > 0) findings.set(statement, of);
  });

  const lines: DoctorLine[] = [];
  for (const statement of PRODUCT_POLICY) {
    const actions = findings.get(statement);
    const wholly = [...(actions?.values() ?? [])].some((d) => d.whole);
    if (!wholly) {
      lines.push({
        area: 'permissions',
        status: 'ok',
        title: `${statement.sid}: ${statement.actions.length} action${statement.actions.length === 1 ? '' : 's'} allowed`,
        detail: statement.why,
      });
    }
    for (const [action, denial] of actions ?? []) {
      const calls = callsNeeding(action);
      const when = contextWords(denial.context);
      const on = denial.resources.join(', ');
      if (!denial.whole) {
        lines.push({
          area: 'permissions',
          status: 'warning',
          title: `${action} is allowed on some of its resources only`,
          detail: `Not on ${on}${when}: if ${action} never acts on that kind of resource, this is fine; else ${calls.join(', ')} fails there. ${statement.why}`,
          fix: `Add to a policy of ${where.principalArn}: ${statementFor(statement, action)}`,
          action,
          calls,
        });
        continue;
      }
      lines.push({
        area: 'permissions',
        status: 'missing',
        title: `${action} is ${denial.explicit ? 'explicitly denied' : 'not allowed'}`,
        detail: `Needed by ${calls.join(', ')} on ${on}${when}: ${statement.why}`,
        fix: denial.explicit
          ? `Remove the Deny on ${action} (a policy, permissions boundary or SCP of ${where.principalArn}), then allow it: ${statementFor(statement, action)}`
          : `Add to a policy of ${where.principalArn}: ${statementFor(statement, action)}`,
        action,
        calls,
      });
    }
  }
  return lines;
}

/** An action denied by one question: on every resource asked (`whole`) or some, and the context it was asked with. */
interface Denial {
  whole: boolean;
  resources: string[];
  explicit: boolean;
  context: Record<string, string[]>;
}

/** The context of a denial in words: ` with iam:PassedToService = sagemaker.amazonaws.com`. */
const contextWords = (context: Record<string, string[]>): string => {
  const parts = Object.entries(context).map(([k, v]) => `${k} = ${v.join(', ')}`);
  return parts.length ? ` with ${parts.join('; ')}` : '';
};

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
