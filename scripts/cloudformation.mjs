#!/usr/bin/env node
// Writes the product's IAM policy into deploy/cloudformation.yaml, between its GENERATED markers, from
// productPolicyDocument() (src/domain/iam/product-policy.ts, read from the build: run `npm run build` first).
//   node scripts/cloudformation.mjs          rewrite the block
//   node scripts/cloudformation.mjs --check  exit 1 when the committed template differs (test/deploy/cloudformation.test.ts
//                                            checks the same through renderTemplate)
// The policy becomes customer managed policies attached to the instance role, split so each stays under IAM's size
// limit: 6,144 characters without whitespace per managed policy (IAM and AWS STS quotas); a role has at most 10
// managed policies by default, one of them AmazonSSMManagedInstanceCore.
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { stringify } from 'yaml';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
export const TEMPLATE = join(ROOT, 'deploy', 'cloudformation.yaml');
const BEGIN = '  # BEGIN GENERATED product policy';
const END = '  # END GENERATED product policy';
/** IAM: a customer managed policy's document, in characters, whitespace not counted. */
export const MANAGED_POLICY_MAX_CHARS = 6144;
/** IAM: managed policies per role (default quota), less AmazonSSMManagedInstanceCore. */
export const MAX_PRODUCT_POLICIES = 9;

/** Whitespace outside strings is not counted by IAM; JSON.stringify writes none, so this is the counted size. */
const size = (document) => JSON.stringify(document).length;

/** The statements in order, packed greedily into documents each within MANAGED_POLICY_MAX_CHARS. */
export function splitPolicy(document) {
  const parts = [];
  for (const statement of document.Statement) {
    const current = parts.at(-1);
    if (current && size({ ...current, Statement: [...current.Statement, statement] }) <= MANAGED_POLICY_MAX_CHARS) {
      current.Statement.push(statement);
      continue;
    }
    const alone = { Version: document.Version, Statement: [statement] };
    if (size(alone) > MANAGED_POLICY_MAX_CHARS) {
      throw new Error(`statement ${statement.Sid} alone is over IAM's ${MANAGED_POLICY_MAX_CHARS} characters`);
    }
    parts.push(alone);
  }
  if (parts.length > MAX_PRODUCT_POLICIES) {
    throw new Error(`the product policy needs ${parts.length} managed policies; a role takes ${MAX_PRODUCT_POLICIES}`);
  }
  return parts;
}

const indent = (text, spaces) =>
  text
    .trimEnd()
    .split('\n')
    .map((line) => (line ? ' '.repeat(spaces) + line : line))
    .join('\n');

/** The generated block (between the markers) for a policy document. */
export function policyBlock(document) {
  const parts = splitPolicy(document);
  const header = [
    `${BEGIN}: \`node scripts/cloudformation.mjs\` writes this block from productPolicyDocument()`,
    '  # in src/domain/iam/product-policy.ts (do not edit it here; test/deploy/cloudformation.test.ts compares).',
  ];
  const resources = parts.map((part, i) =>
    [
      `  ProductPolicy${i + 1}:`,
      '    Type: AWS::IAM::ManagedPolicy',
      '    Properties:',
      `      Description: InstantStart's own AWS calls (${i + 1} of ${parts.length}), from src/domain/iam/product-policy.ts`,
      '      Roles:',
      '        - !Ref InstanceRole',
      '      PolicyDocument:',
      // Every string quoted: '2012-10-17' must stay a string for CloudFormation's YAML 1.1 reader.
      indent(stringify(part, { defaultStringType: 'QUOTE_SINGLE', defaultKeyType: 'PLAIN', lineWidth: 0 }), 8),
    ].join('\n'),
  );
  return [...header, ...resources, END].join('\n');
}

/** The template with its generated block rewritten for `document`; throws when the markers are missing. */
export function renderTemplate(template, document) {
  const begin = template.indexOf(BEGIN);
  const end = template.indexOf(END);
  if (begin < 0 || end < begin) throw new Error(`${TEMPLATE}: the GENERATED product policy markers are missing`);
  return template.slice(0, begin) + policyBlock(document) + template.slice(end + END.length);
}

async function main(argv) {
  const compiled = join(ROOT, 'dist', 'src', 'domain', 'iam', 'product-policy.js');
  if (!existsSync(compiled)) {
    process.stderr.write('scripts/cloudformation.mjs: build first (npm run build): dist/src/domain/iam is missing\n');
    return 1;
  }
  const { productPolicyDocument } = await import(pathToFileURL(compiled).href);
  const current = readFileSync(TEMPLATE, 'utf8');
  const next = renderTemplate(current, productPolicyDocument());
  if (argv.includes('--check')) {
    if (next === current) return 0;
    process.stderr.write(`${TEMPLATE} is out of date: run node scripts/cloudformation.mjs\n`);
    return 1;
  }
  if (next !== current) writeFileSync(TEMPLATE, next);
  process.stdout.write(`${TEMPLATE}: ${next === current ? 'up to date' : 'rewritten'}\n`);
  return 0;
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  process.exitCode = await main(process.argv.slice(2));
}
