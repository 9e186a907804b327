import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { pathToFileURL } from 'node:url';

interface Line {
  rank: number;
  pod?: string;
  text: string;
  note?: boolean;
}
interface Ring {
  readonly length: number;
  evicted: number;
  notes: number;
  push(line: Line): void;
  at(i: number): (Line & { seq: number }) | undefined;
  clear(): void;
}

/**
 * The ring lives in the UI kit (web/kit/lib/log-buffer.ts, an import-free module). The root build must not emit it:
 * its dist/web/… is the UI bundle's folder, which vite empties. So the test compiles that one file itself.
 */
async function kitRing(): Promise<new (capacity: number) => Ring> {
  const out = mkdtempSync(join(tmpdir(), 'log-ring-'));
  try {
    execFileSync(process.execPath, [
      'node_modules/typescript/bin/tsc',
      'web/kit/lib/log-buffer.ts',
      ...[
        '--outDir',
        out,
        '--module',
        'es2022',
        '--target',
        'es2022',
        '--skipLibCheck',
        '--types',
        '',
        '--ignoreConfig',
      ],
    ]);
    const mod = (await import(pathToFileURL(join(out, 'log-buffer.js')).href)) as {
      LogRing: new (capacity: number) => Ring;
    };
    return mod.LogRing;
  } finally {
    rmSync(out, { recursive: true, force: true });
  }
}
const LogRing = await kitRing();

describe("the log viewer's ring of lines", () => {
  it('keeps the newest lines up to its capacity and counts what fell off', () => {
    const ring = new LogRing(3);
    for (let i = 0; i < 5; i++) ring.push({ rank: 0, text: `line ${i}` });
    assert.equal(ring.length, 3);
    assert.equal(ring.evicted, 2);
    assert.deepEqual(
      [0, 1, 2].map((i) => ring.at(i)?.text),
      ['line 2', 'line 3', 'line 4'],
    );
    assert.equal(ring.at(3), undefined);
  });

  it('keeps the pod that printed a line (an endpoint shows it per line)', () => {
    const ring = new LogRing(2);
    ring.push({ rank: 1, pod: 'llama-7d9f-abc12', text: 'INFO: Application startup complete.' });
    assert.deepEqual(ring.at(0), {
      rank: 1,
      pod: 'llama-7d9f-abc12',
      text: 'INFO: Application startup complete.',
      seq: 0,
    });
  });

  it("counts its own notes apart from the job's lines, as they come and as they fall off", () => {
    const ring = new LogRing(3);
    ring.push({ rank: 0, text: 'step=1' });
    ring.push({ rank: 0, text: '— pod-0 ended: Completed', note: true });
    ring.push({ rank: 1, text: '— pod-1 ended: Completed', note: true });
    assert.equal(ring.notes, 2, 'two of the three lines held are notes');
    ring.push({ rank: 0, text: 'step=2' });
    assert.equal(ring.notes, 2, 'a job line fell off');
    ring.push({ rank: 0, text: 'step=3' });
    assert.equal(ring.notes, 1, 'a note fell off');
    ring.clear();
    assert.equal(ring.notes, 0);
    assert.equal(ring.length, 0);
  });
});

describe("the log viewer's wrapped layout", () => {
  it('gives a long line as many rows as it needs and finds the line of any row', async () => {
    const { wrappedLayout } = await import('../../src/capabilities/training/ui/log-layout.js');
    const lengths = [10, 250, 0, 100, 101];
    const layout = wrappedLayout(lengths.length, (i) => lengths[i]!, 100);
    assert.deepEqual(
      lengths.map((_, i) => [layout.rowOf(i), layout.rowsOf(i)]),
      [
        [0, 1],
        [1, 3],
        [4, 1],
        [5, 1],
        [6, 2],
      ],
    );
    assert.equal(layout.totalRows, 8);
    assert.deepEqual(
      [0, 1, 3, 4, 5, 6, 7, 50].map((r) => layout.lineAtRow(r)),
      [0, 1, 1, 2, 3, 4, 4, 4],
    );
    assert.equal(wrappedLayout(0, () => 0, 80).lineAtRow(3), 0);
  });
});
