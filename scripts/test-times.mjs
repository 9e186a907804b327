// How long each test file took, so `npm test` can start the longest files first and say where the time went.
// node --test starts files in the order given, `--test-concurrency` at a time; with the long files first the lanes
// finish together (longest-processing-time-first), instead of one 2-minute file starting when the others are done.
//
// Where an estimate comes from, first match wins:
// 1. test-artifacts/test-times.json: this checkout's last runs (written by every `npm test`, merged per file; ignored
//    by git, like the screenshots beside it);
// 2. test/file-times.json (committed): a full run's times, for a fresh clone (CI). Refresh it by copying the file
//    above after a full `npm test` when files were added or got much faster or slower;
// 3. the folder: end-to-end, browser and kubectl files take tens of seconds, unit files a few.
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';

const LOCAL = 'test-artifacts/test-times.json';
const COMMITTED = 'test/file-times.json';
const FOLDER_SECONDS = { e2e: 30, web: 30, kube: 30, workflows: 10, sandbox: 10, cli: 10, mcp: 10, api: 10 };

/** dist/test/e2e/x.test.js → test/e2e/x.test.ts: times are kept under the source's name. */
export const sourceName = (file) => file.replace(/^dist\//, '').replace(/\.js$/, '.ts');

function read(path) {
  try {
    return existsSync(path) ? JSON.parse(readFileSync(path, 'utf8')) : {};
  } catch {
    return {}; // a damaged times file only costs the order
  }
}

/**
 * The compiled test files, longest expected first (ties keep their path order). `bundles` maps a file that runs
 * others (scripts/unit-bundle.mjs) to them: its estimate is the sum of theirs.
 */
export function orderLongestFirst(files, bundles = {}) {
  const local = read(LOCAL);
  const committed = read(COMMITTED);
  const estimate = (file) => {
    if (bundles[file]) return bundles[file].reduce((sum, member) => sum + estimate(member), 0);
    const name = sourceName(file);
    return local[name] ?? committed[name] ?? FOLDER_SECONDS[name.split('/')[1]] ?? 3;
  };
  return files
    .map((file, i) => ({ file, i, seconds: estimate(file) }))
    .sort((a, b) => b.seconds - a.seconds || a.i - b.i)
    .map((x) => x.file);
}

/** Merges this run's seconds per file (compiled paths) into test-artifacts/test-times.json. */
export function recordTimes(fileSeconds) {
  if (Object.keys(fileSeconds).length === 0) return;
  const times = read(LOCAL);
  for (const [file, seconds] of Object.entries(fileSeconds)) times[sourceName(file)] = Math.round(seconds * 10) / 10;
  const sorted = Object.fromEntries(Object.entries(times).sort(([a], [b]) => a.localeCompare(b)));
  mkdirSync(dirname(LOCAL), { recursive: true });
  writeFileSync(LOCAL, `${JSON.stringify(sorted, null, 2)}\n`);
}

/** The `count` slowest files of this run as [source name, seconds], slowest first. */
export function slowestFiles(fileSeconds, count) {
  return Object.entries(fileSeconds)
    .map(([file, seconds]) => [sourceName(file), seconds])
    .sort((a, b) => b[1] - a[1])
    .slice(0, count);
}
