import { apiEndpoint } from './api/client';

/**
 * Issue 31: an image served by Keyward's own API from another origin than the dashboard's is
 * asked for in CORS mode, so the browser names the page's Origin (whatever the referrer policy)
 * and the API answers it back. Images from elsewhere (an S3 bucket's signed URLs) stay plain: a
 * bucket need not answer CORS. Same origin: nothing to ask.
 */
export function imageCrossOrigin(url: string): 'anonymous' | undefined {
  const api = apiEndpoint();
  if (!api) return undefined;
  try {
    return new URL(url).origin === new URL(api).origin ? 'anonymous' : undefined;
  } catch {
    return undefined;
  }
}
