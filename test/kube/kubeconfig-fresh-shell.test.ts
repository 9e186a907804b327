import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { after, before, describe, it } from 'node:test';
import { parse } from 'yaml';
import { execCredentialSettings } from '../../bin/kubeconfig-credentials.js';
import { startKubeCluster, type TestKubeCluster } from '../helpers/kube.js';
import { startTestSandbox, type TestSandbox } from '../helpers/sandbox.js';

/**
 * `instantstart kubeconfig` is written in one shell and used in another: kubectl with only the
 * kubeconfig — no AWS_* in its environment — must reach the sandbox cluster.
 */
describe('instantstart kubeconfig works in a fresh shell', () => {
  let sb: TestSandbox;
  let k: TestKubeCluster;
  before(async () => {
    sb = await startTestSandbox();
    k = await startKubeCluster(sb, 'fresh');
  });
  after(async () => sb.dispose());

  it("kubectl with the kubeconfig alone (no AWS settings in the environment) lists the cluster's namespaces", async () => {
    // A fresh shell: PATH to find kubectl, an empty HOME (no ~/.aws), the kubeconfig — nothing else.
    const env = { PATH: process.env.PATH ?? '', HOME: sb.stateDir, KUBECONFIG: k.kubeconfigPath };
    const { code, stdout, stderr } = await new Promise<{ code: number; stdout: string; stderr: string }>((resolve) =>
      execFile('kubectl', ['get', 'namespaces'], { env }, (err, out, errOut) =>
        resolve({ code: err ? 1 : 0, stdout: out, stderr: errOut }),
      ),
    );
    assert.equal(code, 0, stderr);
    assert.match(stdout, /\nkube-system\s+Active\s+/);
  });

  it("carries the endpoint and the sandbox's throwaway keys in the exec plugin's env", () => {
    const config = parse(readFileSync(k.kubeconfigPath, 'utf8'));
    const env = Object.fromEntries(
      (config.users[0].user.exec.env as Array<{ name: string; value: string }>).map((e) => [e.name, e.value]),
    );
    assert.equal(env.AWS_ENDPOINT_URL, sb.env.AWS_ENDPOINT_URL);
    assert.equal(env.AWS_ACCESS_KEY_ID, sb.env.AWS_ACCESS_KEY_ID);
  });

  it('never writes real AWS keys into a kubeconfig: it carries the profile, or says what to export', () => {
    const real = execCredentialSettings({
      AWS_ACCESS_KEY_ID: 'AKIAREALKEY000000000',
      AWS_SECRET_ACCESS_KEY: 'real-secret',
      AWS_SESSION_TOKEN: 'tok',
    });
    assert.deepEqual(real.env, {});
    assert.match(real.advice ?? '', /export AWS_ACCESS_KEY_ID, AWS_SECRET_ACCESS_KEY, AWS_SESSION_TOKEN/);
    assert.doesNotMatch(JSON.stringify(real), /real-secret|tok"/);
    const profile = execCredentialSettings({ AWS_PROFILE: 'team', AWS_CONFIG_FILE: '/home/me/.aws/config' });
    assert.deepEqual(profile, { env: { AWS_PROFILE: 'team', AWS_CONFIG_FILE: '/home/me/.aws/config' } });
  });
});
