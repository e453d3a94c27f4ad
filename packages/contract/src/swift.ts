import { z } from 'zod';

// How the reference's Swift device apps put values on the wire (docs/device-wire.md):
// - request bodies come from a default `JSONEncoder`: a `Date` is a number of seconds since
//   2001-01-01T00:00:00Z (Foundation's reference date), a UUID is upper case;
// - answers are read by a `JSONDecoder` with `.iso8601` dates: whole seconds only, no fraction;
// - an enum with associated values and no coding of its own is in Swift's synthesized form: an
//   object with one key, the case name, holding an object of the case's labelled values
//   (`{"accepted": {"duration": 300}}`), `_0`, `_1` for unlabelled ones, `{}` for none.

/** Seconds between 1970-01-01 (Unix) and 2001-01-01 (Foundation's reference date). */
export const SWIFT_REFERENCE_DATE_OFFSET = 978_307_200;

/** The largest plausible date a device may send (year 2200), in Swift reference seconds. */
const MAX_REFERENCE_SECONDS = 6_300_000_000;

/** A `Date` as a default `JSONEncoder` writes it: seconds since 2001-01-01, parsed to ISO-8601. */
export const SwiftDateInput = z
  .number()
  .finite()
  .min(-MAX_REFERENCE_SECONDS)
  .max(MAX_REFERENCE_SECONDS)
  .transform((seconds) => fromSwiftReferenceSeconds(seconds).toISOString());

export function fromSwiftReferenceSeconds(seconds: number): Date {
  return new Date(Math.round((seconds + SWIFT_REFERENCE_DATE_OFFSET) * 1000));
}

export function toSwiftReferenceSeconds(date: Date | string): number {
  const time = typeof date === 'string' ? Date.parse(date) : date.getTime();
  return time / 1000 - SWIFT_REFERENCE_DATE_OFFSET;
}

/** A date a Swift `.iso8601` decoder accepts: `2026-11-26T10:21:19Z`, whole seconds, UTC. */
export const SwiftIsoDate = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$/, 'Expected an ISO-8601 date in whole seconds');
export type SwiftIsoDate = z.infer<typeof SwiftIsoDate>;

/** `2026-11-26T10:21:19Z`: the date cut to the second (never rounded up past the instant). */
export function toSwiftIsoDate(date: Date | string): SwiftIsoDate {
  const time = typeof date === 'string' ? Date.parse(date) : date.getTime();
  return `${new Date(Math.floor(time / 1000) * 1000).toISOString().slice(0, 19)}Z`;
}

/** One case of a synthesized enum: `{"<name>": {<labelled values>}}`. */
export function swiftCase<Name extends string, Shape extends z.ZodRawShape>(
  name: Name,
  shape: Shape,
) {
  return z.object({ [name]: z.object(shape) } as { [K in Name]: z.ZodObject<Shape> }).strict();
}

/** A case without associated values: `{"<name>": {}}`. */
export function swiftBareCase<Name extends string>(name: Name) {
  return swiftCase(name, {});
}

/** Each case name of a synthesized enum value, e.g. `accepted` for `{"accepted": {…}}`. */
export function swiftCaseName(value: Record<string, unknown>): string {
  const keys = Object.keys(value);
  if (keys.length !== 1)
    throw new Error(`Expected one enum case, got ${keys.join(', ') || 'none'}`);
  return keys[0]!;
}
