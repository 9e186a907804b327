import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, it } from 'node:test';

/**
 * `npm ci` on the oldest Node the project supports prints no EBADENGINE warning: every locked
 * package's `engines.node` admits the floor of package.json's own `engines.node`. (light-my-request,
 * under Fastify's inject, took cookie 2, which wants Node ≥ 22; package.json overrides it to cookie 1.)
 *
 * One named exception: the kubernetes-models validators (`@kubernetes-models/karpenter` and `keda`, the
 * upstream schemas the tests hold our NodePools and ScaledObjects to — issue 25) exist only in releases
 * that declare Node ≥ 22, with no older release of karpenter's at all. They are dev dependencies used by
 * tests alone, and those tests run them on this project's Node 20, so the run itself is the proof that
 * they work here; npm ci prints their EBADENGINE warnings. Nothing the product ships may join this list.
 */

/** Test-only packages whose declared engines are stricter than what they need (see above); dev dependencies only. */
const TEST_ONLY_ENGINE_EXCEPTIONS = new Set([
  'node_modules/@kubernetes-models/karpenter',
  'node_modules/@kubernetes-models/keda',
  'node_modules/@kubernetes-models/validate',
  'node_modules/@kubernetes-models/base',
  'node_modules/@kubernetes-models/apimachinery',
  'node_modules/kubernetes-models',
]);

function repoRoot(): string {
  let dir = dirname(fileURLToPath(import.meta.url));
  while (!existsSync(join(dir, 'package.json'))) dir = dirname(dir);
  return dir;
}

type Version = [number, number, number];

function parseVersion(text: string): Version {
  const m = /^v?(\d+)(?:\.(\d+|x|\*))?(?:\.(\d+|x|\*))?/.exec(text.trim());
  if (!m) throw new Error(`cannot read version "${text}"`);
  const n = (s: string | undefined) => (s === undefined || s === 'x' || s === '*' ? 0 : Number(s));
  return [Number(m[1]), n(m[2]), n(m[3])];
}

const compare = (a: Version, b: Version) => a[0] - b[0] || a[1] - b[1] || a[2] - b[2];

/** Whether one comparator of an npm range (`>=20`, `^20.19.0`, `20.x`, `18`, `<24`, `~1.2`) admits the version. */
function admitsComparator(comparator: string, v: Version): boolean {
  const m = /^(>=|<=|>|<|\^|~|=)?\s*(.+)$/.exec(comparator)!;
  const op = m[1] ?? '';
  const spec = m[2]!;
  const base = parseVersion(spec);
  const parts = spec.split('.').filter((p) => p !== 'x' && p !== '*').length;
  switch (op) {
    case '>=':
      return compare(v, base) >= 0;
    case '>':
      return compare(v, base) > 0;
    case '<=':
      return compare(v, base) <= 0;
    case '<':
      return compare(v, base) < 0;
    case '^':
      return compare(v, base) >= 0 && v[0] === base[0];
    case '~':
      return compare(v, base) >= 0 && v[0] === base[0] && (parts < 2 || v[1] === base[1]);
    default: // `20`, `20.x`, `=20.1.0`: the parts given must match
      return base.slice(0, parts).every((p, i) => v[i] === p);
  }
}

/** npm's `engines` ranges: alternatives joined by `||`, each a set of space-separated comparators. */
export function admits(range: string, version: string): boolean {
  const v = parseVersion(version);
  return range.split('||').some((alt) => {
    const comparators = alt
      .trim()
      .replace(/(>=|<=|>|<|\^|~|=)\s+/g, '$1')
      .split(/\s+/)
      .filter(Boolean);
    return comparators.length === 0 || comparators.every((c) => c === '*' || admitsComparator(c, v));
  });
}

describe('Node engines of the locked dependencies', () => {
  it('reads npm ranges as npm does', () => {
    assert.equal(admits('>=22', '20.19.0'), false);
    assert.equal(admits('^20.19.0 || >=22.12.0', '20.19.0'), true);
    assert.equal(admits('^20.19.0 || >=22.12.0', '20.18.0'), false);
    assert.equal(admits('18 || 20 || >=22', '20.19.0'), true);
    assert.equal(admits('20.x || 22.x', '21.0.0'), false);
    assert.equal(admits('>= 0.6', '20.19.0'), true);
    assert.equal(admits('^20.12||^22||>=24', '20.19.0'), true);
  });

  it('every locked package runs on the oldest Node package.json allows', () => {
    const root = repoRoot();
    const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { engines: { node: string } };
    const floor = /^>=\s*(\d+(?:\.\d+){0,2})$/.exec(pkg.engines.node)?.[1];
    assert.ok(floor, `package.json engines.node is a ">=" floor: ${pkg.engines.node}`);
    const lock = JSON.parse(readFileSync(join(root, 'package-lock.json'), 'utf8')) as {
      packages: Record<string, { dev?: boolean; engines?: { node?: string } | string[] }>;
    };
    const excepted = Object.entries(lock.packages).filter(([path]) => TEST_ONLY_ENGINE_EXCEPTIONS.has(path));
    assert.deepEqual(
      excepted.filter(([, p]) => !p.dev).map(([path]) => path),
      [],
      'an engine exception is a dev dependency only',
    );
    const refusing = Object.entries(lock.packages)
      .filter(
        ([path, p]) =>
          path !== '' &&
          !TEST_ONLY_ENGINE_EXCEPTIONS.has(path) &&
          p.engines &&
          !Array.isArray(p.engines) &&
          p.engines.node &&
          !admits(p.engines.node, floor),
      )
      .map(([path, p]) => `${path} wants node ${(p.engines as { node: string }).node}`);
    assert.deepEqual(refusing, [], `these would warn (EBADENGINE) on Node ${floor}`);
  });
});
