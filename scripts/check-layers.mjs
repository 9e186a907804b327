#!/usr/bin/env node
// The layering check of `npm test`: reads the import statements of every source file (src/, web/, sandbox/, bin/,
// bench/, scripts/, test/) and applies the rules of scripts/layers/rules.mjs — layers, the module rule, SDK types
// kept in src/cloud, no import circles — type imports included. Exit status 1 on any violation.
//
// Why our own checker on oxc-parser: the sources are what must be checked (compiled JavaScript has lost every
// `import type`), TypeScript 7 (the native compiler) has no JavaScript API, dependency-cruiser needs typescript <7 to
// read TypeScript, its swc path does not parse TSX and its babel path drops type imports. oxc-parser (the Vite and
// Rolldown team's parser) parses TS and TSX and marks type-only imports; we write only the rules.
//
// `node scripts/check-layers.mjs [root]` checks the tree at root (default: the current directory).
import { BUILT_IN_RULES, checkTree } from './layers/check.mjs';

const root = process.argv[2] ?? '.';
const started = performance.now();
const { violations, files, imports, rules } = checkTree(root);
const seconds = ((performance.now() - started) / 1000).toFixed(1);

if (violations.length === 0) {
  process.stdout.write(
    `layering: ${files} files, ${imports} imports checked against ${rules.length} rules (${seconds} s)\n`,
  );
  process.exit(0);
}
const comments = new Map([...Object.entries(BUILT_IN_RULES), ...rules.map((r) => [r.name, r.comment])]);
const order = [...comments.keys()];
violations.sort((a, b) => order.indexOf(a.rule) - order.indexOf(b.rule) || `${a.from}`.localeCompare(`${b.from}`));
const out = [];
let rule;
for (const v of violations) {
  if (v.rule !== rule) {
    rule = v.rule;
    out.push(`\n# ${rule}: ${comments.get(rule)}`);
  }
  out.push(`${v.rule}: ${v.from} → ${v.to}${v.type ? ' (type import)' : ''}`);
}
const broken = new Set(violations.map((v) => v.rule));
out.push(
  `\nlayering: ${violations.length} violations of ${broken.size} rules (${[...broken].join(', ')}) in ${files} files`,
);
process.stderr.write(`${out.join('\n')}\n`);
process.exit(1);
