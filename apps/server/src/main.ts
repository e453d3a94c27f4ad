import { buildApp } from './app.ts';
import { ConfigError, loadConfig } from './config.ts';
import { createDatabase, dialectOf, migrateToLatest } from './db/database.ts';

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

  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    process.once(signal, () => {
      app.close().then(
        () => process.exit(0),
        () => process.exit(1),
      );
    });
  }

  await app.listen({ host: config.host, port: config.port });
  const address = app.server.address();
  const port = typeof address === 'object' && address ? address.port : config.port;
  const shownHost = config.host.includes(':') ? `[${config.host}]` : config.host;
  console.log(`Keyward is running at http://${shownHost}:${port}`);
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
