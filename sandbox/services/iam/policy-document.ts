import { AwsError } from '../../core/errors.js';

/**
 * IAM policy documents: parsed and checked the way IAM does before it stores one, and URL-encoded
 * on the way out (IAM returns documents percent-encoded; the SDKs leave decoding to the caller).
 */
export type PolicyKind = 'trust' | 'identity';

type Statement = Record<string, unknown>;

/** The statements of a stored (already validated) document, or undefined when it is not one. */
export function statementsOf(documentText: string): Statement[] | undefined {
  let doc: unknown;
  try {
    doc = JSON.parse(documentText);
  } catch {
    return undefined;
  }
  if (typeof doc !== 'object' || doc === null) return undefined;
  const st = (doc as Record<string, unknown>).Statement;
  const list = Array.isArray(st) ? st : st === undefined ? [] : [st];
  return list.filter((s): s is Statement => typeof s === 'object' && s !== null && !Array.isArray(s));
}

const malformed = (message: string) => new AwsError('MalformedPolicyDocument', message, 400);

const VERSIONS = new Set(['2012-10-17', '2008-10-17']);

/** Throws MalformedPolicyDocument as IAM would for `text`; `kind` decides whether a Principal is required or forbidden. */
export function checkPolicyDocument(text: string, kind: PolicyKind): void {
  let doc: unknown;
  try {
    doc = JSON.parse(text);
  } catch {
    throw malformed('This policy contains invalid Json');
  }
  if (typeof doc !== 'object' || doc === null || Array.isArray(doc))
    throw malformed('This policy contains invalid Json');
  const d = doc as Record<string, unknown>;
  if (d.Version !== undefined && (typeof d.Version !== 'string' || !VERSIONS.has(d.Version))) {
    throw malformed(`The policy failed legacy parsing: Version '${String(d.Version)}' is not a valid policy version`);
  }
  const known = new Set(['Version', 'Id', 'Statement']);
  for (const key of Object.keys(d))
    if (!known.has(key)) throw malformed(`Syntax errors in policy. Unknown field ${key}`);
  if (d.Statement === undefined) throw malformed('Syntax errors in policy. Missing required field Statement');
  const list = Array.isArray(d.Statement) ? d.Statement : [d.Statement];
  if (list.length === 0) throw malformed('Syntax errors in policy. Statement must not be empty');
  list.forEach((s) => checkStatement(s, kind));
}

function checkStatement(s: unknown, kind: PolicyKind): void {
  if (typeof s !== 'object' || s === null || Array.isArray(s))
    throw malformed('Syntax errors in policy. Statement must be an object');
  const st = s as Statement;
  if (st.Effect === undefined) throw malformed('Syntax errors in policy. Missing required field Effect');
  if (st.Effect !== 'Allow' && st.Effect !== 'Deny') throw malformed(`Invalid effect: ${String(st.Effect)}`);
  if (st.Action === undefined && st.NotAction === undefined) throw malformed('Policy statement must contain actions.');
  for (const field of ['Action', 'NotAction'] as const) {
    if (st[field] === undefined) continue;
    const actions = Array.isArray(st[field]) ? (st[field] as unknown[]) : [st[field]];
    for (const a of actions) {
      if (typeof a !== 'string' || (a !== '*' && !/^[a-zA-Z0-9-]+:[\w*?-]*$/.test(a))) {
        throw malformed(`Actions/Conditions must be prefaced by a vendor, e.g., iam, sdb, ec2, etc.`);
      }
    }
  }
  const hasPrincipal = st.Principal !== undefined || st.NotPrincipal !== undefined;
  if (kind === 'trust') {
    if (!hasPrincipal) throw malformed('Missing required field Principal');
    if (st.Resource !== undefined || st.NotResource !== undefined) throw malformed('Has prohibited field Resource');
  } else {
    if (hasPrincipal) throw malformed('Policy document should not specify a principal.');
    if (st.Resource === undefined && st.NotResource === undefined)
      throw malformed('Policy statement must contain resources.');
  }
}

/** IAM counts policy size without whitespace. */
export const policySize = (text: string): number => text.replace(/\s/g, '').length;

/** IAM's encoding of documents in responses: RFC 3986 percent-encoding, like Java's URLEncoder. */
export const encodeDocument = (text: string): string => encodeURIComponent(text);
