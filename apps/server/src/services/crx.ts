import {
  createHash,
  createPrivateKey,
  createPublicKey,
  generateKeyPairSync,
  type KeyObject,
  sign,
} from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';

// Issue 22: Keyward for Chrome as a signed CRX (version 3) with a Google-Update-style manifest, so a
// parent can force-install it by policy (ExtensionInstallForcelist = "<id>;<update URL>") and the
// child cannot remove it. The extension's id is derived from the server's signing key, which is
// generated once into DATA_DIR (or given as BROWSER_FILTER_SIGNING_KEY, a PKCS#8 PEM RSA key, so
// several instances serve the same id). The format, in our words:
//   "Cr24" · version 3 (uint32 LE) · header length (uint32 LE) · header · the zip
// The header is a protobuf CrxFileHeader: field 2 (sha256_with_rsa) holds an AsymmetricKeyProof
// {1: public key (SPKI DER), 2: signature}, field 10000 (signed_header_data) a SignedData
// {1: crx_id}. crx_id is the first 16 bytes of SHA-256 of the public key; the id Chrome shows is
// those bytes in hex with the digits 0–f written a–p. The signature is RSA PKCS#1 v1.5 SHA-256 over
// "CRX3 SignedData\0" · length of the signed header data (uint32 LE) · signed header data · zip.

const SIGNED_DATA_PREFIX = Buffer.from('CRX3 SignedData\x00', 'binary');

function varint(value: number): Buffer {
  const bytes: number[] = [];
  let rest = value;
  while (rest >= 0x80) {
    bytes.push((rest & 0x7f) | 0x80);
    rest = Math.floor(rest / 128);
  }
  bytes.push(rest);
  return Buffer.from(bytes);
}

/** One length-delimited protobuf field (wire type 2). */
function bytesField(field: number, value: Buffer): Buffer {
  return Buffer.concat([varint(field * 8 + 2), varint(value.length), value]);
}

function uint32le(value: number): Buffer {
  const buffer = Buffer.alloc(4);
  buffer.writeUInt32LE(value);
  return buffer;
}

export function crxIdOf(publicKey: KeyObject): Buffer {
  const der = publicKey.export({ type: 'spki', format: 'der' });
  return createHash('sha256').update(der).digest().subarray(0, 16);
}

/** The id Chrome gives the extension signed with this key (32 letters a–p). */
export function extensionIdOf(publicKey: KeyObject): string {
  return [...crxIdOf(publicKey).toString('hex')]
    .map((digit) => String.fromCharCode(97 + Number.parseInt(digit, 16)))
    .join('');
}

/** The zip as a CRX3 signed with `privateKey`. */
export function packCrx3(zip: Buffer, privateKey: KeyObject): Buffer {
  const publicKey = createPublicKey(privateKey);
  const signedHeaderData = bytesField(1, crxIdOf(publicKey));
  const signature = sign(
    'sha256',
    Buffer.concat([SIGNED_DATA_PREFIX, uint32le(signedHeaderData.length), signedHeaderData, zip]),
    privateKey,
  );
  const proof = Buffer.concat([
    bytesField(1, publicKey.export({ type: 'spki', format: 'der' })),
    bytesField(2, signature),
  ]);
  const header = Buffer.concat([bytesField(2, proof), bytesField(10000, signedHeaderData)]);
  return Buffer.concat([Buffer.from('Cr24'), uint32le(3), uint32le(header.length), header, zip]);
}

/** The update manifest Chrome reads at the policy's update URL. */
export function updateManifest(extensionId: string, version: string, crxUrl: string): string {
  const attribute = (text: string) =>
    text.replace(/&/g, '&amp;').replace(/'/g, '&apos;').replace(/</g, '&lt;');
  return `<?xml version='1.0' encoding='UTF-8'?>
<gupdate xmlns='http://www.google.com/update2/response' protocol='2.0'>
  <app appid='${attribute(extensionId)}'>
    <updatecheck codebase='${attribute(crxUrl)}' version='${attribute(version)}' />
  </app>
</gupdate>
`;
}

const signingKeys = new Map<string, KeyObject>();

/**
 * The key Keyward for Chrome's CRX is signed with: BROWSER_FILTER_SIGNING_KEY (PEM), else one
 * generated once into DATA_DIR/browser-filter-key.pem (a new key is a new extension id, so the file
 * is kept like the other secrets).
 */
export function browserFilterSigningKey(config: {
  dataDir: string;
  browserFilterSigningKey?: string | undefined;
}): KeyObject {
  if (config.browserFilterSigningKey) return createPrivateKey(config.browserFilterSigningKey);
  const file = path.join(config.dataDir, 'browser-filter-key.pem');
  const cached = signingKeys.get(file);
  if (cached) return cached;
  let pem: string;
  if (existsSync(file)) {
    pem = readFileSync(file, 'utf8');
  } else {
    const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
    pem = privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
    mkdirSync(config.dataDir, { recursive: true });
    writeFileSync(file, pem, { mode: 0o600 });
  }
  const key = createPrivateKey(pem);
  signingKeys.set(file, key);
  return key;
}
