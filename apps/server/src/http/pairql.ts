import { existsSync } from 'node:fs';
import type { OperationDef } from '@keyward/contract/operation';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { z } from 'zod';
import type { Config } from '../config.ts';
import { type Conflict, retryLostRaces } from '../db/conflicts.ts';
import { type Db, dialectOf } from '../db/database.ts';
import {
  findBrowserPrincipal,
  findIosPrincipal,
  findMacRequestPrincipal,
} from '../devices/device-auth.ts';
import { toDbTime } from '../db/values.ts';
import type { Clock } from '../services/clock.ts';
import { clientIp } from '../services/client-ip.ts';
import { oncePerRequest } from '../pairql/rate-limit.ts';
import { hashToken, isUuid } from '../services/tokens.ts';
import { runAudited } from '../audit/record.ts';
import type { ParentContext, RequestContext, Services } from '../pairql/context.ts';
import {
  badRequest,
  browserTokenNotFound,
  iosDeviceTokenNotFound,
  loggedOut,
  notAvailableYet,
  PqlFailure,
  serverError,
  tooManyRequests,
  unknownOperation,
  userTokenNotFound,
} from '../pairql/errors.ts';
import {
  CACHED_DASHBOARD_OPERATIONS,
  type CachedOperation,
  dashboardKey,
  acceptedEncodings,
  encodedAnswer,
  extendedGzip,
  JsonText,
  pickEncoding,
  readCacheOf,
} from '../pairql/read-cache.ts';
import type { Resolver } from '../pairql/resolver.ts';
import { refusedDevices } from '../pairql/refused-devices.ts';
import { assertRoleMayCall } from '../pairql/roles.ts';

export const BODY_LIMIT_BYTES = 512 * 1024;

/** The header carrying each kind of device's token. */
const DEVICE_TOKEN_HEADERS = {
  device: 'x-usertoken',
  iosDevice: 'x-devicetoken',
  browser: 'x-browsertoken',
} as const;

export interface Namespace {
  /** URL segment: /pairql/{name}/{Op} */
  name: 'dashboard' | 'macos-app' | 'ios-app' | 'browser-filter';
  operations: Record<string, OperationDef>;
  /** folder under src/operations holding `<Op>.ts` resolver files */
  folder: 'dashboard' | 'device' | 'ios' | 'browser';
}

/**
 * Loads `src/operations/<folder>/<Op>.ts` for every operation of the contract that has a file.
 * Adding an operation is adding its file; there is no registry to edit.
 */
export async function loadResolvers(namespace: Namespace): Promise<Map<string, Resolver>> {
  const resolvers = new Map<string, Resolver>();
  for (const op of Object.keys(namespace.operations)) {
    const file = new URL(`../operations/${namespace.folder}/${op}.ts`, import.meta.url);
    if (!existsSync(file)) continue;
    const module = (await import(file.href)) as { default?: Resolver };
    const resolver = module.default;
    if (!resolver || resolver.op !== op || resolver.namespace !== namespace.name) {
      throw new Error(
        `${file.pathname} must \`export default\` a ${namespace.name} resolver for ${op}`,
      );
    }
    resolvers.set(op, resolver);
  }
  return resolvers;
}

export function pickDashboardUrl(allowList: string[], header: string | string[] | undefined) {
  const requested = typeof header === 'string' ? header.trim().replace(/\/$/, '') : undefined;
  return requested !== undefined && allowList.includes(requested) ? requested : allowList[0]!;
}

/** "email: Invalid email address; password: Required" */
export function describeZodError(error: z.ZodError): string {
  return error.issues
    .slice(0, 5)
    .map((issue) => {
      const path = issue.path.map(String).join('.');
      return path ? `${path}: ${issue.message}` : issue.message;
    })
    .join('; ');
}

/** The first problem in words a parent understands, naming the field: "The name is too long (at most 100 characters)." */
export function friendlyZodMessage(error: z.ZodError): string {
  const issue = error.issues[0];
  if (!issue) return 'Some of the information sent was not valid.';
  const field = fieldName(issue.path);
  const the = field ? `The ${field}` : 'The request';
  switch (issue.code) {
    case 'invalid_type':
      return issue.message.endsWith('received undefined')
        ? `${the} is missing.`
        : `${the} has the wrong kind of value.`;
    case 'too_big':
      return issue.origin === 'string'
        ? `${the} is too long (at most ${issue.maximum} characters).`
        : issue.origin === 'array'
          ? `${the} has too many items (at most ${issue.maximum}).`
          : `${the} is too large (at most ${issue.maximum}).`;
    case 'too_small':
      return issue.origin === 'string'
        ? `${the} is too short.`
        : issue.origin === 'array'
          ? `${the} needs at least ${issue.minimum} item(s).`
          : `${the} is too small (at least ${issue.minimum}).`;
    case 'invalid_value':
      return `${the} must be one of: ${issue.values.map(String).join(', ')}.`;
    default:
      return `${the} is not valid.`;
  }
}

function fieldName(path: PropertyKey[]): string {
  const words = path
    .filter((part): part is string => typeof part === 'string')
    .map((part) => part.replace(/([a-z])([A-Z])/g, '$1 $2').toLowerCase());
  return words.join(' ');
}

interface RouterDeps {
  db: Db;
  config: Config;
  clock: Clock;
  services: Services;
  namespaces: { namespace: Namespace; resolvers: Map<string, Resolver> }[];
}

export async function registerPairQL(app: FastifyInstance, deps: RouterDeps): Promise<void> {
  await app.register(async (pairql) => {
    // Bodies arrive as raw text whatever the content type; JSON parsing is ours (errors → 400).
    pairql.removeAllContentTypeParsers();
    pairql.addContentTypeParser(
      '*',
      { parseAs: 'string', bodyLimit: BODY_LIMIT_BYTES },
      (_request, body, done) => done(null, body),
    );

    pairql.setErrorHandler((error, request, reply) => sendError(error, request, reply));

    // issue 31: a device that keeps calling past its budget is refused before its body is read
    const refused = refusedDevices(deps.clock);
    const deviceCall = (namespace: Namespace, request: FastifyRequest) => {
      const op = (request.params as { op?: string }).op ?? '';
      const def = Object.hasOwn(namespace.operations, op) ? namespace.operations[op] : undefined;
      const header = def && DEVICE_TOKEN_HEADERS[def.auth as keyof typeof DEVICE_TOKEN_HEADERS];
      const token = header ? request.headers[header] : undefined;
      return typeof token === 'string' ? { key: `${namespace.name}/${op}`, token } : undefined;
    };

    for (const { namespace, resolvers } of deps.namespaces) {
      pairql.post<{ Params: { op: string } }>(
        `/pairql/${namespace.name}/:op`,
        {
          onRequest: async (request, reply) => {
            const call = deviceCall(namespace, request);
            const left = call && refused.refusedFor(call.key, call.token);
            if (left !== undefined) return sendError(tooManyRequests(left), request, reply);
          },
        },
        async (request, reply) => {
          let output: unknown;
          try {
            output = await handle(deps, namespace, resolvers, request);
          } catch (error) {
            const retryAfter =
              error instanceof PqlFailure && error.details.spentUntilRetryAfter
                ? Number(error.details.headers?.['retry-after'])
                : undefined;
            const call = retryAfter ? deviceCall(namespace, request) : undefined;
            if (call && retryAfter) refused.refuse(call.key, call.token, retryAfter);
            throw error;
          }
          if (output instanceof JsonText) return sendJsonText(request, reply, output);
          return reply
            .code(200)
            .type('application/json; charset=utf-8')
            .send(JSON.stringify(output));
        },
      );
    }
    pairql.post<{ Params: { '*': string } }>('/pairql/*', async (request) => {
      throw unknownOperation(request.params['*']);
    });
  });
}

async function handle(
  deps: RouterDeps,
  namespace: Namespace,
  resolvers: Map<string, Resolver>,
  request: FastifyRequest<{ Params: { op: string } }>,
): Promise<unknown> {
  const opName = request.params.op;
  if (!Object.hasOwn(namespace.operations, opName)) throw unknownOperation(opName);
  const def = namespace.operations[opName]!;
  const { db, config, clock, services } = deps;

  const base: RequestContext = {
    db,
    config,
    clock,
    services: { ...services, rateLimit: oncePerRequest(services.rateLimit) },
    log: request.log,
    requestId: request.id,
    ip: clientIp(config, request.socket.remoteAddress, request.headers),
    dashboardUrl:
      namespace.name === 'dashboard'
        ? pickDashboardUrl(config.dashboardUrls, request.headers['x-dashboardurl'])
        : config.dashboardUrls[0]!,
  };

  let ctx: RequestContext = base;
  let familyVersion: string | undefined;
  if (def.auth === 'parent') {
    const session = await findSession(db, clock, request.headers['x-admintoken']);
    if (!session) {
      // Logout is idempotent: an unknown, expired or revoked token has nothing left to revoke.
      if (opName === 'Logout') return { success: true };
      throw loggedOut();
    }
    ctx = {
      ...base,
      parentId: session.parentId,
      sessionId: session.id,
      personId: session.personId,
      role: session.role,
    } as RequestContext;
    familyVersion = session.familyVersion;
  } else if (def.auth === 'device') {
    const device = await findMacRequestPrincipal(
      db,
      dialectOf(config),
      clock,
      request.headers['x-usertoken'],
    );
    if (!device) throw userTokenNotFound();
    ctx = {
      ...base,
      ...device,
      token: String(request.headers['x-usertoken']).trim(),
    } as RequestContext;
  } else if (def.auth === 'iosDevice') {
    const device = await findIosPrincipal(db, request.headers['x-devicetoken']);
    if (!device) throw iosDeviceTokenNotFound();
    ctx = { ...base, ...device } as RequestContext;
  } else if (def.auth === 'browser') {
    const browser = await findBrowserPrincipal(db, clock, request.headers['x-browsertoken']);
    if (!browser) throw browserTokenNotFound();
    ctx = { ...base, ...browser } as RequestContext;
  }

  const resolver = resolvers.get(opName);
  if (!resolver) throw notAvailableYet('a3f9c1d2', `Operation ${opName}`);

  const input = parseInput(def, request.body, resolver.replacesNulCharacters === true);
  let output: unknown;
  if (def.auth === 'parent' && namespace.name === 'dashboard') {
    // issue 12: owner-only operations (pairql/roles.ts), then the audit log (audit/record.ts)
    const parentCtx = ctx as ParentContext;
    assertRoleMayCall(parentCtx, opName, input);
    const resolve = () =>
      runAudited(parentCtx, opName, input, (audited) => resolveRacing(resolver, input, audited));
    // issue 11: the large reads are answered from the read cache while the family's data is unchanged
    const cached = Object.hasOwn(CACHED_DASHBOARD_OPERATIONS, opName)
      ? CACHED_DASHBOARD_OPERATIONS[opName]
      : undefined;
    output =
      cached && familyVersion !== undefined
        ? await cachedRead(deps, opName, cached, parentCtx, input, familyVersion, resolve)
        : await resolve();
  } else {
    output = await resolveRacing(resolver, input, ctx);
  }

  if (config.mode !== 'production') {
    const checked = def.output.safeParse(
      output instanceof JsonText ? JSON.parse(output.text) : output,
    );
    if (!checked.success) {
      request.log.error(
        { op: opName, issues: checked.error.issues },
        'resolver output does not match the contract',
      );
      throw serverError('b7e4d2a9', `Output of ${opName} does not match the contract`);
    }
  }
  return output;
}

/**
 * A dashboard read through the read cache (read-cache.ts): the answer built at this family version,
 * while still valid, else the resolver's answer, kept for the next request. `familyVersion` was
 * read before the resolver runs, so a kept answer is never older than the version it is kept for.
 */
async function cachedRead(
  deps: RouterDeps,
  op: string,
  spec: CachedOperation,
  ctx: ParentContext,
  input: unknown,
  familyVersion: string,
  resolve: () => Promise<unknown>,
): Promise<JsonText> {
  const cache = readCacheOf(deps.db);
  const key = dashboardKey(op, spec, ctx, input);
  const now = deps.clock.now();
  const hit = cache.get(key, familyVersion, now.getTime());
  if (hit) {
    if (deps.config.readCacheVerify) {
      const fresh = JSON.stringify(await resolve());
      if (fresh !== hit.json) {
        ctx.log.error(
          {
            op,
            parentId: ctx.parentId,
            cached: hit.json.slice(0, 2000),
            fresh: fresh.slice(0, 2000),
          },
          'read cache: the cached answer differs from the recomputed one',
        );
        throw serverError('e31c7a52', `Read cache of ${op} holds a stale answer`);
      }
    }
    return JsonText.of(hit.json, hit);
  }
  const output = await resolve();
  const json = JSON.stringify(output);
  const validUntil = await spec.horizon(deps.db, output, ctx, now);
  if (validUntil > now.getTime()) {
    cache.set(key, { version: familyVersion, builtAt: now.getTime(), validUntil, json });
  }
  return JsonText.of(json);
}

/** An answer already serialized; a cached one goes out in its kept compressed form. */
function sendJsonText(request: FastifyRequest, reply: FastifyReply, output: JsonText) {
  reply.code(200).type('application/json; charset=utf-8');
  const mayCompress = request.headers['x-no-compression'] === undefined;
  const { extended } = output;
  if (
    extended &&
    mayCompress &&
    acceptedEncodings(request.headers['accept-encoding']).has('gzip')
  ) {
    // a kept part and fields added at its end (CheckIn_v2): gzip without compressing the part again
    const body = extendedGzip(extended.entry, extended.suffix, extended.open);
    if (body) {
      return reply.header('content-encoding', 'gzip').header('vary', 'accept-encoding').send(body);
    }
  }
  const entry = output.cached;
  const encoding =
    entry && mayCompress
      ? pickEncoding(request.headers['accept-encoding'], entry.json.length)
      : undefined;
  if (entry && encoding) {
    // already compressed: the compression plugin leaves it alone
    return reply
      .header('content-encoding', encoding)
      .header('vary', 'accept-encoding')
      .send(encodedAnswer(entry, encoding));
  }
  return reply.send(output.text);
}

/**
 * Runs the resolver; when its writes lose a race to a concurrent request (a unique or foreign-key
 * violation, a deadlock), runs it again, so it now sees the winner's committed rows and answers
 * exactly as the sequential path does. Resolvers write in transactions, so a lost attempt left
 * nothing behind. What still conflicts after the last attempt is a 400 or 404, never a 500.
 */
function resolveRacing(resolver: Resolver, input: unknown, ctx: RequestContext) {
  return retryLostRaces(
    () => resolver.resolve(input, ctx),
    (conflict, attempt) => {
      ctx.log.info({ op: resolver.op, conflict, attempt }, 'write lost a race');
      return raceLost(conflict, resolver.op);
    },
  );
}

function raceLost(conflict: Conflict, op: string): PqlFailure {
  if (conflict === 'vanished') {
    return new PqlFailure({
      id: 'a5d30e6c',
      type: 'notFound',
      debugMessage: `${op}: a row it refers to was deleted by a concurrent request`,
      userMessage: 'Something this change refers to was just deleted. Please reload the page.',
    });
  }
  return badRequest(
    '8b1f4c27',
    `${op}: conflicting concurrent ${conflict === 'duplicate' ? 'insert' : 'transaction'}`,
    'This was changed at the same moment by another request. Please reload the page and try again.',
  );
}

function parseInput(def: OperationDef, body: unknown, replacesNulCharacters = false): unknown {
  if (def.input === null) return undefined; // void: any body is ignored
  const text = typeof body === 'string' ? body : '';
  if (text.trim() === '') {
    throw badRequest('d1c8e0f4', 'Missing request body', 'Something was missing from the request.');
  }
  let json: unknown;
  let hasNul = false;
  try {
    json = JSON.parse(text, (key, value) => {
      if (key.includes('\0')) hasNul = true;
      if (typeof value === 'string' && value.includes('\0')) {
        if (replacesNulCharacters) return value.replaceAll('\0', '\uFFFD');
        hasNul = true;
      }
      return value;
    });
  } catch {
    throw badRequest('4f2a9b61', 'Request body is not valid JSON', 'The request was malformed.');
  }
  // PostgreSQL text and jsonb cannot hold U+0000: refuse it here rather than fail in the database.
  if (hasNul) {
    throw badRequest(
      'fd0f59dc',
      'Request body contains a NUL character (\\u0000)',
      'The request contained a character that is not allowed.',
    );
  }
  const parsed = def.input.safeParse(json);
  if (!parsed.success) {
    const message = describeZodError(parsed.error);
    throw badRequest('9e3b7c05', `Invalid input: ${message}`, friendlyZodMessage(parsed.error));
  }
  return parsed.data;
}

export async function findSession(db: Db, clock: Clock, header: string | string[] | undefined) {
  if (typeof header !== 'string' || !isUuid(header.trim())) return undefined;
  // the family's data version (read cache) comes with the session, in the same query
  const row = await db
    .selectFrom('dashboard_sessions as s')
    .leftJoin('family_versions as fv', 'fv.parent_id', 's.parent_id')
    .select(['s.id', 's.parent_id', 's.person_id', 'fv.version'])
    .where('s.token_hash', '=', hashToken(header))
    .where('s.revoked_at', 'is', null)
    .where('s.expires_at', '>', toDbTime(clock.now()))
    .executeTakeFirst();
  if (!row) return undefined;
  return {
    id: row.id,
    parentId: row.parent_id,
    // issue 12: a co-parent's session names the person; the owner's has no person_id
    personId: row.person_id ?? row.parent_id,
    role: row.person_id === null ? ('owner' as const) : ('coParent' as const),
    familyVersion: row.version === null ? undefined : String(row.version),
  };
}

export function sendError(error: unknown, request: FastifyRequest, reply: FastifyReply) {
  let failure: PqlFailure;
  if (error instanceof PqlFailure) {
    failure = error;
  } else if ((error as { code?: string }).code === 'FST_ERR_CTP_BODY_TOO_LARGE') {
    failure = badRequest(
      '2c6d8a13',
      `Request body is larger than ${BODY_LIMIT_BYTES / 1024} KB`,
      'That request was too large.',
    );
  } else if (
    typeof (error as { statusCode?: number }).statusCode === 'number' &&
    (error as { statusCode: number }).statusCode < 500
  ) {
    failure = badRequest('7a0e5f38', `Bad request: ${(error as Error).message}`);
  } else {
    request.log.error({ err: error, requestId: request.id }, 'unexpected error');
    failure = serverError('5c0b2e9f', `Unexpected server error (request ${request.id})`);
  }
  if (failure.details.type === 'serverError' && error instanceof PqlFailure) {
    request.log.error({ err: error, requestId: request.id }, 'server error');
  }
  for (const [name, value] of Object.entries(failure.details.headers ?? {})) {
    reply.header(name, value);
  }
  return reply
    .code(failure.statusCode)
    .type('application/json; charset=utf-8')
    .send(JSON.stringify(failure.body(request.id)));
}
