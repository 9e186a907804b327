import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { kubeAccess } from '../helpers/kube.js';
import { startTestSandbox, type TestSandbox } from '../helpers/sandbox.js';
import { spawnServer, type ServerProcess } from '../helpers/server.js';

/**
 * A model download survives a crash of the server: SIGKILL while the download phase follows the
 * Job, restart, and the operation finishes by finding the same Job by its name (same uid, one pod)
 * — nothing is created twice, and what landed is listed.
 */
describe('model download crash resume: SIGKILL while the Job runs, restart, the same Job finishes it', () => {
  let sb: TestSandbox;
  let dataDir: string;
  let server: ServerProcess | undefined;
  before(async () => {
    sb = await startTestSandbox({ speed: 600 });
    dataDir = mkdtempSync(join(tmpdir(), 'instantstart-download-crash-'));
  });
  after(async () => {
    await server?.stop();
    await sb?.dispose();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('finishes after a kill during the download with one Job and one pod', async () => {
    server = await spawnServer(sb, dataDir);
    const created = await server.api('POST', '/api/v1/clusters', {
      name: 'resumes',
      availabilityZone: 'us-west-2b',
      instanceType: 'ml.c5.xlarge',
      instanceCount: 1,
      storage: { s3: true },
    });
    assert.equal(created.status, 202, JSON.stringify(created.body));
    assert.equal((await server.waitForOperation(created.body.operation.id)).status, 'succeeded');
    const kube = await kubeAccess(sb, 'resumes-eks');
    // Real time from here: the download takes seconds, long enough to be interrupted.
    await sb.admin('/_sandbox/clock', { method: 'POST', body: { speed: 3 } });

    const started = await server.api('POST', '/api/v1/clusters/resumes/model-downloads', {
      modelId: 'meta-llama/Llama-3.2-1B',
      storage: 'shared-s3',
      token: 'hf_SandboxGrantedAccessToken000000000000',
    });
    assert.equal(started.status, 202, JSON.stringify(started.body));
    const { id, input } = started.body.operation;
    for (let i = 0; ; i++) {
      const op = (await server.api('GET', `/api/v1/operations/${id}`)).body;
      if (op.phases.find((p: any) => p.name === 'download').status === 'awaiting') break;
      assert.ok(i < 400 && op.status !== 'succeeded', 'the download phase awaits the Job before the operation ends');
      await new Promise((r) => setTimeout(r, 25));
    }
    const uid = (await kube.kubectl(['get', 'job', input.jobName, '-o', 'jsonpath={.metadata.uid}'])).stdout;
    await server.kill();
    server = await spawnServer(sb, dataDir);

    const op = await server.waitForOperation(id);
    assert.equal(op.status, 'succeeded', JSON.stringify(op.error ?? op.phases));
    assert.ok(op.result.files.some((f: any) => f.path === 'model.safetensors'));
    assert.equal(
      (await kube.kubectl(['get', 'job', input.jobName, '-o', 'jsonpath={.metadata.uid}'])).stdout,
      uid,
      'the same Job',
    );
    const jobs = (
      await kube.kubectl(['get', 'jobs', '-l', `instantstart.dev/model-download=${input.jobName}`, '-o', 'name'])
    ).stdout
      .trim()
      .split('\n');
    assert.deepEqual(jobs, [`job.batch/${input.jobName}`]);
    const pods = (
      await kube.kubectl(['get', 'pods', '-l', `batch.kubernetes.io/job-name=${input.jobName}`, '-o', 'name'])
    ).stdout
      .trim()
      .split('\n');
    assert.equal(pods.length, 1, 'one pod: nothing ran twice');
    const secret = await kube.kubectl(['get', 'secret', input.tokenSecret], { allowFailure: true });
    assert.notEqual(secret.code, 0, "the token's Secret is gone");
  });
});
