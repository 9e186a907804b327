#!/usr/bin/env node
// `npm start`: install what is missing, build when sources changed, then run.
// Until the product server exists (issue 5), this starts the sandbox cloud and says so.
import { spawnSync, spawn } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
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

function step(message, cmd, args) {
  process.stdout.write(`${message}\n`);
  const r = spawnSync(cmd, args, { stdio: 'inherit' });
  if (r.status !== 0) process.exit(r.status ?? 1);
}

const lock = 'package-lock.json';
const installed = 'node_modules/.package-lock.json';
if (!existsSync(installed) || (existsSync(lock) && statSync(lock).mtimeMs > statSync(installed).mtimeMs)) {
  step('Installing dependencies (npm ci)…', 'npm', ['ci', '--no-audit', '--no-fund']);
}
const sources = Math.max(...['src', 'sandbox', 'bin', 'test'].map(newestMtime), statSync('tsconfig.json').mtimeMs);
const built = existsSync('dist/bin/main.js') ? newestMtime('dist') : 0;
if (built < sources) step('Building (tsc)…', 'npx', ['tsc', '-p', 'tsconfig.json']);

const args = process.argv.slice(2);
process.stdout.write('The product server is not built yet (see README "Status"); starting the sandbox cloud.\n');
const child = spawn(process.execPath, ['bin/instantstart.mjs', 'sandbox', ...args], { stdio: 'inherit' });
for (const sig of ['SIGINT', 'SIGTERM']) process.on(sig, () => child.kill(sig));
child.on('exit', (code) => process.exit(code ?? 0));
