// Applies the rules of rules.mjs to the import graph of a tree: `checkTree(root)` → the violations, each
// `{ rule, from, to, type }` (`to` a file, a package or, for a cycle, the chain of files), and the counts.
import { findCycles } from './cycles.mjs';
import { resolver } from './resolve.mjs';
import { rules as defaultRules } from './rules.mjs';
import { readSources } from './sources.mjs';

/** The import graph: `edges` ({ from, spec, line, type, file | package | unresolved }) and `byFile` (from → edges). */
export function importGraph(root) {
  const resolve = resolver(root);
  const sources = readSources(root);
  const edges = [];
  for (const source of sources) {
    for (const i of source.imports ?? []) edges.push({ from: source.path, ...i, ...resolve(source.path, i.spec) });
  }
  const byFile = new Map(sources.map((s) => [s.path, []]));
  for (const e of edges) byFile.get(e.from).push(e);
  return { sources, edges, byFile };
}

const asRegExps = (x) => (x === undefined ? [] : Array.isArray(x) ? x : [x]);
const test = (pattern, text, groups = []) =>
  (typeof pattern === 'string'
    ? new RegExp(pattern.replace(/\$(\d)/g, (_, n) => escape(groups[n] ?? '')))
    : pattern
  ).test(text);
const escape = (s) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** Whether `file` and all it imports, transitively, stay under `pure.path` or in `pure.packages`. */
function pureIn(graph, pure) {
  const known = new Map();
  const visit = (file) => {
    if (known.has(file)) return known.get(file);
    known.set(file, true); // a circle inside the pure set does not make it impure
    const ok =
      pure.path.test(file) &&
      (graph.byFile.get(file) ?? []).every((e) =>
        e.file ? visit(e.file) : e.package !== undefined && pure.packages.test(e.package),
      );
    known.set(file, ok);
    return ok;
  };
  return visit;
}

/** The violations of one rule that is not a cycles rule. */
function violationsOf(rule, graph) {
  const found = [];
  const pure = rule.to.unlessPure && pureIn(graph, rule.to.unlessPure);
  for (const e of graph.edges) {
    if (e.unresolved) continue;
    if (!asRegExps(rule.from.path).every((p) => test(p, e.from))) continue;
    let groups = [];
    if (e.file !== undefined) {
      if (rule.to.package || rule.to.builtin) continue;
      if (rule.to.path) {
        const m = rule.to.path.exec(e.file);
        if (!m) continue;
        groups = m;
      }
      if (asRegExps(rule.to.pathNot).some((p) => test(p, e.file))) continue;
      if (pure?.(e.file)) continue;
    } else {
      if (rule.to.builtin ? !e.builtin : !rule.to.package?.test(e.package)) continue;
    }
    if (asRegExps(rule.from.pathNot).some((p) => test(p, e.from, groups))) continue;
    found.push({ rule: rule.name, from: e.from, to: e.file ?? e.package, type: e.type });
  }
  return found;
}

/** Checks the tree at `root`: `{ violations, files, imports, rules }`. */
export function checkTree(root, rules = defaultRules) {
  const graph = importGraph(root);
  const violations = [];
  for (const s of graph.sources) {
    if (s.error) violations.push({ rule: 'parses', from: s.path, to: s.error });
  }
  for (const e of graph.edges) {
    if (e.unresolved) violations.push({ rule: 'resolves', from: `${e.from}:${e.line}`, to: e.spec });
  }
  for (const rule of rules) {
    if (rule.cycles) {
      for (const chain of findCycles(graph.edges, rule.cycles.within)) {
        violations.push({ rule: rule.name, from: chain[0], to: chain.slice(1).join(' → ') });
      }
    } else {
      violations.push(...violationsOf(rule, graph));
    }
  }
  // One line per (rule, from, to): a file importing the same target twice (a type and a value import) is one.
  const unique = new Map(violations.map((v) => [`${v.rule}\0${v.from}\0${v.to}`, v]));
  return { violations: [...unique.values()], files: graph.sources.length, imports: graph.edges.length, rules };
}

/** The two rules every tree has besides its layering rules: each file parses, each import leads somewhere. */
export const BUILT_IN_RULES = {
  parses: 'Every source file parses (TypeScript, TSX or JavaScript).',
  resolves:
    'Every import leads to a file of the tree (relative, or through a tsconfig `paths` alias), a Node built-in or an installed package.',
};
