import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, it } from 'node:test';

/** The README is where a new user looks: it names every `serve` option and what `npm test` needs. */

function repoRoot(): string {
  let dir = dirname(fileURLToPath(import.meta.url));
  while (!existsSync(join(dir, 'package.json'))) dir = dirname(dir);
  return dir;
}

describe('README', () => {
  const root = repoRoot();
  const readme = readFileSync(join(root, 'README.md'), 'utf8');

  it('names every option `instantstart serve --help` lists', () => {
    const help = execFileSync(process.execPath, [join(root, 'bin/instantstart.mjs'), 'serve', '--help'], {
      encoding: 'utf8',
    });
    const flags = [...new Set(help.match(/--[a-z][a-z-]+/g) ?? [])].filter((f) => f !== '--help');
    assert.ok(flags.length >= 10, `found the options: ${flags.join(' ')}`);
    const missing = flags.filter((f) => !readme.includes(`\`${f}`));
    assert.deepEqual(missing, [], 'README.md does not name these serve options');
  });

  it('says what npm test needs, how to inject faults and where each cloud keeps its data', () => {
    for (const tool of ['Chromium', 'kubectl', 'aws CLI']) assert.match(readme, new RegExp(tool), tool);
    assert.match(readme, /_sandbox\/faults/);
    assert.match(readme, /`sandbox\/`/);
    assert.match(readme, /`aws\/<account-id>\/`/);
  });
});
