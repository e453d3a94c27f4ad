import type { GetIOSDeviceOutput } from '@keyward/contract/shared';

export const DEVICE_ID = '6a1f0c2e-3b4d-4e5f-8a9b-0c1d2e3f4a5b';
export const CHILD_ID = '7b2e1d3f-4c5e-4f60-9b8a-1d2e3f4a5b6c';
export const ADS = 'a0000000-0000-4000-8000-000000000001';
export const GAMES = 'a0000000-0000-4000-8000-000000000002';
export const SOCIAL = 'a0000000-0000-4000-8000-000000000003';
export const RULE_ID = 'c3d4e5f6-0718-4293-a4b5-c6d7e8f90a1b';
export const REQUEST_ID = 'd4e5f607-1829-43a4-b5c6-d7e8f90a1b2c';

export function deviceOf(overrides: Partial<GetIOSDeviceOutput> = {}): GetIOSDeviceOutput {
  return {
    childName: 'Lily',
    deviceType: 'iPad',
    osVersion: '17.5',
    allBlockGroups: [
      { id: ADS, name: 'Ads and trackers' },
      { id: GAMES, name: 'Games' },
      { id: SOCIAL, name: 'Social media' },
    ],
    enabledBlockGroups: [ADS, GAMES, SOCIAL],
    webPolicy: 'blockAll',
    webPolicyDomains: [],
    customBlockRules: [],
    childId: CHILD_ID,
    pendingSuspensionRequests: [],
    ...overrides,
  };
}
