import assert from 'node:assert/strict';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { describe, it } from 'node:test';

/**
 * ARCHITECTURE: the UI talks only to the REST API; of our code it may import the shared schemas
 * (src/domain/schemas), the web shell (web/src), the capabilities' UI folders and REST paths
 * (src/capabilities/<name>/ui, paths.ts; filled by src/domain/api-path.ts), the pure helpers of
 * src/domain (modules that import nothing but zod and other such modules: field labels, the
 * instance-type order, names), and nothing else — never a capability's service, routes or
 * workflows. dependency-cruiser cannot parse .ts/.tsx with TypeScript 7, so web/src is checked here
 * by reading its import specifiers.
 */
const WEB_SRC = resolve('web/src');
const ALLOWED_OUTSIDE =
  /^(src\/domain\/schemas\/[^/]+\.js|src\/domain\/api-path\.js|src\/capabilities\/[^/]+\/(ui\/.+|paths)\.js)$/;

/** A src/domain module (as `src/domain/x.js`) whose imports are zod and pure src/domain modules only. */
function pureDomainModule(target: string, seen = new Set<string>()): boolean {
  if (!/^src\/domain\/.+\.js$/.test(target)) return false;
  if (seen.has(target)) return true;
  seen.add(target);
  const source = target.replace(/\.js$/, '.ts');
  const text = statSync(source, { throwIfNoEntry: false }) ? readFileSync(source, 'utf8') : undefined;
  if (text === undefined) return false;
  return specifiers(text).every(
    (spec) =>
      spec === 'zod' ||
      (spec.startsWith('.') &&
        pureDomainModule(
          relative('.', resolve(dirname(source), spec))
            .split('\\')
            .join('/'),
          seen,
        )),
  );
}
const CAPABILITIES = resolve('src/capabilities');

function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const p = join(dir, name);
    return statSync(p).isDirectory() ? sources(p) : /\.(ts|tsx)$/.test(name) ? [p] : [];
  });
}

function specifiers(text: string): string[] {
  const found: string[] = [];
  for (const m of text.matchAll(
    /(?:import|export)\s[^'"]*?from\s*['"]([^'"]+)['"]|import\(\s*['"]([^'"]+)['"]\s*\)|import\s*['"]([^'"]+)['"]/g,
  )) {
    found.push((m[1] ?? m[2] ?? m[3])!);
  }
  return found;
}

describe('web/src imports', () => {
  it("reach only web/src, the capabilities' UI folders, packages and the shared zod schemas", () => {
    const uiFolders = readdirSync(CAPABILITIES, { withFileTypes: true })
      .filter((e) => e.isDirectory())
      .map((e) => join(CAPABILITIES, e.name, 'ui'))
      .filter((d) => statSync(d, { throwIfNoEntry: false })?.isDirectory());
    const files = [...sources(WEB_SRC), ...uiFolders.flatMap(sources)];
    assert.ok(uiFolders.length >= 4, `found the capabilities' UI folders in ${CAPABILITIES}`);
    assert.ok(files.length > 10, `found the UI sources in ${WEB_SRC}`);
    const bad: string[] = [];
    for (const file of files) {
      for (const spec of specifiers(readFileSync(file, 'utf8'))) {
        if (!spec.startsWith('.')) {
          if (/^(node:|fs$|path$|child_process$)/.test(spec))
            bad.push(`${relative('.', file)} → ${spec} (Node built-in in the browser)`);
          continue;
        }
        const target = relative('.', resolve(dirname(file), spec))
          .split('\\')
          .join('/');
        if (target.startsWith('web/src/')) continue;
        if (!ALLOWED_OUTSIDE.test(target) && !pureDomainModule(target)) bad.push(`${relative('.', file)} → ${target}`);
      }
    }
    assert.deepEqual(bad, []);
  });
});
