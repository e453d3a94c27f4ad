import { buildApp } from './app.ts';
import { ConfigError, loadConfig } from './config.ts';
import { createDatabase, dialectOf, migrateToLatest } from './db/database.ts';
import { listenUntilStopped } from './serve.ts';

async function main(): Promise<void> {
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
  await migrateToLatest(db, dialectOf(config));
  const app = await buildApp({ config, db });
  app.addHook('onClose', async () => db.destroy());

  const url = await listenUntilStopped(app, config);
  console.log(`Keyward is running at ${url}`);
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
