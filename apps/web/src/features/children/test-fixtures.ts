import type { User, UserDevice } from '@keyward/contract/shared';

// Test data for the children screens (wire shapes of packages/contract).

export const EMMA_ID = '3f9c2a7e-5b1d-4c8e-9a6f-1e2d3c4b5a69';
export const LEO_ID = '5e4d3c2b-1a09-4f8e-8d7c-6b5a49382716';

export function computerOf(overrides: Partial<UserDevice> = {}): UserDevice {
  return {
    id: 'aa11bb22-cc33-4d44-8e55-ff6677889900',
    deviceId: 'bb22cc33-dd44-4e55-8f66-007788990011',
    status: { case: 'filterOn' },
    modelFamily: 'macBookAir',
    modelTitle: 'MacBook Air (M1, 2020)',
    modelIdentifier: 'MacBookAir10,1',
    ...overrides,
  };
}

export function childOf(overrides: Partial<User> = {}): User {
  return {
    id: EMMA_ID,
    name: 'Emma',
    keyloggingEnabled: false,
    screenshotsEnabled: false,
    screenshotsResolution: 1000,
    screenshotsFrequency: 120,
    showSuspensionActivity: false,
    keychains: [],
    devices: [],
    blockedApps: [],
    createdAt: '2025-01-02T03:04:05.000Z',
    ...overrides,
  };
}

export function keychainOf(id: string, numKeys: number, name = 'School') {
  return {
    id,
    parentId: '11111111-1111-4111-8111-111111111111',
    name,
    isPublic: false,
    numKeys,
  };
}
