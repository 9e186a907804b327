import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { TestSandbox } from '../helpers/sandbox.js';
import { startSandboxAndServer, stopAll, type TestServer } from '../helpers/server.js';
import { call } from '../mcp/client-helpers.js';

const SPEED = 600;
const url = '/api/v1/clusters/feat/features';

const ADDONS = {
  'cert-manager': 'cert-manager',
  'metrics-server': 'metrics-server',
  's3-csi-driver': 'aws-mountpoint-s3-csi-driver',
  'fsx-csi-driver': 'aws-fsx-csi-driver',
  'training-operator': 'amazon-sagemaker-hyperpod-training-operator',
  'inference-operator': 'amazon-sagemaker-hyperpod-inference',
} as const;

/**
 * Managed features end to end on the sandbox, under the diff contract: a PATCH names only what
 * changed; what a feature needs is installed first (the order is read from the sandbox's call log);
 * turning off what an enabled feature needs is refused before anything happens; an applied PATCH
 * repeated costs no mutation at all.
 *
 * NEEDS THE MERGED BODIES of issue 16's contracts (resolveAddonVersion, ensureFeatureIdentities,
 * featureIdentityStates, inferenceOperatorConfigurationValues): create-cluster's dependencies and the
 * inference operator go through them.
 */
describe('managed features through REST and MCP on the sandbox (the diff contract)', () => {
  let sb: TestSandbox;
  let server: TestServer;
  let mcp: Client;
  const lastSeq = async () => Math.max(0, ...(await sb.calls()).map((c) => c.seq));
  const mutationsAfter = (seq: number) => sb.calls({ mutating: true, after: seq });
  const features = async () => {
    const r = await server.api('GET', url);
    assert.equal(r.status, 200, JSON.stringify(r.body));
    return new Map<string, any>(r.body.features.map((f: any) => [f.id, f]));
  };
  /** GET's answer once it shows `ready` (GET keeps its answer a few seconds; a change made outside the product shows after that). */
  const featureWhen = async (id: string, ready: (f: any) => boolean) => {
    const deadline = Date.now() + 10_000;
    for (;;) {
      const f = (await features()).get(id);
      if (ready(f) || Date.now() > deadline) return f;
      await new Promise((r) => setTimeout(r, 250));
    }
  };
  const operationsCount = async () =>
    (await server.api('GET', '/api/v1/operations?kind=set-features&limit=100')).body.operations.length;
  /** A PATCH that must start set-features, followed to success. */
  const patch = async (body: unknown) => {
    const r = await server.api('PATCH', url, body);
    assert.equal(r.status, 202, JSON.stringify(r.body));
    const op = await server.waitForOperation(r.body.operation.id);
    assert.equal(op.status, 'succeeded', JSON.stringify(op.error ?? op.phases));
    return { ...r, op };
  };

  before(async () => {
    ({ sb, server } = await startSandboxAndServer(SPEED));
    const created = await server.api('POST', '/api/v1/clusters', {
      name: 'feat',
      availabilityZone: 'us-west-2a',
      instanceType: 'ml.c5.xlarge',
      instanceCount: 1,
      storage: { s3: false },
    });
    assert.equal(created.status, 202, JSON.stringify(created.body));
    const op = await server.waitForOperation(created.body.operation.id);
    assert.equal(op.status, 'succeeded', JSON.stringify(op.error ?? op.phases));
    mcp = new Client({ name: 'e2e-features', version: '1.0.0' });
    await mcp.connect(new StreamableHTTPClientTransport(new URL(`${server.url}/mcp`)));
  });
  after(() => stopAll(mcp, server, sb));

  it('reads what create set as the default features, from the cluster', async () => {
    const f = await features();
    for (const id of [
      'pod-identity-agent',
      'cert-manager',
      'health-monitoring-agent',
      'device-plugins',
      'training-operator',
    ])
      assert.equal(f.get(id).state, 'on', `${id}: ${JSON.stringify(f.get(id))}`);
    for (const id of [
      'metrics-server',
      's3-csi-driver',
      'fsx-csi-driver',
      'inference-operator',
      'kuberay-operator',
      'tiered-checkpointing',
      'autoscaling',
    ])
      assert.equal(f.get(id).state, 'off', id);
    const training = f.get('training-operator');
    assert.match(training.version, /^v\d+\.\d+\.\d+/);
    assert.deepEqual(training.needs, ['cert-manager', 'pod-identity-agent']);
    assert.deepEqual(f.get('cert-manager').neededBy, ['training-operator', 'inference-operator']);
    assert.equal(f.get('health-monitoring-agent').toggleable, false);
    const addon = (
      await sb.aws(['eks', 'describe-addon', '--cluster-name', 'feat-eks', '--addon-name', ADDONS['training-operator']])
    ).json.addon;
    assert.equal(training.version, addon.addonVersion, "the version is EKS's, read live");
    // AmazonSageMakerHyperPodTrainingOperatorAccess describes nodes only of a cluster tagged SageMaker=true: create
    // tags it,
    // and the sandbox, evaluating that policy for the operator's pod identity role, finds nothing refused.
    const arn = (await sb.aws(['sagemaker', 'describe-cluster', '--cluster-name', 'feat'])).json.ClusterArn;
    const tags = (await sb.aws(['sagemaker', 'list-tags', '--resource-arn', arn])).json.Tags;
    assert.ok(
      tags.some((t: any) => t.Key === 'SageMaker' && t.Value === 'true'),
      JSON.stringify(tags),
    );
    assert.equal(addon.status, 'ACTIVE', JSON.stringify(addon.health));
  });

  it('a PATCH with one key touches only that feature (cert-manager, now needed by nothing named, stays)', async () => {
    const before = await lastSeq();
    await patch({ 'training-operator': false });
    const mutations = await mutationsAfter(before);
    assert.ok(
      mutations.some((c) => c.operation === 'DeleteAddon' && c.subject === ADDONS['training-operator']),
      JSON.stringify(mutations),
    );
    const other = mutations.filter(
      (c) => c.subject !== ADDONS['training-operator'] && !/training-op/.test(c.subject ?? ''),
    );
    assert.deepEqual(other, [], 'no mutation about any other feature');
    const f = await features();
    assert.equal(f.get('training-operator').state, 'off');
    assert.equal(f.get('cert-manager').state, 'on');
  });

  it('removes what nothing needs any more when asked', async () => {
    await patch({ 'cert-manager': false });
    assert.equal((await features()).get('cert-manager').state, 'off');
  });

  it('plans enabling the inference operator before anything happens: what it needs first, the objects each makes', async () => {
    const before = await lastSeq();
    const r = await server.api('POST', `${url}/plan`, { 'inference-operator': true });
    assert.equal(r.status, 200, JSON.stringify(r.body));
    const plan = r.body;
    assert.deepEqual(
      plan.install.map((i: any) => [i.feature, i.reason]),
      [
        ['cert-manager', 'needed'],
        ['metrics-server', 'needed'],
        ['s3-csi-driver', 'needed'],
        ['fsx-csi-driver', 'needed'],
        ['inference-operator', 'requested'],
      ],
    );
    assert.deepEqual(plan.install[0].neededBy, ['inference-operator']);
    const inference = plan.install.at(-1).objects.map((o: any) => `${o.action} ${o.kind} ${o.name}`);
    assert.ok(
      inference.some((o: string) => /^create EKS add-on amazon-sagemaker-hyperpod-inference/.test(o)),
      inference.join('\n'),
    );
    // The execution role is named as AmazonSageMakerHyperPodInferenceAccess may pass it.
    assert.ok(
      inference.some((o: string) => /^create IAM role SageMakerHyperPodInference-feat-[0-9a-z]{6}$/.test(o)),
      inference.join('\n'),
    );
    assert.equal(
      inference.filter((o: string) => o.startsWith('create IAM OIDC provider')).length,
      1,
      'one provider, however many roles trust it',
    );
    assert.ok(
      inference.some((o: string) => /^create S3 bucket sagemaker-feat-.*-tls$/.test(o)),
      inference.join('\n'),
    );
    assert.equal(plan.noOp, false);
    assert.deepEqual(await mutationsAfter(before), [], 'a plan changes nothing');
  });

  it('enabling the inference operator alone installs cert-manager, the CSI drivers and metrics-server first (call log order)', async () => {
    // Needs first, for real: while cert-manager's install fails, the inference operator is not even asked for.
    const fault = await sb.admin('/_sandbox/faults', {
      method: 'POST',
      body: {
        type: 'create-failure',
        service: 'eks',
        addonName: 'cert-manager',
        message: 'cert-manager webhook did not become ready',
      },
    });
    assert.equal(fault.status, 201, JSON.stringify(fault.body));
    const before = await lastSeq();
    const started = await server.api('PATCH', url, { 'inference-operator': true });
    assert.equal(started.status, 202, JSON.stringify(started.body));
    const id = started.body.operation.id;
    const failed = await server.waitForOperation(id);
    assert.equal(failed.status, 'failed');
    assert.equal(failed.error.phase, 'install');
    assert.match(failed.error.message, /cert-manager: cert-manager webhook did not become ready/);
    const asked = (await mutationsAfter(before)).filter((c) => c.operation === 'CreateAddon').map((c) => c.subject);
    assert.ok(
      !asked.includes(ADDONS['inference-operator']),
      `the inference operator waits for what it needs: ${asked.join(', ')}`,
    );

    // A retry of the phase replaces the failed cert-manager, then installs the inference operator.
    assert.equal((await server.api('POST', `/api/v1/operations/${id}/phases/install/retry`)).status, 202);
    const op = await server.waitForOperation(id);
    assert.equal(op.status, 'succeeded', JSON.stringify(op.error ?? op.phases));
    const calls = (await mutationsAfter(before)).filter((c) => c.operation === 'CreateAddon' && c.status < 300);
    const creates = calls.map((c) => c.subject);
    const last = (id: keyof typeof ADDONS) => creates.lastIndexOf(ADDONS[id]);
    for (const need of ['cert-manager', 'metrics-server', 's3-csi-driver', 'fsx-csi-driver'] as const) {
      assert.ok(last(need) >= 0, `${need} installed: ${creates.join(', ')}`);
      assert.ok(
        last(need) < last('inference-operator'),
        `${need} before the inference operator: ${creates.join(', ')}`,
      );
    }
    assert.deepEqual(
      Object.values(ADDONS)
        .filter((a) => a !== ADDONS['training-operator'])
        .map((a) => creates.filter((c) => c === a).length),
      [2, 1, 1, 1, 1],
      `cert-manager twice (failed, then again), every other add-on once: ${creates.join(', ')}`,
    );
    const progress = op.result.features as Array<{ feature: string; step: string }>;
    assert.deepEqual(progress.map((p) => [p.feature, p.step]).sort(), [
      ['cert-manager', 'done'],
      ['fsx-csi-driver', 'done'],
      ['inference-operator', 'done'],
      ['metrics-server', 'done'],
      ['s3-csi-driver', 'done'],
    ]);
    const f = await features();
    for (const id of ['cert-manager', 'metrics-server', 's3-csi-driver', 'fsx-csi-driver', 'inference-operator'])
      assert.equal(f.get(id).state, 'on', id);

    // The execution role, as IAM and EKS hold it: named for the managed policy, trusted by SageMaker and the operator,
    // named by the add-on.
    const exec = f.get('inference-operator').identities.find((i: any) => i.id === 'execution');
    assert.match(exec.roleName, /^SageMakerHyperPodInference-feat-[0-9a-z]{6}$/);
    assert.equal(exec.present, true);
    const role = (await sb.aws(['iam', 'get-role', '--role-name', exec.roleName])).json.Role;
    const trust =
      typeof role.AssumeRolePolicyDocument === 'string'
        ? JSON.parse(decodeURIComponent(role.AssumeRolePolicyDocument))
        : role.AssumeRolePolicyDocument;
    assert.deepEqual(
      trust.Statement.map((st: any) => st.Principal.Service ?? (st.Principal.Federated ? 'federated' : '')).sort(),
      ['federated', 'sagemaker.amazonaws.com'],
    );
    assert.ok(
      role.Tags.some((t: any) => t.Key === 'instantstart.io/cluster' && t.Value === 'feat'),
      "tagged as the cluster's",
    );
    const addon = (
      await sb.aws([
        'eks',
        'describe-addon',
        '--cluster-name',
        'feat-eks',
        '--addon-name',
        ADDONS['inference-operator'],
      ])
    ).json.addon;
    assert.equal(JSON.parse(addon.configurationValues).executionRoleArn, role.Arn);
    assert.equal(addon.status, 'ACTIVE', JSON.stringify(addon.health));
  });

  it('refuses to turn off cert-manager while the inference operator needs it: 422 naming both, nothing changed', async () => {
    const before = await lastSeq();
    const ops = await operationsCount();
    const r = await server.api('PATCH', url, { 'cert-manager': false });
    assert.equal(r.status, 422, JSON.stringify(r.body));
    assert.match(r.headers.get('content-type') ?? '', /application\/problem\+json/);
    assert.equal(r.body.errors[0].path, 'cert-manager');
    assert.match(r.body.errors[0].message, /inference-operator/);
    assert.deepEqual(await mutationsAfter(before), []);
    assert.equal(await operationsCount(), ops, 'no operation started');
    assert.equal((await features()).get('cert-manager').state, 'on');
  });

  it('a repeated PATCH that is already applied answers 200 "nothing to do": zero mutations, no operation', async () => {
    const before = await lastSeq();
    const ops = await operationsCount();
    const r = await server.api('PATCH', url, { 'inference-operator': true });
    assert.equal(r.status, 200, JSON.stringify(r.body));
    assert.equal(r.body.noOp, true);
    assert.deepEqual(r.body.plan.unchanged, ['inference-operator']);
    assert.deepEqual(await mutationsAfter(before), []);
    assert.equal(await operationsCount(), ops);
  });

  it('refuses a feature whose IAM role could not be named for a cluster name this long, on `name`, before any AWS call', async () => {
    const before = await lastSeq();
    const long = `c${'x'.repeat(62)}`;
    const r = await server.api('PATCH', `/api/v1/clusters/${long}/features`, { 'training-operator': true });
    assert.equal(r.status, 400, JSON.stringify(r.body));
    assert.equal(r.body.errors[0].path, 'name');
    assert.match(r.body.errors[0].message, /cannot name an IAM role: 'instantstart-cx+-training-op' is not 1–64/);
    assert.deepEqual(
      (await sb.calls({ after: before })).filter((c: unknown) => JSON.stringify(c).includes(long)),
      [],
      'no AWS call about that cluster',
    );
  });

  it('refuses unknown keys and features that are not toggles, naming the key (400, nothing changed)', async () => {
    for (const [body, path] of [
      [{ 'warp-drive': true }, 'warp-drive'],
      [{ 'device-plugins': false }, 'device-plugins'],
    ] as const) {
      const r = await server.api('PATCH', url, body);
      assert.equal(r.status, 400, JSON.stringify(r.body));
      assert.ok(JSON.stringify(r.body.errors).includes(path), JSON.stringify(r.body));
    }
  });

  it('through MCP: get_features, plan_features, set_features (a no-op says so; a change names wait_for_operation)', async () => {
    const shown = await call(mcp, 'get_features', { cluster: 'feat' });
    assert.ok(!shown.isError, shown.text);
    assert.match(shown.text, /inference-operator: on/);
    assert.match(shown.text, /training-operator: off/);
    const plan = await call(mcp, 'plan_features', { cluster: 'feat', changes: { 'training-operator': true } });
    assert.ok(!plan.isError, plan.text);
    assert.match(plan.text, /install training-operator: create IAM role instantstart-feat-training-op/);
    const same = await call(mcp, 'set_features', { cluster: 'feat', changes: { 'inference-operator': true } });
    assert.ok(!same.isError, same.text);
    assert.equal((same.structuredContent as any).noOp, true);
    const refused = await call(mcp, 'set_features', { cluster: 'feat', changes: { 'metrics-server': false } });
    assert.ok(refused.isError);
    assert.match(refused.text, /metrics-server.*inference-operator/s);
    const started = await call(mcp, 'set_features', {
      cluster: 'feat',
      changes: { 'training-operator': true },
      idempotencyKey: 'features-training-on',
    });
    assert.ok(!started.isError, started.text);
    assert.match(started.text, /wait_for_operation/);
    const id = (started.structuredContent as any).operationId;
    assert.equal((await server.waitForOperation(id)).status, 'succeeded');
    const again = await call(mcp, 'set_features', {
      cluster: 'feat',
      changes: { 'training-operator': true },
      idempotencyKey: 'features-training-on',
    });
    assert.equal((again.structuredContent as any).operationId, id, 'the same key answers with the same operation');
    assert.equal((await features()).get('training-operator').state, 'on');
  });

  it('repoints an add-on whose values name another execution role: "configuration out of date", then one PATCH reconfigures it', async () => {
    const exec = (await features())
      .get('inference-operator')
      .identities.find((i: any) => i.id === 'execution').roleName;
    const addon = (
      await sb.aws([
        'eks',
        'describe-addon',
        '--cluster-name',
        'feat-eks',
        '--addon-name',
        ADDONS['inference-operator'],
      ])
    ).json.addon;
    const values = JSON.parse(addon.configurationValues);
    const other = values.executionRoleArn.replace(exec, 'SageMakerHyperPodInference-someone-else');
    await sb.aws([
      'eks',
      'update-addon',
      '--cluster-name',
      'feat-eks',
      '--addon-name',
      ADDONS['inference-operator'],
      '--configuration-values',
      JSON.stringify({ ...values, executionRoleArn: other }),
    ]);
    await sb.advance(5 * 60);
    const stale = await featureWhen('inference-operator', (f) => /out of date/.test(f.health));
    assert.equal(stale.state, 'on');
    assert.match(
      stale.health,
      new RegExp(
        `configuration out of date \\(executionRoleArn names SageMakerHyperPodInference-someone-else, not ${exec}\\)`,
      ),
    );
    const plan = (await server.api('POST', `${url}/plan`, { 'inference-operator': true })).body;
    assert.deepEqual(
      plan.install.map((i: any) => [i.feature, i.reason]),
      [['inference-operator', 'reconfigure']],
    );
    const before = await lastSeq();
    await patch({ 'inference-operator': true });
    const updates = (await mutationsAfter(before)).filter((c) => c.operation === 'UpdateAddon');
    assert.equal(updates.length, 1, JSON.stringify(updates));
    const fixed = (
      await sb.aws([
        'eks',
        'describe-addon',
        '--cluster-name',
        'feat-eks',
        '--addon-name',
        ADDONS['inference-operator'],
      ])
    ).json.addon;
    assert.equal(JSON.parse(fixed.configurationValues).executionRoleArn, values.executionRoleArn);
    assert.equal((await features()).get('inference-operator').health, 'ACTIVE');
  });

  it('moves a cluster whose add-on named the former role instantstart-<cluster>-inference-exec: the add-on refuses it, one PATCH installs it anew and deletes that role', async () => {
    const former = 'instantstart-feat-inference-exec';
    const exec = (await features())
      .get('inference-operator')
      .identities.find((i: any) => i.id === 'execution').roleName;
    const current = (await sb.aws(['iam', 'get-role', '--role-name', exec])).json.Role;
    const trust =
      typeof current.AssumeRolePolicyDocument === 'string'
        ? decodeURIComponent(current.AssumeRolePolicyDocument)
        : JSON.stringify(current.AssumeRolePolicyDocument);
    const tags = [
      'Key=instantstart.io/managed-by,Value=instantstart',
      'Key=instantstart.io/cluster,Value=feat',
      'Key=instantstart.io/feature,Value=inference-operator',
    ];
    const formerArn = (
      await sb.aws([
        'iam',
        'create-role',
        '--role-name',
        former,
        '--assume-role-policy-document',
        trust,
        '--tags',
        ...tags,
      ])
    ).json.Role.Arn;
    const values = JSON.parse(
      (
        await sb.aws([
          'eks',
          'describe-addon',
          '--cluster-name',
          'feat-eks',
          '--addon-name',
          ADDONS['inference-operator'],
        ])
      ).json.addon.configurationValues,
    );
    await sb.aws([
      'eks',
      'update-addon',
      '--cluster-name',
      'feat-eks',
      '--addon-name',
      ADDONS['inference-operator'],
      '--configuration-values',
      JSON.stringify({ ...values, executionRoleArn: formerArn }),
    ]);
    await sb.advance(5 * 60);
    const refused = await featureWhen('inference-operator', (f) => f.state === 'failed');
    assert.equal(refused.state, 'failed', JSON.stringify(refused));
    assert.match(refused.health, /executionRoleArn must have a role name with prefix 'SageMakerHyperPodInference'/);
    const { op } = await patch({ 'inference-operator': true });
    const logs = (await server.api('GET', `/api/v1/operations/${op.id}/events?limit=1000`)).body.lines;
    assert.match(JSON.stringify(logs), new RegExp(`IAM role ${former} is the former name of ${exec}`));
    const got = await sb.aws(['iam', 'get-role', '--role-name', former], { allowFailure: true });
    assert.match(got.stderr, /NoSuchEntity/, 'the former role InstantStart made is deleted');
    const addon = (
      await sb.aws([
        'eks',
        'describe-addon',
        '--cluster-name',
        'feat-eks',
        '--addon-name',
        ADDONS['inference-operator'],
      ])
    ).json.addon;
    assert.equal(addon.status, 'ACTIVE', JSON.stringify(addon.health));
    assert.equal(JSON.parse(addon.configurationValues).executionRoleArn, values.executionRoleArn);
  });

  it('turns the inference operator off: its add-on and its roles go; what it needed stays on', async () => {
    await patch({ 'inference-operator': false });
    const f = await features();
    assert.equal(f.get('inference-operator').state, 'off');
    for (const id of ['cert-manager', 'metrics-server', 's3-csi-driver', 'fsx-csi-driver'])
      assert.equal(f.get(id).state, 'on', id);
    // The exit code of a service error differs between aws CLI v1 (255) and v2 (254): read the error instead.
    const addon = await sb.aws(
      ['eks', 'describe-addon', '--cluster-name', 'feat-eks', '--addon-name', ADDONS['inference-operator']],
      { allowFailure: true },
    );
    assert.match(addon.stderr, /ResourceNotFoundException/, `the add-on is gone (${addon.code})`);
    for (const role of ['inference-gated', 'inference-alb', 'inference-keda']) {
      const got = await sb.aws(['iam', 'get-role', '--role-name', `instantstart-feat-${role}`], { allowFailure: true });
      assert.match(got.stderr, /NoSuchEntity/, `${role} removed (${got.code})`);
    }
    const left = (await sb.aws(['iam', 'list-roles'])).json.Roles.map((r: any) => r.RoleName).filter((n: string) =>
      /^SageMakerHyperPodInference-feat-/.test(n),
    );
    assert.deepEqual(left, [], 'the execution role removed');
  });

  it("managed autoscaling is a toggle too: on for a group (HyperPod's AutoScaling setting, read with the aws CLI), then off", async () => {
    const groups = (await server.api('GET', '/api/v1/clusters/feat/instance-groups')).body.instanceGroups.map(
      (g: { name: string }) => g.name,
    );
    await patch({ autoscaling: { instanceGroups: [groups[0]] } });
    const on = (await features()).get('autoscaling');
    assert.equal(on.state, 'on', JSON.stringify(on));
    assert.deepEqual(on.config.instanceGroups, [groups[0]]);
    assert.equal(
      (await sb.aws(['sagemaker', 'describe-cluster', '--cluster-name', 'feat'])).json.AutoScaling.Mode,
      'Enable',
    );
    await patch({ autoscaling: false });
    assert.equal((await features()).get('autoscaling').state, 'off');
    assert.equal(
      (await sb.aws(['sagemaker', 'describe-cluster', '--cluster-name', 'feat'])).json.AutoScaling.Mode,
      'Disable',
    );
  });

  it('deleting the cluster with the inference operator on leaves nothing behind, its execution role included', async () => {
    await patch({ 'inference-operator': true });
    const exec = (await features())
      .get('inference-operator')
      .identities.find((i: any) => i.id === 'execution').roleName;
    assert.equal((await sb.aws(['iam', 'get-role', '--role-name', exec])).code, 0);
    const del = await server.api('DELETE', '/api/v1/clusters/feat?confirm=true');
    assert.equal(del.status, 202, JSON.stringify(del.body));
    const op = await server.waitForOperation(del.body.operation.id);
    assert.equal(op.status, 'succeeded', JSON.stringify(op.error ?? op.phases));
    const roles = (await sb.aws(['iam', 'list-roles'])).json.Roles.map((r: any) => r.RoleName).filter((n: string) =>
      n.includes('feat'),
    );
    assert.deepEqual(roles, [], 'every role of the cluster is gone');
  });
});
