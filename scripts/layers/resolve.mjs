// Where an import specifier leads: a file of the tree (relative specifiers and the tsconfig `paths` aliases), a
// package (kept by its specifier: `@aws-sdk/client-eks`, `node:fs`), or nowhere — which fails the check.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { isBuiltin } from 'node:module';
import { dirname, join, posix } from 'node:path';
import { fileURLToPath } from 'node:url';

/** TypeScript's emitted extension → the source extensions it is written from, in the order tsc tries them. */
const SOURCE_OF = {
  '.js': ['.ts', '.tsx', '.d.ts'],
  '.jsx': ['.tsx'],
  '.mjs': ['.mts', '.d.mts'],
  '.cjs': ['.cts', '.d.cts'],
};
const EXTENSIONLESS = ['.ts', '.tsx', '.d.ts', '.js', '.mjs', '/index.ts', '/index.tsx', '/index.js'];
/** The installed packages of the checker's own repository: a fixture tree without node_modules uses them. */
const OWN_ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..');

/** tsconfig files are JSON with comments and trailing commas. */
function readJsonc(file) {
  const text = readFileSync(file, 'utf8')
    .replace(/("(?:[^"\\]|\\.)*")|\/\/[^\n]*|\/\*[\s\S]*?\*\//g, (m, str) => str ?? '')
    .replace(/,(\s*[}\]])/g, '$1');
  return JSON.parse(text);
}

/**
 * The `compilerOptions.paths` of the tree's tsconfig files (the root's and each top folder's), as
 * `{ prefix, suffix, targets, dir }` with targets root-relative. A pattern holds at most one `*`.
 */
export function readAliases(root) {
  const configs = [];
  const add = (dir) => {
    let names = [];
    try {
      names = readdirSync(join(root, dir)).filter((n) => /^tsconfig.*\.json$/.test(n));
    } catch {}
    for (const name of names) configs.push({ dir, file: join(root, dir, name) });
  };
  add('.');
  for (const entry of readdirSync(root, { withFileTypes: true })) {
    if (entry.isDirectory() && entry.name !== 'node_modules' && !entry.name.startsWith('.')) add(entry.name);
  }
  const aliases = [];
  for (const { dir, file } of configs) {
    const options = readJsonc(file).compilerOptions ?? {};
    const base = posix.join(dir, options.baseUrl ?? '.');
    for (const [pattern, targets] of Object.entries(options.paths ?? {})) {
      const star = pattern.indexOf('*');
      aliases.push({
        dir: posix.normalize(dir),
        prefix: star === -1 ? pattern : pattern.slice(0, star),
        suffix: star === -1 ? '' : pattern.slice(star + 1),
        exact: star === -1,
        targets: targets.map((t) => posix.join(base, t)),
      });
    }
  }
  return aliases;
}

/** Makes `resolve(from, spec)` for one tree: `{ file }`, `{ package }` or `{ unresolved: true }`. */
export function resolver(root) {
  const aliases = readAliases(root);
  const isFile = memo((rel) => statSync(join(root, rel), { throwIfNoEntry: false })?.isFile() ?? false);
  const packageInstalled = memo((name) =>
    [root, OWN_ROOT].some(
      (base) =>
        existsSync(join(base, 'node_modules', name)) ||
        existsSync(join(base, 'node_modules', '@types', name.replace(/^@([^/]+)\//, '$1__'))),
    ),
  );

  /** The source file a root-relative path (with or without an extension) names. */
  const sourceFile = (path) => {
    const ext = posix.extname(path);
    const stem = path.slice(0, path.length - ext.length);
    const candidates = [...(SOURCE_OF[ext] ?? []).map((e) => stem + e), path, ...EXTENSIONLESS.map((e) => path + e)];
    return candidates.find(isFile);
  };

  /** Aliases whose pattern matches `spec`: longest prefix first, the file's own folder's config before others. */
  const aliasTargets = (from, spec) =>
    aliases
      .filter((a) => (a.exact ? spec === a.prefix : spec.startsWith(a.prefix) && spec.endsWith(a.suffix)))
      .sort(
        (a, b) =>
          b.prefix.length - a.prefix.length ||
          Number(from.startsWith(`${b.dir}/`)) - Number(from.startsWith(`${a.dir}/`)),
      )
      .flatMap((a) => {
        const star = spec.slice(a.prefix.length, spec.length - a.suffix.length);
        return a.targets.map((t) => t.replace('*', star));
      });

  return (from, rawSpec) => {
    const spec = rawSpec.replace(/[?#].*$/, ''); // Vite's `?raw`, `?url`
    if (spec.startsWith('.')) {
      const target = posix.normalize(posix.join(posix.dirname(from), spec));
      const file = sourceFile(target);
      return file ? { file } : { unresolved: true };
    }
    const targets = aliasTargets(from, spec);
    if (targets.length > 0) {
      const file = targets.map(sourceFile).find(Boolean);
      return file ? { file } : { unresolved: true };
    }
    if (isBuiltin(spec)) return { package: spec, builtin: true };
    const name = spec.startsWith('@') ? spec.split('/').slice(0, 2).join('/') : spec.split('/')[0];
    return packageInstalled(name) ? { package: spec } : { unresolved: true };
  };
}

function memo(fn) {
  const cache = new Map();
  return (key) => {
    if (!cache.has(key)) cache.set(key, fn(key));
    return cache.get(key);
  };
}
