/**
 * IAM policy documents as plain data, and the one way two of them are compared. IAM hands a
 * document back as it was stored, but a person (or another tool) may have written the same policy
 * with a one-element list instead of a string, or its statements' lists in another order; that is
 * the same policy and must not count as a change (a change means a mutation, and a repeat of a
 * feature change must make none).
 */

export interface PolicyStatement {
  Sid?: string;
  Effect: 'Allow' | 'Deny';
  Principal?: Record<string, string | string[]>;
  Action: string | string[];
  Resource?: string | string[];
  Condition?: Record<string, Record<string, string | string[]>>;
}

export interface PolicyDocument {
  Version: '2012-10-17';
  Statement: PolicyStatement[];
}

/** A JSON value in one spelling: keys sorted, one-element lists as their element, lists of strings sorted. */
function canonical(value: unknown): unknown {
  if (Array.isArray(value)) {
    const items = value.map(canonical);
    if (items.length === 1 && typeof items[0] === 'string') return items[0];
    return items.every((i) => typeof i === 'string') ? [...(items as string[])].sort() : items;
  }
  if (value && typeof value === 'object') {
    return Object.fromEntries(
      Object.keys(value)
        .sort()
        .map((k) => [k, canonical((value as Record<string, unknown>)[k])]),
    );
  }
  return value;
}

/** Whether two policy documents (parsed JSON, or JSON text) say the same thing as IAM reads them. */
export function samePolicy(a: unknown, b: unknown): boolean {
  const parse = (d: unknown): unknown => {
    if (typeof d !== 'string') return d;
    try {
      return JSON.parse(d) as unknown;
    } catch {
      return d;
    }
  };
  const statements = (d: unknown): unknown => {
    const doc = canonical(parse(d)) as { Statement?: unknown } | undefined;
    if (!doc || typeof doc !== 'object') return doc;
    // A single statement may be written bare; statement order carries no meaning.
    const list = Array.isArray(doc.Statement) ? doc.Statement : doc.Statement === undefined ? [] : [doc.Statement];
    return { ...doc, Statement: list.map((s) => JSON.stringify(s)).sort() };
  };
  return JSON.stringify(statements(a)) === JSON.stringify(statements(b));
}

/** Every federated principal a trust policy (parsed JSON or JSON text) names: what an OIDC provider is trusted by. */
export function federatedPrincipals(trustPolicy: unknown): string[] {
  let doc = trustPolicy;
  if (typeof doc === 'string') {
    try {
      doc = JSON.parse(doc) as unknown;
    } catch {
      return [];
    }
  }
  const raw = (doc as { Statement?: unknown } | undefined)?.Statement;
  const list = Array.isArray(raw) ? raw : raw ? [raw] : [];
  return list.flatMap((s) => {
    const federated = (s as { Principal?: { Federated?: unknown } } | undefined)?.Principal?.Federated;
    return (Array.isArray(federated) ? federated : [federated]).filter((f): f is string => typeof f === 'string');
  });
}
