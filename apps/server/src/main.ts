import { createServer } from 'node:net';
import { buildApp } from './app.ts';
import { ConfigError, loadConfig } from './config.ts';
import { createDatabase, dialectOf, migrateToLatest } from './db/database.ts';
import { listenUntilStopped } from './serve.ts';

/**
 * `PORT=0` (any free port: the benchmarks, several servers side by side) becomes that port before
 * the configuration is read, so the addresses built from it (the public URL of screenshots, email
 * links and Keyward for Chrome's uninstall link, the default dashboard origin) name the real port.
 */
async function resolveFreePort(env: NodeJS.ProcessEnv): Promise<void> {
  if (env.PORT !== '0') return;
  const probe = createServer();
  await new Promise<void>((resolve, reject) => {
    probe.once('error', reject);
    probe.listen(0, env.HOST ?? '127.0.0.1', resolve);
  });
  const address = probe.address();
  await new Promise((resolve) => probe.close(resolve));
  if (typeof address === 'object' && address) env.PORT = String(address.port);
}

async function main(): Promise<void> {
  await resolveFreePort(process.env);
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
