import type { RequestContext } from '../pairql/context.ts';
import { RATE_LIMITS } from '../pairql/rate-limit.ts';

// Issue 19: a child's device cannot flood the parents or fill the database. Every device write that
// reaches a parent (requests, security events) and the activity volume (screenshots, typed lines)
// is budgeted per device and per child (numbers in pairql/rate-limit.ts); over budget is the
// contract's 429 (tooManyRequests), the error body the Mac and iOS apps already read.

const BUDGETS = {
  unlockRequests: [RATE_LIMITS.unlockRequestsPerDevice, RATE_LIMITS.unlockRequestsPerChild],
  suspensionRequests: [
    RATE_LIMITS.suspensionRequestsPerDevice,
    RATE_LIMITS.suspensionRequestsPerChild,
  ],
  securityEvents: [RATE_LIMITS.securityEventsPerDevice, RATE_LIMITS.securityEventsPerChild],
  screenshots: [RATE_LIMITS.screenshotsPerDevice, RATE_LIMITS.screenshotsPerChild],
  keystrokeLines: [RATE_LIMITS.keystrokeLinesPerDevice, RATE_LIMITS.keystrokeLinesPerChild],
  keystrokeCharacters: [
    RATE_LIMITS.keystrokeCharactersPerDevice,
    RATE_LIMITS.keystrokeCharactersPerChild,
  ],
  browserCheckIns: [RATE_LIMITS.browserCheckInsPerDevice, RATE_LIMITS.browserCheckInsPerChild],
} as const;

export type DeviceWrite = keyof typeof BUDGETS;

/**
 * Takes `cost` units (one call, or the number of typed lines) from the device's and then the
 * child's budget; throws the contract's 429 when either is spent. The device is checked first, so
 * a flooding device spends at most its own budget of its child's.
 */
export async function takeDeviceWriteBudget(
  ctx: Pick<RequestContext, 'services'>,
  write: DeviceWrite,
  owner: { deviceId: string; childId: string },
  cost = 1,
): Promise<void> {
  const [perDevice, perChild] = BUDGETS[write];
  const { rateLimit } = ctx.services;
  await rateLimit.consume(
    `device-writes:${write}:device:${owner.deviceId}`,
    perDevice.limit,
    perDevice.windowSeconds,
    cost,
  );
  await rateLimit.consume(
    `device-writes:${write}:child:${owner.childId}`,
    perChild.limit,
    perChild.windowSeconds,
    cost,
  );
}
