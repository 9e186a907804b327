import assert from 'node:assert/strict';
import { execFile, execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { promisify } from 'node:util';
import { handleDiscovery } from '../../sandbox/kube/api/discovery.js';
import { clusterWithCrd } from './discovery-fixtures.js';

const run = promisify(execFile);

function hasKubectl(): boolean {
  try {
    execFileSync('kubectl', ['version', '--client'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

/**
 * The real kubectl reading the sandbox's discovery and OpenAPI documents (served alone, over plain
 * HTTP): `api-resources` from aggregated discovery, `explain` from the OpenAPI v3 documents, for
 * built-in kinds and a custom resource.
 */
describe('kubectl reads discovery and OpenAPI', { skip: hasKubectl() ? false : 'kubectl is not installed' }, () => {
  let server: Server;
  let cacheDir: string;
  const kubectl = async (...args: string[]) => {
    const port = (server.address() as AddressInfo).port;
    const { stdout } = await run(
      'kubectl',
      ['--server', `http://127.0.0.1:${port}`, '--cache-dir', cacheDir, ...args],
      { env: { ...process.env, KUBECONFIG: '/dev/null' } },
    );
    return stdout;
  };

  before(async () => {
    cacheDir = mkdtempSync(join(tmpdir(), 'kubectl-cache-'));
    const cluster = clusterWithCrd();
    server = createServer((req, res) => {
      const answer = handleDiscovery(
        cluster,
        new URL(req.url ?? '/', 'http://x').pathname,
        String(req.headers.accept ?? ''),
      );
      if (!answer) {
        res.writeHead(404, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ kind: 'Status', apiVersion: 'v1', status: 'Failure', reason: 'NotFound', code: 404 }));
        return;
      }
      res.writeHead(answer.status, answer.headers);
      res.end(answer.body);
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  });
  after(async () => {
    await new Promise((resolve) => server.close(resolve));
    rmSync(cacheDir, { recursive: true, force: true });
  });

  it('api-resources lists built-in and custom resources with short names and scope', async () => {
    const out = await kubectl('api-resources');
    assert.match(out, /^pods\s+po\s+v1\s+true\s+Pod$/m);
    assert.match(out, /^deployments\s+deploy\s+apps\/v1\s+true\s+Deployment$/m);
    assert.match(out, /^nodes\s+no\s+v1\s+false\s+Node$/m);
    assert.match(out, /^crontabs\s+ct\s+stable\.example\.com\/v1\s+true\s+CronTab$/m);
  });

  it('explain pod.spec.containers shows the fields of Container with types and documentation', async () => {
    const out = await kubectl('explain', 'pod.spec.containers');
    assert.match(out, /KIND:\s+Pod/);
    assert.match(out, /FIELD: containers <\[\]Container>/);
    assert.match(out, /^ {2}image\t<string>$/m);
    assert.match(out, /^ {2}name\t<string> -required-$/m);
    assert.match(out, /^ {2}ports\t<\[\]ContainerPort>$/m);
    assert.match(out, /Container image name/);
  });

  it('explain follows a custom resource into its CRD schema', async () => {
    const out = await kubectl('explain', 'ct.spec');
    assert.match(out, /GROUP:\s+stable\.example\.com/);
    assert.match(out, /^ {2}cronSpec\t<string> -required-$/m);
    assert.match(out, /When the job runs, in cron syntax\./);
    assert.match(out, /^ {2}size\t<string>\n {2}enum: small, large$/m);
  });
});
