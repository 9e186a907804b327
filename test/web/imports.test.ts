import assert from 'node:assert/strict';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { describe, it } from 'node:test';

/**
 * ARCHITECTURE: the UI talks only to the REST API; of our code it may import the shared schemas
 * (src/domain/schemas), src/domain/api-path.ts and the pure helpers of src/domain (modules that import nothing but
 * zod and other such modules: field labels, the instance-type order, names), and nothing else of the server — never a
 * capability's service, routes or workflows. Its three parts are layered:
 * - the kit (web/kit, imported as `@kit/…`: components, hooks, formatting, the typed REST client) imports only itself
 *   and the domain;
 * - a capability's UI (src/capabilities/<name>/ui) imports the kit, the domain (`@domain/…`), its own folder and its
 *   capability's paths.ts, and another capability's UI only through that capability's ui/index.tsx — never the shell;
 * - the app shell (web/src) imports the kit, the domain and each capability's UI through its ui/index.tsx.
 * dependency-cruiser cannot parse .ts/.tsx with TypeScript 7, so the UI is checked here by reading its specifiers.
 */
const ALIASES: Record<string, string> = { '@kit/': 'web/kit/', '@domain/': 'src/domain/' };
const DOMAIN_ALLOWED = /^src\/domain\/(schemas\/[^/]+|api-path)\.js$/;

/** A src/domain module (as `src/domain/x.js`) whose imports are zod and pure src/domain modules only. */
function pureDomainModule(target: string, seen = new Set<string>()): boolean {
  if (!/^src\/domain\/.+\.js$/.test(target)) return false;
  if (seen.has(target)) return true;
  seen.add(target);
  const source = target.replace(/\.js$/, '.ts');
  const text = statSync(source, { throwIfNoEntry: false }) ? readFileSync(source, 'utf8') : undefined;
  if (text === undefined) return false;
  return specifiers(text).every((spec) => {
    if (spec === 'zod') return true;
    const next = resolveSpecifier(source, spec);
    return next !== undefined && pureDomainModule(next, seen);
  });
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

/** The repository path (`web/kit/api/rest.js`) an import names, through the aliases; undefined for a package. */
function resolveSpecifier(file: string, spec: string): string | undefined {
  const alias = Object.keys(ALIASES).find((a) => spec.startsWith(a));
  if (alias) return ALIASES[alias] + spec.slice(alias.length);
  if (!spec.startsWith('.')) return undefined;
  return relative('.', resolve(dirname(file), spec))
    .split('\\')
    .join('/');
}

/** Why `file` may not import `target` (both repository paths), or undefined when it may. */
function refusal(file: string, spec: string, target: string): string | undefined {
  const capability = /^src\/capabilities\/([^/]+)\/ui\//.exec(file)?.[1];
  const part = file.startsWith('web/kit/') ? 'kit' : file.startsWith('web/src/') ? 'shell' : 'capability';
  if (target.startsWith('src/domain/'))
    return DOMAIN_ALLOWED.test(target) || pureDomainModule(target) ? undefined : 'not a schema or pure domain module';
  if (target.startsWith('web/kit/')) {
    if (part !== 'kit' && !spec.startsWith('@kit/')) return 'the kit is imported as @kit/…';
    return undefined;
  }
  if (target.startsWith('web/src/'))
    return part === 'shell' ? undefined : 'the shell is above the kit and the capabilities';
  const other = /^src\/capabilities\/([^/]+)\/(.+)$/.exec(target);
  if (other && part !== 'kit') {
    const [, name, rest] = other;
    if (rest === 'ui/index.js') return undefined;
    if (name === capability && (rest.startsWith('ui/') || rest === 'paths.js')) return undefined;
    return `reach ${name} through its ui/index.tsx`;
  }
  return 'outside the UI';
}

describe('UI imports', () => {
  it('the kit, the capabilities’ UI and the shell each reach only what is below them', () => {
    const uiFolders = readdirSync(CAPABILITIES, { withFileTypes: true })
      .filter((e) => e.isDirectory())
      .map((e) => join(CAPABILITIES, e.name, 'ui'))
      .filter((d) => statSync(d, { throwIfNoEntry: false })?.isDirectory());
    const files = [...sources(resolve('web/src')), ...sources(resolve('web/kit')), ...uiFolders.flatMap(sources)];
    assert.ok(uiFolders.length >= 4, `found the capabilities' UI folders in ${CAPABILITIES}`);
    assert.ok(files.length > 10, 'found the UI sources in web/');
    const bad: string[] = [];
    for (const abs of files) {
      const file = relative('.', abs).split('\\').join('/');
      for (const spec of specifiers(readFileSync(abs, 'utf8'))) {
        if (/^(node:|fs$|path$|child_process$)/.test(spec))
          bad.push(`${file} → ${spec} (Node built-in in the browser)`);
        const target = resolveSpecifier(abs, spec);
        if (target === undefined) continue;
        const why = refusal(file, spec, target);
        if (why) bad.push(`${file} → ${spec} (${why})`);
      }
    }
    assert.deepEqual(bad, []);
  });
});
