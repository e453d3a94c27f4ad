import type { UserActivityItem } from '@keyward/contract/shared';

type Screenshot = Extract<UserActivityItem, { case: 'screenshot' }>;
type KeystrokeLine = Extract<UserActivityItem, { case: 'keystrokeLine' }>;

export function screenshotItem(id: string, overrides: Partial<Screenshot> = {}): Screenshot {
  return {
    case: 'screenshot',
    id,
    ids: [id],
    url: `https://files.example/${id}.jpg?signature=x`,
    width: 1600,
    height: 1000,
    duringSuspension: false,
    flagged: false,
    createdAt: '2026-11-23T10:00:00.000Z',
    ...overrides,
  };
}

export function lineItem(id: string, overrides: Partial<KeystrokeLine> = {}): KeystrokeLine {
  return {
    case: 'keystrokeLine',
    id,
    ids: [id],
    appName: 'Safari',
    line: `typed ${id}`,
    duringSuspension: false,
    flagged: false,
    createdAt: '2026-11-23T10:00:00.000Z',
    ...overrides,
  };
}
