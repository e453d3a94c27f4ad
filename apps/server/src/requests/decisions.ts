import type { RequestStatus } from '@keyward/contract/shared';
import { badRequest } from '../pairql/errors.ts';

// Issue 19: one rule for a child's unlock and suspension requests. The first decision stands: a
// decision is a single conditional update of a pending row, inside the operation's transaction,
// so of any number of parallel decisions exactly one is stored, audited and sent to the device;
// every other one answers this error (and writes nothing). The dashboard recognises it by its tag
// and shows the request as it was decided.

export const ALREADY_DECIDED_TAG = 'requestAlreadyDecided';

export function unlockRequestAlreadyDecided(status: RequestStatus) {
  const decided = status === 'accepted' ? 'accepted' : 'denied';
  return badRequest(
    'e5b1c7a4',
    `Unlock request already ${status}`,
    `This unlock request was already ${decided}.`,
    { dashboardTag: ALREADY_DECIDED_TAG },
  );
}

export function suspensionRequestAlreadyDecided(status: RequestStatus) {
  const decided = status === 'accepted' ? 'granted' : 'denied';
  return badRequest(
    '3c9e5a71',
    `Suspension request already ${status}`,
    `This suspension request was already ${decided}.`,
    { dashboardTag: ALREADY_DECIDED_TAG },
  );
}
