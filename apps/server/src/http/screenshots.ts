import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { receiveScreenshotUpload } from '../activity/screenshot-uploads.ts';
import type { Db } from '../db/database.ts';
import { badRequest, notFound, PqlFailure } from '../pairql/errors.ts';
import { sendError } from './pairql.ts';
import type { Clock } from '../services/clock.ts';
import {
  MAX_SCREENSHOT_BYTES,
  SCREENSHOT_CONTENT_TYPE,
  type LocalScreenshotStorage,
  type ScreenshotStorage,
  type SignedMethod,
} from '../services/storage.ts';

// The server's own signed screenshot routes (server-behaviour §7.1): `PUT` (every store: the device's
// upload, one per URL, see activity/screenshot-uploads.ts) and `GET` (the local store only; S3 reads
// are presigned S3 URLs) at `/screenshots/{key}?expires=…&signature=…`. The HMAC covers method, key
// and expiry; the key must have the exact object-key shape, so no other file can be reached. Errors
// use the contract's body.

type SignedRequest = FastifyRequest<{
  Params: { '*': string };
  Querystring: { expires?: string; signature?: string };
}>;

const JPEG_START = Buffer.from([0xff, 0xd8, 0xff]);

function refuseUnlessSigned(
  storage: ScreenshotStorage,
  method: SignedMethod,
  request: SignedRequest,
): string {
  const key = request.params['*'];
  const verdict = storage.verify(method, key, request.query.expires, request.query.signature);
  if (verdict === 'badKey') throw notFound('Screenshot');
  if (verdict === 'badSignature') {
    throw new PqlFailure({
      id: 'a6c2f0b8',
      type: 'unauthorized',
      debugMessage: `Screenshot ${method} URL signature is missing or wrong`,
      userMessage: 'This image link is not valid. Reload the page to see the image.',
    });
  }
  if (verdict === 'expired') {
    throw new PqlFailure({
      id: '3d81b6e4',
      type: 'unauthorized',
      debugMessage: `Screenshot ${method} URL has expired`,
      userMessage: 'This image link has expired. Reload the page to see the image.',
    });
  }
  return key;
}

export async function registerScreenshotRoutes(
  app: FastifyInstance,
  deps: { db: Db; clock: Clock; storage: ScreenshotStorage },
): Promise<void> {
  const { storage } = deps;
  await app.register(async (routes) => {
    routes.removeAllContentTypeParsers();
    routes.addContentTypeParser(
      '*',
      { parseAs: 'buffer', bodyLimit: MAX_SCREENSHOT_BYTES },
      (request, body, done) => {
        const type = (request.headers['content-type'] ?? '').split(';')[0]!.trim().toLowerCase();
        if (type !== SCREENSHOT_CONTENT_TYPE) {
          done(
            badRequest(
              'e5b07a13',
              `Screenshot upload with content type "${type}"`,
              'Only JPEG images can be uploaded.',
            ),
          );
          return;
        }
        done(null, body);
      },
    );
    routes.setErrorHandler((error, request, reply) => {
      if ((error as { code?: string }).code === 'FST_ERR_CTP_BODY_TOO_LARGE') {
        return sendError(
          badRequest(
            '9c4e2d71',
            `Screenshot larger than ${MAX_SCREENSHOT_BYTES} bytes`,
            'The image is too large (at most 10 MB).',
          ),
          request,
          reply,
        );
      }
      return sendError(error, request, reply);
    });

    routes.put('/screenshots/*', async (request: SignedRequest, reply: FastifyReply) => {
      const key = refuseUnlessSigned(storage, 'PUT', request);
      const body = request.body;
      if (!Buffer.isBuffer(body) || body.length < 4 || !body.subarray(0, 3).equals(JPEG_START)) {
        throw badRequest(
          'e5b07a13',
          'Screenshot upload is empty or not a JPEG',
          'Only JPEG images can be uploaded.',
        );
      }
      await receiveScreenshotUpload(
        { db: deps.db, storage, now: () => deps.clock.now() },
        key,
        body,
      );
      return reply.code(200).send();
    });

    if (storage.kind !== 'local') return;
    const local = storage as LocalScreenshotStorage;
    routes.get('/screenshots/*', async (request: SignedRequest, reply: FastifyReply) => {
      const key = refuseUnlessSigned(local, 'GET', request);
      const file = local.filePath(key);
      const info = await stat(file).catch(() => undefined);
      if (!info?.isFile()) throw notFound('Screenshot');
      return reply
        .code(200)
        .header('content-type', SCREENSHOT_CONTENT_TYPE)
        .header('content-length', info.size)
        .header('cache-control', 'private, max-age=3600')
        .send(createReadStream(file));
    });
  });
}
