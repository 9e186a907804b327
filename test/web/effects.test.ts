import assert from 'node:assert/strict';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { describe, it } from 'node:test';

/**
 * An effect's callback may return only a cleanup function. A concise arrow body returns whatever its
 * expression returns: `useEffect(() => window.scrollTo(0, 0))` returned a Promise in current Chromium,
 * React called it as the cleanup on leaving the page, and the whole app went blank (issue 26, item 1).
 * TypeScript does not catch it (the DOM types say scrollTo returns void), so the UI's effects are
 * written with a block body, or as `() => () => …` when the body is itself the cleanup.
 * test/web/route-leave.test.ts proves the same in a browser, page by page.
 */
function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const p = join(dir, name);
    return statSync(p).isDirectory() ? sources(p) : /\.(ts|tsx)$/.test(name) ? [p] : [];
  });
}

const UI_SOURCES = [
  ...sources(resolve('web/src')),
  ...sources(resolve('web/kit')),
  ...readdirSync(resolve('src/capabilities'))
    .map((c) => resolve('src/capabilities', c))
    .filter((d) => statSync(d).isDirectory() && statSync(join(d, 'ui'), { throwIfNoEntry: false })?.isDirectory())
    .map((d) => join(d, 'ui'))
    .flatMap(sources),
];

/** Effects whose callback is a concise arrow whose body is not itself an arrow function (a cleanup). */
export function conciseEffects(text: string): string[] {
  const found: string[] = [];
  for (const m of text.matchAll(
    /\buse(?:Layout|Insertion)?Effect\(\s*(?:async\s*)?\(\s*\)\s*=>(?!\s*\{)(?!\s*\(\s*\)\s*=>)\s*([^\n]{0,60})/g,
  )) {
    found.push(m[0]);
  }
  return found;
}

describe("the UI's effects return nothing but a cleanup function", () => {
  it('the check finds a concise effect body and lets the written forms pass', () => {
    assert.equal(conciseEffects('useEffect(() => window.scrollTo(0, 0), [id]);').length, 1);
    assert.equal(conciseEffects('useLayoutEffect(() => watch(x), []);').length, 1);
    assert.equal(conciseEffects('useEffect(() => {\n  window.scrollTo(0, 0);\n}, [id]);').length, 0);
    assert.equal(conciseEffects('useEffect(() => () => void cleanup(), [a]);').length, 0);
  });

  it(`no effect in web/ or src/capabilities/*/ui has a concise body (${UI_SOURCES.length} files)`, () => {
    assert.ok(UI_SOURCES.length > 20, 'the UI sources were found');
    const offenders = UI_SOURCES.flatMap((file) =>
      conciseEffects(readFileSync(file, 'utf8')).map((e) => `${relative('.', file)}: ${e}`),
    );
    assert.deepEqual(
      offenders,
      [],
      'write these effects with a block body: { … } (a concise body returns its value, and React calls it)',
    );
  });
});
