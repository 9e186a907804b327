import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { startApi, type TestApi } from './api-harness.js';

/**
 * The real kubectl against the API over plain HTTP: `kubectl create` (whose typed clients send
 * protobuf), Table output with `-o wide`, scale and delete.
 */
describe('kube API: kubectl', () => {
  let api: TestApi;
  let dir: string;
  before(async () => {
    api = await startApi();
    dir = mkdtempSync(join(tmpdir(), 'api-kubectl-'));
    writeFileSync(
      join(dir, 'config'),
      `apiVersion: v1\nkind: Config\nclusters: [{name: t, cluster: {server: "${api.url}"}}]\nusers: [{name: t, user: {token: x}}]\ncontexts: [{name: t, context: {cluster: t, user: t, namespace: default}}]\ncurrent-context: t\n`,
    );
  });
  after(async () => {
    await api.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const kubectl = (...args: string[]) =>
    new Promise<string>((resolve, reject) =>
      execFile(
        'kubectl',
        args,
        { env: { ...process.env, KUBECONFIG: join(dir, 'config'), HOME: dir } },
        (err, stdout, stderr) => (err ? reject(new Error(`kubectl ${args.join(' ')}: ${stderr}`)) : resolve(stdout)),
      ),
    );

  it('creates with kubectl create (protobuf bodies) and shows the objects as kubectl get does', async () => {
    assert.match(await kubectl('create', 'namespace', 'team'), /namespace\/team created/);
    await kubectl('create', 'deployment', 'web', '--image=nginx:1.27', '--replicas=2', '--port=8080', '-n', 'team');
    await kubectl('create', 'configmap', 'cfg', '--from-literal=a=1', '-n', 'team');
    await kubectl('create', 'secret', 'generic', 'creds', '--from-literal=pw=hunter2', '-n', 'team');
    await kubectl('create', 'service', 'clusterip', 'web', '--tcp=80:8080', '-n', 'team');
    const deployments = await kubectl('get', 'deployments', '-n', 'team', '-o', 'wide');
    assert.match(deployments, /^NAME\s+READY\s+UP-TO-DATE\s+AVAILABLE\s+AGE\s+CONTAINERS\s+IMAGES\s+SELECTOR\n/);
    assert.match(deployments, /\nweb\s+0\/2\s+0\s+0\s+\S+\s+nginx\s+nginx:1\.27\s+app=web\n/);
    assert.equal(
      await kubectl('get', 'secret', 'creds', '-n', 'team', '-o', 'jsonpath={.data.pw}'),
      Buffer.from('hunter2').toString('base64'),
    );
    assert.equal(
      await kubectl(
        'get',
        'deploy',
        'web',
        '-n',
        'team',
        '-o',
        'jsonpath={.spec.template.spec.containers[0].ports[0].containerPort}',
      ),
      '8080',
    );
    assert.match(await kubectl('get', 'configmaps', '-n', 'team'), /cfg\s+1\s+/);
    assert.match(await kubectl('get', 'svc', '-n', 'team'), /web\s+ClusterIP\s+172\.20\.\d+\.\d+\s+<none>\s+80\/TCP/);
  });

  it('scales and deletes', async () => {
    assert.match(await kubectl('scale', 'deployment', 'web', '--replicas=5', '-n', 'team'), /scaled/);
    assert.equal(await kubectl('get', 'deploy', 'web', '-n', 'team', '-o', 'jsonpath={.spec.replicas}'), '5');
    assert.match(await kubectl('delete', 'namespace', 'team'), /namespace "team" deleted/);
    assert.match(await kubectl('get', 'namespaces'), /^NAME\s+STATUS\s+AGE\ndefault\s+Active\s+\S+\n$/);
  });
});
