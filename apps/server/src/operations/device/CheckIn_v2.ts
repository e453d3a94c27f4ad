import type { CheckInOutput } from '@keyward/contract/device';
import { decidedRequests, recordCheckIn, stablePart } from '../../devices/check-in.ts';
import { serverError } from '../../pairql/errors.ts';
import { JsonText, readCacheOf } from '../../pairql/read-cache.ts';
import { deviceResolver } from '../../pairql/resolver.ts';

// server-behaviour §4.2: the Mac's periodic check-in (every 20 minutes, and on `userUpdated`).

export default deviceResolver('CheckIn_v2', async (input, ctx) => {
  const now = ctx.clock.now();
  // the computer user, its computer and the data versions were read with the token (router), before
  // any of the answer's data, so a kept part is never older than the version it is kept for
  const { computer } = ctx;
  await recordCheckIn(ctx, input);

  // issue 11: everything but the token, the trusted time and the decided requests is the same for
  // every check-in of this child's Mac, channel and app version until the family's data (or the releases)
  // change or a key expires: it is kept serialized in the read cache (pairql/read-cache.ts)
  const channel = computer.appReleaseChannel;
  const cache = readCacheOf(ctx.db);
  // (a re-pointed Mac's old token still speaks for the old child during its grace period)
  const key = `CheckIn_v2\n${ctx.childId}\n${ctx.computerUserId}\n${channel}\n${input.appVersion}`;
  const version =
    computer.familyVersion === undefined || computer.sharedVersion === undefined
      ? undefined
      : `${computer.familyVersion}/${computer.sharedVersion}`;
  const hit = version === undefined ? undefined : cache.get(key, version, now.getTime());
  let stableJson: string;
  let entry = hit;
  if (hit) {
    stableJson = hit.json;
    if (ctx.config.readCacheVerify) {
      const fresh = JSON.stringify((await stablePart(ctx, channel, input.appVersion, now)).part);
      if (fresh !== stableJson) {
        ctx.log.error(
          { op: 'CheckIn_v2', childId: ctx.childId },
          'read cache: the cached answer differs from the recomputed one',
        );
        throw serverError('0c8e5b31', 'Read cache of CheckIn_v2 holds a stale answer');
      }
    }
  } else {
    const { part, validUntil } = await stablePart(ctx, channel, input.appVersion, now);
    stableJson = JSON.stringify(part);
    if (version !== undefined && validUntil > now.getTime()) {
      entry = cache.set(key, { version, builtAt: now.getTime(), validUntil, json: stableJson });
    }
  }

  const perRequest = { trustedTime: now.getTime() / 1000, ...(await decidedRequests(ctx, input)) };
  // the kept part ends with `userData`: its two closing braces give way to the token, then to the
  // per-request fields
  const suffix = `,"token":${JSON.stringify(ctx.token)}},${JSON.stringify(perRequest).slice(1)}`;
  const answer = entry
    ? JsonText.extending(entry, suffix, 2)
    : JsonText.of(`${stableJson.slice(0, -2)}${suffix}`);
  return answer as unknown as CheckInOutput;
});
