import { createPrivateKey, randomBytes, webcrypto } from 'node:crypto';
import {
  existsSync,
  mkdirSync,
  readFileSync,
  unwatchFile,
  watchFile,
  writeFileSync,
} from 'node:fs';
import tls from 'node:tls';
import type { FastifyBaseLogger } from 'fastify';
import path from 'node:path';
// @peculiar/x509 resolves its algorithms through tsyringe, which needs the Reflect metadata API
import 'reflect-metadata';
import * as x509 from '@peculiar/x509';

// Issue 33: DoT's certificate. In production it is DNS_TLS_CERT / DNS_TLS_KEY (a publicly trusted
// wildcard for `*.<DNS_DOT_DOMAIN>`: Android checks DoT against the system's CAs only). Elsewhere,
// without them, a CA of this server and a wildcard certificate it signs are generated once into
// DATA_DIR/dns-tls (with @peculiar/x509), and the line to trust the CA is printed.

export interface CertificateFiles {
  certFile: string;
  keyFile: string;
  /** the generated CA (absent for a configured certificate) */
  caFile?: string;
}

const ALGORITHM = { name: 'ECDSA', namedCurve: 'P-256', hash: 'SHA-256' } as const;
const DAY_MS = 24 * 60 * 60 * 1000;

function pemOfPrivateKey(pkcs8: ArrayBuffer): string {
  return createPrivateKey({ key: Buffer.from(pkcs8), format: 'der', type: 'pkcs8' })
    .export({ type: 'pkcs8', format: 'pem' })
    .toString();
}

function serial(): string {
  // positive, 16 octets
  const bytes = randomBytes(16);
  bytes[0] = (bytes[0] ?? 0) & 0x7f;
  return bytes.toString('hex');
}

/** Whether the stored certificate is for `domain` and valid for another week. */
function isUsable(dir: string, domain: string, now: Date): boolean {
  const files = ['ca.pem', 'cert.pem', 'key.pem', 'domain.txt'].map((f) => path.join(dir, f));
  if (!files.every((file) => existsSync(file))) return false;
  if (readFileSync(path.join(dir, 'domain.txt'), 'utf8').trim() !== domain) return false;
  try {
    const cert = new x509.X509Certificate(readFileSync(path.join(dir, 'cert.pem'), 'utf8'));
    return cert.notAfter.getTime() > now.getTime() + 7 * DAY_MS;
  } catch {
    return false;
  }
}

export async function generateCertificates(dir: string, domain: string, now = new Date()) {
  x509.cryptoProvider.set(webcrypto as unknown as Parameters<typeof x509.cryptoProvider.set>[0]);
  const subtle = webcrypto.subtle;
  const caKeys = (await subtle.generateKey(ALGORITHM, true, [
    'sign',
    'verify',
  ])) as webcrypto.CryptoKeyPair;
  const notBefore = new Date(now.getTime() - DAY_MS);
  const ca = await x509.X509CertificateGenerator.createSelfSigned({
    serialNumber: serial(),
    name: `CN=Keyward DNS test CA (${domain})`,
    notBefore,
    notAfter: new Date(now.getTime() + 3650 * DAY_MS),
    keys: caKeys,
    signingAlgorithm: ALGORITHM,
    extensions: [
      new x509.BasicConstraintsExtension(true, 0, true),
      new x509.KeyUsagesExtension(
        x509.KeyUsageFlags.keyCertSign | x509.KeyUsageFlags.cRLSign,
        true,
      ),
      await x509.SubjectKeyIdentifierExtension.create(caKeys.publicKey),
    ],
  });
  const leafKeys = (await subtle.generateKey(ALGORITHM, true, [
    'sign',
    'verify',
  ])) as webcrypto.CryptoKeyPair;
  const leaf = await x509.X509CertificateGenerator.create({
    serialNumber: serial(),
    subject: `CN=*.${domain}`,
    issuer: ca.subject,
    notBefore,
    // 397 days: what browsers accept for a server certificate
    notAfter: new Date(now.getTime() + 397 * DAY_MS),
    signingKey: caKeys.privateKey,
    publicKey: leafKeys.publicKey,
    signingAlgorithm: ALGORITHM,
    extensions: [
      new x509.BasicConstraintsExtension(false, undefined, true),
      new x509.KeyUsagesExtension(x509.KeyUsageFlags.digitalSignature, true),
      new x509.ExtendedKeyUsageExtension([x509.ExtendedKeyUsage.serverAuth]),
      new x509.SubjectAlternativeNameExtension([
        { type: 'dns', value: `*.${domain}` },
        { type: 'dns', value: domain },
      ]),
      await x509.AuthorityKeyIdentifierExtension.create(ca),
      await x509.SubjectKeyIdentifierExtension.create(leafKeys.publicKey),
    ],
  });
  mkdirSync(dir, { recursive: true });
  writeFileSync(path.join(dir, 'ca.pem'), ca.toString('pem'));
  writeFileSync(
    path.join(dir, 'ca-key.pem'),
    pemOfPrivateKey(await subtle.exportKey('pkcs8', caKeys.privateKey)),
    { mode: 0o600 },
  );
  writeFileSync(path.join(dir, 'cert.pem'), `${leaf.toString('pem')}\n${ca.toString('pem')}\n`);
  writeFileSync(
    path.join(dir, 'key.pem'),
    pemOfPrivateKey(await subtle.exportKey('pkcs8', leafKeys.privateKey)),
    { mode: 0o600 },
  );
  writeFileSync(path.join(dir, 'domain.txt'), `${domain}\n`);
}

/** The generated files in `dir` for `domain`, generated when missing, stale or for another domain. */
export async function devCertificates(
  dir: string,
  domain: string,
  now = new Date(),
): Promise<CertificateFiles & { generated: boolean }> {
  const generated = !isUsable(dir, domain, now);
  if (generated) await generateCertificates(dir, domain, now);
  return {
    certFile: path.join(dir, 'cert.pem'),
    keyFile: path.join(dir, 'key.pem'),
    caFile: path.join(dir, 'ca.pem'),
    generated,
  };
}

export function readCertificatePair(files: CertificateFiles) {
  return { cert: readFileSync(files.certFile), key: readFileSync(files.keyFile) };
}

const WATCH_INTERVAL_MS = 2_000;

/**
 * Re-reads the certificate and key when either file changes (a renewal), and hands the new pair
 * to `apply`; a pair that does not load is logged and the current one kept. Returns the stop.
 */
export function watchCertificate(
  files: CertificateFiles,
  log: FastifyBaseLogger,
  apply: (pair: { cert: Buffer; key: Buffer }) => void,
): () => void {
  const reload = () => {
    try {
      const pair = readCertificatePair(files);
      tls.createSecureContext(pair); // throws on a broken pair, before it is used
      apply(pair);
      log.info({ certFile: files.certFile }, 'Keyward DNS: certificate re-read');
    } catch (error) {
      log.warn(
        { err: error },
        'Keyward DNS: the new certificate could not be read; keeping the old one',
      );
    }
  };
  const listener = (
    current: { mtimeMs: number; size: number },
    previous: { mtimeMs: number; size: number },
  ) => {
    if (current.mtimeMs !== previous.mtimeMs || current.size !== previous.size) reload();
  };
  for (const file of [files.certFile, files.keyFile]) {
    watchFile(file, { interval: WATCH_INTERVAL_MS, persistent: false }, listener);
  }
  return () => {
    for (const file of [files.certFile, files.keyFile]) unwatchFile(file, listener);
  };
}
