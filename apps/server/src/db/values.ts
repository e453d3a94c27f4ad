// The one mechanism that hides dialect differences: every query writes and reads these column
// kinds through these helpers (see schema.ts). Timestamps are TEXT on both dialects.

/** Timestamp column value: `YYYY-MM-DDTHH:MM:SS.sssZ`. Sorts and compares as text on both dialects. */
export function toDbTime(date: Date): string {
  return date.toISOString();
}

export function addMs(date: Date, ms: number): Date {
  return new Date(date.getTime() + ms);
}

export const MINUTE = 60_000;
export const HOUR = 60 * MINUTE;
export const DAY = 24 * HOUR;

/** SQLite binds booleans as 0/1; PostgreSQL accepts '1'/'0' for a boolean parameter. */
export function toDbBool(value: boolean): number {
  return value ? 1 : 0;
}

export function fromDbBool(value: unknown): boolean {
  return value === true || value === 1 || value === '1' || value === 't';
}

/** JSON columns hold objects or arrays only (a bare JSON string would be ambiguous on PostgreSQL). */
export function toDbJson(value: object): string {
  return JSON.stringify(value);
}

export function fromDbJson<T>(value: unknown): T {
  return (typeof value === 'string' ? JSON.parse(value) : value) as T;
}

/** bigint and count(*) come back as strings from PostgreSQL. */
export function fromDbInt(value: unknown): number {
  return typeof value === 'number' ? value : Number(value);
}
