import { iosAppSettings } from '../../ios/settings.ts';
import { iosResolver } from '../../pairql/resolver.ts';

// server-behaviour §5: whether the app offers connecting to a parent account during onboarding. Off
// unless the operator turns it on (IOS_CONNECT_ACCOUNT_ENABLED, ios/settings.ts); the app keeps its
// own wording for the screens (every text left out).
iosAppSettings(); // a bad setting stops the start-up
export default iosResolver('ConnectAccountFeatureFlag', async () => ({
  isEnabled: iosAppSettings().connectAccountEnabled,
}));
