import type { UnlockRequest } from '@keyward/contract/shared';

// Test data for the unlock-request screens (wire shapes of packages/contract).

export const PARENT_ID = '11111111-1111-4111-8111-111111111111';
export const EMMA_ID = '3f9c2a7e-5b1d-4c8e-9a6f-1e2d3c4b5a69';
export const LEO_ID = '5e4d3c2b-1a09-4f8e-8d7c-6b5a49382716';
export const REQUEST_ID = '8d7f3a52-4c5e-4d8e-9a3b-2f1e0c9d8b7a';
export const SCHOOL_ID = '0b8e6d4c-2a19-4f7e-8d6c-5b4a39281706';
export const NOW = new Date('2025-06-01T12:00:00.000Z');

export function unlockRequestOf(overrides: Partial<UnlockRequest> = {}): UnlockRequest {
  return {
    id: REQUEST_ID,
    userId: EMMA_ID,
    userName: 'Emma',
    status: 'pending',
    url: 'https://www.khanacademy.org/math',
    domain: 'www.khanacademy.org',
    requestComment: 'For my homework',
    appName: 'Safari',
    appSlug: 'safari',
    appBundleId: 'com.apple.Safari',
    appCategories: ['browser'],
    createdAt: '2025-06-01T11:55:00.000Z',
    ...overrides,
  };
}
