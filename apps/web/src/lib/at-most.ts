/**
 * Settles when `promise` settles (fulfilled or rejected: the caller only waits) or after `ms`,
 * whichever comes first.
 */
export function atMost(ms: number, promise: Promise<unknown>): Promise<void> {
  return new Promise<void>((resolve) => {
    const timer = setTimeout(resolve, ms);
    const done = () => {
      clearTimeout(timer);
      resolve();
    };
    promise.then(done, done);
  });
}
