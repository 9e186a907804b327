#!/usr/bin/env node
// `npm test`: build, check the layering rules, then run every *.test.js with node's test runner.
import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { build, installIfNeeded, step } from './prepare.mjs';

// The SDK warns on Node 20 about its future releases; the lockfile pins versions that support it.
const env = { ...process.env, AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true' };

function findTests(dir) {
  const out = [];
  for (const name of readdirSync(dir)) {
    const p = join(dir, name);
    if (statSync(p).isDirectory()) out.push(...findTests(p));
    else if (name.endsWith('.test.js')) out.push(p);
  }
  return out.sort();
}

installIfNeeded();
build({ always: true });
step('', process.execPath, ['scripts/check-layers.mjs'], env);
// Filters match compiled paths; a source path (test/api/x.test.ts) names its compiled file.
const filter = process.argv.slice(2).map((x) => x.replace(/\.ts$/, '.js'));
const files = findTests('dist/test').filter((f) => filter.length === 0 || filter.some((x) => f.includes(x)));
if (files.length === 0) {
  // node --test without files would run every *.test.js under the current directory, fixtures included.
  process.stderr.write(`no test file matches ${filter.join(' ')}\n`);
  process.exit(1);
}
// Two files at a time: most tests wait on child processes (aws, kubectl, chromium) rather than the CPU.
step('', process.execPath, ['--test', '--test-reporter=spec', '--test-concurrency=2', '--test-timeout=300000', ...files], env);
