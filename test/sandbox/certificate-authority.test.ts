import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createServer, request } from 'node:https';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { CertificateAuthority } from '../../sandbox/core/certificate-authority.js';

function get(port: number, ca?: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, path: '/', ...(ca ? { ca } : {}) }, (res) => {
      let body = '';
      res.on('data', (d) => (body += d));
      res.on('end', () => resolve(body));
    });
    req.on('error', reject);
    req.end();
  });
}

describe('sandbox certificate authority', () => {
  let dir: string;
  before(() => {
    dir = mkdtempSync(join(tmpdir(), 'instantstart-ca-'));
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  it('is made once per state directory, keeps its key private, and is the same after a restart', async () => {
    const first = await CertificateAuthority.loadOrCreate(dir);
    const again = await CertificateAuthority.loadOrCreate(dir);
    assert.equal(again.certificatePem, first.certificatePem);
    assert.match(first.certificatePem, /^-----BEGIN CERTIFICATE-----/);
    assert.equal(Buffer.from(first.base64Data, 'base64').toString(), first.certificatePem);
    assert.equal(statSync(join(dir, 'ca', 'ca.key')).mode & 0o077, 0, 'the CA key is readable by its owner only');
    const text = execFileSync('openssl', ['x509', '-noout', '-text', '-in', join(dir, 'ca', 'ca.crt')], {
      encoding: 'utf8',
    });
    assert.match(text, /CA:TRUE/);
    assert.match(text, /Subject: CN\s?=\s?instantstart-sandbox-ca/);
  });

  it('issues server certificates that TLS clients trust through the CA alone, and only through it', async () => {
    const ca = await CertificateAuthority.loadOrCreate(dir);
    const issued = await ca.issueServerCertificate({
      commonName: 'kube-apiserver',
      dnsNames: ['localhost'],
      ipAddresses: ['127.0.0.1'],
    });
    const leaf = join(dir, 'leaf.crt');
    writeFileSync(leaf, issued.certificatePem);
    assert.match(
      execFileSync('openssl', ['verify', '-CAfile', join(dir, 'ca', 'ca.crt'), leaf], { encoding: 'utf8' }),
      /OK/,
    );

    const server = createServer({ cert: issued.certificatePem, key: issued.privateKeyPem }, (_req, res) =>
      res.end('hello over verified TLS'),
    );
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    try {
      const port = (server.address() as AddressInfo).port;
      assert.equal(await get(port, readFileSync(join(dir, 'ca', 'ca.crt'), 'utf8')), 'hello over verified TLS');
      await assert.rejects(get(port), /self[- ]signed|unable to (verify|get local issuer)/i);
    } finally {
      await new Promise((r) => server.close(r));
    }
  });
});
