import { afterEach, describe, expect, test, vi } from 'vitest';
import { imageCrossOrigin } from './image-cross-origin';

afterEach(() => vi.unstubAllEnvs());

describe('imageCrossOrigin', () => {
  test.each([
    ['', 'https://api.keyward.example/screenshots/a.jpg?sig=1', undefined],
    ['https://api.keyward.example', 'https://api.keyward.example/screenshots/a.jpg', 'anonymous'],
    ['https://api.keyward.example/', 'https://bucket.s3.amazonaws.com/a.jpg?X-Amz=1', undefined],
    ['https://api.keyward.example', 'not a url', undefined],
  ])('API %j, image %j → %j', (api, url, expected) => {
    vi.stubEnv('VITE_API_ENDPOINT', api);
    expect(imageCrossOrigin(url)).toBe(expected);
  });
});
