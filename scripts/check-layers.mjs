#!/usr/bin/env node
// Enforces ARCHITECTURE.md's layering with dependency-cruiser on the compiled JavaScript
// (dist/ mirrors the source tree one-to-one). Exit status 1 on any violation.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';

const target = process.argv[2] ?? 'dist';
// The UI is bundled by Vite (dist/web holds no modules) and dependency-cruiser cannot parse
// TypeScript 7 sources, so the UI's rule (web imports only web and src/domain/schemas) is
// enforced by test/web/imports.test.ts instead.
const roots = ['src', 'sandbox', 'bin', 'bench'].map((d) => `${target}/${d}`).filter((d) => existsSync(d));
const r = spawnSync('npx', ['depcruise', '--config', '.dependency-cruiser.cjs', '--output-type', 'err', ...roots], {
  stdio: 'inherit',
});
process.exit(r.status ?? 1);
