#!/usr/bin/env node
// Launcher for the compiled CLI. `npm start` (or `npm run build`) produces dist/.
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const main = fileURLToPath(new URL('../dist/bin/main.js', import.meta.url));
if (!existsSync(main)) {
  process.stderr.write('instantstart: not built yet; run `npm run build` (or `npm start`) first\n');
  process.exit(1);
}
await import(main);
