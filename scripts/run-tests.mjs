#!/usr/bin/env node
// Runs test files with node's test runner in the order given: `node scripts/run-tests.mjs <totals.json> <lanes> <file>…`.
// `node --test a b` sorts its files by name on Node 20, which would undo scripts/test-times.mjs's longest-first order;
// run() takes them as given. Each file still runs in a process of its own, `lanes` at a time. Prints the spec
// reporter's output and writes the totals as JSON ({ passed, failed, files }): `files` maps each file to the time its
// top-level tests took (they run one after another within a file; in the unit bundle, each member file's suite).
// Exit status 1 when a test failed.
import { writeFileSync } from 'node:fs';
import { run } from 'node:test';
import { spec } from 'node:test/reporters';
import { BUNDLE_FILE, memberOf } from './unit-bundle.mjs';

const [totalsFile, lanes, ...files] = process.argv.slice(2);
// A file whose tests hang fails after ten minutes; a single test too (the longest files take ~2.5 min alone).
const stream = run({ files, concurrency: Number(lanes), timeout: 600_000 });
let passed = 0;
let failed = 0;
const fileMs = {};
const count = (ok) => (data) => {
  if (data.nesting === 0 && data.file) {
    const file = (data.file.endsWith(BUNDLE_FILE) && memberOf(data.name)) || data.file;
    fileMs[file] = (fileMs[file] ?? 0) + (data.details?.duration_ms ?? 0);
  }
  // A suite counts only when it failed by itself (a bundled unit file that does not import), not for its tests.
  if (data.details?.type === 'suite' && (ok || data.details.error?.failureType === 'subtestsFailed')) return;
  if (ok) passed++;
  else failed++;
};
stream.on('test:pass', count(true));
stream.on('test:fail', count(false));
stream.on('end', () => {
  writeFileSync(totalsFile, JSON.stringify({ passed, failed, files: fileMs }));
  process.exitCode = failed > 0 ? 1 : 0;
});
stream.compose(new spec()).pipe(process.stdout);
