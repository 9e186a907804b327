import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import {
  CreateRoleCommand,
  IAMClient,
  PutRolePolicyCommand,
  SimulatePrincipalPolicyCommand,
} from '@aws-sdk/client-iam';
import { policyActions } from '../../src/domain/iam/policy-actions.js';
import { PRODUCT_POLICY, productPolicyDocument } from '../../src/domain/iam/product-policy.js';
import { startTestSandbox, type TestSandbox } from '../helpers/sandbox.js';

/**
 * The sandbox's IAM SimulatePrincipalPolicy (sandbox/services/iam/simulate.ts), as `instantstart doctor` will ask it:
 * a role given the product's policy minus one action is told `implicitDeny` for exactly that action.
 */

const trust = JSON.stringify({
  Version: '2012-10-17',
  Statement: [{ Effect: 'Allow', Principal: { Service: 'ec2.amazonaws.com' }, Action: 'sts:AssumeRole' }],
});

describe('sandbox IAM SimulatePrincipalPolicy', () => {
  let sb: TestSandbox;
  let iam: IAMClient;
  before(async () => {
    sb = await startTestSandbox();
    iam = new IAMClient({});
  });
  after(async () => sb.dispose());

  it("decides each action for a role's policies, naming the statement that allowed it", async () => {
    const lacking = 'eks:DeleteCluster';
    const statements = PRODUCT_POLICY.map((s) => ({ ...s, actions: s.actions.filter((a) => a !== lacking) })).filter(
      (s) => s.actions.length > 0,
    );
    const role = await iam.send(new CreateRoleCommand({ RoleName: 'doctor-probe', AssumeRolePolicyDocument: trust }));
    await iam.send(
      new PutRolePolicyCommand({
        RoleName: 'doctor-probe',
        PolicyName: 'product',
        PolicyDocument: JSON.stringify(productPolicyDocument(statements)),
      }),
    );
    const actions = policyActions(PRODUCT_POLICY)
      .filter((a) => !a.startsWith('sagemaker-mlflow:'))
      .slice(0, 5);
    actions.push(lacking, 'sts:GetCallerIdentity');
    const r = await iam.send(
      new SimulatePrincipalPolicyCommand({ PolicySourceArn: role.Role!.Arn!, ActionNames: actions }),
    );
    const decided = new Map(r.EvaluationResults!.map((e) => [e.EvalActionName!, e]));
    assert.equal(decided.get(lacking)?.EvalDecision, 'implicitDeny');
    assert.deepEqual(decided.get(lacking)?.MatchedStatements, []);
    const who = decided.get('sts:GetCallerIdentity');
    assert.equal(who?.EvalDecision, 'allowed');
    assert.equal(who?.MatchedStatements?.[0]?.SourcePolicyId, 'product');
    assert.equal(r.IsTruncated, false);
  });

  it('evaluates conditions from the context entries, and refuses an unknown principal', async () => {
    const arn = (await iam.send(new CreateRoleCommand({ RoleName: 'doctor-pass', AssumeRolePolicyDocument: trust })))
      .Role!.Arn!;
    await iam.send(
      new PutRolePolicyCommand({
        RoleName: 'doctor-pass',
        PolicyName: 'product',
        PolicyDocument: JSON.stringify(productPolicyDocument()),
      }),
    );
    const pass = (service: string) =>
      iam.send(
        new SimulatePrincipalPolicyCommand({
          PolicySourceArn: arn,
          ActionNames: ['iam:PassRole'],
          ResourceArns: ['arn:aws:iam::000000000000:role/instantstart-demo-eks-cluster'],
          ContextEntries: [
            { ContextKeyName: 'iam:PassedToService', ContextKeyValues: [service], ContextKeyType: 'string' },
          ],
        }),
      );
    assert.equal((await pass('eks.amazonaws.com')).EvaluationResults?.[0]?.EvalDecision, 'allowed');
    assert.equal((await pass('ec2.amazonaws.com')).EvaluationResults?.[0]?.EvalDecision, 'implicitDeny');
    await assert.rejects(
      iam.send(
        new SimulatePrincipalPolicyCommand({
          PolicySourceArn: 'arn:aws:iam::000000000000:role/nobody',
          ActionNames: ['sts:GetCallerIdentity'],
        }),
      ),
      { name: 'NoSuchEntityException' },
    );
  });
});
