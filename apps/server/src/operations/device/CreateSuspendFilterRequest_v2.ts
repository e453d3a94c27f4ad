import { deviceResolver } from '../../pairql/resolver.ts';
import { askForSuspension } from '../../requests/suspension-request.ts';

// server-behaviour §4.3: the Mac asks for its filter to be suspended (requests/suspension-request.ts,
// shared by every kind of device).
export default deviceResolver('CreateSuspendFilterRequest_v2', (input, ctx) =>
  askForSuspension(
    ctx,
    { kind: 'mac', deviceId: ctx.computerUserId, childId: ctx.childId, parentId: ctx.parentId },
    input,
  ),
);
