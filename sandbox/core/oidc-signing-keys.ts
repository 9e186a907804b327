import {
  createHash,
  createPrivateKey,
  createPublicKey,
  createSign,
  generateKeyPairSync,
  type KeyObject,
} from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * The signing keys of the sandbox EKS clusters' OIDC issuers: one RSA key per issuer id, as EKS
 * keeps one per cluster, published in the issuer's JWKS and used to sign its service account tokens
 * (RS256). Kept beside the sandbox CA in `<state-dir>/oidc/<issuer id>.key`, made on first use, so
 * tokens and the OIDC providers that trust them survive a restart.
 */

export interface OidcPublicJwk {
  kty: 'RSA';
  kid: string;
  use: 'sig';
  alg: 'RS256';
  n: string;
  e: string;
}

const ISSUER_ID = /^[0-9A-F]{32}$/;

export class OidcSigningKeys {
  private readonly loaded = new Map<string, { privateKey: KeyObject; jwk: OidcPublicJwk }>();

  constructor(private readonly stateDir: string) {}

  /** The issuer's public key as its JWKS lists it. */
  publicJwk(issuerId: string): OidcPublicJwk {
    return { ...this.key(issuerId).jwk };
  }

  /** A compact JWS (RS256) of `claims`, signed with the issuer's key, with its `kid` in the header. */
  signJwt(issuerId: string, claims: Record<string, unknown>): string {
    const { privateKey, jwk } = this.key(issuerId);
    const header = base64url(JSON.stringify({ alg: 'RS256', kid: jwk.kid }));
    const payload = base64url(JSON.stringify(claims));
    const signature = createSign('RSA-SHA256').update(`${header}.${payload}`).sign(privateKey);
    return `${header}.${payload}.${base64url(signature)}`;
  }

  private key(issuerId: string): { privateKey: KeyObject; jwk: OidcPublicJwk } {
    // The id names a file: only the shape EKS issuer ids have (and the sandbox makes) is accepted.
    if (!ISSUER_ID.test(issuerId)) throw new Error(`not an EKS OIDC issuer id: ${issuerId}`);
    const cached = this.loaded.get(issuerId);
    if (cached) return cached;
    const dir = join(this.stateDir, 'oidc');
    const path = join(dir, `${issuerId}.key`);
    let privateKey: KeyObject;
    if (existsSync(path)) {
      privateKey = createPrivateKey(readFileSync(path, 'utf8'));
    } else {
      privateKey = generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey;
      mkdirSync(dir, { recursive: true });
      writeFileSync(path, privateKey.export({ type: 'pkcs8', format: 'pem' }), { mode: 0o600 });
    }
    const pub = createPublicKey(privateKey).export({ format: 'jwk' }) as { n: string; e: string };
    // EKS's kids are hex digests of the public key; the SHA-1 of its DER is the same idea.
    const kid = createHash('sha1')
      .update(createPublicKey(privateKey).export({ type: 'spki', format: 'der' }))
      .digest('hex');
    const entry = {
      privateKey,
      jwk: { kty: 'RSA' as const, kid, use: 'sig' as const, alg: 'RS256' as const, n: pub.n, e: pub.e },
    };
    this.loaded.set(issuerId, entry);
    return entry;
  }
}

function base64url(data: string | Buffer): string {
  return Buffer.from(data).toString('base64url');
}
