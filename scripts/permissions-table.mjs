// Writes docs/SECURITY.md's permissions table from the product's IAM policy data (src/domain/iam/product-policy.ts),
// between its markers. Reads the compiled module: run after a build (`npm run build`, or tsc -p tsconfig.json).
// test/domain/product-policy.test.ts fails when the doc's table is not what this writes.
import { readFileSync, writeFileSync } from 'node:fs';

const { permissionsTable, withTable } = await import('../dist/src/domain/iam/permissions-table.js');
const path = 'docs/SECURITY.md';
const doc = readFileSync(path, 'utf8');
const next = withTable(doc, permissionsTable());
if (next === undefined) {
  process.stderr.write(`${path} has no permissions-table markers\n`);
  process.exit(1);
}
if (next !== doc) writeFileSync(path, next);
process.stdout.write(next === doc ? `${path}: table already up to date\n` : `${path}: table rewritten\n`);
