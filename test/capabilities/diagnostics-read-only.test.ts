import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { parseSync, Visitor } from 'oxc-parser';

const FOLDER = 'src/capabilities/diagnostics';

/** Names a mutation goes by in the ports, services and tools of this repository (create, deleteRole, rebootNodes…). */
const MUTATION =
  /^(create|delete|update|put|patch|post|apply|applyAll|start|retry|retryPhase|cancel|reboot|replace|attach|detach|ensure|tag|untag|scale|set|remove|add|batch|modify|request|terminate|authorize|revoke|register|deregister|act|forget|accepted)([A-Z_]|$)/;
/**
 * Calls whose names look like mutations and are not: the clusters capability's delete *plan* only reads; the MCP kit's
 * registerRestTool declares a tool (the tools' annotations are READ_ONLY, which tool-list.test.ts pins).
 */
const READS = new Set(['deletePlan', 'registerRestTool']);

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? sources(join(dir, e.name)) : /\.tsx?$/.test(e.name) ? [join(dir, e.name)] : [],
  );
}

/** The calls in a source whose callee name reads as a mutation (`x.create(…)`, `deleteRole(…)`), as `name@line`. */
export function mutatingCalls(path: string, text: string): string[] {
  const parsed = parseSync(path, text);
  assert.equal(parsed.errors.length, 0, `${path} parses`);
  const found: string[] = [];
  const isUi = /\/ui\//.test(path);
  new Visitor({
    CallExpression(node: any) {
      const c = node.callee;
      const name =
        c.type === 'MemberExpression' || c.type === 'StaticMemberExpression'
          ? c.property?.name
          : c.type === 'Identifier' && !isUi // React state setters (setOpen) are the UI's own
            ? c.name
            : undefined;
      if (typeof name === 'string' && MUTATION.test(name) && !READS.has(name)) {
        found.push(`${name}@${text.slice(0, node.start).split('\n').length}`);
      }
    },
  }).visit(parsed.program);
  return found;
}

describe('diagnostics are read-only by construction', () => {
  it('no source under src/capabilities/diagnostics calls a method named like a mutation', () => {
    const files = sources(FOLDER);
    assert.ok(files.length >= 8, `found the capability's sources: ${files.join(', ')}`);
    const offending = files.flatMap((f) => mutatingCalls(f, readFileSync(f, 'utf8')).map((c) => `${f}: ${c}`));
    assert.deepEqual(offending, []);
  });

  it('the check itself catches a mutating call (a port, an engine call, a setter)', () => {
    const text = [
      'async function f(cloud: any, ops: any) {',
      '  await cloud.hyperpodNodes.reboot("r", "c", ["i-1"]);',
      '  ops.retryPhase("op", "hyperpod");',
      '  await cloud.iam.updateTrustPolicy("x", {});',
      '  return cloud.hyperpod.describe("r", "c");',
      '}',
    ].join('\n');
    assert.deepEqual(mutatingCalls('src/capabilities/diagnostics/x.ts', text), [
      'reboot@2',
      'retryPhase@3',
      'updateTrustPolicy@4',
    ]);
  });

  it('the diagnostics routes are GETs only', () => {
    const routes = readFileSync(join(FOLDER, 'routes.ts'), 'utf8');
    const methods = [...routes.matchAll(/method: '([A-Z]+)'/g)].map((m) => m[1]);
    assert.ok(methods.length >= 2);
    assert.deepEqual([...new Set(methods)], ['GET']);
  });
});
