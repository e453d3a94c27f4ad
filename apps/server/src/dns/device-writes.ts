// Issue 33: what Keyward DNS writes per device in the background (blocked-names.ts: blocked and
// allowed names; query-hours.ts: query counts): many devices a transaction, and each device's
// clean-up (rows past their time) at a cadence of its own rather than on every write.

/** A device's id and what was noted of it since the last write. */
export type DeviceNotes<T> = [deviceId: string, notes: T];

/** The devices in chunks of about `size`, by each one's `weight` (its rows). */
export function chunksOf<T>(
  devices: Iterable<DeviceNotes<T>>,
  size: number,
  weight: (notes: T) => number,
): DeviceNotes<T>[][] {
  const chunks: DeviceNotes<T>[][] = [];
  let chunk: DeviceNotes<T>[] = [];
  let rows = 0;
  for (const device of devices) {
    chunk.push(device);
    rows += weight(device[1]);
    if (rows >= size) {
      chunks.push(chunk);
      chunk = [];
      rows = 0;
    }
  }
  if (chunk.length > 0) chunks.push(chunk);
  return chunks;
}

const nextTurn = () => new Promise((resolve) => setImmediate(resolve));

/**
 * Writes each chunk in one transaction (`write`), with a turn of the event loop between
 * transactions (SQLite writes hold it while they run). A device removed meanwhile (its rows
 * cascade away) fails its chunk's transaction: that chunk is then written device by device, so
 * that the others' notes are kept; a device that still fails (removed, or the database down) is
 * given to `dropped` and its notes go.
 */
export async function writeInChunks<T>(
  chunks: DeviceNotes<T>[][],
  write: (devices: DeviceNotes<T>[]) => Promise<void>,
  dropped: (device: DeviceNotes<T>, error: unknown) => void,
): Promise<void> {
  for (const devices of chunks) {
    await nextTurn();
    try {
      await write(devices);
    } catch {
      for (const device of devices) {
        await nextTurn();
        try {
          await write([device]);
        } catch (error) {
          dropped(device, error);
        }
      }
    }
  }
}

/**
 * Per device, whether a periodic clean-up is due: about every `everyMs` (between half of it and
 * one and a half), each device at a point of its own, so that the devices first written together
 * are not all cleaned up in the same write again. Bounded: past `max` devices, the longest-known
 * go (and are due again).
 */
export class Cadence {
  private readonly dueAt = new Map<string, number>();

  constructor(
    private readonly everyMs: number,
    private readonly max = 200_000,
  ) {}

  isDue(deviceId: string, nowMs: number): boolean {
    return (this.dueAt.get(deviceId) ?? 0) <= nowMs;
  }

  done(deviceId: string, nowMs: number): void {
    this.dueAt.delete(deviceId);
    this.dueAt.set(deviceId, nowMs + this.everyMs * (0.5 + Math.random()));
    if (this.dueAt.size > this.max) {
      const oldest = this.dueAt.keys().next().value;
      if (oldest !== undefined) this.dueAt.delete(oldest);
    }
  }
}
