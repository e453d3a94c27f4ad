import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  AppScope,
  BlockRule,
  ChildComputerStatus,
  inputArray,
  inputObject,
  IsoDate,
  optionalInput,
  SharedKey,
  UserActivityItem,
  Uuid,
} from '../src/shared.ts';
import { activityFeed, ids } from './fixtures.ts';

describe('Uuid', () => {
  it('accepts either letter case and parses to lowercase', () => {
    expect(Uuid.parse('3F2A0C7E-1B2C-4D3E-8F40-5A6B7C8D9E0F')).toBe(ids.child);
    expect(Uuid.parse('3f2a0c7e-1B2C-4d3e-8F40-5a6b7c8d9e0f')).toBe(ids.child);
    expect(Uuid.parse(ids.child)).toBe(ids.child);
  });

  it.each([
    ['empty', ''],
    ['no dashes', '3f2a0c7e1b2c4d3e8f405a6b7c8d9e0f'],
    ['braces', `{${ids.child}}`],
    ['non-hex', '3f2a0c7e-1b2c-4d3e-8f40-5a6b7c8d9e0g'],
    ['too long', `${ids.child}0`],
    ['surrounding space', ` ${ids.child}`],
    ['number', 42],
  ])('rejects %s', (_, value) => {
    expect(Uuid.safeParse(value).success).toBe(false);
  });
});

describe('IsoDate', () => {
  it.each([
    '2024-03-06T05:00:00.000Z',
    '2024-03-06T05:00:00Z',
    '2024-03-06T05:00:00.5Z',
    '2024-03-06T23:59:59.999Z',
  ])('accepts %s', (value) => {
    expect(IsoDate.parse(value)).toBe(value);
  });

  it.each([
    '2024-03-06',
    '2024-03-06T05:00Z',
    '2024-03-06T05:00:00',
    '2024-03-06T05:00:00+01:00',
    '2024-13-06T05:00:00Z',
    'yesterday',
  ])('rejects %s', (value) => {
    expect(IsoDate.safeParse(value).success).toBe(false);
  });
});

describe('optionalInput / inputObject', () => {
  const Schema = inputObject({ a: optionalInput(z.string()), b: z.number() });

  it('parses { a: null } as if a were absent', () => {
    expect(Schema.parse({ a: null, b: 1 })).toStrictEqual({ b: 1 });
    expect(inputObject({ a: optionalInput(z.string()) }).parse({ a: null })).toStrictEqual({});
  });

  it('keeps present values and still validates them', () => {
    expect(Schema.parse({ a: 'x', b: 1 })).toStrictEqual({ a: 'x', b: 1 });
    expect(Schema.safeParse({ a: 3, b: 1 }).success).toBe(false);
    expect(Schema.safeParse({ a: 'x', b: null }).success).toBe(false);
  });

  it('caps input arrays at 1000 items', () => {
    const Ids = inputArray(z.number());
    expect(Ids.safeParse(Array.from({ length: 1000 }, (_, i) => i)).success).toBe(true);
    expect(Ids.safeParse(Array.from({ length: 1001 }, (_, i) => i)).success).toBe(false);
  });
});

describe('tagged unions are flat', () => {
  it('parses AppScope single with the payload nested under "single"', () => {
    const scope = { type: 'single', single: { type: 'bundleId', bundleId: 'com.example.app' } };
    expect(AppScope.parse(scope)).toEqual(scope);
    expect(AppScope.parse({ type: 'webBrowsers' })).toEqual({ type: 'webBrowsers' });
    expect(AppScope.safeParse({ webBrowsers: {} }).success).toBe(false);
    expect(AppScope.safeParse({ type: 'single', bundleId: 'com.example.app' }).success).toBe(false);
  });

  it('uses the member-specific payload key of SharedKey', () => {
    const scope = { type: 'unrestricted' };
    expect(SharedKey.safeParse({ type: 'ipAddress', ipAddress: '1.2.3.4', scope }).success).toBe(
      true,
    );
    expect(SharedKey.safeParse({ type: 'path', path: 'x.com/a', scope }).success).toBe(true);
    expect(SharedKey.safeParse({ type: 'domainRegex', pattern: 'x.*', scope }).success).toBe(true);
    expect(SharedKey.safeParse({ type: 'ipAddress', domain: '1.2.3.4', scope }).success).toBe(
      false,
    );
    expect(SharedKey.safeParse({ type: 'path', path: 'x', scope: undefined }).success).toBe(false);
  });

  it('keeps payload-less status members as objects and rejects wrapped ones', () => {
    expect(ChildComputerStatus.parse({ case: 'filterOn' })).toEqual({ case: 'filterOn' });
    expect(ChildComputerStatus.parse({ case: 'downtimePaused' })).toEqual({
      case: 'downtimePaused',
    });
    expect(ChildComputerStatus.safeParse('filterOn').success).toBe(false);
    expect(ChildComputerStatus.safeParse({ filterOn: {} }).success).toBe(false);
    expect(
      ChildComputerStatus.safeParse({ filterSuspended: { resuming: '2024-03-06T05:00:00Z' } })
        .success,
    ).toBe(false);
  });

  it('parses a deeply nested BlockRule and rejects an invalid leaf', () => {
    const leaf = { case: 'hostnameContains', value: 'game' };
    let rule: unknown = leaf;
    for (let depth = 0; depth < 20; depth++) {
      rule = { case: 'unless', rule: { case: 'both', a: rule, b: leaf }, negatedBy: [leaf] };
    }
    expect(BlockRule.safeParse(rule).success).toBe(true);
    const broken = { case: 'both', a: leaf, b: { case: 'unless', rule: leaf, negatedBy: [{}] } };
    expect(BlockRule.safeParse(broken).success).toBe(false);
    expect(BlockRule.safeParse({ case: 'unless', rule: leaf }).success).toBe(false);
  });

  it('rejects null where only an optional key is allowed in outputs', () => {
    const item = activityFeed.items[0];
    expect(UserActivityItem.safeParse({ ...item, deletedAt: null }).success).toBe(false);
    expect(UserActivityItem.safeParse({ ...item, deletedAt: '2024-03-07T05:00:00Z' }).success).toBe(
      true,
    );
  });
});
