import { iosResolver } from '../../pairql/resolver.ts';

// server-behaviour §5: whether the app offers connecting to a parent account during onboarding. Off
// unless the operator turns it on (IOS_CONNECT_ACCOUNT_ENABLED, config.ts); the app keeps its
// own wording for the screens (every text left out).
export default iosResolver('ConnectAccountFeatureFlag', async (_input, ctx) => ({
  isEnabled: ctx.config.iosApp.connectAccountEnabled,
}));
