import assert from 'node:assert/strict';
import { copyFileSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import {
  awsAccountDirectory,
  migrateLegacyLayout,
  sandboxCloudStateDirectory,
  sandboxDirectory,
  workspaceDirectory,
} from '../../src/cli/data-layout.js';
import { DATABASE_FILE, openDatabase } from '../../src/store/database.js';
import { OperationsStore } from '../../src/store/operations-store.js';
import { tempDataDir } from '../engine/helpers.js';

/**
 * Writes `<dataDir>/instantstart.db` as an older InstantStart left it after a crash: one unfinished
 * operation whose rows are still only in the write-ahead log (-wal), and the sandbox cloud's state at
 * the top of `<dataDir>/sandbox`.
 */
function legacyDataDir(dataDir: string): void {
  const scratch = join(dataDir, 'scratch');
  const db = openDatabase(scratch);
  db.pragma('wal_autocheckpoint = 0');
  new OperationsStore(db).createOperation(
    {
      id: 'op-legacy',
      kind: 'create-cluster',
      target: 'cluster/us-west-2/old',
      status: 'running',
      input: {},
      state: {},
      createdAt: new Date().toISOString(),
    },
    [{ name: 'network', title: 'Network', expectedSeconds: 60 }],
  );
  for (const suffix of ['', '-wal', '-shm'])
    copyFileSync(join(scratch, DATABASE_FILE + suffix), join(dataDir, DATABASE_FILE + suffix));
  db.close();
  mkdirSync(join(dataDir, 'sandbox', 'ca'), { recursive: true });
  mkdirSync(join(dataDir, 'sandbox', 'blobs'), { recursive: true });
  writeFileSync(join(dataDir, 'sandbox', 'state.json'), '{"schemaVersion":1}');
  writeFileSync(join(dataDir, 'sandbox', 'ca', 'ca.crt'), 'cert');
}

describe('data directory layout', () => {
  it('keeps one directory per cloud and account', () => {
    assert.equal(sandboxDirectory('/d'), '/d/sandbox');
    assert.equal(sandboxCloudStateDirectory('/d'), '/d/sandbox/cloud');
    assert.equal(awsAccountDirectory('/d', '123456789012'), '/d/aws/123456789012');
    assert.equal(workspaceDirectory('/d', { cloud: 'aws', accountId: '123456789012' }), '/d/aws/123456789012');
    assert.equal(workspaceDirectory('/d', { cloud: 'sandbox', accountId: '000000000000' }), '/d/sandbox');
    assert.throws(() => awsAccountDirectory('/d', '../../etc'), /not an AWS account id/);
  });

  it("moves an older journal (with its write-ahead log) into the sandbox's directory and the sandbox state into cloud/, once", () => {
    const { dir, cleanup } = tempDataDir();
    try {
      legacyDataDir(dir);
      assert.ok(existsSync(join(dir, `${DATABASE_FILE}-wal`)), 'the legacy journal has an unmerged log');
      const log: string[] = [];
      migrateLegacyLayout(dir, (m) => log.push(m));

      for (const suffix of ['', '-wal', '-shm'])
        assert.equal(
          existsSync(join(dir, DATABASE_FILE + suffix)),
          false,
          `no ${DATABASE_FILE}${suffix} left at the top`,
        );
      const moved = openDatabase(join(dir, 'sandbox'));
      assert.equal(
        new OperationsStore(moved).getOperation('op-legacy')?.status,
        'running',
        'the rows that were only in the log moved too',
      );
      moved.close();
      assert.equal(readFileSync(join(dir, 'sandbox', 'cloud', 'state.json'), 'utf8'), '{"schemaVersion":1}');
      assert.equal(readFileSync(join(dir, 'sandbox', 'cloud', 'ca', 'ca.crt'), 'utf8'), 'cert');
      assert.equal(existsSync(join(dir, 'sandbox', 'state.json')), false);
      assert.equal(log.length, 2);
      assert.match(log.join('\n'), /operations journal .* belongs to the sandbox cloud/);
      assert.match(log.join('\n'), /sandbox cloud's state/);

      migrateLegacyLayout(dir, (m) => log.push(m));
      assert.equal(log.length, 2, 'a second start moves nothing');
    } finally {
      cleanup();
    }
  });

  it('refuses to move a journal an older server still has open', () => {
    const { dir, cleanup } = tempDataDir();
    const stillOpen = openDatabase(dir); // an older server using <dataDir>/instantstart.db right now
    try {
      assert.throws(() => migrateLegacyLayout(dir, () => {}), /still in use/);
      assert.ok(existsSync(join(dir, DATABASE_FILE)), 'left where it was');
      assert.equal(existsSync(join(dir, 'sandbox', DATABASE_FILE)), false);
    } finally {
      stillOpen.close();
      cleanup();
    }
  });

  it('leaves an older journal alone when the sandbox already has one', () => {
    const { dir, cleanup } = tempDataDir();
    try {
      openDatabase(dir).close();
      openDatabase(join(dir, 'sandbox')).close();
      const log: string[] = [];
      migrateLegacyLayout(dir, (m) => log.push(m));
      assert.ok(existsSync(join(dir, DATABASE_FILE)));
      assert.match(log.join('\n'), /left where it is and is not used/);
    } finally {
      cleanup();
    }
  });
});
