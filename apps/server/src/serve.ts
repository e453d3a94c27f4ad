import type { FastifyInstance } from 'fastify';
import type { Config } from './config.ts';

/** How long in-flight requests get to finish after SIGTERM before the process exits anyway. */
export const SHUTDOWN_GRACE_MS = 10_000;

/**
 * Graceful shutdown: stop accepting connections, close the Macs' push channels with 1012 (the Mac
 * reconnects), let in-flight requests finish, then run the onClose hooks (push hub, database).
 * Resolves false when it took longer than `graceMs`.
 */
export async function shutDownGracefully(
  app: FastifyInstance,
  graceMs = SHUTDOWN_GRACE_MS,
): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const timedOut = new Promise<false>((resolve) => {
    timer = setTimeout(() => resolve(false), graceMs);
    timer.unref();
  });
  // A keep-alive connection whose request finishes during the shutdown would otherwise hold the
  // close until its keep-alive timeout: close connections as soon as they turn idle.
  const reaper = setInterval(() => app.server.closeIdleConnections?.(), 50);
  reaper.unref();
  try {
    return await Promise.race([app.close().then(() => true as const), timedOut]);
  } finally {
    clearTimeout(timer);
    clearInterval(reaper);
  }
}

/** Listens, shuts down gracefully on SIGINT/SIGTERM, and returns the URL the server is reachable at. */
export async function listenUntilStopped(
  app: FastifyInstance,
  config: Pick<Config, 'host' | 'port'>,
  onStop: () => void = () => {},
): Promise<string> {
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    process.once(signal, () => {
      app.log.info(`${signal}: shutting down (in-flight requests finish, Macs reconnect)`);
      onStop();
      shutDownGracefully(app).then(
        (clean) => {
          if (!clean) app.log.warn('shutdown took too long; exiting anyway');
          process.exit(clean ? 0 : 1);
        },
        (error) => {
          app.log.error({ err: error }, 'shutdown failed');
          process.exit(1);
        },
      );
    });
  }
  await app.listen({ host: config.host, port: config.port });
  const address = app.server.address();
  const port = typeof address === 'object' && address ? address.port : config.port;
  const shownHost = config.host.includes(':') ? `[${config.host}]` : config.host;
  return `http://${shownHost}:${port}`;
}
