import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { sandboxInstalledCrds } from '../../sandbox/kube/controllers/installed-crds.js';
import { CONFORMANCE_DIR_ENV, type ConformanceRecord } from '../helpers/conformance-recorder.js';
import { missingRequired, operationInput } from './aws-required.js';
import { crdSchemas, strictViolations } from './kube-strict.js';

/**
 * The conformance test (issue 25): every AWS request and every Kubernetes object the product sent
 * while the rest of the suite ran (recorded by test/helpers/conformance-recorder.ts; scripts/test.mjs
 * runs this file last), held to its upstream definition. A request must carry every member the AWS SDK
 * model marks required; an object must validate against its kind's strict schema with no unknown field.
 * A kind or an operation with no schema fails, named.
 */

function records(): ConformanceRecord[] {
  const dir = process.env[CONFORMANCE_DIR_ENV];
  assert.ok(
    dir && existsSync(dir),
    `no recordings: run the whole suite with \`npm test\` (it sets ${CONFORMANCE_DIR_ENV} and runs this file last)`,
  );
  const out: ConformanceRecord[] = [];
  for (const name of readdirSync(dir)
    .filter((n) => n.endsWith('.jsonl'))
    .sort()) {
    for (const line of readFileSync(join(dir, name), 'utf8').split('\n'))
      if (line) out.push(JSON.parse(line) as ConformanceRecord);
  }
  return out;
}

/** Groups identical findings: one line per finding, with how often and where it was seen first. */
function report(findings: Array<{ line: string; test: string }>): string {
  const seen = new Map<string, { count: number; test: string }>();
  for (const f of findings) {
    const s = seen.get(f.line);
    if (s) s.count++;
    else seen.set(f.line, { count: 1, test: f.test });
  }
  return [...seen].map(([line, s]) => `- ${line}  (×${s.count}, first in ${s.test})`).join('\n');
}

describe('what the product sent during the suite conforms to upstream', () => {
  const all = records();
  const aws = all.filter((r): r is Extract<ConformanceRecord, { type: 'aws' }> => r.type === 'aws');
  const kube = all.filter((r): r is Extract<ConformanceRecord, { type: 'kube' }> => r.type === 'kube');

  it('recorded the requests and objects of the whole suite', () => {
    // A recorder that stopped working would make the checks below pass on nothing.
    const operations = new Set(aws.map((r) => `${r.service}:${r.operation}`));
    for (const op of ['sagemaker:CreateCluster', 'eks:CreateCluster', 'ec2:CreateVpc', 'iam:CreateRole'])
      assert.ok(operations.has(op), `no ${op} was recorded`);
    const kinds = new Set(kube.map((r) => r.object.kind));
    for (const kind of ['DaemonSet', 'PersistentVolumeClaim', 'HyperPodPyTorchJob', 'NodePool'])
      assert.ok(kinds.has(kind), `no ${kind} was recorded`);
  });

  it('every AWS request carries every member its SDK model marks required', () => {
    const findings: Array<{ line: string; test: string }> = [];
    for (const r of aws) {
      const model = operationInput(r.service, r.operation);
      if ('missing' in model) findings.push({ line: `${r.service} ${r.operation}: ${model.missing}`, test: r.test });
      else
        for (const path of missingRequired(model.schema, r.input))
          findings.push({ line: `${r.service} ${r.operation}: required member ${path} is missing`, test: r.test });
    }
    assert.equal(findings.length, 0, `AWS would refuse these requests:\n${report(findings)}`);
  });

  it("every Kubernetes object validates against its kind's strict upstream schema", () => {
    const applied = kube
      .filter((r) => r.object.kind === 'CustomResourceDefinition')
      .map((r) => ({ crd: r.object, origin: 'CRD applied by the product' }));
    const schemas = crdSchemas([
      ...sandboxInstalledCrds().map((crd) => ({ crd, origin: "sandbox add-on's CRD" })),
      ...applied,
    ]);
    const findings: Array<{ line: string; test: string }> = [];
    for (const r of kube) {
      const o = r.object;
      const what = `${o.kind} ${o.metadata?.namespace ? `${o.metadata.namespace}/` : ''}${o.metadata?.name}`;
      for (const v of strictViolations(o, schemas)) findings.push({ line: `${what}: ${v}`, test: r.test });
    }
    assert.equal(
      findings.length,
      0,
      `a real API server would refuse or silently change these objects:\n${report(findings)}`,
    );
  });
});
