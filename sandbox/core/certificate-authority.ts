import { webcrypto } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
// @peculiar/x509 resolves its algorithm registry through tsyringe, which needs the Reflect metadata API.
import 'reflect-metadata';
import * as x509 from '@peculiar/x509';

/**
 * The sandbox's own certificate authority: EKS `DescribeCluster` hands its certificate out as
 * `certificateAuthority.data`, and the sandbox Kubernetes API serves certificates it signs, so
 * kubectl and client-node verify TLS without `--insecure-skip-tls-verify`.
 *
 * Made once per state directory and kept in `<state-dir>/ca/` (a reset keeps it: kubeconfigs users
 * saved stay valid). X.509 encoding is @peculiar/x509's; keys are Node's WebCrypto (ECDSA P-256).
 */

// Node's WebCrypto, typed as the library's (DOM) Crypto, which this Node-only project does not load.
type LibraryCrypto = Parameters<typeof x509.cryptoProvider.set>[0];
type CryptoKey = webcrypto.CryptoKey;
const crypto = webcrypto;
x509.cryptoProvider.set(crypto as unknown as LibraryCrypto);

const KEY_ALGORITHM = { name: 'ECDSA', namedCurve: 'P-256' } as const;
const SIGNING_ALGORITHM = { name: 'ECDSA', hash: 'SHA-256' } as const;
const DAY_MS = 24 * 3600 * 1000;

export interface IssuedCertificate {
  certificatePem: string;
  privateKeyPem: string;
}

export class CertificateAuthority {
  private constructor(
    readonly certificatePem: string,
    private readonly certificate: x509.X509Certificate,
    private readonly privateKey: CryptoKey,
  ) {}

  /** `certificateAuthority.data` as EKS returns it: the PEM, base64-encoded. */
  get base64Data(): string {
    return Buffer.from(this.certificatePem).toString('base64');
  }

  /** Loads `<stateDir>/ca/`, or creates the authority there the first time. */
  static async loadOrCreate(stateDir: string): Promise<CertificateAuthority> {
    const dir = join(stateDir, 'ca');
    const certPath = join(dir, 'ca.crt');
    const keyPath = join(dir, 'ca.key');
    if (existsSync(certPath) && existsSync(keyPath)) {
      const certificatePem = readFileSync(certPath, 'utf8');
      const keyDer = x509.PemConverter.decodeFirst(readFileSync(keyPath, 'utf8'));
      const privateKey = await crypto.subtle.importKey('pkcs8', keyDer, KEY_ALGORITHM, true, ['sign']);
      return new CertificateAuthority(certificatePem, new x509.X509Certificate(certificatePem), privateKey);
    }
    const keys = await crypto.subtle.generateKey(KEY_ALGORITHM, true, ['sign', 'verify']);
    const now = Date.now();
    const certificate = await x509.X509CertificateGenerator.createSelfSigned({
      serialNumber: randomSerial(),
      name: 'CN=instantstart-sandbox-ca',
      notBefore: new Date(now - DAY_MS),
      notAfter: new Date(now + 10 * 365 * DAY_MS),
      keys,
      signingAlgorithm: SIGNING_ALGORITHM,
      extensions: [
        new x509.BasicConstraintsExtension(true, undefined, true),
        new x509.KeyUsagesExtension(
          x509.KeyUsageFlags.keyCertSign | x509.KeyUsageFlags.cRLSign | x509.KeyUsageFlags.digitalSignature,
          true,
        ),
        await x509.SubjectKeyIdentifierExtension.create(keys.publicKey),
      ],
    });
    const certificatePem = certificate.toString('pem');
    mkdirSync(dir, { recursive: true });
    writeFileSync(keyPath, await exportPrivateKeyPem(keys.privateKey), { mode: 0o600 });
    writeFileSync(certPath, certificatePem);
    return new CertificateAuthority(certificatePem, certificate, keys.privateKey);
  }

  /** A TLS server certificate for the given names and IP addresses, signed by this authority. */
  async issueServerCertificate(subject: {
    commonName: string;
    dnsNames?: string[];
    ipAddresses?: string[];
  }): Promise<IssuedCertificate> {
    const keys = await crypto.subtle.generateKey(KEY_ALGORITHM, true, ['sign', 'verify']);
    const now = Date.now();
    const certificate = await x509.X509CertificateGenerator.create({
      serialNumber: randomSerial(),
      subject: `CN=${subject.commonName}`,
      issuer: this.certificate.subject,
      notBefore: new Date(now - DAY_MS),
      notAfter: new Date(now + 825 * DAY_MS),
      publicKey: keys.publicKey,
      signingKey: this.privateKey,
      signingAlgorithm: SIGNING_ALGORITHM,
      extensions: [
        new x509.BasicConstraintsExtension(false, undefined, true),
        new x509.KeyUsagesExtension(x509.KeyUsageFlags.digitalSignature | x509.KeyUsageFlags.keyEncipherment, true),
        new x509.ExtendedKeyUsageExtension([x509.ExtendedKeyUsage.serverAuth]),
        new x509.SubjectAlternativeNameExtension([
          ...(subject.dnsNames ?? []).map((value) => ({ type: 'dns' as const, value })),
          ...(subject.ipAddresses ?? []).map((value) => ({ type: 'ip' as const, value })),
        ]),
        await x509.AuthorityKeyIdentifierExtension.create(this.certificate),
      ],
    });
    return { certificatePem: certificate.toString('pem'), privateKeyPem: await exportPrivateKeyPem(keys.privateKey) };
  }
}

async function exportPrivateKeyPem(key: CryptoKey): Promise<string> {
  return x509.PemConverter.encode(await crypto.subtle.exportKey('pkcs8', key), 'PRIVATE KEY');
}

/** A positive 16-byte serial (the top bit clear, as DER integers are signed). */
function randomSerial(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  bytes[0] = bytes[0]! & 0x7f;
  return Buffer.from(bytes).toString('hex');
}
