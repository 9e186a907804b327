import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { after, describe, it } from 'node:test';
import { parseTemplate, userDataSub } from './cloudformation-yaml.js';

/**
 * The management instance's user data in deploy/cloudformation.yaml, as far as it can be checked without an
 * instance: CloudFormation's `Fn::Sub` names only what the template has (a shell `${var}` would be taken for one),
 * the script and the two scripts it writes parse as bash (`bash -n`), and the systemd unit it writes passes
 * `systemd-analyze verify` but for what only the instance has (docker, the scripts' paths). Nothing here runs them.
 */

function repoRoot(): string {
  let dir = dirname(fileURLToPath(import.meta.url));
  while (!existsSync(join(dir, 'package.json'))) dir = dirname(dir);
  return dir;
}

const template = parseTemplate(readFileSync(join(repoRoot(), 'deploy', 'cloudformation.yaml'), 'utf8'));
const sub = userDataSub(template);
const PSEUDO = ['AWS::Region', 'AWS::StackName', 'AWS::AccountId', 'AWS::Partition', 'AWS::URLSuffix', 'AWS::StackId'];

/** The script as the instance receives it: each `${Name}` replaced by a stand-in value, `${!x}` by a literal `${x}`. */
const rendered = sub.replace(/\$\{(!?)([^}]+)\}/g, (_m, literal: string, name: string) =>
  literal ? `\${${name}}` : name === 'AWS::Region' ? 'us-west-2' : `stand-in-${name.replace(/\W+/g, '-')}`,
);

/** The files the script writes with `cat > PATH <<'MARK'` (quoted: the shell expands nothing in them). */
const written = new Map(
  [...rendered.matchAll(/^cat > (\S+) <<'(\w+)'\n([\s\S]*?)\n\2$/gm)].map((m) => [m[1]!, `${m[3]!}\n`]),
);

describe('deploy/cloudformation.yaml user data', () => {
  const scratch = mkdtempSync(join(tmpdir(), 'instantstart-user-data-'));
  after(() => rmSync(scratch, { recursive: true, force: true }));

  it('substitutes only parameters, resources and pseudo parameters of the template', () => {
    const known = new Set([...Object.keys(template.Parameters ?? {}), ...Object.keys(template.Resources), ...PSEUDO]);
    const names = [...sub.matchAll(/\$\{(?!!)([^}]+)\}/g)].map((m) => m[1]!);
    assert.ok(names.length > 0);
    for (const name of names) assert.ok(known.has(name.split('.')[0]!), `\${${name}} is not in the template`);
  });

  it('writes the start script, the run script and the systemd unit', () => {
    assert.deepEqual(
      [...written.keys()].sort(),
      [
        '/etc/systemd/system/instantstart.service',
        '/usr/local/libexec/instantstart/prepare',
        '/usr/local/libexec/instantstart/run',
      ].sort(),
    );
  });

  it('parses as bash, and so do the scripts it writes', () => {
    const scripts = [['user-data', rendered] as const, ...[...written].filter(([path]) => !path.endsWith('.service'))];
    for (const [name, text] of scripts) {
      assert.match(text, /^#!\/bin\/bash\n/, `${name} starts with its interpreter`);
      assert.match(text, /^set -euo pipefail$/m, `${name} stops at the first failure`);
      const file = join(scratch, name.replace(/\W+/g, '-'));
      writeFileSync(file, text);
      const check = spawnSync('bash', ['-n', file], { encoding: 'utf8' });
      assert.equal(check.status, 0, `${name}: ${check.stderr}`);
    }
  });

  it('writes a unit systemd accepts (docker and the scripts exist only on the instance)', (t) => {
    const unit = join(scratch, 'instantstart.service');
    writeFileSync(unit, written.get('/etc/systemd/system/instantstart.service')!);
    const verify = spawnSync('systemd-analyze', ['verify', unit], { encoding: 'utf8' });
    if ((verify.error as NodeJS.ErrnoException | undefined)?.code === 'ENOENT') {
      t.skip('systemd-analyze is not installed here');
      return;
    }
    const onlyOnTheInstance = /(Unit docker\.service not found|Command \/\S+ is not executable: No such file)/;
    const problems = `${verify.stdout}${verify.stderr}`
      .split('\n')
      .filter((line) => line.trim() !== '' && !onlyOnTheInstance.test(line));
    assert.deepEqual(problems, []);
  });
});
