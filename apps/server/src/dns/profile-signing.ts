import { createHash, createPrivateKey, sign } from 'node:crypto';
import {
  Attribute,
  CertificateChoices,
  CertificateSet,
  ContentInfo,
  DigestAlgorithmIdentifiers,
  EncapsulatedContent,
  EncapsulatedContentInfo,
  IssuerAndSerialNumber,
  id_contentType,
  id_data,
  id_messageDigest,
  id_signedData,
  id_signingTime,
  MessageDigest,
  SignedData,
  SignerIdentifier,
  SignerInfo,
  SignerInfos,
  SigningTime,
} from '@peculiar/asn1-cms';
import { AsnConvert, AsnObjectIdentifierConverter, OctetString } from '@peculiar/asn1-schema';
import { AlgorithmIdentifier, Certificate } from '@peculiar/asn1-x509';

// Issue 33: the Apple configuration profile, signed when a certificate is configured
// (DNS_TLS_CERT / DNS_TLS_KEY): a CMS SignedData (RFC 5652) with the profile as its content, the
// certificate chain, and one signer (SHA-256; RSA or ECDSA, whatever the key is). A signed profile
// shows as verified on the device when its certificate chains to a CA the device trusts. Built with
// @peculiar/asn1-cms (maintained, already used for the DoT certificates through @peculiar/x509)
// and node:crypto, not with a command-line tool.

const SHA256 = '2.16.840.1.101.3.4.2.1';
const RSA_ENCRYPTION = '1.2.840.113549.1.1.1';
const ECDSA_WITH_SHA256 = '1.2.840.10045.4.3.2';
const PEM_CERTIFICATE = /-----BEGIN CERTIFICATE-----[\s\S]+?-----END CERTIFICATE-----/g;

function derOf(pem: string): Buffer {
  return Buffer.from(pem.replace(/-----[A-Z ]+-----/g, '').replace(/\s+/g, ''), 'base64');
}

const toArrayBuffer = (bytes: Buffer): ArrayBuffer =>
  bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) as ArrayBuffer;

/** DER length octets */
function derLength(length: number): Buffer {
  if (length < 0x80) return Buffer.from([length]);
  const bytes: number[] = [];
  for (let rest = length; rest > 0; rest = Math.floor(rest / 256)) bytes.unshift(rest % 256);
  return Buffer.from([0x80 | bytes.length, ...bytes]);
}

/**
 * The profile as a DER CMS SignedData signed with the PEM key, carrying the PEM chain (the
 * signer's certificate first). Throws when the key or certificate cannot be read.
 */
export function signAppleProfile(
  profile: string,
  chainPem: string,
  keyPem: string,
  now: Date,
): Buffer {
  const pems = chainPem.match(PEM_CERTIFICATE) ?? [];
  if (pems.length === 0) throw new Error('no certificate in the signing chain');
  const certificates = pems.map((pem) => AsnConvert.parse(derOf(pem), Certificate));
  const signer = certificates[0]!;
  const key = createPrivateKey(keyPem);
  const content = Buffer.from(profile, 'utf8');

  const attributes = [
    new Attribute({
      attrType: id_contentType,
      attrValues: [AsnObjectIdentifierConverter.toASN(id_data).toBER(false)],
    }),
    new Attribute({
      attrType: id_signingTime,
      attrValues: [AsnConvert.serialize(new SigningTime(now))],
    }),
    new Attribute({
      attrType: id_messageDigest,
      attrValues: [
        AsnConvert.serialize(
          new MessageDigest(toArrayBuffer(createHash('sha256').update(content).digest())),
        ),
      ],
    }),
  ];
  // DER: a SET OF is sorted by its elements' encodings; the signature covers that SET (RFC 5652 §5.4)
  const encoded = attributes
    .map((attribute) => ({ attribute, der: Buffer.from(AsnConvert.serialize(attribute)) }))
    .sort((a, b) => Buffer.compare(a.der, b.der));
  const body = Buffer.concat(encoded.map((entry) => entry.der));
  const signedSet = Buffer.concat([Buffer.from([0x31]), derLength(body.length), body]);
  const isRsa = key.asymmetricKeyType === 'rsa';
  const signature = sign('sha256', signedSet, key);

  const signerInfo = new SignerInfo({
    version: 1,
    sid: new SignerIdentifier({
      issuerAndSerialNumber: new IssuerAndSerialNumber({
        issuer: signer.tbsCertificate.issuer,
        serialNumber: signer.tbsCertificate.serialNumber,
      }),
    }),
    digestAlgorithm: new AlgorithmIdentifier({ algorithm: SHA256 }),
    signedAttrs: encoded.map((entry) => entry.attribute),
    signatureAlgorithm: new AlgorithmIdentifier(
      isRsa ? { algorithm: RSA_ENCRYPTION, parameters: null } : { algorithm: ECDSA_WITH_SHA256 },
    ),
    signature: new OctetString(toArrayBuffer(signature)),
  });
  const signedData = new SignedData({
    version: 1,
    digestAlgorithms: new DigestAlgorithmIdentifiers([
      new AlgorithmIdentifier({ algorithm: SHA256 }),
    ]),
    encapContentInfo: new EncapsulatedContentInfo({
      eContentType: id_data,
      eContent: new EncapsulatedContent({ single: new OctetString(toArrayBuffer(content)) }),
    }),
    certificates: new CertificateSet(
      certificates.map((certificate) => new CertificateChoices({ certificate })),
    ),
    signerInfos: new SignerInfos([signerInfo]),
  });
  return Buffer.from(
    AsnConvert.serialize(
      new ContentInfo({ contentType: id_signedData, content: AsnConvert.serialize(signedData) }),
    ),
  );
}
