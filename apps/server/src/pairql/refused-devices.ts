import type { Clock } from '../services/clock.ts';

// Issue 31 (finding 2): a device whose budget for an operation is spent is told 429 with a
// Retry-After. One that keeps sending anyway (as fast as it is answered, a body of 500 KB each
// time) used to cost the server a body parse, a validation and a budget write per call, and
// another family's reads waited behind them (p50 ×4–7 on two cores). Until its Retry-After has
// passed, the same device's next call of that operation is refused here (only for a budget whose
// refused calls count too: the rate limiter's windows, not the rows a device may keep), before its body is
// read, its token looked up or the database touched: a refusal costs about what an unknown path
// does. The memo is per process (another instance learns on its own first 429) and bounded.

const MAX_ENTRIES = 20_000;
/** never longer than this, whatever the Retry-After said */
const MAX_REFUSAL_MS = 10 * 60_000;

export interface RefusedDevices {
  /** seconds left of this device's refusal for this operation, or undefined */
  refusedFor(operation: string, token: string | undefined): number | undefined;
  refuse(operation: string, token: string | undefined, retryAfterSeconds: number): void;
}

export function refusedDevices(clock: Clock): RefusedDevices {
  const until = new Map<string, number>();
  return {
    refusedFor(operation, token) {
      if (!token) return undefined;
      const key = `${operation} ${token}`;
      const at = until.get(key);
      if (at === undefined) return undefined;
      const left = at - clock.now().getTime();
      if (left > 0) return left / 1000;
      until.delete(key);
      return undefined;
    },
    refuse(operation, token, retryAfterSeconds) {
      if (!token || !(retryAfterSeconds > 0)) return;
      const key = `${operation} ${token}`;
      until.delete(key); // re-inserted last: the map's order is oldest first
      if (until.size >= MAX_ENTRIES) {
        const oldest = until.keys().next().value;
        if (oldest !== undefined) until.delete(oldest);
      }
      until.set(key, clock.now().getTime() + Math.min(retryAfterSeconds * 1000, MAX_REFUSAL_MS));
    },
  };
}
