import { createHash } from 'node:crypto';

// Issue 33: the configuration profile (.mobileconfig) that points an iPhone, iPad or Mac at its
// Keyward DNS path: one `com.apple.dnsSettings.managed` payload with DNSSettings for DoH (iOS 14+,
// macOS 11+; Apple's device-management schema). It installs from Safari or the Files app with no
// Xcode; it is not signed (the device shows it as unverified), and on an unsupervised device the
// child can remove it, which Keyward notices as the device falling silent.

export interface AppleDnsProfileInput {
  deviceId: string;
  deviceName: string;
  dohUrl: string;
  appName: string;
  /** the server's host, reversed into the payload identifiers */
  serverHost: string;
  /** the parent's removal password: the device asks it before the profile can be removed */
  removalPassword?: string | null | undefined;
}

function escapeXml(text: string): string {
  return text
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .split('')
    .filter(isXmlCharacter)
    .join('');
}

/** XML 1.0 allows tab, line feed, carriage return and the rest from space up (no surrogates alone). */
function isXmlCharacter(character: string): boolean {
  const code = character.charCodeAt(0);
  return (
    code === 9 || code === 10 || code === 13 || (code >= 32 && code !== 0xfffe && code !== 0xffff)
  );
}

/** A UUID derived from the device (a reinstalled profile replaces the old one). */
function stableUuid(seed: string): string {
  const hex = createHash('sha256').update(seed).digest('hex');
  return [
    hex.slice(0, 8),
    hex.slice(8, 12),
    `4${hex.slice(13, 16)}`,
    ((Number.parseInt(hex.slice(16, 17), 16) & 0x3) | 0x8).toString(16) + hex.slice(17, 20),
    hex.slice(20, 32),
  ]
    .join('-')
    .toUpperCase();
}

export function appleDnsProfile(input: AppleDnsProfileInput): string {
  const identifier = `${input.serverHost.split('.').reverse().join('.')}.keyward-dns.${input.deviceId}`;
  const name = escapeXml(input.appName);
  const device = escapeXml(input.deviceName);
  const password = input.removalPassword ? escapeXml(input.removalPassword) : undefined;
  // Apple's com.apple.profileRemovalPassword payload, with PayloadRemovalDisallowed on the profile
  const removal = password
    ? `
    <dict>
      <key>PayloadDisplayName</key>
      <string>Removal password</string>
      <key>PayloadIdentifier</key>
      <string>${escapeXml(identifier)}.removalPassword</string>
      <key>PayloadType</key>
      <string>com.apple.profileRemovalPassword</string>
      <key>PayloadUUID</key>
      <string>${stableUuid(`removal-password:${input.deviceId}`)}</string>
      <key>PayloadVersion</key>
      <integer>1</integer>
      <key>RemovalPassword</key>
      <string>${password}</string>
    </dict>`
    : '';
  const removalDisallowed = password
    ? `
  <key>PayloadRemovalDisallowed</key>
  <true/>`
    : '';
  return `<?xml version="1.0" encoding="UTF-8"?>
<!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">
<plist version="1.0">
<dict>
  <key>PayloadContent</key>
  <array>
    <dict>
      <key>DNSSettings</key>
      <dict>
        <key>DNSProtocol</key>
        <string>HTTPS</string>
        <key>ServerURL</key>
        <string>${escapeXml(input.dohUrl)}</string>
      </dict>
      <key>PayloadDisplayName</key>
      <string>${name} DNS</string>
      <key>PayloadIdentifier</key>
      <string>${escapeXml(identifier)}.dnsSettings</string>
      <key>PayloadType</key>
      <string>com.apple.dnsSettings.managed</string>
      <key>PayloadUUID</key>
      <string>${stableUuid(`dns-settings:${input.deviceId}`)}</string>
      <key>PayloadVersion</key>
      <integer>1</integer>
    </dict>${removal}
  </array>
  <key>PayloadDescription</key>
  <string>Filters this device with ${name}: only what a parent's keys unlock resolves.</string>
  <key>PayloadDisplayName</key>
  <string>${name} DNS for ${device}</string>
  <key>PayloadIdentifier</key>
  <string>${escapeXml(identifier)}</string>${removalDisallowed}
  <key>PayloadType</key>
  <string>Configuration</string>
  <key>PayloadUUID</key>
  <string>${stableUuid(`dns-profile:${input.deviceId}`)}</string>
  <key>PayloadVersion</key>
  <integer>1</integer>
</dict>
</plist>
`;
}
