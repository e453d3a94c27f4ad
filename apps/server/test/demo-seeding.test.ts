import { randomBytes } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, test } from 'vitest';
import { loadConfig } from '../src/config.ts';
import { createDatabase, dialectOf, migrateToLatest } from '../src/db/database.ts';
import { DEMO_EMAIL, seedDemo } from '../src/demo.ts';
import type { OutgoingEmail } from '../src/services/mail.ts';
import { createPostgresDatabase } from './harness.ts';

// Issue 31, finding 4: `RATE_LIMIT_SCALE=1 npm run demo` failed while seeding with a 429 (the
// seeding went through the public budgets). It now seeds on an app of its own with large budgets
// and clears what it counted, so the demo's budgets start from nothing.

const dataDir = mkdtempSync(path.join(tmpdir(), 'keyward-demo-'));
const postgres = process.env.TEST_DATABASE_URL?.startsWith('postgres')
  ? await createPostgresDatabase(process.env.TEST_DATABASE_URL)
  : undefined;
const config = loadConfig({
  NODE_ENV: 'test',
  DATA_DIR: dataDir,
  WEB_DIST: path.join(dataDir, 'web-dist'),
  HMAC_KEY: randomBytes(32).toString('hex'),
  ENCRYPTION_KEY: randomBytes(32).toString('hex'),
  RATE_LIMIT_SCALE: '1',
  ...(postgres ? { DATABASE_URL: postgres.url } : {}),
});
const db = createDatabase(config);
afterAll(async () => {
  await db.destroy();
  await postgres?.drop();
});

describe('demo seeding', () => {
  test('seeds with the production budgets (RATE_LIMIT_SCALE=1) and leaves them unspent', async () => {
    await migrateToLatest(db, dialectOf(config));
    const mails: OutgoingEmail[] = [];
    const seeded = await seedDemo(config, db, () => ({
      send: async (email) => void mails.push(email),
    }));
    expect(seeded).toBe(true);
    expect(mails.some((mail) => mail.template === 'initial-signup')).toBe(true);
    const family = await db
      .selectFrom('parents')
      .innerJoin('children', 'children.parent_id', 'parents.id')
      .select('children.name')
      .where('parents.email', '=', DEMO_EMAIL)
      .execute();
    expect(family.length).toBeGreaterThan(0);
    const counters = await db.selectFrom('rate_limit_counters').selectAll().execute();
    expect(counters).toEqual([]);
    // a second start finds the family and seeds nothing
    expect(await seedDemo(config, db)).toBe(false);
  }, 240_000);
});
