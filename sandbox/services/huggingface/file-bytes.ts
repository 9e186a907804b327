import { createHash } from 'node:crypto';
import type { HubFile } from './catalog.js';

/**
 * The bytes of a file of the Hub simulation: a pure function of (repository, commit, path, size),
 * so every download of the same file gets the same content. JSON files are valid JSON, other text
 * files readable lines, weights pseudo-random bytes. Plus the identifiers the Hub reports for them:
 * the git blob id (sha1 of `blob <size>\0<content>`) and, for LFS files, the sha256 of the content.
 */

const cache = new Map<string, Buffer>();
const CACHE_ENTRIES = 32;

export function fileBytes(repo: string, commitSha: string, file: HubFile): Buffer {
  const key = `${repo}|${commitSha}|${file.path}|${file.size}`;
  const hit = cache.get(key);
  if (hit) return hit;
  const bytes = file.lfs ? pseudoRandom(key, file.size) : textContent(repo, commitSha, file);
  cache.set(key, bytes);
  if (cache.size > CACHE_ENTRIES) cache.delete(cache.keys().next().value!);
  return bytes;
}

function pseudoRandom(seed: string, size: number): Buffer {
  const out = Buffer.alloc(size);
  for (let offset = 0, block = 0; offset < size; block++) {
    const chunk = createHash('sha512').update(`${seed}|${block}`).digest();
    offset += chunk.copy(out, offset, 0, Math.min(chunk.length, size - offset));
  }
  return out;
}

function textContent(repo: string, commitSha: string, file: HubFile): Buffer {
  if (file.path.endsWith('.json') && file.size >= 12) {
    // {"pad":"xxxx"}\n — valid JSON of exactly the listed size.
    return Buffer.from(`{"pad":"${'x'.repeat(file.size - 11)}"}\n`);
  }
  const line = `${file.path} of ${repo} at ${commitSha.slice(0, 7)} (Hugging Face Hub simulation)\n`;
  return Buffer.from(line.repeat(Math.ceil(file.size / line.length)).slice(0, file.size));
}

/** The git blob id the Hub reports as `blobId` (and as the ETag of a small file). */
export const gitBlobId = (content: Buffer) =>
  createHash('sha1').update(`blob ${content.length}\0`).update(content).digest('hex');

export const sha256Hex = (content: Buffer) => createHash('sha256').update(content).digest('hex');
