import type { AdminKeychain, Key, KeychainSummary } from '@keyward/contract/shared';

// Test data for the keychain screens (wire shapes of packages/contract).

export const PARENT_ID = '11111111-1111-4111-8111-111111111111';
export const OTHER_PARENT_ID = '99999999-9999-4999-8999-999999999999';
export const SCHOOL_ID = '0b8e6d4c-2a19-4f7e-8d6c-5b4a39281706';
export const GAMES_ID = '7a6b5c4d-3e2f-4a1b-9c8d-7e6f5a4b3c2d';
export const EMMA_ID = '3f9c2a7e-5b1d-4c8e-9a6f-1e2d3c4b5a69';
export const LEO_ID = '5e4d3c2b-1a09-4f8e-8d7c-6b5a49382716';

export function summaryOf(overrides: Partial<KeychainSummary> = {}): KeychainSummary {
  return {
    id: SCHOOL_ID,
    parentId: PARENT_ID,
    name: 'School',
    isPublic: false,
    numKeys: 0,
    ...overrides,
  };
}

export function adminKeychainOf(
  summary: Partial<KeychainSummary>,
  children: string[] = [],
  keys: Key[] = [],
): AdminKeychain {
  return { summary: summaryOf({ numKeys: keys.length, ...summary }), children, keys };
}

export function keyOf(overrides: Partial<Key> = {}): Key {
  return {
    id: 'c0ffee00-1111-4222-8333-444455556666',
    keychainId: SCHOOL_ID,
    key: { type: 'anySubdomain', domain: 'khanacademy.org', scope: { type: 'webBrowsers' } },
    ...overrides,
  };
}
