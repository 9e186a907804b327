/**
 * Whether a field or parameter name names a credential: it contains token, secret, key, password
 * (passwd, pwd), auth or credential, in any case and with any separator (`hf_token`, `HF_TOKEN`,
 * `hfToken`, `access-token`, `X-Api-Key`, `secretAccessKey`, `Authorization`). A pattern, not a list of
 * names: a caller may send a credential under any name, and a log must not keep it whatever the name.
 * It errs on the side of hiding (`idempotencyKey`, `author` are hidden too): a log loses a value, never
 * leaks one.
 */
const SECRET_NAME = /token|secret|key|passw|pwd|auth|credential/i;

export function isSecretName(name: string): boolean {
  return SECRET_NAME.test(name);
}

/** What a hidden value is logged as. */
export const REDACTED = '[redacted]';

/**
 * `value` with every field whose name is a secret name replaced by {@link REDACTED}, in plain objects
 * and arrays down to `depth` levels (log objects are small; deeper ones are kept as they are). Other
 * objects (errors, buffers, class instances) are kept: their serializers decide what they show.
 * Returns `value` itself when nothing was hidden, so a clean log object costs no copy.
 */
export function redactSecretFields<T>(value: T, depth = 6): T {
  if (depth <= 0 || value === null || typeof value !== 'object') return value;
  if (Array.isArray(value)) {
    let changed = false;
    const out = value.map((v) => {
      const r = redactSecretFields(v, depth - 1);
      if (r !== v) changed = true;
      return r;
    });
    return (changed ? out : value) as T;
  }
  const proto = Object.getPrototypeOf(value);
  if (proto !== Object.prototype && proto !== null) return value;
  let out: Record<string, unknown> | undefined;
  for (const [k, v] of Object.entries(value)) {
    const r =
      isSecretName(k) && v !== undefined && v !== null && v !== '' ? REDACTED : redactSecretFields(v, depth - 1);
    if (r !== v) (out ??= { ...(value as Record<string, unknown>) })[k] = r;
  }
  return (out ?? value) as T;
}
