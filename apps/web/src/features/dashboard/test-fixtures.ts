import type { DashboardWidgetsOutput } from '@keyward/contract/shared';

// DashboardWidgets answers for the home page tests (wire shapes of packages/contract).

export const SAM_ID = '3f9c2a7e-5b1d-4c8e-9a6f-1e2d3c4b5a69';
export const KIM_ID = '5e4d3c2b-1a09-4f8e-8d7c-6b5a49382716';

export const minutesAgo = (minutes: number) =>
  new Date(Date.now() - minutes * 60_000).toISOString();

export function requestOf(n: number, minutes: number, childId = SAM_ID, childName = 'Sam') {
  return {
    id: `a0000000-0000-4000-8000-00000000000${n}`,
    childId,
    childName,
    target: `site${n}.example.com`,
    comment: n === 1 ? 'for homework' : undefined,
    createdAt: minutesAgo(minutes),
  };
}

export function widgetsOf(overrides: Partial<DashboardWidgetsOutput> = {}): DashboardWidgetsOutput {
  return {
    children: [
      { id: SAM_ID, name: 'Sam', status: { case: 'filterOn' }, numDevices: 2 },
      { id: KIM_ID, name: 'Kim', status: { case: 'offline' }, numDevices: 1 },
    ],
    childActivitySummaries: [
      { id: SAM_ID, name: 'Sam', numUnreviewed: 12, numReviewed: 3 },
      { id: KIM_ID, name: 'Kim', numUnreviewed: 0, numReviewed: 8 },
    ],
    unlockRequests: [],
    recentScreenshots: [
      {
        id: 'c0000000-0000-4000-8000-000000000001',
        childName: 'Sam',
        url: '/screenshots/demo/sam.jpg?expires=1&signature=x',
        createdAt: minutesAgo(5),
      },
    ],
    numParentNotifications: 1,
    ...overrides,
  };
}
