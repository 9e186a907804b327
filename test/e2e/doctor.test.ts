import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { after, before, describe, it } from 'node:test';
import { CreateRoleCommand, IAMClient, PutRolePolicyCommand } from '@aws-sdk/client-iam';
import { PRODUCT_POLICY, productPolicyDocument } from '../../src/domain/iam/product-policy.js';
import type { DoctorReport } from '../../src/domain/schemas/doctor.js';
import { startTestSandbox, type TestSandbox } from '../helpers/sandbox.js';
import { startTestServer, stopAll, type TestServer } from '../helpers/server.js';

/**
 * `instantstart doctor` on the sandbox (issue 30 item 6). The sandbox has no STS AssumeRole, so the server cannot act
 * as a role here: the role lacking one action is checked through `?principalArn=` (the same simulation the server runs
 * for an assumed-role caller, src/domain/iam/simulation-plan.ts simulatedPrincipal); the sandbox administrator — the
 * server's own identity — is checked as the caller.
 */

const trust = JSON.stringify({
  Version: '2012-10-17',
  Statement: [{ Effect: 'Allow', Principal: { Service: 'ec2.amazonaws.com' }, Action: 'sts:AssumeRole' }],
});
const LACKING = 'eks:DeleteCluster';

describe('instantstart doctor', () => {
  let sb: TestSandbox;
  let server: TestServer;
  let roleArn: string;
  before(async () => {
    sb = await startTestSandbox();
    server = await startTestServer(sb, { speed: 1 });
    const iam = new IAMClient({});
    const statements = PRODUCT_POLICY.map((s) => ({ ...s, actions: s.actions.filter((a) => a !== LACKING) })).filter(
      (s) => s.actions.length > 0,
    );
    roleArn = (
      await iam.send(new CreateRoleCommand({ RoleName: 'instantstart-doctor', AssumeRolePolicyDocument: trust }))
    ).Role!.Arn!;
    await iam.send(
      new PutRolePolicyCommand({
        RoleName: 'instantstart-doctor',
        PolicyName: 'product',
        PolicyDocument: JSON.stringify(productPolicyDocument(statements)),
      }),
    );
    iam.destroy();
  });
  after(async () => stopAll(server, sb));

  it('names the one action a role lacks, its why and the call that needs it, with zero mutating calls', async () => {
    const mark = (await sb.calls()).at(-1)?.seq ?? 0;
    assert.ok(
      (await sb.calls({ mutating: true })).some((c) => c.operation === 'CreateRole'),
      'the log marks writes',
    );
    const r = await server.api<DoctorReport>('GET', `/api/v1/doctor?principalArn=${encodeURIComponent(roleArn)}`);
    assert.equal(r.status, 200, JSON.stringify(r.body));
    assert.equal(r.body.ok, false);
    assert.equal(r.body.principalArn, roleArn);
    const notOk = r.body.lines.filter((l) => l.status !== 'ok');
    assert.deepEqual(
      notOk.map((l) => [l.status, l.action]),
      [['missing', LACKING]],
      JSON.stringify(notOk),
    );
    const line = notOk[0]!;
    const statement = PRODUCT_POLICY.find((s) => s.actions.includes(LACKING))!;
    assert.ok(line.detail.includes(statement.why), line.detail);
    assert.ok(line.calls?.includes('EKS DeleteCluster'), JSON.stringify(line.calls));
    assert.match(line.fix ?? '', /"Action":"eks:DeleteCluster"/);
    assert.match(line.fix ?? '', /aws:ResourceTag\/instantstart.io\/managed-by/);
    // Every other statement was simulated and found allowed.
    const ok = r.body.lines.filter((l) => l.area === 'permissions' && l.status === 'ok');
    assert.equal(ok.length, PRODUCT_POLICY.length - 1);
    const calls = await sb.calls({ after: mark });
    assert.ok(calls.some((c) => c.operation === 'SimulatePrincipalPolicy'));
    assert.deepEqual(
      calls.filter((c) => c.mutating).map((c) => `${c.service} ${c.operation}`),
      [],
    );
  });

  it('with the full policy (the sandbox administrator) every line is ok', async () => {
    const mark = (await sb.calls()).at(-1)?.seq ?? 0;
    const r = await server.api<DoctorReport>('GET', '/api/v1/doctor?instanceTypes=ml.g5.8xlarge');
    assert.equal(r.status, 200, JSON.stringify(r.body));
    assert.deepEqual(
      r.body.lines.filter((l) => l.status !== 'ok'),
      [],
    );
    assert.equal(r.body.ok, true);
    assert.equal(r.body.principalArn, 'arn:aws:iam::000000000000:user/sandbox-admin');
    const areas = new Set(r.body.lines.map((l) => l.area));
    assert.deepEqual([...areas].sort(), ['credentials', 'kubernetes', 'network', 'permissions', 'quotas']);
    assert.match(r.body.lines.find((l) => l.area === 'network')!.detail, /0 of 5 in use/);
    assert.deepEqual(
      (await sb.calls({ after: mark, mutating: true })).map((c) => c.operation),
      [],
    );
  });

  it('asks each condition value and resource: a PassRole to EKS only is missing, a create scoped to its own resource type a warning', async () => {
    const iam = new IAMClient({});
    const statements = PRODUCT_POLICY.flatMap((s) => {
      if (s.sid === 'IamPassOwnRoles')
        return [{ ...s, conditions: { StringEquals: { 'iam:PassedToService': 'eks.amazonaws.com' } } }];
      if (s.sid !== 'HyperPodCreateTagged') return [s];
      // What a careful administrator writes: each create on its own resource type.
      return [
        { ...s, sid: 'CreateClusters', actions: ['sagemaker:CreateCluster'], resources: [s.resources[0]!] },
        { ...s, sid: 'CreateServers', actions: ['sagemaker:CreateMlflowTrackingServer'], resources: [s.resources[1]!] },
        { ...s, sid: 'TagCreates', actions: ['sagemaker:AddTags'] },
      ];
    });
    const arn = (
      await iam.send(new CreateRoleCommand({ RoleName: 'instantstart-doctor-scoped', AssumeRolePolicyDocument: trust }))
    ).Role!.Arn!;
    await iam.send(
      new PutRolePolicyCommand({
        RoleName: 'instantstart-doctor-scoped',
        PolicyName: 'product',
        PolicyDocument: JSON.stringify(productPolicyDocument(statements)),
      }),
    );
    iam.destroy();
    const r = await server.api<DoctorReport>('GET', `/api/v1/doctor?principalArn=${encodeURIComponent(arn)}`);
    assert.equal(r.status, 200, JSON.stringify(r.body));
    const notOk = r.body.lines.filter((l) => l.status !== 'ok');
    assert.deepEqual(
      notOk.map((l) => [l.status, l.action]),
      [
        ['warning', 'sagemaker:CreateCluster'],
        ['warning', 'sagemaker:CreateMlflowTrackingServer'],
        ['missing', 'iam:PassRole'],
      ],
      JSON.stringify(notOk, null, 1),
    );
    assert.match(notOk[2]!.detail, /with iam:PassedToService = sagemaker\.amazonaws\.com/);
    assert.match(notOk[0]!.detail, /Not on arn:aws:sagemaker:us-west-2:000000000000:mlflow-tracking-server\/\*/);
  });

  it('names a cluster that does not exist', async () => {
    const r = await server.api<DoctorReport>('GET', '/api/v1/doctor?cluster=no-such-cluster');
    assert.equal(r.status, 200, JSON.stringify(r.body));
    assert.deepEqual(
      r.body.lines.filter((l) => l.area === 'cluster').map((l) => [l.status, l.detail]),
      [['missing', 'No cluster named no-such-cluster in us-west-2.']],
    );
    assert.equal(r.body.ok, false);
  });

  it('refuses a malformed instance type or principal naming the field', async () => {
    const bad = await server.api('GET', '/api/v1/doctor?instanceTypes=g5.8xlarge');
    assert.equal(bad.status, 400);
    assert.match(JSON.stringify(bad.body), /instanceTypes/);
    const who = await server.api('GET', '/api/v1/doctor?principalArn=arn:aws:iam::000000000000:group/x');
    assert.equal(who.status, 400);
    assert.match(JSON.stringify(who.body), /principalArn/);
  });

  it('the CLI prints the lines and exits 1 when a line is not ok, 0 when all are', async () => {
    const cli = (args: string[]) =>
      promisify(execFile)(process.execPath, ['dist/bin/main.js', 'doctor', '--url', server.url, ...args]).then(
        (r) => ({ code: 0, stdout: r.stdout }),
        (err: { code: number; stdout: string }) => ({ code: err.code, stdout: err.stdout }),
      );
    const lacking = await cli(['--principal-arn', roleArn]);
    assert.equal(lacking.code, 1, lacking.stdout);
    assert.match(lacking.stdout, /missing +eks:DeleteCluster is not allowed/);
    assert.match(lacking.stdout, /fix: Add to a policy of/);
    const all = await cli([]);
    assert.equal(all.code, 0, all.stdout);
    assert.match(all.stdout, /^Ready: every check is ok/);
  });
});
