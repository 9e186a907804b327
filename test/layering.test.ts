import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';

function fixture(files: Record<string, string>): string {
  mkdirSync('dist', { recursive: true });
  const root = mkdtempSync(join('dist', 'layering-fixture-'));
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(join(root, path, '..'), { recursive: true });
    writeFileSync(join(root, path), text);
  }
  return root;
}

const check = (root: string) => spawnSync(process.execPath, ['scripts/check-layers.mjs', root], { encoding: 'utf8' });

describe('layering rules (dependency-cruiser)', () => {
  it('fail when product code imports the sandbox', () => {
    const root = fixture({
      'sandbox/index.js': 'export const x = 1;\n',
      'src/api/server.js': "import { x } from '../../sandbox/index.js';\nexport const y = x;\n",
    });
    try {
      const r = check(root);
      assert.notEqual(r.status, 0);
      assert.match(r.stdout + r.stderr, /product-never-imports-sandbox/);
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });

  it('fail when the domain layer imports another layer', () => {
    const root = fixture({
      'src/store/db.js': 'export const db = 1;\n',
      'src/domain/rules.js': "import { db } from '../store/db.js';\nexport const r = db;\n",
    });
    try {
      const r = check(root);
      assert.notEqual(r.status, 0);
      assert.match(r.stdout + r.stderr, /domain-is-pure/);
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });

  it('fail when the bench imports product code instead of calling it over HTTP', () => {
    const root = fixture({
      'src/store/db.js': 'export const db = 1;\n',
      'bench/store.js': "import { db } from '../src/store/db.js';\nexport const b = db;\n",
    });
    try {
      const r = check(root);
      assert.notEqual(r.status, 0);
      assert.match(r.stdout + r.stderr, /bench-measures-from-outside/);
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });

  it('pass on a tree that respects them', () => {
    const root = fixture({
      'src/domain/rules.js': 'export const r = 1;\n',
      'src/api/server.js': "import { r } from '../domain/rules.js';\nexport const y = r;\n",
    });
    try {
      assert.equal(check(root).status, 0);
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });
});
