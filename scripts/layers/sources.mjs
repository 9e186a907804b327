// The import statements of every source file, read by oxc-parser (it parses TypeScript and TSX as written and marks
// type-only imports and exports; see check-layers.mjs for why not the TypeScript compiler or dependency-cruiser).
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseSync, Visitor } from 'oxc-parser';

/** The folders whose files are checked; node_modules, dist and dot-folders inside them are skipped. */
export const SOURCE_ROOTS = ['src', 'web', 'sandbox', 'bin', 'bench', 'scripts', 'test'];
const SOURCE_FILE = /\.(ts|tsx|mts|cts|js|jsx|mjs|cjs)$/;
const SKIPPED_DIRS = new Set(['node_modules', 'dist']);

/** Every source file under `root`'s SOURCE_ROOTS, as a root-relative path with forward slashes, sorted. */
export function sourceFiles(root) {
  const found = [];
  const walk = (rel) => {
    let entries;
    try {
      entries = readdirSync(join(root, rel), { withFileTypes: true });
    } catch {
      return; // a source root the tree does not have
    }
    for (const entry of entries) {
      const path = `${rel}/${entry.name}`;
      if (entry.isDirectory()) {
        if (!SKIPPED_DIRS.has(entry.name) && !entry.name.startsWith('.')) walk(path);
      } else if (SOURCE_FILE.test(entry.name)) found.push(path);
    }
  };
  for (const dir of SOURCE_ROOTS) walk(dir);
  return found.sort();
}

/**
 * The imports of one file: `{ spec, type, line }` where `type` says the statement brings in types only
 * (`import type`, `import { type A }` with every name a type, `export type … from`). Static imports, `export … from`
 * re-exports, `import('…')` with a literal, type positions `import('…').T`, and `require('…')` in CommonJS.
 * A file that does not parse answers `{ error }`.
 */
export function importsOf(path, text) {
  const parsed = parseSync(path, text);
  if (parsed.errors.length > 0) return { error: parsed.errors[0].message };
  const { staticImports, staticExports, dynamicImports } = parsed.module;
  const found = [];
  const add = (spec, type, start) => found.push({ spec, type, line: lineAt(text, start) });

  for (const s of staticImports) {
    add(s.moduleRequest.value, s.entries.length > 0 && s.entries.every((e) => e.isType), s.start);
  }
  // One `export { a, type B } from './x.js'` statement is one entry per name; it is type-only when all of them are.
  for (const s of staticExports) {
    const bySpec = new Map();
    for (const e of s.entries) {
      if (!e.moduleRequest) continue;
      const spec = e.moduleRequest.value;
      bySpec.set(spec, (bySpec.get(spec) ?? true) && e.isType);
    }
    for (const [spec, type] of bySpec) add(spec, type, s.start);
  }
  for (const d of dynamicImports) {
    const spec = stringLiteral(text.slice(d.moduleRequest.start, d.moduleRequest.end));
    if (spec !== undefined) add(spec, false, d.start);
  }
  // Type positions (`import('node:http').IncomingMessage`) and require() are not in the module record: walk the
  // syntax tree for them, only in the few files whose text shows one (a whole-tree walk costs ten times the parse).
  const importCalls = text.match(/\bimport\s*\(/g)?.length ?? 0;
  if (importCalls > dynamicImports.length || /\brequire\s*\(/.test(text)) {
    new Visitor({
      TSImportType(node) {
        const spec = node.source?.value ?? node.argument?.literal?.value;
        if (typeof spec === 'string') add(spec, true, node.start);
      },
      CallExpression(node) {
        const [arg] = node.arguments;
        if (node.callee.type === 'Identifier' && node.callee.name === 'require' && typeof arg?.value === 'string') {
          add(arg.value, false, node.start);
        }
      },
    }).visit(parsed.program);
  }
  return { imports: found };
}

/** The value of a plain string literal (quotes or a template without `${}`), else undefined. */
function stringLiteral(code) {
  const m = /^\s*(['"`])([^'"`$\\]*)\1\s*$/.exec(code);
  return m ? m[2] : undefined;
}

function lineAt(text, offset) {
  let line = 1;
  for (let i = text.indexOf('\n'); i !== -1 && i < offset; i = text.indexOf('\n', i + 1)) line++;
  return line;
}

/** Parses every source file of `root`: `[{ path, imports, error? }]`. */
export function readSources(root) {
  return sourceFiles(root).map((path) => ({ path, ...importsOf(path, readFileSync(join(root, path), 'utf8')) }));
}
