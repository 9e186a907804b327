import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { SANDBOX_HF_TOKEN } from '../../sandbox/services/huggingface/access.js';
import { startTestSandbox, type TestSandbox } from '../helpers/sandbox.js';

/**
 * The Hugging Face Hub simulation over HTTP, as huggingface_hub reads it (reference: shared
 * next-capabilities.md §3): model info with siblings and sizes, revisions, resolve with the Hub's
 * headers, and its refusals with X-Error-Code.
 */
describe('sandbox: the Hugging Face Hub simulation', () => {
  let sb: TestSandbox;
  let hub: string;
  before(async () => {
    sb = await startTestSandbox();
    hub = sb.env.HF_ENDPOINT!;
  });
  after(() => sb.dispose());

  const get = (path: string, init: RequestInit = {}) => fetch(`${hub}${path}`, { redirect: 'manual', ...init });
  const bearer = (token: string) => ({ headers: { authorization: `Bearer ${token}` } });

  it('is what HF_ENDPOINT names in the sandbox environment', () => {
    assert.equal(hub, `${sb.url}/_huggingface`);
  });

  it('describes a model at a revision: the commit, the gate and each file with its size (blobs=true)', async () => {
    const main = (await (await get('/api/models/Qwen/Qwen2.5-0.5B-Instruct/revision/main?blobs=true')).json()) as any;
    assert.equal(main.id, 'Qwen/Qwen2.5-0.5B-Instruct');
    assert.match(main.sha, /^[0-9a-f]{40}$/);
    assert.equal(main.gated, false);
    const weights = main.siblings.find((s: any) => s.rfilename === 'model.safetensors');
    assert.equal(weights.lfs.size, weights.size);
    assert.match(weights.lfs.sha256, /^[0-9a-f]{64}$/);
    const tag = (await (await get('/api/models/Qwen/Qwen2.5-0.5B-Instruct/revision/v1.0')).json()) as any;
    assert.notEqual(tag.sha, main.sha);
    assert.deepEqual(Object.keys(tag.siblings[0]), ['rfilename'], 'without blobs=true, names only');
    const bySha = (await (await get(`/api/models/Qwen/Qwen2.5-0.5B-Instruct/revision/${tag.sha}`)).json()) as any;
    assert.equal(bySha.sha, tag.sha, 'a commit hash is a revision');
  });

  it("serves a file's bytes with the Hub's headers: X-Repo-Commit, ETag, X-Linked-Size for LFS files", async () => {
    const info = (await (await get('/api/models/openai-community/gpt2?blobs=true')).json()) as any;
    const weights = info.siblings.find((s: any) => s.rfilename === 'model.safetensors');
    const res = await get('/openai-community/gpt2/resolve/main/model.safetensors');
    assert.equal(res.status, 200);
    const body = Buffer.from(await res.arrayBuffer());
    assert.equal(body.length, weights.size);
    assert.equal(createHash('sha256').update(body).digest('hex'), weights.lfs.sha256);
    assert.equal(res.headers.get('x-repo-commit'), info.sha);
    assert.equal(res.headers.get('x-linked-size'), String(weights.size));
    assert.equal(res.headers.get('x-linked-etag'), `"${weights.lfs.sha256}"`);
    const head = await get('/openai-community/gpt2/resolve/main/config.json', { method: 'HEAD' });
    assert.equal(head.status, 200);
    assert.equal(head.headers.get('etag'), `"${info.siblings.find((s: any) => s.rfilename === 'config.json').blobId}"`);
  });

  it('refuses as the Hub does: RepoNotFound, RevisionNotFound, EntryNotFound (404), GatedRepo (401 anonymous, 403 not granted), bad credentials (401)', async () => {
    const expect = async (res: Response, status: number, code: string | null, message: RegExp) => {
      assert.equal(res.status, status);
      assert.equal(res.headers.get('x-error-code'), code);
      assert.match(((await res.json()) as { error: string }).error, message);
    };
    await expect(await get('/api/models/nobody/nothing'), 404, 'RepoNotFound', /Repository not found/);
    await expect(
      await get('/api/models/openai-community/gpt2/revision/v9'),
      404,
      'RevisionNotFound',
      /Invalid rev id: v9/,
    );
    await expect(
      await get('/openai-community/gpt2/resolve/main/nope.bin'),
      404,
      'EntryNotFound',
      /nope\.bin does not exist/,
    );
    const gated = (await (await get('/api/models/meta-llama/Llama-3.2-1B')).json()) as any;
    assert.equal(gated.gated, 'manual', "a gated model's information is public");
    await expect(
      await get('/meta-llama/Llama-3.2-1B/resolve/main/config.json'),
      401,
      'GatedRepo',
      /You must have access to it and be authenticated/,
    );
    await expect(
      await get('/meta-llama/Llama-3.2-1B/resolve/main/config.json', bearer('hf_SomeoneWithoutAccess0000000000000000')),
      403,
      'GatedRepo',
      /not in the authorized list/,
    );
    await expect(
      await get('/api/models/openai-community/gpt2', bearer('not-a-token')),
      401,
      null,
      /Invalid credentials in Authorization header/,
    );
    assert.equal(
      (await get('/meta-llama/Llama-3.2-1B/resolve/main/config.json', bearer(SANDBOX_HF_TOKEN))).status,
      200,
      'the sandbox token is granted',
    );
  });
});
