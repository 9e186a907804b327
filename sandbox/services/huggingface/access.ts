import type { HubModel } from './catalog.js';

/**
 * Who may read what on the Hub simulation. Tokens look like the Hub's (`hf_` and at least 30
 * letters or digits); one of them, SANDBOX_HF_TOKEN, belongs to a user granted access to every
 * gated model. Any other well-formed token is a user without grants; anything else is not a token.
 * Model information is public even for gated models (as on the Hub); their files are not:
 * 401 without a token, 403 with a token whose user is not on the model's authorized list — both
 * with `X-Error-Code: GatedRepo` and the Hub's own sentences.
 */

export const SANDBOX_HF_TOKEN = 'hf_SandboxGrantedAccessToken000000000000';

const TOKEN = /^hf_[A-Za-z0-9]{30,}$/;

export type Denial = { status: 401 | 403; code?: string; message: string };

/** The token of an `Authorization: Bearer …` header (undefined without one). */
export function bearerToken(header: string | undefined): string | undefined {
  const m = /^Bearer\s+(\S+)\s*$/i.exec(header ?? '');
  return m ? m[1] : undefined;
}

/** A token that is not a token at all is refused on every endpoint, as the Hub does. */
export function credentialsDenial(token: string | undefined): Denial | undefined {
  if (token === undefined || TOKEN.test(token)) return undefined;
  return { status: 401, message: 'Invalid credentials in Authorization header' };
}

/** Why the files of a model cannot be read with this token; undefined when they can. */
export function fileDenial(model: HubModel, token: string | undefined, endpoint: string): Denial | undefined {
  const bad = credentialsDenial(token);
  if (bad) return bad;
  if (!model.gated) return undefined;
  if (token === undefined) {
    return {
      status: 401,
      code: 'GatedRepo',
      message: `Access to model ${model.id} is restricted. You must have access to it and be authenticated to access it. Please log in.`,
    };
  }
  if (token !== SANDBOX_HF_TOKEN) {
    return {
      status: 403,
      code: 'GatedRepo',
      message: `Access to model ${model.id} is restricted and you are not in the authorized list. Visit ${endpoint}/${model.id} to ask for access.`,
    };
  }
  return undefined;
}
