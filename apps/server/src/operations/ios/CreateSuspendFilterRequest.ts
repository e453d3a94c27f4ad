import { iosResolver } from '../../pairql/resolver.ts';
import { askForSuspension } from '../../requests/suspension-request.ts';

// server-behaviour §5: the iPhone or iPad asks for its filter to be suspended
// (requests/suspension-request.ts, shared by every kind of device).
export default iosResolver('CreateSuspendFilterRequest', (input, ctx) =>
  askForSuspension(
    ctx,
    { kind: 'ios', deviceId: ctx.deviceId, childId: ctx.childId, parentId: ctx.parentId },
    input,
  ),
);
