#!/usr/bin/env node
// `npm start`: install what is missing, build when sources changed, then serve UI + REST + MCP on
// http://127.0.0.1:3099 over the embedded sandbox cloud (or real AWS with --cloud aws).
import { spawn } from 'node:child_process';
import { build, installIfNeeded } from './prepare.mjs';

installIfNeeded();
build();

const args = process.argv.slice(2);
const child = spawn(process.execPath, ['bin/instantstart.mjs', 'serve', ...args], { stdio: 'inherit' });
for (const sig of ['SIGINT', 'SIGTERM']) process.on(sig, () => child.kill(sig));
child.on('exit', (code) => process.exit(code ?? 0));
