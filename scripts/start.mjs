#!/usr/bin/env node
// `npm start`: install what is missing, build when sources changed, then run.
// Until the product server exists (issue 5), this starts the sandbox cloud and says so.
import { spawn } from 'node:child_process';
import { build, installIfNeeded } from './prepare.mjs';

installIfNeeded();
build();

const args = process.argv.slice(2);
process.stdout.write('The product server is not built yet (see README "Status"); starting the sandbox cloud.\n');
const child = spawn(process.execPath, ['bin/instantstart.mjs', 'sandbox', ...args], { stdio: 'inherit' });
for (const sig of ['SIGINT', 'SIGTERM']) process.on(sig, () => child.kill(sig));
child.on('exit', (code) => process.exit(code ?? 0));
