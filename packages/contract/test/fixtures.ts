// Realistic wire values shared by the contract tests.

import type {
  ActivityFeed,
  Device,
  Key,
  KeychainSummary,
  PlainTimeWindow,
  RuleSchedule,
  SharedKey,
  UnlockRequest,
  User,
} from '../src/shared.ts';

export const ids = {
  admin: '0b6f1f3e-5a3c-4d1e-9f0a-1c2d3e4f5a6b',
  token: '7c9e6679-7425-40de-944b-e07fc1f90ae7',
  child: '3f2a0c7e-1b2c-4d3e-8f40-5a6b7c8d9e0f',
  child2: 'a1b2c3d4-e5f6-4a7b-8c9d-0e1f2a3b4c5d',
  mac: '9d4c2b1a-0f9e-4d8c-b7a6-5f4e3d2c1b0a',
  computerUser: '5e6f7a8b-9c0d-4e1f-a2b3-c4d5e6f7a8b9',
  keychain: '2c3d4e5f-6a7b-4c8d-9e0f-1a2b3c4d5e6f',
  key: '8a9b0c1d-2e3f-4a5b-8c7d-9e0f1a2b3c4d',
  method: '4d5e6f7a-8b9c-4d0e-8f1a-2b3c4d5e6f7a',
  notification: '6f7a8b9c-0d1e-4f2a-b3c4-d5e6f7a8b9c0',
  unlock: 'c4d5e6f7-a8b9-4c0d-9e1f-2a3b4c5d6e7f',
  suspension: 'e6f7a8b9-c0d1-4e2f-83a4-b5c6d7e8f9a0',
  screenshot: 'f7a8b9c0-d1e2-4f3a-94b5-c6d7e8f9a0b1',
  keystroke: 'b9c0d1e2-f3a4-4b5c-a6d7-e8f9a0b1c2d3',
  ios: 'd1e2f3a4-b5c6-4d7e-88f9-a0b1c2d3e4f5',
  blockGroup: 'e2f3a4b5-c6d7-4e8f-99a0-b1c2d3e4f5a6',
  rule: 'f3a4b5c6-d7e8-4f9a-a0b1-c2d3e4f5a6b7',
  app: 'a4b5c6d7-e8f9-4a0b-b1c2-d3e4f5a6b7c8',
  announcement: 'b5c6d7e8-f9a0-4b1c-82d3-e4f5a6b7c8d9',
  event: 'c6d7e8f9-a0b1-4c2d-93e4-f5a6b7c8d9e0',
} as const;

export const at = '2024-03-06T05:00:00.000Z';

export const schedule: RuleSchedule = {
  mode: 'active',
  days: {
    sunday: true,
    monday: true,
    tuesday: true,
    wednesday: true,
    thursday: true,
    friday: true,
    saturday: true,
  },
  window: { start: { hour: 7, minute: 0 }, end: { hour: 17, minute: 0 } },
};

export const downtime: PlainTimeWindow = {
  start: { hour: 21, minute: 0 },
  end: { hour: 5, minute: 0 },
};

export const sharedKey: SharedKey = {
  type: 'domain',
  domain: 'khanacademy.org',
  scope: { type: 'single', single: { type: 'bundleId', bundleId: 'com.google.Chrome' } },
};

export const keychainSummary: KeychainSummary = {
  id: ids.keychain,
  parentId: ids.admin,
  name: 'Homework',
  description: 'Sites for school',
  isPublic: false,
  numKeys: 3,
};

export const key: Key = {
  id: ids.key,
  keychainId: ids.keychain,
  comment: 'math homework',
  expiration: at,
  key: sharedKey,
};

export const device: Device = {
  id: ids.mac,
  name: 'Study Mac',
  releaseChannel: 'stable',
  users: [{ id: ids.child, name: 'Lily', status: { case: 'filterOn' } }],
  appVersion: '2.7.1',
  serialNumber: 'C02XL0GJJGH5',
  modelIdentifier: 'MacBookPro16,1',
  modelFamily: 'macBookPro',
  modelTitle: '16" MacBook Pro (2019)',
};

export const user: User = {
  id: ids.child,
  name: 'Lily',
  keyloggingEnabled: true,
  screenshotsEnabled: true,
  screenshotsResolution: 1000,
  screenshotsFrequency: 120,
  showSuspensionActivity: false,
  keychains: [
    {
      id: ids.keychain,
      parentId: ids.admin,
      name: 'Homework',
      isPublic: false,
      numKeys: 3,
      schedule,
    },
  ],
  downtime,
  devices: [
    {
      id: ids.computerUser,
      deviceId: ids.mac,
      status: { case: 'downtime', ending: '2024-03-06T12:00:00Z' },
      modelFamily: 'macBookAir',
      modelTitle: 'MacBook Air (M2, 2022)',
      modelIdentifier: 'Mac14,2',
    },
  ],
  blockedApps: [{ id: ids.app, identifier: 'com.valvesoftware.steam', schedule }],
  createdAt: at,
};

export const unlockRequest: UnlockRequest = {
  id: ids.unlock,
  userId: ids.child,
  userName: 'Lily',
  status: 'pending',
  url: 'https://www.khanacademy.org/math',
  domain: 'khanacademy.org',
  requestComment: 'for homework',
  appName: 'Safari',
  appSlug: 'safari',
  appBundleId: 'com.apple.Safari',
  appCategories: ['browser'],
  createdAt: at,
};

export const activityFeed: ActivityFeed = {
  userName: 'Lily',
  showSuspensionActivity: true,
  numDeleted: 4,
  items: [
    {
      case: 'screenshot',
      id: ids.screenshot,
      ids: [ids.screenshot],
      url: 'https://files.example.com/s/1.png',
      width: 1000,
      height: 625,
      duringSuspension: false,
      flagged: false,
      createdAt: at,
    },
    {
      case: 'keystrokeLine',
      id: ids.keystroke,
      ids: [ids.keystroke],
      appName: 'Notes',
      line: 'hello world',
      duringSuspension: true,
      flagged: true,
      createdAt: at,
    },
  ],
};

export const success = { success: true };
export const login = { adminId: ids.admin, token: ids.token };
