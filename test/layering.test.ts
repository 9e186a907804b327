import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { describe, it } from 'node:test';
import { pathToFileURL } from 'node:url';

/** A source tree of the given files in a temporary folder, removed after `body`. */
function withTree(files: Record<string, string>, body: (root: string) => void): void {
  const root = mkdtempSync(join(tmpdir(), 'layering-'));
  try {
    for (const [path, text] of Object.entries(files)) {
      mkdirSync(join(root, path, '..'), { recursive: true });
      writeFileSync(join(root, path), text);
    }
    body(root);
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
}

interface Checked {
  status: number | null;
  output: string;
  /** The violation lines, `rule: from → to…`. */
  violations: string[];
}

/** Runs the check the way `npm test` does (scripts/check-layers.mjs), on another tree. */
function check(root = '.'): Checked {
  const r = spawnSync(process.execPath, ['scripts/check-layers.mjs', root], { encoding: 'utf8' });
  const output = r.stdout + r.stderr;
  return { status: r.status, output, violations: output.split('\n').filter((l) => /^[a-z-]+: .+ → /.test(l)) };
}

/** The tree fails with exactly these violation lines. */
function assertFails(files: Record<string, string>, expected: string[]): void {
  withTree(files, (root) => {
    const r = check(root);
    assert.equal(r.status, 1, r.output);
    assert.deepEqual(r.violations, expected, r.output);
  });
}

const domainRules = { 'src/domain/rules.ts': 'export const limit = 3;\n' };

describe('layering check on the sources (scripts/check-layers.mjs)', () => {
  it('fails on a type-only import across a forbidden layer, and says it is one', () => {
    assertFails(
      {
        'src/store/db.ts': 'export interface Db { path: string }\n',
        'src/domain/rules.ts': "import type { Db } from '../store/db.js';\nexport const path = (d: Db) => d.path;\n",
      },
      ['domain-is-pure: src/domain/rules.ts → src/store/db.ts (type import)'],
    );
  });

  it('fails on a two-file circle made of a type import, printed once as its chain', () => {
    assertFails(
      {
        'src/engine/poller.ts':
          "import type { Schedule } from './schedule.js';\nexport const every = (s: Schedule) => s;\n",
        'src/engine/schedule.ts':
          "import { every } from './poller.js';\nexport interface Schedule { ms: number }\nexport const x = every;\n",
      },
      ['no-cycles: src/engine/poller.ts → src/engine/schedule.ts → src/engine/poller.ts'],
    );
  });

  it('sees re-exports and type positions: a circle through `export type … from` and `import("…").T`', () => {
    assertFails(
      {
        'sandbox/a.ts': "export type { B } from './b.js';\nexport interface A { n: number }\n",
        'sandbox/b.ts': "export type B = import('./a.js').A;\n",
      },
      ['no-cycles: sandbox/a.ts → sandbox/b.ts → sandbox/a.ts'],
    );
  });

  it("fails on a deep import into a capability; its index.ts, its ui/index.tsx and tests' imports pass", () => {
    const capability = {
      'src/capabilities/training/index.ts': "export { TrainingService } from './service.js';\n",
      'src/capabilities/training/service.ts':
        "import { limit } from '../../domain/rules.js';\nexport class TrainingService { n = limit; }\n",
      'src/capabilities/training/ui/index.tsx': 'export const Page = () => <p>jobs</p>;\n',
      'web/src/App.tsx':
        "import { Page } from '../../src/capabilities/training/ui/index.js';\nexport const App = () => <Page />;\n",
      'test/capabilities/training.test.ts':
        "import { TrainingService } from '../../src/capabilities/training/service.js';\nnew TrainingService();\n",
      ...domainRules,
    };
    assertFails(
      {
        ...capability,
        'src/cli/workspace.ts':
          "import type { TrainingService } from '../capabilities/training/service.js';\nexport type S = TrainingService;\n",
        'src/cli/serve.ts':
          "import { TrainingService } from '../capabilities/training/index.js';\nnew TrainingService();\n",
        'src/capabilities/clusters/service.ts':
          "import { TrainingService } from '../training/service.js';\nexport const t = new TrainingService();\n",
      },
      [
        'capability-is-a-module: src/capabilities/clusters/service.ts → src/capabilities/training/service.ts',
        'capability-is-a-module: src/cli/workspace.ts → src/capabilities/training/service.ts (type import)',
      ],
    );
  });

  it('keeps the diagnostics read-only: only read-port.ts sees the cloud and other capabilities', () => {
    assertFails(
      {
        'src/cloud/ports.ts': 'export interface CloudPort { region: string }\n',
        'src/api/accepted.ts': 'export const accepted = (x: unknown) => x;\n',
        'src/capabilities/nodes/index.ts': 'export const nodes = { name: "nodes" };\n',
        'src/capabilities/diagnostics/read-port.ts':
          "import type { CloudPort } from '../../cloud/ports.js';\nimport { nodes } from '../nodes/index.js';\nexport const read = (c: CloudPort) => [c, nodes];\n",
        'src/capabilities/diagnostics/node.ts':
          "import type { CloudPort } from '../../cloud/ports.js';\nimport { read } from './read-port.js';\nexport const n = (c: CloudPort) => read(c);\n",
        'src/capabilities/diagnostics/routes.ts':
          "import { accepted } from '../../api/accepted.js';\nexport const r = accepted(1);\n",
        'src/capabilities/diagnostics/service.ts':
          "import { nodes } from '../nodes/index.js';\nexport const s = nodes;\n",
      },
      [
        'diagnostics-read-only: src/capabilities/diagnostics/node.ts → src/cloud/ports.ts (type import)',
        'diagnostics-read-only: src/capabilities/diagnostics/routes.ts → src/api/accepted.ts',
        'diagnostics-read-only: src/capabilities/diagnostics/service.ts → src/capabilities/nodes/index.ts',
      ],
    );
  });

  it('fails on an @aws-sdk import in a capability (a type import too); src/cloud/aws may import it', () => {
    assertFails(
      {
        'src/capabilities/nodes/views.ts':
          "import type { ClusterNodeSummary } from '@aws-sdk/client-sagemaker';\nexport type N = ClusterNodeSummary;\n",
        'src/cloud/aws/sagemaker.ts':
          "import { SageMakerClient } from '@aws-sdk/client-sagemaker';\nexport const c = SageMakerClient;\n",
      },
      ['aws-sdk-stays-in-cloud-aws: src/capabilities/nodes/views.ts → @aws-sdk/client-sagemaker (type import)'],
    );
  });

  it('fails on an import that leads nowhere, naming the file, its line and the specifier', () => {
    assertFails(
      {
        'src/domain/a.ts':
          "import { limit } from './rules.js';\nimport { gone } from './gone.js';\nexport const b = limit + gone;\n",
        'scripts/x.mjs': "import { nothing } from 'no-such-package-anywhere';\nexport default nothing;\n",
        ...domainRules,
      },
      ['resolves: scripts/x.mjs:1 → no-such-package-anywhere', 'resolves: src/domain/a.ts:2 → ./gone.js'],
    );
  });

  it("resolves the tsconfig files' path aliases (read from them, not known in advance)", () => {
    const files = {
      'web/tsconfig.json': '{\n  // the UI kit\n  "compilerOptions": { "paths": { "@kit/*": ["./kit/*"], }, },\n}\n',
      'web/kit/Button.tsx': 'export const Button = () => <button />;\n',
      'src/capabilities/training/ui/index.tsx':
        "import { Button } from '@kit/Button.js';\nexport const Page = () => <Button />;\n",
    };
    withTree(files, (root) => assert.equal(check(root).status, 0, check(root).output));
    assertFails(
      {
        ...files,
        'web/kit/Button.tsx': "import { db } from '../../src/store/db.js';\nexport const Button = db;\n",
        'src/store/db.ts': 'export const db = 1;\n',
      },
      ['ui-talks-rest-only: web/kit/Button.tsx → src/store/db.ts'],
    );
  });

  it("layers the UI: the kit knows no capability and no shell; a capability's UI never imports the shell", () => {
    const files = {
      'web/tsconfig.json': '{ "compilerOptions": { "paths": { "@kit/*": ["./kit/*"] } } }\n',
      'web/kit/Button.tsx': 'export const Button = () => <button />;\n',
      'web/src/routes.tsx':
        "import { Page } from '../../src/capabilities/training/ui/index.js';\nexport const r = [Page];\n",
      'src/capabilities/training/ui/index.tsx':
        "import { Button } from '@kit/Button.js';\nexport const Page = () => <Button />;\n",
    };
    withTree(files, (root) => assert.equal(check(root).status, 0, check(root).output));
    assertFails(
      {
        ...files,
        'web/kit/Button.tsx':
          "import { Page } from '../../src/capabilities/training/ui/index.js';\nexport const Button = Page;\n",
        'src/capabilities/training/ui/index.tsx':
          "import { r } from '../../../../web/src/routes.js';\nexport const Page = () => r.length;\n",
      },
      [
        'ui-kit-is-below-the-capabilities: web/kit/Button.tsx → src/capabilities/training/ui/index.tsx',
        'ui-shell-is-above-the-capabilities: src/capabilities/training/ui/index.tsx → web/src/routes.tsx',
        'no-cycles: src/capabilities/training/ui/index.tsx → web/src/routes.tsx → src/capabilities/training/ui/index.tsx',
      ],
    );
  });

  it('lets the UI import pure domain helpers (zod and each other only), not a domain module that reaches further', () => {
    assertFails(
      {
        'src/domain/labels.ts':
          "import { z } from 'zod';\nimport { limit } from './rules.js';\nexport const L = z.string().max(limit);\n",
        'src/domain/files.ts': "import { readFileSync } from 'node:fs';\nexport const read = readFileSync;\n",
        'web/src/Form.tsx':
          "import { L } from '../../src/domain/labels.js';\nimport { read } from '../../src/domain/files.js';\nimport { join } from 'node:path';\nexport const F = () => <p>{String(L)}{String(read)}{join('a')}</p>;\n",
        ...domainRules,
      },
      [
        'ui-talks-rest-only: web/src/Form.tsx → src/domain/files.ts',
        'ui-runs-in-the-browser: web/src/Form.tsx → node:path',
      ],
    );
  });

  it('keeps the product, the sandbox and the bench apart', () => {
    assertFails(
      {
        'sandbox/index.ts': 'export const x = 1;\n',
        'src/api/server.ts': "import { x } from '../../sandbox/index.js';\nexport const y = x;\n",
        'bench/store.ts': "import { limit } from '../src/domain/rules.js';\nexport const b = limit;\n",
        ...domainRules,
      },
      [
        'product-never-imports-sandbox: src/api/server.ts → sandbox/index.ts',
        'bench-measures-from-outside: bench/store.ts → src/domain/rules.ts',
      ],
    );
  });

  it('passes a tree that respects the rules, and says how much it checked', () => {
    withTree(
      {
        ...domainRules,
        'src/api/server.ts':
          "import { limit } from '../domain/rules.js';\nimport { join } from 'node:path';\nexport const y = join(String(limit));\n",
      },
      (root) => {
        const r = check(root);
        assert.equal(r.status, 0, r.output);
        assert.match(r.output, /^layering: 2 files, 2 imports checked/m);
      },
    );
  });

  it('finds no violation in this repository', () => {
    const r = check();
    assert.equal(r.status, 0, r.output);
    assert.deepEqual(r.violations, [], r.output);
    assert.match(r.output, /^layering: \d{3,} files, \d{4,} imports checked/m);
  });

  it("has no rule gone stale: each rule's importing and imported paths name files of this repository", async () => {
    // Loaded by URL: the rules are plain JavaScript that `npm test` runs before anything is built.
    const { rules } = await import(pathToFileURL(resolve('scripts/layers/rules.mjs')).href);
    const { sourceFiles } = await import(pathToFileURL(resolve('scripts/layers/sources.mjs')).href);
    const files: string[] = sourceFiles('.');
    const stale: string[] = [];
    for (const rule of rules as Array<{ name: string; from?: { path?: RegExp }; to?: { path?: RegExp } }>) {
      for (const side of ['from', 'to'] as const) {
        const path = rule[side]?.path;
        if (path && !files.some((f) => path.test(f))) stale.push(`${rule.name}: ${side}.path ${path} matches no file`);
      }
    }
    assert.deepEqual(stale, []);
  });
});
