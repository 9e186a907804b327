#!/usr/bin/env node
// `npm run bench`: build when sources changed (as `npm start` does), then run bench/run.ts's figures.
// Never part of `npm test`: it measures, it does not judge. docs/BENCHMARKS.md says what each figure means.
import { spawn } from 'node:child_process';
import { build, installIfNeeded } from './prepare.mjs';

installIfNeeded();
build();

// As scripts/test.mjs: the SDK's notice about its future Node.js support is noise here.
const env = { ...process.env, AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true' };
const child = spawn(process.execPath, ['dist/bench/run.js', ...process.argv.slice(2)], { stdio: 'inherit', env });
for (const sig of ['SIGINT', 'SIGTERM']) process.on(sig, () => child.kill(sig));
child.on('exit', (code) => process.exit(code ?? 1));
