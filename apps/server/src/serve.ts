import type { FastifyInstance } from 'fastify';
import type { Config } from './config.ts';

/** Listens, closes cleanly on SIGINT/SIGTERM, and returns the URL the server is reachable at. */
export async function listenUntilStopped(
  app: FastifyInstance,
  config: Pick<Config, 'host' | 'port'>,
  onStop: () => void = () => {},
): Promise<string> {
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    process.once(signal, () => {
      onStop();
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
  return `http://${shownHost}:${port}`;
}
