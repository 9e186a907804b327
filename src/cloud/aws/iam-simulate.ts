import { type ContextEntry, SimulatePrincipalPolicyCommand } from '@aws-sdk/client-iam';
import type { PolicySimulation, SimulatedDecision } from '../ports.js';
import type { AwsClients } from './clients.js';
import { awsCall } from './errors.js';

/**
 * IAM SimulatePrincipalPolicy (IAM API Reference, 2010-05-08; @aws-sdk/client-iam v3): PolicySourceArn is required,
 * ActionNames required (each 3–128 characters, no count limit in the model), ResourceArns and ContextEntries
 * optional; the answer is paged by MaxItems (1–1000) and Marker. Every page is read, so one question whose
 * actions × resources exceed a page still answers whole.
 */
const PAGE = 1000;

export async function simulatePrincipalPolicy(
  clients: AwsClients,
  question: PolicySimulation,
): Promise<SimulatedDecision[]> {
  const contextEntries: ContextEntry[] = Object.entries(question.context ?? {}).map(([key, values]) => ({
    ContextKeyName: key,
    ContextKeyValues: [...values],
    // A key with one value is a string; several make a list (IAM's ContextKeyTypeEnum).
    ContextKeyType: values.length === 1 ? 'string' : 'stringList',
  }));
  const out: SimulatedDecision[] = [];
  let marker: string | undefined;
  do {
    const page = await awsCall('iam', 'SimulatePrincipalPolicy', () =>
      clients.iam().send(
        new SimulatePrincipalPolicyCommand({
          PolicySourceArn: question.principalArn,
          ActionNames: [...question.actions],
          ...(question.resources?.length ? { ResourceArns: [...question.resources] } : {}),
          ...(contextEntries.length ? { ContextEntries: contextEntries } : {}),
          MaxItems: PAGE,
          ...(marker ? { Marker: marker } : {}),
        }),
      ),
    );
    for (const r of page.EvaluationResults ?? [])
      out.push({
        action: r.EvalActionName ?? '',
        resource: r.EvalResourceName ?? '*',
        decision: r.EvalDecision === 'allowed' || r.EvalDecision === 'explicitDeny' ? r.EvalDecision : 'implicitDeny',
        matchedPolicies: (r.MatchedStatements ?? []).map((m) => m.SourcePolicyId ?? '').filter(Boolean),
        missingContextValues: r.MissingContextValues ?? [],
      });
    marker = page.IsTruncated ? page.Marker : undefined;
  } while (marker);
  return out;
}
