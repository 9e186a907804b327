#!/usr/bin/env node
// `npm test`: build, check the layering rules, then run every *.test.js with node's test runner.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { build, installIfNeeded, step } from './prepare.mjs';
import { orderLongestFirst, recordTimes, slowestFiles } from './test-times.mjs';
import { BUNDLE_FILE, bundleUnits } from './unit-bundle.mjs';

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
// The formatter (Biome, biome.json: 120 columns) checks the whole tree first: `npm run format` rewrites it.
step('', process.execPath, ['node_modules/@biomejs/biome/bin/biome', 'format', '--reporter=summary', '.'], env);
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
// The conformance test (test/conformance/) holds what the product sent during the rest of the suite to
// its upstream definitions, so it runs after it, on the records that run left (test/helpers/conformance-recorder.ts).
const records = resolve('dist/conformance-records');
rmSync(records, { recursive: true, force: true });
mkdirSync(records, { recursive: true });
env.INSTANTSTART_CONFORMANCE_DIR = records;
const isConformance = (f) => f.includes(`${join('test', 'conformance')}/`);
// The pure unit files run as one process (unit-bundle.mjs); the others each in their own.
const { alone, members } = bundleUnits(files.filter((f) => !isConformance(f)));
const main = members.length > 0 ? [...alone, BUNDLE_FILE] : alone;
// Longest files first (test-times.mjs): two lanes finish together instead of one long file running alone at the end.
const runs = [orderLongestFirst(main, { [BUNDLE_FILE]: members }), files.filter(isConformance)].filter(
  (run) => run.length > 0,
);

let passed = 0;
let failed = 0;
let status = 0;
const fileSeconds = {};
runs.forEach((run, i) => {
  const counts = resolve(`dist/test-counts-${i}.json`);
  rmSync(counts, { force: true });
  // Three files at a time on 2 cores: the end-to-end files wait on timers (operation polls, sandbox pacing) for
  // about a third of their time, so two lanes left the CPUs idle that long (six e2e files: 140 % CPU in 61 s with two
  // lanes, 178 % in 53 s with three). TEST_CONCURRENCY overrides it.
  const r = spawnSync(
    process.execPath,
    ['scripts/run-tests.mjs', counts, String(process.env.TEST_CONCURRENCY ?? 3), ...run],
    { stdio: 'inherit', env },
  );
  if (r.status !== 0) status = r.status ?? 1;
  const totals = existsSync(counts) ? JSON.parse(readFileSync(counts, 'utf8') || '{}') : {};
  passed += totals.passed ?? 0;
  failed += totals.failed ?? (r.status === 0 ? 0 : 1);
  for (const [file, ms] of Object.entries(totals.files ?? {})) fileSeconds[relative('.', file)] = ms / 1000;
});
recordTimes(fileSeconds);
// One closing line over both runs (each run's own summary is above it), then where the time went.
process.stdout.write(`\n${passed} passed, ${failed} failed\n`);
const slowest = slowestFiles(fileSeconds, 10);
if (slowest.length > 0) {
  process.stdout.write(`\nslowest test files:\n`);
  for (const [file, seconds] of slowest) process.stdout.write(`${seconds.toFixed(1).padStart(7)} s  ${file}\n`);
}
process.exit(status);
