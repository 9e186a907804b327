// A node:test reporter that writes the totals of a run as JSON ({ passed, failed, files }), so scripts/test.mjs can
// print one closing line over its two runs (the suite, then the conformance test) and the slowest test files:
// `files` maps each file to the time its top-level tests took (they run one after another within a file).
export default async function* countReporter(source) {
  let passed = 0;
  let failed = 0;
  const files = {};
  for await (const event of source) {
    if (event.type === 'test:pass' || event.type === 'test:fail') {
      const { file, nesting, details } = event.data;
      if (nesting === 0 && file) files[file] = (files[file] ?? 0) + (details?.duration_ms ?? 0);
    }
    if (event.data?.details?.type === 'suite') continue;
    if (event.type === 'test:pass') passed++;
    else if (event.type === 'test:fail') failed++;
  }
  yield JSON.stringify({ passed, failed, files });
}
