import { notAvailableYet } from '../../pairql/errors.ts';
import { iosResolver } from '../../pairql/resolver.ts';

// server-behaviour §5: like the Mac's CreateSignedScreenshotUpload, keyed by the iOS device.
// Until screenshot storage exists this is a clean refusal.
export default iosResolver('ScreenshotUploadUrl', async () => {
  throw notAvailableYet('c2b8e6f1', 'Screenshot upload for iOS devices');
});
