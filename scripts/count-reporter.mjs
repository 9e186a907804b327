// A node:test reporter that writes only the totals of a run, as JSON ({ passed, failed }), so
// scripts/test.mjs can print one closing line over its two runs (the suite, then the conformance test).
export default async function* countReporter(source) {
  let passed = 0;
  let failed = 0;
  for await (const event of source) {
    if (event.data?.details?.type === 'suite') continue;
    if (event.type === 'test:pass') passed++;
    else if (event.type === 'test:fail') failed++;
  }
  yield JSON.stringify({ passed, failed });
}
