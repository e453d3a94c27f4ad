import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import tls from 'node:tls';
import { promisify } from 'node:util';
import dnsPacket, { type Packet } from 'dns-packet';
import { decideDnsName } from '@keyward/domain/dns-policy';
import { afterAll, beforeAll, describe, expect, test, vi } from 'vitest';
import { buildApp } from '../src/app.ts';
import { generateCertificates } from '../src/dns/certificates.ts';
import { addressGroup, LOOKUPS_PER_MINUTE_PER_ADDRESS } from '../src/dns/resolver.ts';
import { framed } from '../src/dns/upstream.ts';
import { addChild, addKey, addKeychain, assign, website } from './fixtures.ts';
import { startFakeUpstream, type FakeUpstream } from './dns-fake-upstream.ts';
import { createTestServer, type TestServer } from './harness.ts';

// Issue 33: Keyward DNS (dns/, http/dns.ts) on a real database, forwarding to a fake resolver on
// 127.0.0.1 (dns-fake-upstream.ts); DoT and DoH over TLS with Debian's kdig and dig.

const run = promisify(execFile);

let upstream: FakeUpstream;
let server: TestServer;
beforeAll(async () => {
  upstream = await startFakeUpstream();
  server = await createTestServer({
    env: { DNS_UPSTREAM: upstream.url, DNS_UPSTREAM_TIMEOUT_MS: '400', METRICS: '1' },
  });
});
afterAll(async () => {
  await server.close();
  await upstream.close();
});

async function familyWithDevice(
  target: TestServer = server,
  kind: 'android' | 'ios' | 'macos' | 'windows' | 'other' = 'android',
) {
  const parent = await target.signUpVerifiedParent();
  const childId = await addChild(target, parent.adminId, { name: 'Ada' });
  const keychainId = await addKeychain(target, parent.adminId);
  await addKey(target, keychainId, website('khanacademy.org'));
  await addKey(target, keychainId, {
    type: 'anySubdomain',
    domain: 'wikipedia.org',
    scope: { type: 'unrestricted' },
  });
  await assign(target, childId, keychainId);
  const created = await target.call(
    'CreateDnsDevice',
    { childId, kind, name: 'Ada’s phone' },
    { token: parent.token },
  );
  expect(created.status, JSON.stringify(created.body)).toBe(200);
  return {
    parent,
    childId,
    keychainId,
    ...(created.body as {
      id: string;
      dohUrl: string;
      dotHostname: string;
      appleProfileUrl?: string;
    }),
  };
}

interface QueryOptions {
  type?: string;
  edns?: boolean;
  ecs?: boolean;
}

function query(name: string, options: QueryOptions = {}): Buffer {
  return dnsPacket.encode({
    id: 0,
    type: 'query',
    flags: dnsPacket.RECURSION_DESIRED,
    questions: [{ name, type: (options.type ?? 'A') as 'A', class: 'IN' }],
    ...(options.edns === false
      ? {}
      : {
          additionals: [
            {
              type: 'OPT',
              name: '.',
              udpPayloadSize: 4096,
              options: options.ecs
                ? [{ code: 'CLIENT_SUBNET', family: 1, sourcePrefixLength: 24, ip: '203.0.113.0' }]
                : [],
            } as unknown as dnsPacket.Answer,
          ],
        }),
  });
}

async function doh(
  deviceId: string,
  bytes: Buffer,
  method: 'GET' | 'POST' = 'POST',
  target = server,
) {
  const response = await target.app.inject(
    method === 'GET'
      ? { method, url: `/dns-query/${deviceId}?dns=${bytes.toString('base64url')}` }
      : {
          method,
          url: `/dns-query/${deviceId}`,
          headers: { 'content-type': 'application/dns-message' },
          payload: bytes,
        },
  );
  return {
    response,
    packet: response.statusCode === 200 ? dnsPacket.decode(response.rawPayload) : undefined,
  };
}

const rcode = (packet: Packet | undefined) => (packet?.flags ?? -1) & 0xf;
const data = (packet: Packet | undefined) =>
  (packet?.answers ?? []).map((answer) => (answer as { data: unknown }).data);
const ttls = (packet: Packet | undefined) =>
  (packet?.answers ?? []).map((answer) => (answer as { ttl: number }).ttl);

describe('CreateDnsDevice', () => {
  test('a DNS device is a computer of kind dns with one computer user, the child', async () => {
    const { id, childId, dohUrl, dotHostname, appleProfileUrl } = await familyWithDevice();
    const row = await server.db
      .selectFrom('computer_users as cu')
      .innerJoin('computers as c', 'c.id', 'cu.computer_id')
      .select(['cu.child_id', 'cu.full_username', 'c.kind', 'c.platform', 'c.model_identifier'])
      .where('cu.id', '=', id)
      .executeTakeFirstOrThrow();
    expect(row).toEqual({
      child_id: childId,
      full_username: 'Ada’s phone',
      kind: 'dns',
      platform: 'android',
      model_identifier: 'dns:android',
    });
    expect(dohUrl).toBe(`${server.config.publicUrl}/dns-query/${id}`);
    expect(dotHostname).toBe(`${id}.dns.localhost`);
    expect(appleProfileUrl).toBeUndefined();
  });

  test('the family sees it as a Keyward DNS device (GetFamilyDevices kind dns), named', async () => {
    const { id, parent } = await familyWithDevice();
    const devices = await server.call('GetFamilyDevices', undefined, { token: parent.token });
    expect(devices.status).toBe(200);
    const device = (devices.body as { kind: string; id: string; name: string }[]).find(
      (entry) => entry.id === id,
    );
    expect(device).toMatchObject({ kind: 'dns', id, name: 'Ada’s phone' });
  });

  test("another family's child is not found, and nothing is written", async () => {
    const { childId } = await familyWithDevice();
    const stranger = await server.signUpVerifiedParent();
    const before = await server.db.selectFrom('computers').select('id').execute();
    const result = await server.call(
      'CreateDnsDevice',
      { childId, kind: 'android', name: 'Mine now' },
      { token: stranger.token },
    );
    expect(result.status).toBe(404);
    expect((await server.db.selectFrom('computers').select('id').execute()).length).toBe(
      before.length,
    );
  });

  test('a kind that is not one of the five, or a blank name, is a 400 naming the field', async () => {
    const parent = await server.signUpVerifiedParent();
    const childId = await addChild(server, parent.adminId);
    const badKind = await server.call(
      'CreateDnsDevice',
      { childId, kind: 'fridge', name: 'Fridge' },
      { token: parent.token },
    );
    expect(badKind.status).toBe(400);
    expect(JSON.stringify(badKind.body)).toMatch(/kind/);
    const blank = await server.call(
      'CreateDnsDevice',
      { childId, kind: 'other', name: '   ' },
      { token: parent.token },
    );
    expect(blank.status).toBe(400);
    expect(JSON.stringify(blank.body)).toMatch(/name/);
  });

  test('an iPhone gets its configuration profile: DoH DNSSettings with its own path', async () => {
    const { id, appleProfileUrl, dohUrl } = await familyWithDevice(server, 'ios');
    expect(appleProfileUrl).toBe(`${server.config.publicUrl}/dns-profile/${id}.mobileconfig`);
    const response = await server.app.inject({
      method: 'GET',
      url: new URL(appleProfileUrl!).pathname,
    });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe('application/x-apple-aspen-config');
    const profile = response.body;
    expect(profile).toContain('<string>com.apple.dnsSettings.managed</string>');
    expect(profile).toMatch(/<key>DNSProtocol<\/key>\s*<string>HTTPS<\/string>/);
    expect(profile).toContain(`<string>${dohUrl}</string>`);
    expect(profile).toContain('Ada’s phone');
    // the same device gets the same payload UUIDs (a reinstall replaces the profile)
    const again = await server.app.inject({
      method: 'GET',
      url: new URL(appleProfileUrl!).pathname,
    });
    expect(again.body).toBe(profile);
  });

  test('without a removal password the profile has none; a non-Apple device cannot have one', async () => {
    const { appleProfileUrl } = await familyWithDevice(server, 'macos');
    const profile = (
      await server.app.inject({ method: 'GET', url: new URL(appleProfileUrl!).pathname })
    ).body;
    expect(profile).not.toContain('com.apple.profileRemovalPassword');
    expect(profile).not.toContain('PayloadRemovalDisallowed');
    const parent = await server.signUpVerifiedParent();
    const childId = await addChild(server, parent.adminId);
    const refused = await server.call(
      'CreateDnsDevice',
      { childId, kind: 'android', name: 'Phone', removalPassword: 'secret' },
      { token: parent.token },
    );
    expect(refused.status).toBe(400);
    expect(refused.body.userMessage).toMatch(/Only an Apple configuration profile/);
    const rows = await server.db
      .selectFrom('computer_users')
      .select('id')
      .where('child_id', '=', childId)
      .execute();
    expect(rows).toEqual([]);
  });

  test('with its essentials, the child gets the kind’s keychain once (and without, none)', async () => {
    const parent = await server.signUpVerifiedParent();
    const childId = await addChild(server, parent.adminId);
    for (const name of ['Phone', 'Tablet']) {
      const created = await server.call(
        'CreateDnsDevice',
        { childId, kind: 'android', name, withEssentials: true },
        { token: parent.token },
      );
      expect(created.status).toBe(200);
    }
    const other = await server.call(
      'CreateDnsDevice',
      { childId, kind: 'windows', name: 'Laptop' },
      { token: parent.token },
    );
    expect(other.status).toBe(200);
    const held = await server.db
      .selectFrom('child_keychains as ck')
      .innerJoin('keychains as k', 'k.id', 'ck.keychain_id')
      .select('k.name')
      .where('ck.child_id', '=', childId)
      .execute();
    expect(held.map((row) => row.name)).toEqual(['Android essentials']);
  });

  test('an unknown profile is a 404 in words', async () => {
    const response = await server.app.inject({
      method: 'GET',
      url: '/dns-profile/00000000-0000-4000-8000-000000000000.mobileconfig',
    });
    expect(response.statusCode).toBe(404);
    expect(response.body).toMatch(/removed/);
  });
});

describe('DoH at /dns-query/<device id>', () => {
  test('deny by default: a blocked name answers 0.0.0.0 / :: / NODATA with a TTL of 10 s', async () => {
    const { id } = await familyWithDevice();
    const a = await doh(id, query('tiktok.com'));
    expect(a.response.headers['content-type']).toBe('application/dns-message');
    expect(rcode(a.packet)).toBe(0);
    expect(data(a.packet)).toEqual(['0.0.0.0']);
    expect(ttls(a.packet)).toEqual([10]);
    const aaaa = await doh(id, query('tiktok.com', { type: 'AAAA' }));
    expect(data(aaaa.packet)).toEqual(['::']);
    const https = await doh(id, query('tiktok.com', { type: 'UNKNOWN_65' }));
    expect(rcode(https.packet)).toBe(0);
    expect(https.packet?.answers).toEqual([]);
    expect(https.packet?.authorities?.[0]?.type).toBe('SOA');
    expect(upstream.queries.some((q) => q.questions?.[0]?.name === 'tiktok.com')).toBe(false);
  });

  test('an allowed name is forwarded, its TTL capped at DNS_MAX_TTL, then answered from the cache', async () => {
    const { id } = await familyWithDevice();
    const before = upstream.queries.length;
    const first = await doh(id, query('www.khanacademy.org'), 'GET');
    expect(first.response.statusCode).toBe(200);
    expect(rcode(first.packet)).toBe(0);
    expect(String(data(first.packet)[0])).toMatch(/^192\.0\.2\.\d+$/);
    expect(ttls(first.packet)[0]).toBeLessThanOrEqual(60);
    expect(first.response.headers['cache-control']).toMatch(/^private, max-age=\d+$/);
    const second = await doh(id, query('www.khanacademy.org'));
    expect(data(second.packet)).toEqual(data(first.packet));
    expect(upstream.queries.length).toBe(before + 1);
    const sub = await doh(id, query('en.m.wikipedia.org', { type: 'AAAA' }));
    expect(data(sub.packet)).toEqual(['2001:db8::1']);
  });

  test('answers kept encoded still repeat each query: its id, its name as asked, its EDNS, the TTL left', async () => {
    const { id } = await familyWithDevice();
    const ask = (name: string, queryId: number, options: QueryOptions = {}) => {
      const bytes = query(name, options);
      bytes.writeUInt16BE(queryId, 0);
      return doh(id, bytes);
    };
    for (const name of ['Kept.Wikipedia.org', 'KEPT.tiktok.com']) {
      const first = await ask(name, 1234);
      const lower = await ask(name.toLowerCase(), 4321, { edns: false });
      await ask(name, 99);
      const again = await ask(name, 7);
      expect([first.packet?.id, lower.packet?.id, again.packet?.id]).toEqual([1234, 4321, 7]);
      expect(first.packet?.questions?.[0]?.name).toBe(name);
      expect(lower.packet?.questions?.[0]?.name).toBe(name.toLowerCase());
      expect(again.packet?.questions?.[0]?.name).toBe(name);
      expect(first.response.rawPayload.length % 468).toBe(0);
      expect(lower.packet?.additionals ?? []).toEqual([]);
      expect(data(again.packet)).toEqual(data(first.packet));
    }
    // the TTL an allowed answer is served with counts down while it is kept
    const before = ttls((await ask('kept.wikipedia.org', 1)).packet)[0]!;
    await new Promise((resolve) => setTimeout(resolve, 1_100));
    const after = ttls((await ask('kept.wikipedia.org', 2)).packet)[0]!;
    expect(after).toBeLessThan(before);
  });

  test('a name asked in the last tenth of its cached life is fetched again meanwhile: its askers never wait', async () => {
    const short = await createTestServer({
      env: { DNS_UPSTREAM: upstream.url, DNS_MAX_TTL: '2' },
    });
    try {
      const { id } = await familyWithDevice(short);
      const asked = () =>
        upstream.queries.filter((q) => q.questions?.[0]?.name === 'prefetch.wikipedia.org').length;
      const ask = () => doh(id, query('prefetch.wikipedia.org'), 'POST', short);
      expect(rcode((await ask()).packet)).toBe(0);
      expect(asked()).toBe(1);
      // 1.2 s into its 2 s: answered from the cache, and fetched again in the background
      await new Promise((resolve) => setTimeout(resolve, 1_200));
      expect(ttls((await ask()).packet)[0]).toBe(1);
      await expect.poll(asked, { timeout: 1_000 }).toBe(2);
      // past the first answer's end, the fresh one answers: no new upstream query
      await new Promise((resolve) => setTimeout(resolve, 1_000));
      expect(rcode((await ask()).packet)).toBe(0);
      expect(asked()).toBe(2);
    } finally {
      await short.close();
    }
  });

  test('names cached together are fetched again a few at a time (8), not all in one burst', async () => {
    const short = await createTestServer({
      env: { DNS_UPSTREAM: upstream.url, DNS_MAX_TTL: '3' },
    });
    try {
      const { id } = await familyWithDevice(short);
      const names = Array.from({ length: 20 }, (_, i) => `burst${i}.wikipedia.org`);
      const asked = () =>
        upstream.queries.filter((q) => names.includes(q.questions?.[0]?.name ?? '')).length;
      const askAll = () => Promise.all(names.map((name) => doh(id, query(name), 'POST', short)));
      for (const { packet } of await askAll()) expect(rcode(packet)).toBe(0);
      expect(asked()).toBe(20);
      // 2.2 s into their 3 s, all twenty asked at once: every one answered from the cache, 8
      // fetched again; the others on their next ask
      await new Promise((resolve) => setTimeout(resolve, 2_200));
      for (const { packet } of await askAll()) expect(ttls(packet)[0]).toBe(1);
      await expect.poll(asked, { timeout: 1_000 }).toBe(28);
      await new Promise((resolve) => setTimeout(resolve, 100));
      expect(asked()).toBe(28);
      await askAll();
      await expect.poll(asked, { timeout: 1_000 }).toBe(36);
    } finally {
      await short.close();
    }
  });

  test('the client subnet (ECS) is never forwarded', async () => {
    const { id } = await familyWithDevice();
    await doh(id, query('ecs.wikipedia.org', { ecs: true }));
    const forwarded = upstream.queries.find((q) => q.questions?.[0]?.name === 'ecs.wikipedia.org');
    expect(forwarded).toBeDefined();
    const options = (forwarded?.additionals ?? []).flatMap(
      (record) => (record as { options?: { code: number }[] }).options ?? [],
    );
    expect(options.some((option) => option.code === 8)).toBe(false);
  });

  test('responses to EDNS queries are padded to a multiple of 468 octets (RFC 8467)', async () => {
    const { id } = await familyWithDevice();
    for (const name of ['tiktok.com', 'pad.wikipedia.org']) {
      const { response } = await doh(id, query(name));
      expect(response.rawPayload.length % 468).toBe(0);
    }
    const plain = await doh(id, query('tiktok.com', { edns: false }));
    expect(plain.packet?.additionals ?? []).toEqual([]);
  });

  test('an unknown or malformed device id gets REFUSED; a removed device too', async () => {
    const unknown = await doh('00000000-0000-4000-8000-000000000000', query('wikipedia.org'));
    expect(rcode(unknown.packet)).toBe(5);
    const malformed = await doh('not-a-device', query('wikipedia.org'));
    expect(rcode(malformed.packet)).toBe(5);

    const { id, parent } = await familyWithDevice();
    expect(rcode((await doh(id, query('wikipedia.org'))).packet)).toBe(0);
    const removed = await server.call(
      'DeleteEntity_v2',
      { type: 'computerUser', id },
      { token: parent.token },
    );
    expect(removed.status, JSON.stringify(removed.body)).toBe(200);
    expect(rcode((await doh(id, query('wikipedia.org'))).packet)).toBe(5);
    expect(
      await server.db
        .selectFrom('computers')
        .select('id')
        .where('serial_number', 'like', 'dns-%')
        .where('id', '=', id)
        .execute(),
    ).toEqual([]);
  });

  test('malformed packets get FORMERR (200), never a 5xx; a bad ?dns= is a 400 in words', async () => {
    const { id } = await familyWithDevice();
    for (const bytes of [
      Buffer.from([1, 2, 3]),
      Buffer.alloc(12, 0xff),
      Buffer.from('hello world, not dns'),
    ]) {
      const { response, packet } = await doh(id, bytes);
      expect(response.statusCode).toBe(200);
      expect([1, 4]).toContain(rcode(packet));
    }
    const bad = await server.app.inject({ method: 'GET', url: `/dns-query/${id}?dns=***` });
    expect(bad.statusCode).toBe(400);
    expect(bad.body).toMatch(/base64url/);
    const wrongType = await server.app.inject({
      method: 'POST',
      url: `/dns-query/${id}`,
      headers: { 'content-type': 'text/plain' },
      payload: 'x',
    });
    expect(wrongType.statusCode).toBeGreaterThanOrEqual(400);
    expect(wrongType.statusCode).toBeLessThan(500);
  });

  test('1,000 random and mutated packets: no crash, no 5xx', async () => {
    const { id } = await familyWithDevice();
    const seed = query('fuzz.wikipedia.org');
    let state = 42;
    const random = () => {
      state = (state * 1_103_515_245 + 12_345) & 0x7fffffff;
      return state;
    };
    for (let i = 0; i < 1_000; i++) {
      const bytes =
        i % 2 === 0
          ? Buffer.from(seed.map((byte) => (random() % 8 === 0 ? random() & 0xff : byte)))
          : Buffer.from(Array.from({ length: random() % 80 }, () => random() & 0xff));
      const { response } = await doh(id, bytes);
      expect(response.statusCode).toBe(200);
    }
  }, 60_000);

  test('an upstream that is slow, returns garbage or another answer: SERVFAIL in bounded time', async () => {
    const { id, keychainId } = await familyWithDevice();
    for (const domain of ['slow.test', 'garbage.test', 'other.test']) {
      await addKey(server, keychainId, website(domain));
    }
    server.app.dns.resolver.policies.invalidate(id);
    for (const name of ['slow.test', 'garbage.test', 'other.test']) {
      const started = Date.now();
      const { packet } = await doh(id, query(name));
      expect(rcode(packet), name).toBe(2);
      expect(Date.now() - started).toBeLessThan(2_000);
    }
    // and the next allowed name still resolves
    expect(rcode((await doh(id, query('after.wikipedia.org'))).packet)).toBe(0);
  });

  test('a database that cannot be read gives SERVFAIL, not a 5xx', async () => {
    const { id } = await familyWithDevice();
    const policies = server.app.dns.resolver.policies;
    const original = policies.get;
    policies.get = () => Promise.reject(new Error('database down'));
    try {
      const { response, packet } = await doh(id, query('wikipedia.org'));
      expect(response.statusCode).toBe(200);
      expect(rcode(packet)).toBe(2);
    } finally {
      policies.get = original;
    }
  });

  test('NXDOMAIN from upstream passes through with its SOA', async () => {
    const { id, keychainId } = await familyWithDevice();
    await addKey(server, keychainId, website('missing.test'));
    server.app.dns.resolver.policies.invalidate(id);
    const { packet } = await doh(id, query('missing.test'));
    expect(rcode(packet)).toBe(3);
    expect(packet?.authorities?.[0]?.type).toBe('SOA');
  });

  test("a parent's change reaches the device's answers at once (the push invalidates)", async () => {
    const { id, parent, childId } = await familyWithDevice();
    expect(data((await doh(id, query('scratch.mit.edu'))).packet)).toEqual(['0.0.0.0']);
    const games = await addKeychain(server, parent.adminId, { name: 'Coding' });
    await addKey(server, games, website('scratch.mit.edu'));
    const toggled = await server.call(
      'ToggleChildKeychain',
      { childId, keychainId: games },
      { token: parent.token },
    );
    expect(toggled.status).toBe(200);
    expect(String(data((await doh(id, query('scratch.mit.edu'))).packet)[0])).toMatch(
      /^192\.0\.2\./,
    );
    // and back: the keychain removed, the name is blocked again
    await server.call(
      'ToggleChildKeychain',
      { childId, keychainId: games },
      { token: parent.token },
    );
    expect(data((await doh(id, query('scratch.mit.edu'))).packet)).toEqual(['0.0.0.0']);
  });

  test('a policy a minute old is read again in the background: no answer waits for it, the next one has it', async () => {
    const { id, keychainId } = await familyWithDevice();
    expect(data((await doh(id, query('scratch.mit.edu'))).packet)).toEqual(['0.0.0.0']);
    // a change that pushes nothing (written straight to the database): only age brings it
    await addKey(server, keychainId, website('scratch.mit.edu'));
    const realNow = Date.now.bind(Date);
    let offset = 0;
    const clock = vi.spyOn(Date, 'now').mockImplementation(() => realNow() + offset);
    try {
      expect(data((await doh(id, query('scratch.mit.edu'))).packet)).toEqual(['0.0.0.0']);
      offset = 61_000;
      // the minute-old policy answers at once (the read it starts has not come back yet)...
      const policies = server.app.dns.resolver.policies;
      // (and the device is not counted against its address's lookup budget meanwhile)
      expect(policies.isKnownNow(id)).toBe(true);
      const read = policies.get(id);
      expect(await Promise.race([read, Promise.resolve('waited')])).not.toBe('waited');
      const served = await read;
      expect(served && decideDnsName(served.policy, 'scratch.mit.edu', new Date()).verdict).toBe(
        'block',
      );
      // ...and once the new one is read, it decides
      await expect
        .poll(async () => data((await doh(id, query('scratch.mit.edu'))).packet)[0], {
          timeout: 2_000,
        })
        .toMatch(/^192\.0\.2\./);
      // a policy older than two minutes (a device silent that long) is not served: it is read first
      await addKey(server, keychainId, website('code.org'));
      offset = 61_000 + 121_000;
      expect(server.app.dns.resolver.policies.isKnownNow(id)).toBe(false);
      expect(String(data((await doh(id, query('code.org'))).packet)[0])).toMatch(/^192\.0\.2\./);
    } finally {
      clock.mockRestore();
    }
  });

  test('a push that changed nothing of the device keeps its compiled policy; a change compiles a new one', async () => {
    const { id, keychainId } = await familyWithDevice();
    const policies = server.app.dns.resolver.policies;
    const first = await policies.get(id);
    policies.invalidate(id);
    const same = await policies.get(id);
    expect(same).toBe(first);
    await addKey(server, keychainId, website('scratch.mit.edu'));
    policies.invalidate(id);
    const changed = await policies.get(id);
    expect(changed).not.toBe(first);
    expect(changed && decideDnsName(changed.policy, 'scratch.mit.edu', new Date()).verdict).toBe(
      'allow',
    );
  });

  test('issue 34: Pause internet blocks every name at once, like downtime; Resume opens them again', async () => {
    const { id, parent, childId } = await familyWithDevice();
    expect(String(data((await doh(id, query('khanacademy.org'))).packet)[0])).toMatch(
      /^192\.0\.2\./,
    );
    const paused = await server.call(
      'PauseInternet',
      { childId, minutes: null },
      { token: parent.token },
    );
    expect(paused.status).toBe(200);
    expect(data((await doh(id, query('khanacademy.org'))).packet)).toEqual(['0.0.0.0']);
    await server.call('ResumeInternet', { childId }, { token: parent.token });
    expect(String(data((await doh(id, query('khanacademy.org'))).packet)[0])).toMatch(
      /^192\.0\.2\./,
    );
  });

  test('the server name and the connectivity checks always resolve', async () => {
    const { id } = await familyWithDevice();
    for (const name of [
      'connectivitycheck.gstatic.com',
      'captive.apple.com',
      'abcdef12-dnsotls-ds.metric.gstatic.com',
      'dns.localhost',
    ]) {
      const { packet } = await doh(id, query(name));
      expect(String(data(packet)[0]), name).toMatch(/^192\.0\.2\./);
    }
    // iCloud Private Relay: a negative answer, as Apple asks
    expect(rcode((await doh(id, query('mask.icloud.com'))).packet)).toBe(3);
  });

  test('a DNS device shows as seen (presence) once it queries', async () => {
    const { id } = await familyWithDevice();
    await doh(id, query('seen.wikipedia.org'));
    await new Promise((resolve) => setTimeout(resolve, 100));
    const row = await server.db
      .selectFrom('device_presence')
      .select('computer_user_id')
      .where('computer_user_id', '=', id)
      .executeTakeFirst();
    expect(row?.computer_user_id).toBe(id);
  });
});

describe('the child asks from /ask/<device id>', () => {
  const form = (fields: Record<string, string>) => ({
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    payload: new URLSearchParams(fields).toString(),
  });

  test('blocked names are kept and listed; Ask for this is an unlock request of the device', async () => {
    const { id, parent } = await familyWithDevice();
    await doh(id, query('tiktok.com'));
    await doh(id, query('tiktok.com', { type: 'AAAA' }));
    await doh(id, query('games.example'));
    // allowed and always-resolvable names are not "blocked"
    await doh(id, query('khanacademy.org'));
    await server.app.dns.blockedNames.flush();
    const pageResponse = await server.app.inject({ method: 'GET', url: `/ask/${id}` });
    expect(pageResponse.statusCode).toBe(200);
    expect(pageResponse.headers['content-type']).toMatch(/text\/html/);
    expect(pageResponse.body).toContain('<code>tiktok.com</code>');
    expect(pageResponse.body).toContain('<code>games.example</code>');
    expect(pageResponse.body).not.toContain('khanacademy.org');
    const rows = await server.db
      .selectFrom('dns_blocked_names')
      .select(['name', 'count'])
      .where('computer_user_id', '=', id)
      .orderBy('name')
      .execute();
    expect(rows.map((row) => [row.name, Number(row.count)])).toEqual([
      ['games.example', 1],
      ['tiktok.com', 2],
    ]);

    const asked = await server.app.inject({
      method: 'POST',
      url: `/ask/${id}/unlock`,
      ...form({ name: 'tiktok.com' }),
    });
    expect(asked.statusCode).toBe(200);
    expect(asked.body).toContain('Asked for tiktok.com. Your parent will decide.');
    const requests = await server.db
      .selectFrom('unlock_requests')
      .select(['hostname', 'status', 'app_bundle_id'])
      .where('computer_user_id', '=', id)
      .execute();
    expect(requests).toEqual([
      { hostname: 'tiktok.com', status: 'pending', app_bundle_id: 'dns:keyward' },
    ]);
    const inbox = await server.call('GetUnlockRequests', undefined, { token: parent.token });
    expect(JSON.stringify(inbox.body)).toContain('tiktok.com');

    const bad = await server.app.inject({
      method: 'POST',
      url: `/ask/${id}/unlock`,
      ...form({ name: '<script>' }),
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.body).not.toContain('<script>');
  });

  test('Ask to turn the filter off: once the parent accepts, every name resolves on that device', async () => {
    const { id, parent } = await familyWithDevice();
    const asked = await server.app.inject({
      method: 'POST',
      url: `/ask/${id}/suspend`,
      ...form({ minutes: '15' }),
    });
    expect(asked.statusCode).toBe(200);
    expect(asked.body).toContain('Your parent will decide.');
    const request = await server.db
      .selectFrom('mac_suspend_filter_requests')
      .select(['id', 'duration', 'status'])
      .where('computer_user_id', '=', id)
      .executeTakeFirstOrThrow();
    expect(request).toMatchObject({ duration: 900, status: 'pending' });
    expect(data((await doh(id, query('tiktok.com'))).packet)).toEqual(['0.0.0.0']);
    const decided = await server.call(
      'DecideFilterSuspensionRequest',
      { id: request.id, decision: { case: 'accepted', durationInSeconds: 900 } },
      { token: parent.token },
    );
    expect(decided.status, JSON.stringify(decided.body)).toBe(200);
    expect(String(data((await doh(id, query('tiktok.com'))).packet)[0])).toMatch(/^192\.0\.2\./);
  });

  test('an unknown device is a 404 page in words', async () => {
    const response = await server.app.inject({
      method: 'GET',
      url: '/ask/00000000-0000-4000-8000-000000000000',
    });
    expect(response.statusCode).toBe(404);
    expect(response.body).toContain('not connected to Keyward');
  });
});

describe('the query budget', () => {
  let small: TestServer;
  beforeAll(async () => {
    small = await createTestServer({
      env: { DNS_UPSTREAM: upstream.url, DNS_QUERIES_PER_MINUTE: '5', METRICS: '1' },
    });
  });
  afterAll(async () => small.close());

  test('a flood gets REFUSED and is counted in /metrics; another device is not slowed', async () => {
    const one = await familyWithDevice(small);
    const other = await familyWithDevice(small);
    const codes: number[] = [];
    for (let i = 0; i < 8; i++)
      codes.push(rcode((await doh(one.id, query('tiktok.com'), 'POST', small)).packet));
    expect(codes.slice(0, 5)).toEqual([0, 0, 0, 0, 0]);
    expect(codes.slice(5)).toEqual([5, 5, 5]);
    expect(rcode((await doh(other.id, query('tiktok.com'), 'POST', small)).packet)).toBe(0);
    const metrics = await small.app.inject({ method: 'GET', url: '/metrics' });
    expect(metrics.body).toMatch(
      /keyward_dns_queries_total\{transport="doh",outcome="refusedBudget"\} 3/,
    );
    expect(metrics.body).toMatch(
      /keyward_dns_queries_total\{transport="doh",outcome="blocked"\} 6/,
    );
  });

  test('an address trying device ids at random is REFUSED past its budget, without a read; devices it knows still answer', async () => {
    const family = await familyWithDevice(small);
    const stranger = '2001:db8:7:7::1';
    const ask = (deviceId: string, remoteAddress: string) =>
      small.app.inject({
        method: 'POST',
        url: `/dns-query/${deviceId}`,
        remoteAddress,
        headers: { 'content-type': 'application/dns-message' },
        payload: query('tiktok.com'),
      });
    // the stranger's own device is in memory once asked: it never counts against the budget
    expect(rcode(dnsPacket.decode((await ask(family.id, stranger)).rawPayload))).toBe(0);
    let reads = 0;
    const original = small.app.dns.resolver.policies.get;
    small.app.dns.resolver.policies.get = (id) => {
      reads++;
      return original(id);
    };
    try {
      const codes = new Map<number, number>();
      for (let i = 0; i < LOOKUPS_PER_MINUTE_PER_ADDRESS + 300; i++) {
        // another address in the same /64, and a fresh id each time
        const from = `2001:db8:7:7::${(i % 50).toString(16)}`;
        const code = rcode(dnsPacket.decode((await ask(crypto.randomUUID(), from)).rawPayload));
        codes.set(code, (codes.get(code) ?? 0) + 1);
      }
      // every answer REFUSED (unknown, then over budget): the same answer either way
      expect([...codes.keys()]).toEqual([5]);
      // the budget, and what it refilled meanwhile (10 a second), were read; the rest was not
      expect(reads).toBeGreaterThanOrEqual(LOOKUPS_PER_MINUTE_PER_ADDRESS - 1);
      expect(reads).toBeLessThan(LOOKUPS_PER_MINUTE_PER_ADDRESS + 100);
      // the device the stranger's network uses still answers; another network is not touched
      expect(rcode(dnsPacket.decode((await ask(family.id, stranger)).rawPayload))).toBe(0);
      const other = await familyWithDevice(small);
      expect(rcode(dnsPacket.decode((await ask(other.id, '198.51.100.4')).rawPayload))).toBe(0);
    } finally {
      small.app.dns.resolver.policies.get = original;
    }
  });
});

test('a lookup budget is kept per IPv4 address and per IPv6 /64', () => {
  expect(addressGroup('192.0.2.1')).toBe('192.0.2.1');
  expect(addressGroup('::ffff:192.0.2.1')).toBe('192.0.2.1');
  expect(addressGroup('2001:db8:1:2:3:4:5:6')).toBe('2001:db8:1:2::/64');
  expect(addressGroup('2001:DB8:1:2::9')).toBe('2001:db8:1:2::/64');
  expect(addressGroup('2001:db8::1')).toBe('2001:db8:0:0::/64');
  expect(addressGroup('::1')).toBe('0:0:0:0::/64');
});

describe('with no DNS_UPSTREAM outside production', () => {
  test('nothing is forwarded: an allowed name is SERVFAIL, a blocked one still answers', async () => {
    const bare = await createTestServer();
    try {
      expect(bare.config.dns.upstreams).toEqual([]);
      const device = await familyWithDevice(bare);
      expect(rcode((await doh(device.id, query('wikipedia.org'), 'POST', bare)).packet)).toBe(2);
      expect(data((await doh(device.id, query('tiktok.com'), 'POST', bare)).packet)).toEqual([
        '0.0.0.0',
      ]);
    } finally {
      await bare.close();
    }
  });
});

describe('DoT and DoH over TLS, with Debian clients', () => {
  let tlsServer: TestServer;
  let dotPort: number;
  let dohPort: number;
  let caFile: string;
  beforeAll(async () => {
    tlsServer = await createTestServer({
      env: { DNS_UPSTREAM: upstream.url, DNS_DOT_PORT: '0', DNS_DOH_PORT: '0' },
    });
    await tlsServer.app.ready();
    dotPort = tlsServer.app.dns.dotPort()!;
    dohPort = tlsServer.app.dns.dohPort()!;
    caFile = `${tlsServer.config.dns.generatedTlsDir}/ca.pem`;
  });
  afterAll(async () => tlsServer.close());

  const kdig = (args: string[]) => run('kdig', args, { timeout: 10_000 });

  test('kdig over DoT with the device server name: blocked and allowed names', async () => {
    const { id, dotHostname } = await familyWithDevice(tlsServer);
    const common = [
      '@127.0.0.1',
      '-p',
      String(dotPort),
      '+tls',
      `+tls-ca=${caFile}`,
      `+tls-hostname=${dotHostname}`,
      `+tls-sni=${dotHostname}`,
      '+short',
    ];
    const blocked = await kdig([...common, 'tiktok.com', 'A']);
    expect(blocked.stdout.trim()).toBe('0.0.0.0');
    const allowed = await kdig([...common, 'www.khanacademy.org', 'A']);
    expect(allowed.stdout.trim()).toMatch(/^192\.0\.2\.\d+$/);
    expect(id).toMatch(/^[0-9a-f-]{36}$/);
  });

  test('kdig over DoT with another server name gets REFUSED; a wrong CA fails the handshake', async () => {
    const other = '00000000-0000-4000-8000-000000000000.dns.localhost';
    const refused = await kdig([
      '@127.0.0.1',
      '-p',
      String(dotPort),
      '+tls',
      `+tls-ca=${caFile}`,
      `+tls-hostname=${other}`,
      `+tls-sni=${other}`,
      'wikipedia.org',
      'A',
    ]);
    expect(refused.stdout).toMatch(/status: REFUSED/);
    const untrusted = await kdig([
      '@127.0.0.1',
      '-p',
      String(dotPort),
      '+tls',
      '+tls-ca=/etc/ssl/certs/ca-certificates.crt',
      `+tls-hostname=${other}`,
      'wikipedia.org',
      'A',
    ]).catch((error: { stdout?: string; stderr?: string }) => error);
    // no answer at all gets through an untrusted certificate
    expect(`${untrusted.stdout ?? ''}${untrusted.stderr ?? ''}`).not.toMatch(/->>HEADER<<-/);
    expect(`${untrusted.stdout ?? ''}${untrusted.stderr ?? ''}`).toMatch(/TLS|certificate/i);
  });

  test('kdig over DoH (HTTP/2) and dig +https: the device path decides', async () => {
    const { id } = await familyWithDevice(tlsServer);
    const viaKdig = await kdig([
      '@127.0.0.1',
      '-p',
      String(dohPort),
      `+https=/dns-query/${id}`,
      `+tls-ca=${caFile}`,
      '+tls-hostname=dns.localhost',
      '+short',
      'tiktok.com',
      'A',
    ]);
    expect(viaKdig.stdout.trim()).toBe('0.0.0.0');
    const viaDig = await run(
      'dig',
      [
        '@127.0.0.1',
        '-p',
        String(dohPort),
        `+https=/dns-query/${id}`,
        '+short',
        '+tries=1',
        '+time=5',
        'www.khanacademy.org',
        'A',
      ],
      { timeout: 10_000 },
    );
    expect(viaDig.stdout.trim()).toMatch(/^192\.0\.2\.\d+$/);
  });
});

describe.runIf(process.env.TEST_DATABASE_URL?.startsWith('postgres'))(
  'across instances (PostgreSQL NOTIFY)',
  () => {
    test("a parent's change on one instance reaches a device's answers on another within 2 s", async () => {
      const other = await buildApp({ config: server.config, db: server.db, clock: server.clock });
      try {
        const { id, parent, childId } = await familyWithDevice();
        const coding = await addKeychain(server, parent.adminId, { name: 'Coding' });
        await addKey(server, coding, website('code.org'));
        const ask = async () => {
          const response = await other.inject({
            method: 'POST',
            url: `/dns-query/${id}`,
            headers: { 'content-type': 'application/dns-message' },
            payload: query('code.org'),
          });
          return data(dnsPacket.decode(response.rawPayload));
        };
        // the other instance has the policy cached
        expect(await ask()).toEqual(['0.0.0.0']);
        const changedAt = Date.now();
        const toggled = await server.call(
          'ToggleChildKeychain',
          { childId, keychainId: coding },
          { token: parent.token },
        );
        expect(toggled.status).toBe(200);
        let answer = await ask();
        while (answer[0] === '0.0.0.0' && Date.now() - changedAt < 2_000) {
          await new Promise((resolve) => setTimeout(resolve, 50));
          answer = await ask();
        }
        expect(String(answer[0])).toMatch(/^192\.0\.2\./);
        expect(Date.now() - changedAt).toBeLessThan(2_000);
      } finally {
        await other.close();
      }
    });
  },
);

describe('DoT under attack and certificate renewal', () => {
  let dir: string;
  let tlsServer: TestServer;
  let port: number;
  beforeAll(async () => {
    dir = mkdtempSync(path.join(tmpdir(), 'keyward-dns-cert-'));
    await generateCertificates(dir, 'dns.localhost');
    tlsServer = await createTestServer({
      env: {
        DNS_UPSTREAM: upstream.url,
        DNS_DOT_PORT: '0',
        DNS_TLS_CERT: path.join(dir, 'cert.pem'),
        DNS_TLS_KEY: path.join(dir, 'key.pem'),
      },
    });
    await tlsServer.app.ready();
    port = tlsServer.app.dns.dotPort()!;
  });
  afterAll(async () => {
    await tlsServer.close();
    rmSync(dir, { recursive: true, force: true });
  });

  function connect(servername: string, ca: Buffer) {
    return new Promise<tls.TLSSocket>((resolve, reject) => {
      const socket = tls.connect({ host: '127.0.0.1', port, servername, ca }, () =>
        resolve(socket),
      );
      socket.once('error', reject);
    });
  }

  test('1,000 random and mutated frames over one connection: each answered, nothing crashes', async () => {
    const { dotHostname } = await familyWithDevice(tlsServer);
    const socket = await connect(dotHostname, readFileSync(path.join(dir, 'ca.pem')));
    const seed = query('fuzz.wikipedia.org');
    let state = 7;
    const random = () => {
      state = (state * 1_103_515_245 + 12_345) & 0x7fffffff;
      return state;
    };
    const frames: Buffer[] = [];
    for (let i = 0; i < 1_000; i++) {
      frames.push(
        i % 2 === 0
          ? Buffer.from(seed.map((byte) => (random() % 8 === 0 ? random() & 0xff : byte)))
          : Buffer.from(Array.from({ length: 1 + (random() % 80) }, () => random() & 0xff)),
      );
    }
    let received = Buffer.alloc(0);
    let answers = 0;
    const allAnswered = new Promise<void>((resolve) => {
      socket.on('data', (chunk: Buffer) => {
        received = Buffer.concat([received, chunk]);
        while (received.length >= 2 && received.length >= received.readUInt16BE(0) + 2) {
          dnsPacket.decode(received.subarray(2, 2 + received.readUInt16BE(0)));
          received = received.subarray(2 + received.readUInt16BE(0));
          answers++;
        }
        if (answers === frames.length) resolve();
      });
    });
    for (const frame of frames) socket.write(framed(frame));
    await allAnswered;
    expect(answers).toBe(1_000);
    socket.destroy();
  }, 60_000);

  test('with a certificate configured, the Apple profile is signed (CMS), with its removal password', async () => {
    const parent = await tlsServer.signUpVerifiedParent();
    const childId = await addChild(tlsServer, parent.adminId, { name: 'Ada' });
    const created = await tlsServer.call(
      'CreateDnsDevice',
      { childId, kind: 'ios', name: 'Ada’s iPad', removalPassword: 'open <sesame>' },
      { token: parent.token },
    );
    expect(created.status).toBe(200);
    const { appleProfileUrl } = created.body as { appleProfileUrl: string; id: string };
    const response = await tlsServer.app.inject({
      method: 'GET',
      url: `${new URL(appleProfileUrl).pathname}${new URL(appleProfileUrl).search}`,
    });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe('application/x-apple-aspen-config');
    const signed = path.join(dir, 'profile.der');
    writeFileSync(signed, response.rawPayload);
    // Debian's openssl checks the signature and the chain to the test CA, and gives the content
    const { stdout } = await run('openssl', [
      'cms',
      '-verify',
      '-inform',
      'DER',
      '-in',
      signed,
      '-CAfile',
      path.join(dir, 'ca.pem'),
      '-purpose',
      'any',
    ]);
    expect(stdout).toContain('<string>com.apple.dnsSettings.managed</string>');
    expect(stdout).toContain('<string>com.apple.profileRemovalPassword</string>');
    expect(stdout).toContain('<string>open &lt;sesame&gt;</string>');
    expect(stdout).toMatch(/<key>PayloadRemovalDisallowed<\/key>\s*<true\/>/);
    // the password is in the profile in clear text: only the dashboard's signed link, for an
    // hour, opens it; the plain address, another device's signature or an hour later do not
    const plain = await tlsServer.app.inject({
      method: 'GET',
      url: `/dns-profile/${created.body.id}.mobileconfig`,
    });
    expect(plain.statusCode).toBe(403);
    expect(plain.json().error).toMatch(/opens only from the link on the device’s page/);
    tlsServer.clock.advance(61 * 60 * 1000);
    const late = await tlsServer.app.inject({
      method: 'GET',
      url: `${new URL(appleProfileUrl).pathname}${new URL(appleProfileUrl).search}`,
    });
    expect(late.statusCode).toBe(403);
    expect(late.body).toMatch(/removal password/);
    // the device's page gives a fresh link, which opens it again
    const { computer_id: computerId } = await tlsServer.db
      .selectFrom('computer_users')
      .select('computer_id')
      .where('id', '=', created.body.id)
      .executeTakeFirstOrThrow();
    const page = await tlsServer.call('GetDnsDevice', computerId, { token: parent.token });
    expect(page.status, JSON.stringify(page.body)).toBe(200);
    const fresh = new URL((page.body as { appleProfileUrl: string }).appleProfileUrl);
    const again = await tlsServer.app.inject({
      method: 'GET',
      url: `${fresh.pathname}${fresh.search}`,
    });
    expect(again.statusCode).toBe(200);
    // the password is not stored as typed
    const stored = await tlsServer.db
      .selectFrom('computers')
      .innerJoin('computer_users', 'computer_users.computer_id', 'computers.id')
      .select('computers.dns_removal_password_encrypted as sealed')
      .where('computer_users.id', '=', created.body.id)
      .executeTakeFirstOrThrow();
    expect(stored.sealed).toMatch(/^v1\./);
    expect(stored.sealed).not.toContain('sesame');
    // one kept before passwords were encrypted (migration 0027) cannot be served: words, a 410
    await tlsServer.db
      .updateTable('computers')
      .set({ dns_removal_password_encrypted: 'cleared' })
      .where('id', '=', computerId)
      .execute();
    const cleared = await tlsServer.app.inject({
      method: 'GET',
      url: `${fresh.pathname}${fresh.search}`,
    });
    expect(cleared.statusCode).toBe(410);
    expect(cleared.json().error).toMatch(/Connect the device again/);
    // a tampered profile does not verify
    const tampered = Buffer.from(response.rawPayload);
    const at = tampered.indexOf('dnsSettings');
    tampered[at] = 'D'.charCodeAt(0);
    writeFileSync(signed, tampered);
    await expect(
      run('openssl', ['cms', '-verify', '-inform', 'DER', '-in', signed, '-noverify']),
    ).rejects.toThrow();
  });

  test('a renewed certificate is served without a restart', async () => {
    const ca = readFileSync(path.join(dir, 'ca.pem'));
    const first = await connect('x.dns.localhost', ca);
    const before = first.getPeerCertificate().serialNumber;
    first.destroy();
    // a renewal writes new files in place
    await generateCertificates(dir, 'dns.localhost');
    const renewedCa = readFileSync(path.join(dir, 'ca.pem'));
    const startedAt = Date.now();
    let after = before;
    while (after === before && Date.now() - startedAt < 10_000) {
      await new Promise((resolve) => setTimeout(resolve, 250));
      const socket = await connect('x.dns.localhost', renewedCa).catch(() => undefined);
      after = socket?.getPeerCertificate().serialNumber ?? before;
      socket?.destroy();
    }
    expect(after).not.toBe(before);
  }, 20_000);
});
