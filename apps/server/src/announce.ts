import path from 'node:path';
import { parseArgs } from 'node:util';
import { AnnouncementError, type AnnouncementInput, createAnnouncements } from './announcements.ts';
import { ConfigError, loadConfig } from './config.ts';
import { createDatabase, dialectOf, migrateToLatest } from './db/database.ts';

// `npm run announce -- --html "<text>" (--email <address>… | --all) [--icon <name>]
//   [--learn-more <url>] [--days 30] [--min-account-age-days 2]`
// Shows an announcement banner on the home page of the chosen parents until it expires or they
// dismiss it. Uses the same configuration (DATA_DIR / DATABASE_URL) as the server.

const USAGE = `Usage: npm run announce -- --html "<text>" (--email <address> ... | --all)
         [--icon <name>] [--learn-more <url>] [--days <1-365, default 30>]
         [--min-account-age-days <n, default 2, with --all>]
The text may use <b>, <i>, <a href="https://…"> and <br>; the dashboard drops any other markup.`;

async function main(): Promise<void> {
  let args: ReturnType<typeof parse>;
  try {
    args = parse();
  } catch (error) {
    console.error(`${error instanceof Error ? error.message : error}\n\n${USAGE}`);
    process.exit(2);
  }
  if (args.values.help) {
    console.log(USAGE);
    return;
  }
  const number = (value: string | undefined) => (value === undefined ? undefined : Number(value));
  const emails = args.values.email ?? [];
  if (args.values.all && emails.length > 0) {
    console.error(`Use either --email or --all, not both.\n\n${USAGE}`);
    process.exit(2);
  }
  const input: AnnouncementInput = {
    html: args.values.html ?? '',
    icon: args.values.icon,
    learnMoreUrl: args.values['learn-more'],
    days: number(args.values.days),
    to: args.values.all
      ? { all: true, minAccountAgeDays: number(args.values['min-account-age-days']) }
      : { emails },
  };
  let config: ReturnType<typeof loadConfig>;
  try {
    config = loadConfig();
  } catch (error) {
    if (error instanceof ConfigError) {
      console.error(error.message);
      process.exit(1);
    }
    throw error;
  }
  const db = createDatabase(config);
  try {
    await migrateToLatest(db, dialectOf(config));
    const recipients = await createAnnouncements(db, new Date(), input);
    console.log(
      recipients.length === 0
        ? 'No parent matched; nothing was created.'
        : `Announcement created for ${recipients.length} parent(s): ${recipients.join(', ')}`,
    );
  } catch (error) {
    if (error instanceof AnnouncementError) {
      console.error(`Announcement not created: ${error.message}.\n\n${USAGE}`);
      process.exit(2);
    }
    throw error;
  } finally {
    await db.destroy();
  }
}

function parse() {
  return parseArgs({
    options: {
      html: { type: 'string' },
      email: { type: 'string', multiple: true },
      all: { type: 'boolean' },
      icon: { type: 'string' },
      'learn-more': { type: 'string' },
      days: { type: 'string' },
      'min-account-age-days': { type: 'string' },
      help: { type: 'boolean', short: 'h' },
    },
    strict: true,
  });
}

if (process.argv[1] && path.resolve(process.argv[1]) === new URL(import.meta.url).pathname) {
  main().catch((error) => {
    console.error(error instanceof Error ? error.message : error);
    process.exit(1);
  });
}
