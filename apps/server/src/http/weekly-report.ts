import type { FastifyInstance } from 'fastify';
import type { Db } from '../db/database.ts';
import { stopWeeklyReport } from '../jobs/weekly-report.ts';
import type { Clock } from '../services/clock.ts';
import type { TokenService } from '../services/tokens.ts';

// Issue 23: the weekly report's one-click stop. The email's List-Unsubscribe header names this URL
// and mail apps POST `List-Unsubscribe=One-Click` to it (RFC 8058): that stops the report at once.
// The link in the email's text opens a page with one button that sends the same POST; a GET alone
// changes nothing, so a link scanner opening every URL of a message cannot stop it.

const page = (title: string, body: string) => `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>${title}</title></head>
<body style="font-family:system-ui,sans-serif;color:#1f2937;max-width:32rem;margin:0 auto;padding:2rem">
<h1 style="font-size:1.25rem;color:#6d28d9">${title}</h1>${body}</body></html>`;

const escapeAttribute = (value: string) => value.replace(/[&"<>]/g, (c) => `&#${c.charCodeAt(0)};`);

export function registerWeeklyReportRoutes(
  app: FastifyInstance,
  deps: { db: Db; clock: Clock; tokens: TokenService },
): void {
  void app.register(async (scope) => {
    scope.addContentTypeParser(
      ['application/x-www-form-urlencoded', 'multipart/form-data', 'text/plain'],
      { parseAs: 'string' },
      (_request, body, done) => done(null, body),
    );
    type Query = { Querystring: { family?: string; signature?: string } };

    scope.get<Query>('/weekly-report/unsubscribe', async (request, reply) => {
      const action = escapeAttribute(request.url);
      return reply
        .type('text/html; charset=utf-8')
        .header('cache-control', 'no-store')
        .send(
          page(
            'Stop the weekly report?',
            `<p>You will no longer get Keyward's weekly email about your children. You can turn it on again in Settings.</p>
<form method="post" action="${action}"><input type="hidden" name="List-Unsubscribe" value="One-Click"><button type="submit" style="background:#6d28d9;color:#fff;border:0;border-radius:6px;padding:10px 18px;font-size:1rem">Stop the weekly report</button></form>`,
          ),
        );
    });

    scope.post<Query>('/weekly-report/unsubscribe', async (request, reply) => {
      const { family = '', signature = '' } = request.query;
      const stopped = await stopWeeklyReport(deps, family, signature, deps.clock.now());
      if (!stopped) {
        return reply
          .code(403)
          .type('text/html; charset=utf-8')
          .send(
            page(
              'This link does not work',
              '<p>Turn the weekly report off in Keyward, under Settings.</p>',
            ),
          );
      }
      return reply
        .type('text/html; charset=utf-8')
        .send(
          page(
            'Weekly report stopped',
            "<p>You won't get the weekly report any more. You can turn it on again in Settings.</p>",
          ),
        );
    });
  });
}
