import { randomUUID } from 'node:crypto';
import type { RawHttpResponse } from '../../core/service.js';
import { bearerToken, credentialsDenial, fileDenial, type Denial } from './access.js';
import { findModel, resolveRevision, type HubCommit, type HubModel } from './catalog.js';
import { fileBytes, gitBlobId, sha256Hex } from './file-bytes.js';

/**
 * The Hugging Face Hub simulation's HTTP API, on the sandbox's HTTP port under HUB_PATH_PREFIX, so
 * `HF_ENDPOINT=<sandbox>/_huggingface` points huggingface_hub, the `hf` CLI or any client at it
 * (they append `/api/models/…` and `/<repo>/resolve/…` to the endpoint). It serves what downloaders
 * use (docs/SANDBOX.md, "Hugging Face Hub"):
 *
 * - `GET /api/models/{repo}[/revision/{rev}]` — model info: `id`, `sha`, `gated`, `private`,
 *   `siblings` (with `?blobs=true`: `size`, `blobId`, `lfs {sha256, size, pointerSize}`), …;
 * - `GET|HEAD /{repo}/resolve/{rev}/{path}` — the file's bytes, with `X-Repo-Commit`, `ETag`
 *   and, for LFS files, `X-Linked-Etag` / `X-Linked-Size`.
 *
 * Errors are the Hub's: a JSON `{"error": …}` body with `X-Error-Code` (RepoNotFound,
 * RevisionNotFound, EntryNotFound, GatedRepo) and `X-Error-Message`. Differences from the Hub: a
 * missing repository is a 404 with or without a token (the Hub answers 401 to anonymous callers),
 * LFS files are served directly rather than through a redirect to a CDN, and `Range` is ignored.
 */

export const HUB_PATH_PREFIX = '/_huggingface';

/** What `HF_ENDPOINT` is for the Hub simulation of the sandbox at `sandboxUrl`. */
export const hubEndpointOf = (sandboxUrl: string) => `${sandboxUrl.replace(/\/$/, '')}${HUB_PATH_PREFIX}`;

/** The answer when the path is the Hub simulation's; undefined otherwise (the request goes on to AWS). */
export function serveHuggingFace(
  sandboxUrl: string,
  method: string,
  rawPath: string,
  query: URLSearchParams,
  authorization: string | undefined,
): RawHttpResponse | undefined {
  if (rawPath !== HUB_PATH_PREFIX && !rawPath.startsWith(`${HUB_PATH_PREFIX}/`)) return undefined;
  const requestId = randomUUID();
  const endpoint = hubEndpointOf(sandboxUrl);
  const segments = rawPath.slice(HUB_PATH_PREFIX.length).split('/').filter(Boolean).map(decode);
  if (segments.some((s) => s === undefined)) return error(requestId, 400, undefined, 'Bad request: malformed path');
  const parts = segments as string[];
  if (method !== 'GET' && method !== 'HEAD')
    return { status: 405, headers: { allow: 'GET, HEAD', 'x-request-id': requestId } };
  const token = bearerToken(authorization);
  const badToken = credentialsDenial(token);
  if (badToken) return denied(requestId, badToken);

  if (parts[0] === 'api' && parts[1] === 'models' && parts.length >= 4) {
    const repo = `${parts[2]}/${parts[3]}`;
    const revision =
      parts[4] === 'revision' && parts.length >= 6 ? parts.slice(5).join('/') : parts.length === 4 ? 'main' : undefined;
    if (revision === undefined) return error(requestId, 404, undefined, 'Not Found');
    const model = findModel(repo);
    if (!model) return repoNotFound(requestId);
    const commit = resolveRevision(model, revision);
    if (!commit) return error(requestId, 404, 'RevisionNotFound', `Invalid rev id: ${revision}`);
    return json(requestId, 200, modelInfo(model, commit, query.get('blobs') === 'true'), method === 'HEAD');
  }
  if (parts.length >= 5 && parts[2] === 'resolve') {
    const model = findModel(`${parts[0]}/${parts[1]}`);
    if (!model) return repoNotFound(requestId);
    const denial = fileDenial(model, token, endpoint);
    if (denial) return denied(requestId, denial);
    const commit = resolveRevision(model, parts[3]!);
    if (!commit) return error(requestId, 404, 'RevisionNotFound', `Invalid rev id: ${parts[3]}`);
    const path = parts.slice(4).join('/');
    const file = commit.files.find((f) => f.path === path);
    if (!file) return error(requestId, 404, 'EntryNotFound', `${path} does not exist on "${commit.ref}"`);
    const body = fileBytes(model.id, commit.sha, file);
    const headers: Record<string, string> = {
      'content-type': file.path.endsWith('.json')
        ? 'application/json'
        : file.lfs
          ? 'application/octet-stream'
          : 'text/plain; charset=utf-8',
      'content-length': String(body.length),
      'x-repo-commit': commit.sha,
      'accept-ranges': 'bytes',
      'x-request-id': requestId,
      etag: `"${file.lfs ? sha256Hex(body) : gitBlobId(body)}"`,
      ...(file.lfs ? { 'x-linked-etag': `"${sha256Hex(body)}"`, 'x-linked-size': String(body.length) } : {}),
    };
    return { status: 200, headers, ...(method === 'HEAD' ? {} : { body }) };
  }
  return error(requestId, 404, undefined, 'Not Found');
}

/** What `GET /api/models/{repo}/revision/{rev}` answers (the fields downloaders read, and a few more). */
export function modelInfo(model: HubModel, commit: HubCommit, blobs: boolean): Record<string, unknown> {
  const [author] = model.id.split('/');
  return {
    _id: model.refs.get('main')!.sha.slice(0, 24),
    id: model.id,
    modelId: model.id,
    author,
    sha: commit.sha,
    lastModified: commit.date,
    createdAt: model.createdAt,
    private: false,
    disabled: false,
    gated: model.gated,
    downloads: model.downloads,
    likes: model.likes,
    library_name: model.libraryName,
    pipeline_tag: model.pipelineTag,
    tags: model.tags,
    siblings: commit.files.map((f) => {
      if (!blobs) return { rfilename: f.path };
      const body = fileBytes(model.id, commit.sha, f);
      return {
        rfilename: f.path,
        size: f.size,
        blobId: gitBlobId(body),
        ...(f.lfs ? { lfs: { sha256: sha256Hex(body), size: f.size, pointerSize: 134 } } : {}),
      };
    }),
    usedStorage: commit.files.reduce((n, f) => n + f.size, 0),
  };
}

function decode(segment: string): string | undefined {
  try {
    return decodeURIComponent(segment);
  } catch {
    return undefined;
  }
}

function json(
  requestId: string,
  status: number,
  body: unknown,
  headOnly = false,
  headers: Record<string, string> = {},
): RawHttpResponse {
  const text = JSON.stringify(body);
  return {
    status,
    headers: {
      'content-type': 'application/json; charset=utf-8',
      'content-length': String(Buffer.byteLength(text)),
      'x-request-id': requestId,
      ...headers,
    },
    ...(headOnly ? {} : { body: text }),
  };
}

function error(requestId: string, status: number, code: string | undefined, message: string): RawHttpResponse {
  return json(requestId, status, { error: message }, false, {
    'x-error-message': message,
    ...(code ? { 'x-error-code': code } : {}),
  });
}

const repoNotFound = (requestId: string) => error(requestId, 404, 'RepoNotFound', 'Repository not found');

const denied = (requestId: string, d: Denial) => error(requestId, d.status, d.code, d.message);
