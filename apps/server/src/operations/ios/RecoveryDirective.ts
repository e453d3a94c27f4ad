import { isToldToRetry } from '../../ios/settings.ts';
import { iosResolver } from '../../pairql/resolver.ts';

// server-behaviour §5: an iPhone or iPad whose filter is in trouble asks what to do. The operator
// can tell chosen devices (IOS_RECOVERY_RETRY_VENDOR_IDS, config.ts) to `retry`; every other
// device gets no directive, `{}`.
export default iosResolver('RecoveryDirective', async (input, ctx) => {
  ctx.log.info(
    {
      op: 'RecoveryDirective',
      vendorId: input.vendorId,
      deviceType: input.deviceType,
      iosVersion: input.iOSVersion,
      appVersion: input.version,
      locale: input.locale,
    },
    'iOS recovery directive asked',
  );
  return isToldToRetry(ctx.config.iosApp, input.vendorId) ? { directive: 'retry' } : {};
});
