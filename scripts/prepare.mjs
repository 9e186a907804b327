// Shared by `npm start` and `npm test`: install dependencies when missing or stale,
// and rebuild when any source is newer than the build — so both work on a fresh clone.
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';

function newestMtime(dir) {
  let newest = 0;
  if (!existsSync(dir)) return newest;
  for (const name of readdirSync(dir)) {
    if (name === 'node_modules' || name.startsWith('.')) continue;
    const p = join(dir, name);
    const s = statSync(p);
    newest = Math.max(newest, s.isDirectory() ? newestMtime(p) : s.mtimeMs);
  }
  return newest;
}

export function step(message, cmd, args, env = process.env) {
  if (message) process.stdout.write(`${message}\n`);
  const r = spawnSync(cmd, args, { stdio: 'inherit', env });
  if (r.status !== 0) process.exit(r.status ?? 1);
}

export function installIfNeeded() {
  const lock = 'package-lock.json';
  const installed = 'node_modules/.package-lock.json';
  if (!existsSync(installed) || (existsSync(lock) && statSync(lock).mtimeMs > statSync(installed).mtimeMs)) {
    step('Installing dependencies (npm ci)…', 'npm', ['ci', '--no-audit', '--no-fund']);
  }
}

/** Compile with the project's own TypeScript (never a global or npx-downloaded one), then bundle the UI. */
export function build({ always = false } = {}) {
  const sources = Math.max(
    ...['src', 'sandbox', 'bin', 'test', 'bench'].map(newestMtime),
    statSync('tsconfig.json').mtimeMs,
  );
  const built = existsSync('dist/bin/main.js') ? newestMtime('dist/bin') : 0;
  const webSources = Math.max(newestMtime('web'), newestMtime('src/domain'), newestMtime('src/capabilities'));
  const webBuilt = existsSync('dist/web/index.html') ? statSync('dist/web/index.html').mtimeMs : 0;
  const rebuildAll = always || built < sources;
  if (rebuildAll) {
    // A clean build: compiled files of deleted sources must not linger (tests are found in dist/).
    rmSync('dist', { recursive: true, force: true });
    step('Building (tsc)…', process.execPath, ['node_modules/typescript/bin/tsc', '-p', 'tsconfig.json']);
  }
  if (existsSync('web/vite.config.ts') && (rebuildAll || webBuilt < webSources)) {
    step('Type-checking the UI (tsc)…', process.execPath, [
      'node_modules/typescript/bin/tsc',
      '-p',
      'web/tsconfig.json',
    ]);
    step('Building the UI (vite)…', process.execPath, [
      'node_modules/vite/bin/vite.js',
      'build',
      '--config',
      'web/vite.config.ts',
      '--logLevel',
      'warn',
    ]);
  }
}
