#!/usr/bin/env node
// `npm test`: build, check the layering rules, then run every *.test.js with node's test runner.
import { spawnSync } from 'node:child_process';
import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';

// The SDK warns on Node 20 about its future releases; the lockfile pins versions that support it.
const env = { ...process.env, AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true' };

function run(cmd, args) {
  const r = spawnSync(cmd, args, { stdio: 'inherit', env });
  if (r.status !== 0) process.exit(r.status ?? 1);
}

function findTests(dir) {
  const out = [];
  for (const name of readdirSync(dir)) {
    const p = join(dir, name);
    if (statSync(p).isDirectory()) out.push(...findTests(p));
    else if (name.endsWith('.test.js')) out.push(p);
  }
  return out.sort();
}

run('npx', ['tsc', '-p', 'tsconfig.json']);
run('node', ['scripts/check-layers.mjs']);
const filter = process.argv.slice(2);
const files = findTests('dist/test').filter((f) => filter.length === 0 || filter.some((x) => f.includes(x)));
run('node', ['--test', '--test-reporter=spec', '--test-timeout=300000', ...files]);
