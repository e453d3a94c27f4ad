import { createReadStream } from 'node:fs';
import type { FastifyInstance } from 'fastify';
import type { Config } from '../config.ts';
import type { Db } from '../db/database.ts';
import { verifyExportSignature } from '../exports/data-export.ts';
import { notFound, PqlFailure } from '../pairql/errors.ts';
import { sendError } from './pairql.ts';
import type { Clock } from '../services/clock.ts';
import { EXPORT_CONTENT_TYPE, type ScreenshotStorage } from '../services/storage.ts';

// GET /data-export/{id}?expires=…&signature=… (issue 12): the family's ZIP, through the link that
// was emailed (or shown by GetDataExport). The HMAC covers the export id and the expiry; the
// export must still be ready and unexpired. The ZIP is in the object store: with S3 the answer is a
// redirect to a signed URL valid a few minutes (never past the link's expiry), so any instance
// serves an export another built; the local store's file is sent as it is. The person who asked
// for it must still be a parent of the family (issue 19). Errors use the contract's body.

/** The family's owner, or one of its active co-parents. */
async function isStillParent(db: Db, parentId: string, personId: string): Promise<boolean> {
  if (personId === parentId) return true;
  const coParent = await db
    .selectFrom('co_parents')
    .select('id')
    .where('id', '=', personId)
    .where('parent_id', '=', parentId)
    .where('status', '=', 'active')
    .executeTakeFirst();
  return coParent !== undefined;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

export async function registerDataExportDownload(
  app: FastifyInstance,
  deps: { db: Db; config: Config; clock: Clock; storage: ScreenshotStorage },
): Promise<void> {
  app.get<{ Params: { id: string }; Querystring: { expires?: string; signature?: string } }>(
    '/data-export/:id',
    async (request, reply) => {
      try {
        const id = request.params.id.toLowerCase();
        if (!UUID.test(id)) throw notFound('Data export');
        const verdict = verifyExportSignature(
          deps.config.hmacKey,
          id,
          request.query.expires,
          request.query.signature,
          deps.clock.now(),
        );
        if (verdict !== 'ok') {
          throw new PqlFailure({
            id: verdict === 'expired' ? 'de7a0b11' : 'de7a0b12',
            type: 'unauthorized',
            debugMessage: `Data export link ${verdict === 'expired' ? 'expired' : 'signature is wrong'}`,
            userMessage:
              verdict === 'expired'
                ? 'This download link has expired. Ask for a new copy of your data in Settings.'
                : 'This download link is not valid. Ask for a new copy of your data in Settings.',
          });
        }
        const row = await deps.db
          .selectFrom('data_exports')
          .select(['parent_id', 'person_id', 'status', 'expires_at', 'storage_key', 'created_at'])
          .where('id', '=', id)
          .executeTakeFirst();
        const now = deps.clock.now().toISOString();
        if (row?.status !== 'ready' || !row.storage_key || !row.expires_at) {
          throw notFound('Data export');
        }
        // issue 19: only while the person who asked for it is still a parent of the family
        if (!(await isStillParent(deps.db, row.parent_id, row.person_id))) {
          throw notFound('Data export');
        }
        if (row.expires_at <= now) {
          throw new PqlFailure({
            id: 'de7a0b11',
            type: 'unauthorized',
            debugMessage: 'Data export expired',
            userMessage:
              'This download link has expired. Ask for a new copy of your data in Settings.',
          });
        }
        const day = row.created_at.slice(0, 10);
        const fileName = `${deps.config.appName.replace(/[^\w-]/g, '')}-data-${day}.zip`;
        const stored = await deps.storage.exports.download(id, {
          until: new Date(row.expires_at),
          fileName,
        });
        if (!stored) throw notFound('Data export');
        reply.header('cache-control', 'private, no-store');
        if ('redirect' in stored) return reply.redirect(stored.redirect, 302);
        return reply
          .header('content-type', EXPORT_CONTENT_TYPE)
          .header('content-length', stored.size)
          .header('content-disposition', `attachment; filename="${fileName}"`)
          .send(createReadStream(stored.file));
      } catch (error) {
        return sendError(error, request, reply);
      }
    },
  );
}
