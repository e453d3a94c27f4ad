// A small model of Swift's `Codable` as the reference's device apps use it, so TypeScript can
// check a JSON value exactly as the apps' `JSONDecoder` would read it, and write one exactly as
// their `JSONEncoder` would.
//
// - `decodeSwift(type, json)` follows `JSONDecoder` rules: unknown keys are ignored; a missing
//   or null non-optional key fails the whole decode; an optional key may be missing or null;
//   `Int` is an integral number, `Double` any number, `Bool` only true/false; a UUID is an
//   8-4-4-4-12 hex string (either case); a `Date` is, by default, an ISO-8601 internet
//   date-time in whole seconds (the apps' `.iso8601` strategy), or, with
//   `{ dates: 'deferredToDate' }`, a number of seconds since 2001-01-01 (a default decoder,
//   as the reference server reads request bodies and websocket messages).
// - `encodeSwift(type, value)` follows a default `JSONEncoder`: dates as reference-date seconds
//   (or, with `{ dates: 'iso8601' }`, as the reference server writes its answers), UUIDs upper
//   case, nil optionals omitted, synthesized enums as `{"case": {labelled values}}`.
//
// Decoded values are plain TypeScript data: a struct is an object of its present fields, a
// `Date` a JS `Date`, a UUID its upper-case string, a `Set` an array, a `[String: V]` an
// object, a `[K: V]` with a non-String key an array of `[key, value]` pairs, and a synthesized
// enum `{ case: 'accepted', duration: 300 }` (labels as keys, `_0`, `_1` for unlabelled ones).

/** Seconds between 1970-01-01 (Unix epoch) and 2001-01-01 (Foundation's reference date). */
export const SWIFT_REFERENCE_DATE_OFFSET = 978_307_200;

export type DateStrategy = 'iso8601' | 'deferredToDate';

export interface SwiftCodingOptions {
  /** How a `Date` is written: `iso8601` (the apps reading answers) or reference seconds. */
  dates?: DateStrategy;
}

export type SwiftDecodingErrorKind =
  | 'keyNotFound'
  | 'valueNotFound'
  | 'typeMismatch'
  | 'dataCorrupted';

/** Thrown where Swift's decoder would throw; the message starts with the coding path. */
export class SwiftDecodingError extends Error {
  constructor(
    readonly kind: SwiftDecodingErrorKind,
    readonly path: string,
    readonly detail: string,
  ) {
    super(`${path || '(root)'}: ${detail}`);
    this.name = 'SwiftDecodingError';
  }
}

/** A value that no `JSONEncoder` could write from this Swift type (a bug in the caller). */
export class SwiftEncodingError extends Error {
  constructor(path: string, detail: string) {
    super(`${path || '(root)'}: ${detail}`);
    this.name = 'SwiftEncodingError';
  }
}

export interface Coding {
  /** The coding path so far, e.g. `userData.blockedApps[0].schedule`. */
  path: string;
  dates: DateStrategy;
}

/** A Swift type: how its values are decoded from and encoded to JSON. */
export interface SwiftType<T> {
  /** The Swift spelling, for messages: `Int`, `[UUID]`, `FilterSuspensionDecision`. */
  readonly name: string;
  readonly optional?: false;
  decode(json: unknown, at: Coding): T;
  encode(value: T, at: Coding): unknown;
}

/** `T?`: in a struct the key may be missing or null, and a nil value is omitted. */
export interface OptionalType<T> {
  readonly name: string;
  readonly optional: true;
  readonly wrapped: SwiftType<T>;
  decode(json: unknown, at: Coding): T | undefined;
  encode(value: T | undefined, at: Coding): unknown;
}

// biome-ignore lint/suspicious/noExplicitAny: a descriptor of any value type
export type AnyType = SwiftType<any> | OptionalType<any>;

export type Infer<S> =
  S extends OptionalType<infer T> ? T | undefined : S extends SwiftType<infer T> ? T : never;

export type Fields = Record<string, AnyType>;

type Simplify<T> = { [K in keyof T]: T[K] } & {};

// biome-ignore lint/suspicious/noExplicitAny: matching any optional descriptor
type IsOptional<S> = S extends OptionalType<any> ? true : false;

/** The value of a struct with these fields: optional ones may be absent. */
export type StructValue<F extends Fields> = Simplify<
  { [K in keyof F as IsOptional<F[K]> extends true ? never : K]: Infer<F[K]> } & {
    [K in keyof F as IsOptional<F[K]> extends true ? K : never]?: Infer<F[K]>;
  }
>;

/** A synthesized enum's value: `{ case: 'accepted', duration: 300 }`. */
export type EnumValue<C extends Record<string, Fields>> = {
  [K in keyof C & string]: Simplify<{ case: K } & StructValue<C[K]>>;
}[keyof C & string];

/** A hand-coded enum keyed by a tag field, e.g. `{ type: 'domain', domain: …, scope: … }`. */
export type TaggedValue<Tag extends string, C extends Record<string, Fields>> = {
  [K in keyof C & string]: Simplify<{ [P in Tag]: K } & StructValue<C[K]>>;
}[keyof C & string];

// ---------------------------------------------------------------------------
// Helpers

function show(json: unknown): string {
  if (json === undefined) return 'nothing';
  if (json === null) return 'null';
  if (Array.isArray(json)) return 'an array';
  if (typeof json === 'object') return 'an object';
  const text = JSON.stringify(json);
  return text.length > 60 ? `${text.slice(0, 57)}…` : text;
}

function child(at: Coding, key: string | number): Coding {
  if (typeof key === 'number') return { ...at, path: `${at.path}[${key}]` };
  return { ...at, path: at.path ? `${at.path}.${key}` : key };
}

function fail(at: Coding, kind: SwiftDecodingErrorKind, detail: string): never {
  throw new SwiftDecodingError(kind, at.path, detail);
}

/** null where a value is required is `valueNotFound`; anything else of the wrong kind a mismatch. */
function mismatch(at: Coding, expected: string, json: unknown): never {
  if (json === null || json === undefined)
    fail(at, 'valueNotFound', `expected ${expected}, got null`);
  fail(at, 'typeMismatch', `expected ${expected}, got ${show(json)}`);
}

function isObject(json: unknown): json is Record<string, unknown> {
  return typeof json === 'object' && json !== null && !Array.isArray(json);
}

function has(object: Record<string, unknown>, key: string): boolean {
  return Object.hasOwn(object, key);
}

function primitive<T>(
  name: string,
  accepts: (json: unknown) => json is T,
  expected = name,
): SwiftType<T> {
  return {
    name,
    decode(json, at) {
      if (!accepts(json)) mismatch(at, expected, json);
      return json;
    },
    encode(value, at) {
      if (!accepts(value)) throw new SwiftEncodingError(at.path, `not a ${name}: ${show(value)}`);
      return value;
    },
  };
}

const isInteger = (json: unknown): json is number =>
  typeof json === 'number' && Number.isInteger(json);

const UUID_PATTERN = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

// `ISO8601DateFormatter` with `.withInternetDateTime`: whole seconds, `Z` or `±hh:mm`.
const ISO_DATE_PATTERN = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2}):(\d{2})(Z|[+-](\d{2}):(\d{2}))$/;

function parseIsoDate(text: string): Date | undefined {
  const match = ISO_DATE_PATTERN.exec(text);
  if (!match) return undefined;
  const [year, month, day, hour, minute, second] = match.slice(1, 7).map(Number) as number[];
  const [offsetHours, offsetMinutes] = [Number(match[8] ?? 0), Number(match[9] ?? 0)];
  const daysInMonth = new Date(Date.UTC(year!, month!, 0)).getUTCDate();
  if (month! < 1 || month! > 12 || day! < 1 || day! > daysInMonth) return undefined;
  if (hour! > 23 || minute! > 59 || second! > 59 || offsetHours > 23 || offsetMinutes > 59) {
    return undefined;
  }
  const sign = match[7]?.startsWith('-') ? -1 : 1;
  const offset = sign * (offsetHours * 60 + offsetMinutes) * 60_000;
  return new Date(Date.UTC(year!, month! - 1, day!, hour, minute, second) - offset);
}

/** `2026-11-26T10:21:19Z`: what a Swift `.iso8601` encoder writes (fraction dropped). */
export function toSwiftIsoDate(date: Date): string {
  return `${new Date(Math.floor(date.getTime() / 1000) * 1000).toISOString().slice(0, 19)}Z`;
}

export function toSwiftReferenceSeconds(date: Date): number {
  return date.getTime() / 1000 - SWIFT_REFERENCE_DATE_OFFSET;
}

export function fromSwiftReferenceSeconds(seconds: number): Date {
  return new Date((seconds + SWIFT_REFERENCE_DATE_OFFSET) * 1000);
}

function decodeFields<F extends Fields>(
  fields: F,
  json: Record<string, unknown>,
  at: Coding,
): StructValue<F> {
  const value: Record<string, unknown> = {};
  for (const [key, type] of Object.entries(fields)) {
    const here = child(at, key);
    if (!has(json, key) || json[key] === undefined) {
      if (type.optional) continue;
      fail(here, 'keyNotFound', `missing key \`${key}\` (${type.name})`);
    }
    const decoded = type.decode(json[key], here);
    if (decoded !== undefined) value[key] = decoded;
  }
  return value as StructValue<F>;
}

function encodeFields(fields: Fields, value: unknown, at: Coding): Record<string, unknown> {
  if (!isObject(value)) throw new SwiftEncodingError(at.path, `not a struct: ${show(value)}`);
  const json: Record<string, unknown> = {};
  for (const [key, type] of Object.entries(fields)) {
    const here = child(at, key);
    const field = value[key];
    if (field === undefined || field === null) {
      if (type.optional) continue; // `encodeIfPresent`: a nil optional is omitted
      throw new SwiftEncodingError(here.path, `missing non-optional ${type.name}`);
    }
    json[key] = type.encode(field, here);
  }
  return json;
}

// ---------------------------------------------------------------------------
// The descriptors

export const t = {
  /** `Int` (64-bit; JSON numbers beyond 2^53 cannot be told apart in JavaScript). */
  int: (): SwiftType<number> => primitive('Int', isInteger, 'Int (an integral number)'),

  /** `Int32`, e.g. a `pid_t`. */
  int32: (): SwiftType<number> =>
    primitive(
      'Int32',
      (json): json is number => isInteger(json) && json >= -(2 ** 31) && json < 2 ** 31,
      'Int32 (an integral number that fits 32 bits)',
    ),

  double: (): SwiftType<number> =>
    primitive('Double', (json): json is number => typeof json === 'number'),

  bool: (): SwiftType<boolean> =>
    primitive('Bool', (json): json is boolean => typeof json === 'boolean', 'Bool (true or false)'),

  string: (): SwiftType<string> =>
    primitive('String', (json): json is string => typeof json === 'string'),

  /** `UUID`: decodes either case to the upper-case `uuidString`; encodes upper case. */
  uuid: (): SwiftType<string> => ({
    name: 'UUID',
    decode(json, at) {
      if (typeof json !== 'string') mismatch(at, 'UUID (a string)', json);
      if (!UUID_PATTERN.test(json)) {
        fail(at, 'dataCorrupted', `expected a UUID string (8-4-4-4-12 hex), got ${show(json)}`);
      }
      return json.toUpperCase();
    },
    encode(value, at) {
      if (typeof value !== 'string' || !UUID_PATTERN.test(value)) {
        throw new SwiftEncodingError(at.path, `not a UUID: ${show(value)}`);
      }
      return value.toUpperCase();
    },
  }),

  /**
   * `URL`: a string `URL(string:)` accepts. Swift would also take a relative reference; this
   * model insists on an absolute URL, the only kind the apps can use (they PUT to it, open it).
   */
  url: (): SwiftType<string> => ({
    name: 'URL',
    decode(json, at) {
      if (typeof json !== 'string') mismatch(at, 'URL (a string)', json);
      if (!URL.canParse(json))
        fail(at, 'dataCorrupted', `expected an absolute URL, got ${show(json)}`);
      return json;
    },
    encode(value, at) {
      if (typeof value !== 'string' || !URL.canParse(value)) {
        throw new SwiftEncodingError(at.path, `not a URL: ${show(value)}`);
      }
      return value;
    },
  }),

  /** `Date`: see `DateStrategy`. */
  date: (): SwiftType<Date> => ({
    name: 'Date',
    decode(json, at) {
      if (at.dates === 'deferredToDate') {
        if (typeof json !== 'number') {
          mismatch(at, 'Date (a number of seconds since 2001-01-01)', json);
        }
        return fromSwiftReferenceSeconds(json);
      }
      if (typeof json !== 'string') mismatch(at, 'Date (an ISO-8601 string)', json);
      const date = parseIsoDate(json);
      if (!date) {
        fail(
          at,
          'dataCorrupted',
          `expected ISO-8601 date without fractional seconds, got ${show(json)}`,
        );
      }
      return date;
    },
    encode(value, at) {
      if (!(value instanceof Date) || Number.isNaN(value.getTime())) {
        throw new SwiftEncodingError(at.path, `not a Date: ${show(value)}`);
      }
      return at.dates === 'iso8601' ? toSwiftIsoDate(value) : toSwiftReferenceSeconds(value);
    },
  }),

  optional: <T>(wrapped: SwiftType<T>): OptionalType<T> => ({
    name: `${wrapped.name}?`,
    optional: true,
    wrapped,
    decode: (json, at) =>
      json === null || json === undefined ? undefined : wrapped.decode(json, at),
    encode: (value, at) =>
      value === undefined || value === null ? null : wrapped.encode(value, at),
  }),

  array: <T>(element: SwiftType<T>): SwiftType<T[]> => ({
    name: `[${element.name}]`,
    decode(json, at) {
      if (!Array.isArray(json)) mismatch(at, `[${element.name}] (an array)`, json);
      return json.map((item, index) => element.decode(item, child(at, index)));
    },
    encode(value, at) {
      if (!Array.isArray(value)) throw new SwiftEncodingError(at.path, `not an array`);
      return value.map((item, index) => element.encode(item, child(at, index)));
    },
  }),

  /** `Set<T>`: a JSON array in any order; repeated elements are accepted and kept once. */
  set: <T>(element: SwiftType<T>): SwiftType<T[]> => {
    const array = t.array(element);
    return {
      ...array,
      name: `Set<${element.name}>`,
      decode: (json, at) =>
        array.decode(json, at).filter((item, index, items) => items.indexOf(item) === index),
    };
  },

  /** `[String: V]`: a JSON object. */
  dict: <V>(valueType: SwiftType<V>): SwiftType<Record<string, V>> => ({
    name: `[String: ${valueType.name}]`,
    decode(json, at) {
      if (!isObject(json)) mismatch(at, `[String: ${valueType.name}] (an object)`, json);
      return Object.fromEntries(
        Object.entries(json).map(([key, item]) => [key, valueType.decode(item, child(at, key))]),
      );
    },
    encode(value, at) {
      if (!isObject(value)) throw new SwiftEncodingError(at.path, 'not a dictionary');
      return Object.fromEntries(
        Object.entries(value).map(([key, item]) => [key, valueType.encode(item, child(at, key))]),
      );
    },
  }),

  /**
   * `[K: V]` with a key that is neither `String` nor `Int` (e.g. a struct): a flat JSON array
   * alternating key, value, key, value. The TypeScript value is an array of `[key, value]`.
   */
  pairDict: <K, V>(keyType: SwiftType<K>, valueType: SwiftType<V>): SwiftType<[K, V][]> => ({
    name: `[${keyType.name}: ${valueType.name}]`,
    decode(json, at) {
      if (!Array.isArray(json)) {
        mismatch(at, `[${keyType.name}: ${valueType.name}] (a flat key, value array)`, json);
      }
      if (json.length % 2 !== 0) {
        fail(at, 'dataCorrupted', 'expected alternating keys and values, got an odd count');
      }
      const pairs: [K, V][] = [];
      for (let index = 0; index < json.length; index += 2) {
        pairs.push([
          keyType.decode(json[index], child(at, index)),
          valueType.decode(json[index + 1], child(at, index + 1)),
        ]);
      }
      return pairs;
    },
    encode(value, at) {
      if (!Array.isArray(value)) throw new SwiftEncodingError(at.path, 'not an array of pairs');
      return value.flatMap(([key, item], index) => [
        keyType.encode(key, child(at, index * 2)),
        valueType.encode(item, child(at, index * 2 + 1)),
      ]);
    },
  }),

  /** A struct with synthesized coding: a JSON object of its fields. */
  struct: <F extends Fields>(fields: F, name = 'struct'): SwiftType<StructValue<F>> => ({
    name,
    decode(json, at) {
      if (!isObject(json)) mismatch(at, `${name} (an object)`, json);
      return decodeFields(fields, json, at);
    },
    encode: (value, at) => encodeFields(fields, value, at),
  }),

  /** An enum with a `String` raw type: the raw string. */
  rawEnum: <const V extends readonly string[]>(values: V, name = 'enum'): SwiftType<V[number]> => ({
    name,
    decode(json, at) {
      if (typeof json !== 'string') mismatch(at, `${name} (a string)`, json);
      if (!values.includes(json)) {
        fail(
          at,
          'dataCorrupted',
          `cannot initialize ${name} from invalid String value ${show(json)}`,
        );
      }
      return json;
    },
    encode(value, at) {
      if (!values.includes(value))
        throw new SwiftEncodingError(at.path, `not a ${name}: ${show(value)}`);
      return value;
    },
  }),

  /**
   * An enum with associated values and synthesized coding: `{"<case>": {<labelled values>}}`,
   * `{}` for a case without values, `_0`, `_1` for unlabelled ones. Decoding counts only keys
   * that name a case (Swift's `allKeys`): exactly one must, other keys are ignored.
   */
  enumSynth: <C extends Record<string, Fields>>(
    cases: C,
    name = 'enum',
  ): SwiftType<EnumValue<C>> => ({
    name,
    decode(json, at) {
      if (!isObject(json)) mismatch(at, `${name} (an object with one case key)`, json);
      const present = Object.keys(json).filter((key) => has(cases, key));
      if (present.length !== 1) {
        const found = present.length
          ? present.join(', ')
          : `none of ${Object.keys(cases).join(', ')}`;
        fail(at, 'typeMismatch', `expected exactly one case key of ${name}, found ${found}`);
      }
      const caseName = present[0]!;
      const here = child(at, caseName);
      const values = json[caseName];
      if (!isObject(values)) mismatch(here, `the values of case ${caseName} (an object)`, values);
      return { case: caseName, ...decodeFields(cases[caseName]!, values, here) } as EnumValue<C>;
    },
    encode(value, at) {
      const caseName = isObject(value) ? value.case : undefined;
      if (typeof caseName !== 'string' || !has(cases, caseName)) {
        throw new SwiftEncodingError(at.path, `not a case of ${name}: ${show(caseName)}`);
      }
      return { [caseName]: encodeFields(cases[caseName]!, value, child(at, caseName)) };
    },
  }),

  /**
   * A hand-written coding that flattens the case into one object with a tag field
   * (`Key` and `AppScope` use `type`, GertieIOS's `BlockRule` uses `case`): the tag must be a
   * String naming a known case, then the case's fields are decoded like a struct's.
   * `check` may refuse a decoded value as the hand-written `init(from:)` does.
   */
  tagged: <const Tag extends string, C extends Record<string, Fields>>(
    tag: Tag,
    cases: C,
    options: { name?: string; check?: (value: TaggedValue<Tag, C>) => string | undefined } = {},
  ): SwiftType<TaggedValue<Tag, C>> => {
    const name = options.name ?? 'enum';
    return {
      name,
      decode(json, at) {
        if (!isObject(json)) mismatch(at, `${name} (an object)`, json);
        const tagAt = child(at, tag);
        if (!has(json, tag)) fail(tagAt, 'keyNotFound', `missing key \`${tag}\` (String)`);
        const caseName = json[tag];
        if (typeof caseName !== 'string') mismatch(tagAt, 'String', caseName);
        if (!has(cases, caseName))
          fail(tagAt, 'dataCorrupted', `unknown ${name} ${tag} ${show(caseName)}`);
        const value = {
          [tag]: caseName,
          ...decodeFields(cases[caseName]!, json, at),
        } as TaggedValue<Tag, C>;
        const problem = options.check?.(value);
        if (problem) fail(at, 'dataCorrupted', problem);
        return value;
      },
      encode(value, at) {
        const caseName = isObject(value) ? value[tag] : undefined;
        if (typeof caseName !== 'string' || !has(cases, caseName)) {
          throw new SwiftEncodingError(at.path, `not a case of ${name}: ${show(caseName)}`);
        }
        return { [tag]: caseName, ...encodeFields(cases[caseName]!, value, at) };
      },
    };
  },

  /** Any other hand-written coding. */
  custom: <T>(type: SwiftType<T>): SwiftType<T> => type,

  /** A recursive type: `t.lazy(() => BlockRule)`. */
  lazy: <T>(resolve: () => SwiftType<T>, name = 'lazy'): SwiftType<T> => ({
    name,
    decode: (json, at) => resolve().decode(json, at),
    encode: (value, at) => resolve().encode(value, at),
  }),
};

// ---------------------------------------------------------------------------
// Entry points

/** Reads `json` (already parsed) as `type`, like Swift's `JSONDecoder`; throws `SwiftDecodingError`. */
export function decodeSwift<S extends AnyType>(
  type: S,
  json: unknown,
  options: SwiftCodingOptions = {},
): Infer<S> {
  const at: Coding = { path: '', dates: options.dates ?? 'iso8601' };
  if (json === undefined) fail(at, 'dataCorrupted', 'the given data was not valid JSON (no value)');
  return type.decode(json, at) as Infer<S>;
}

/** Reads a response body text as `type`; invalid JSON fails like Swift's (`dataCorrupted`). */
export function decodeSwiftText<S extends AnyType>(
  type: S,
  text: string,
  options: SwiftCodingOptions = {},
): Infer<S> {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    throw new SwiftDecodingError(
      'dataCorrupted',
      '',
      `the given data was not valid JSON: ${show(text)}`,
    );
  }
  return decodeSwift(type, json, options);
}

/** The JSON a default `JSONEncoder` writes for `value` (reference-date seconds, upper-case UUIDs). */
export function encodeSwift<S extends AnyType>(
  type: S,
  value: Infer<S>,
  options: SwiftCodingOptions = {},
): unknown {
  return type.encode(value, { path: '', dates: options.dates ?? 'deferredToDate' });
}
