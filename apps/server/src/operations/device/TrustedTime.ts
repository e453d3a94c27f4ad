import { deviceResolver } from '../../pairql/resolver.ts';

export default deviceResolver('TrustedTime', async (_input, ctx) => ctx.clock.now().toISOString());
