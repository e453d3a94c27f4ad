import {
  assignedKeychains,
  decidedRequests,
  recordCheckIn,
  stablePart,
} from '../../devices/check-in.ts';
import { deviceResolver } from '../../pairql/resolver.ts';

// The check-in of Mac app versions 2.0.4 to 2.4.0 (deprecated by the app): CheckIn_v2's answer
// with the keys of every assigned keychain in one list (as the reference server answers; those
// apps know no keychain schedules) and no trusted time.
export default deviceResolver('CheckIn', async (input, ctx) => {
  const now = ctx.clock.now();
  await recordCheckIn(ctx, input);
  const { part } = await stablePart(ctx, ctx.computer.appReleaseChannel, input.appVersion, now);
  const { keychains: _keychains, userData, ...rest } = part;
  const { keychains } = await assignedKeychains(ctx.db, ctx.childId, now);
  return {
    ...rest,
    keys: keychains.flatMap((keychain) => keychain.keys),
    userData: { ...userData, token: ctx.token },
    ...(await decidedRequests(ctx, input)),
  };
});
