import { copyFileSync, mkdirSync, readFileSync, rmSync, writeFileSync, openSync, readSync, closeSync } from 'node:fs';
import { join } from 'node:path';
import { hexId } from '../../core/ids.js';
import type { SandboxRuntime } from '../../core/service.js';

/**
 * Object and part bodies, one file each in the runtime's blob directory. Files are written before
 * the state points at them and removed after it stops doing so, so a failed request leaves no trace
 * in the state. `/_sandbox/reset` removes the whole directory, hence the mkdir on every write.
 */
function dir(runtime: SandboxRuntime): string {
  mkdirSync(runtime.blobDir, { recursive: true });
  return runtime.blobDir;
}

export function writeBlob(runtime: SandboxRuntime, data: Buffer): string {
  const name = hexId(32);
  writeFileSync(join(dir(runtime), name), data);
  return name;
}

/** A new blob holding `sources` one after another (CompleteMultipartUpload), read one at a time. */
export function concatBlobs(runtime: SandboxRuntime, sources: string[]): string {
  const name = hexId(32);
  const path = join(dir(runtime), name);
  writeFileSync(path, '');
  for (const source of sources) writeFileSync(path, readBlob(runtime, source), { flag: 'a' });
  return name;
}

export function copyBlob(runtime: SandboxRuntime, source: string): string {
  const name = hexId(32);
  copyFileSync(join(runtime.blobDir, source), join(dir(runtime), name));
  return name;
}

export function readBlob(runtime: SandboxRuntime, name: string): Buffer {
  return readFileSync(join(runtime.blobDir, name));
}

/** Bytes [start, end] inclusive, without reading the whole file. */
export function readBlobRange(runtime: SandboxRuntime, name: string, start: number, end: number): Buffer {
  const length = end - start + 1;
  const out = Buffer.alloc(length);
  const fd = openSync(join(runtime.blobDir, name), 'r');
  try {
    let read = 0;
    while (read < length) {
      const n = readSync(fd, out, read, length - read, start + read);
      if (n === 0) break;
      read += n;
    }
    return out.subarray(0, read);
  } finally {
    closeSync(fd);
  }
}

export function removeBlob(runtime: SandboxRuntime, name: string): void {
  rmSync(join(runtime.blobDir, name), { force: true });
}
