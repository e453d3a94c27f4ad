import { readFile } from 'node:fs/promises';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Config } from '../config.ts';
import type { Db } from '../db/database.ts';
import { devCertificates, type CertificateFiles } from '../dns/certificates.ts';
import { type DohTlsServer, startDohTlsServer } from '../dns/doh-tls.ts';
import { type DotServer, startDotServer } from '../dns/dot.ts';
import {
  createDnsResolver,
  type DnsOutcome,
  type DnsResolver,
  type DnsTransport,
  serverHostsOf,
} from '../dns/resolver.ts';
import { appleDnsProfile } from '../dns/apple-profile.ts';
import { signAppleProfile } from '../dns/profile-signing.ts';
import { DEVICE_ID } from '../dns/device-policies.ts';
import { dohUrlOf, isProfileLinkValid } from '../dns/device-urls.ts';
import type { Clock } from '../services/clock.ts';
import { clientIp } from '../services/client-ip.ts';
import { type BlockedNames, createBlockedNames } from '../dns/blocked-names.ts';
import type { Services } from '../pairql/context.ts';
import { registerDnsAsk } from './dns-ask.ts';
import { createQueryHours, type QueryHours } from '../dns/query-hours.ts';
import type { PushHub } from '../services/push.ts';

// Issue 33: Keyward DNS on the server (docs/dns.md): DoH (RFC 8484) at /dns-query/<device id> on
// this server (behind the deployment's TLS proxy), GET ?dns= (base64url) and POST
// application/dns-message; DoT on DNS_DOT_PORT (dns/dot.ts) with its certificate.

declare module 'fastify' {
  interface FastifyInstance {
    dns: {
      resolver: DnsResolver;
      blockedNames: BlockedNames;
      allowedNames: BlockedNames;
      queryHours: QueryHours;
      dotPort(): number | undefined;
      dohPort(): number | undefined;
    };
  }
}

const DNS_MESSAGE = 'application/dns-message';
const MAX_MESSAGE = 65_535;
const BASE64URL = /^[A-Za-z0-9_-]+$/;

export interface DnsRoutesDeps {
  config: Config;
  db: Db;
  clock: Clock;
  push: PushHub;
  services: Services;
  onQuery?: (transport: DnsTransport, outcome: DnsOutcome) => void;
}

export async function registerDns(app: FastifyInstance, deps: DnsRoutesDeps): Promise<void> {
  const { config } = deps;
  const blockedNames = createBlockedNames(deps.db, app.log);
  const allowedNames = createBlockedNames(deps.db, app.log, 'dns_allowed_names');
  const queryHours = createQueryHours(deps.db, app.log);
  const resolver = createDnsResolver({
    blockedNames,
    allowedNames,
    queryHours,
    config: config.dns,
    db: deps.db,
    clock: deps.clock,
    push: deps.push,
    log: app.log,
    serverHosts: serverHostsOf([config.publicUrl, ...config.dashboardUrls], config.dns.dotDomain),
    ...(deps.onQuery ? { onQuery: deps.onQuery } : {}),
  });
  let dot: DotServer | undefined;
  let doh: DohTlsServer | undefined;
  app.decorate('dns', {
    resolver,
    blockedNames,
    allowedNames,
    queryHours,
    dotPort: () => dot?.port(),
    dohPort: () => doh?.port(),
  });
  // the child's page: blocked names, Ask for this, Ask to turn the filter off
  await registerDnsAsk(app, { ...deps, blockedNames });

  const send = async (
    request: FastifyRequest,
    reply: FastifyReply,
    deviceId: string,
    bytes: Buffer,
  ) => {
    const client = clientIp(config, request.socket.remoteAddress, request.headers);
    const answer = await resolver.answer(deviceId, bytes, 'doh', client);
    return (
      reply
        .header('content-type', DNS_MESSAGE)
        // answers differ per device: never a shared cache (RFC 8484 §5.1)
        .header('cache-control', `private, max-age=${answer.ttl}`)
        .send(answer.bytes)
    );
  };

  await app.register(async (scope) => {
    scope.addContentTypeParser(
      DNS_MESSAGE,
      { parseAs: 'buffer', bodyLimit: MAX_MESSAGE },
      (_request, body, done) => done(null, body),
    );
    scope.get<{ Params: { deviceId: string }; Querystring: { dns?: string } }>(
      '/dns-query/:deviceId',
      async (request, reply) => {
        const encoded = request.query.dns;
        if (typeof encoded !== 'string' || !BASE64URL.test(encoded) || encoded.length > 87_384) {
          return reply.code(400).send({
            error:
              'A DNS query goes in ?dns= as base64url (RFC 8484), or as a POST of application/dns-message.',
          });
        }
        return send(request, reply, request.params.deviceId, Buffer.from(encoded, 'base64url'));
      },
    );
    scope.post<{ Params: { deviceId: string }; Body: Buffer }>(
      '/dns-query/:deviceId',
      async (request, reply) => {
        if (!Buffer.isBuffer(request.body)) {
          return reply.code(415).send({ error: `A DNS query is sent as ${DNS_MESSAGE}.` });
        }
        return send(request, reply, request.params.deviceId, request.body);
      },
    );
  });

  // the Apple configuration profile: opened on the child's device, so no session; the device id
  // (a random UUID) is all it takes, and all it gives is that id's DoH address
  app.get<{
    Params: { file: string };
    Querystring: { expires?: string; signature?: string };
  }>('/dns-profile/:file', async (request, reply) => {
    const match = /^([0-9a-f-]{36})\.mobileconfig$/.exec(request.params.file.toLowerCase());
    const deviceId = match?.[1];
    const row =
      deviceId && DEVICE_ID.test(deviceId)
        ? await deps.db
            .selectFrom('computer_users as cu')
            .innerJoin('computers as c', 'c.id', 'cu.computer_id')
            .select(['cu.id', 'cu.full_username', 'c.dns_removal_password_encrypted'])
            .where('cu.id', '=', deviceId)
            .where('c.kind', '=', 'dns')
            .executeTakeFirst()
        : undefined;
    if (!row) {
      return reply
        .code(404)
        .send({ error: 'No Keyward DNS device has this profile: it may have been removed.' });
    }
    // A profile with a removal password carries it in clear text (a plist, signed, not
    // encrypted: only an MDM encrypts profiles to a device), and this address needs no session;
    // the child can read the device id in the device's settings. So that profile opens only from
    // the dashboard's signed link, for an hour (dns/device-urls.ts).
    let removalPassword: string | undefined;
    if (row.dns_removal_password_encrypted !== null) {
      const { expires, signature } = request.query;
      if (
        !isProfileLinkValid(deps.services.tokens, row.id, { expires, signature }, deps.clock.now())
      ) {
        return reply.code(403).send({
          error:
            'This profile has a removal password, so it opens only from the link on the device’s page in the dashboard, for an hour after the page was opened. Open the device’s page again and download it from there.',
        });
      }
      try {
        removalPassword = deps.services.tokens.decrypt(row.dns_removal_password_encrypted);
      } catch {
        return reply.code(410).send({
          error:
            'This profile’s removal password can no longer be read (it was set before Keyward kept passwords encrypted, or the server’s key changed). Connect the device again from the dashboard to set a new one.',
        });
      }
    }
    const profile = appleDnsProfile({
      deviceId: row.id,
      deviceName: row.full_username,
      dohUrl: dohUrlOf(config, row.id),
      appName: config.appName,
      serverHost: new URL(config.publicUrl).hostname,
      removalPassword,
    });
    // signed when a certificate is configured (a renewed one is read again from its files)
    let body: string | Buffer = profile;
    const { tlsCertFile, tlsKeyFile } = config.dns;
    if (tlsCertFile && tlsKeyFile) {
      try {
        const [chain, key] = await Promise.all([
          readFile(tlsCertFile, 'utf8'),
          readFile(tlsKeyFile, 'utf8'),
        ]);
        body = signAppleProfile(profile, chain, key, deps.clock.now());
      } catch (error) {
        // the profile still works unsigned: the device shows it as unverified
        app.log.warn({ err: error }, 'Keyward DNS: could not sign the Apple profile');
      }
    }
    return reply
      .header('content-type', 'application/x-apple-aspen-config')
      .header('content-disposition', `attachment; filename="keyward-dns-${row.id}.mobileconfig"`)
      .header('cache-control', 'no-store')
      .send(body);
  });

  app.addHook('onReady', async () => {
    const { dotPort, dohPort } = config.dns;
    if (dotPort === undefined && dohPort === undefined) return;
    let files: CertificateFiles;
    if (config.dns.tlsCertFile && config.dns.tlsKeyFile) {
      files = { certFile: config.dns.tlsCertFile, keyFile: config.dns.tlsKeyFile };
    } else if (config.dns.generatedTlsDir) {
      const generated = await devCertificates(config.dns.generatedTlsDir, config.dns.dotDomain);
      files = generated;
      app.log.info(
        { caFile: generated.caFile },
        `Keyward DNS: a test certificate for *.${config.dns.dotDomain}; trust its CA with: kdig +tls-ca=${generated.caFile} … or certutil -d sql:$HOME/.pki/nssdb -A -t "C,," -n keyward-dns -i ${generated.caFile}`,
      );
    } else {
      return;
    }
    const start = async (what: string, port: number, run: () => Promise<void>) => {
      try {
        await run();
      } catch (error) {
        if (config.mode === 'production') throw error;
        app.log.warn(
          { err: error },
          `Keyward DNS: ${what} could not listen on port ${port} (set it to a free port, or off)`,
        );
      }
    };
    if (dotPort !== undefined) {
      await start('DNS_DOT_PORT', dotPort, async () => {
        dot = await startDotServer({
          port: dotPort,
          host: config.host,
          domain: config.dns.dotDomain,
          files,
          resolver,
          log: app.log,
        });
        app.log.info(
          `Keyward DNS: DoT on ${config.host}:${dot.port()} for <device id>.${config.dns.dotDomain}`,
        );
      });
    }
    if (dohPort !== undefined) {
      await start('DNS_DOH_PORT', dohPort, async () => {
        doh = await startDohTlsServer({
          port: dohPort,
          host: config.host,
          files,
          resolver,
          log: app.log,
        });
        app.log.info(
          `Keyward DNS: DoH over HTTPS on ${config.host}:${doh.port()}/dns-query/<device id>`,
        );
      });
    }
  });
  app.addHook('onClose', async () => {
    await dot?.close();
    await doh?.close();
    resolver.close();
    await blockedNames.close();
    await allowedNames.close();
    await queryHours.close();
  });
}
