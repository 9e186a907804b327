import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';

const BIN = 'bin/instantstart.mjs';

describe('instantstart sandbox command', () => {
  it('prints the export lines a user pastes, serves, and saves state on SIGTERM', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'instantstart-cli-'));
    const child = spawn(process.execPath, [BIN, 'sandbox', '--port', '0', '--speed', '30', '--state-dir', dir], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    try {
      let out = '';
      await new Promise<void>((resolve, reject) => {
        child.stdout.on('data', (d: Buffer) => {
          out += d.toString();
          if (out.includes('AWS_REGION=')) resolve();
        });
        child.once('exit', (code) => reject(new Error(`exited early (${code}): ${out}`)));
      });
      const endpoint = /export AWS_ENDPOINT_URL=(http:\/\/127\.0\.0\.1:\d+)/.exec(out)?.[1];
      assert.ok(endpoint, out);
      assert.match(out, /export AWS_ACCESS_KEY_ID=AKIASANDBOX000000000/);
      assert.match(out, /export AWS_SECRET_ACCESS_KEY=sandbox-secret/);
      assert.match(out, /export AWS_REGION=us-west-2/);
      const health = (await (await fetch(`${endpoint}/_sandbox/health`)).json()) as { speed: number };
      assert.equal(health.speed, 30);
    } finally {
      const exited = new Promise((r) => child.once('exit', r));
      child.kill('SIGTERM');
      await exited;
      const saved = JSON.parse(readFileSync(join(dir, 'state.json'), 'utf8')) as { clock?: { speed: number } };
      assert.equal(saved.clock?.speed, 30, 'the clock is saved with the state on shutdown');
      assert.ok(existsSync(dir));
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('refuses bad options with a usage message and exit status 2', () => {
    const r = spawnSync(process.execPath, [BIN, 'sandbox', '--speed', 'fast'], { encoding: 'utf8' });
    assert.equal(r.status, 2);
    assert.match(r.stderr, /--speed must be a number greater than 0/);
    const unknown = spawnSync(process.execPath, [BIN, 'sandbox', '--colour'], { encoding: 'utf8' });
    assert.equal(unknown.status, 2);
    assert.match(unknown.stderr, /colour/);
  });
});
