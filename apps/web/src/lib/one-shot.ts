const started = new Map<string, Promise<unknown>>();

/**
 * Runs `call` once per key for the page's lifetime. React StrictMode runs effects twice in
 * development; a single-use token (magic link, email verification, checkout) must be sent once.
 */
export function runOnce<T>(key: string, call: () => Promise<T>): Promise<T> {
  const existing = started.get(key);
  if (existing) return existing as Promise<T>;
  const promise = call();
  started.set(key, promise);
  return promise;
}

export function forgetOneShots(): void {
  started.clear();
}
