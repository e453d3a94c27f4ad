import { deviceResolver } from '../../pairql/resolver.ts';

// The app's clock check: seconds since 1970, as a number (the app reads a Swift Double).
export default deviceResolver(
  'TrustedTime',
  async (_input, ctx) => ctx.clock.now().getTime() / 1000,
);
