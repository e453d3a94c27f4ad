import { fromServerToAppMessage, ServerToAppMessage } from '@keyward/contract/device';
import { macPushFromServer } from '@keyward/contract/swift-apps';
import { decodeSwift, SwiftDecodingError } from '@keyward/contract/swift-codable';
import { CONNECTION_REMOVED_MESSAGE, DeviceApiError, describeApiError } from '../api.ts';
import { parseInteger } from '../args.ts';
import { type Channel, channelUrl, openChannel, reconnectDelayMs } from '../channel.ts';
import { formatFilterState, formatPush } from '../format.ts';
import { type CommandContext, EXIT, type ExitCode } from '../io.ts';
import { recordSuspensionDecision, recordUnlockDecision } from '../requests.ts';
import { checkInNow, loadConnected, updateState } from './shared.ts';

const DEFAULT_HEARTBEAT_SECONDS = 90;

export async function online(ctx: CommandContext): Promise<ExitCode> {
  const heartbeatArg = ctx.parsed.values['heartbeat-seconds'];
  const heartbeatSeconds =
    heartbeatArg === undefined
      ? DEFAULT_HEARTBEAT_SECONDS
      : parseInteger('--heartbeat-seconds', heartbeatArg, 1);
  const connected = await loadConnected(ctx);

  // Like the app at launch: check in first, so later changes are told against fresh settings.
  try {
    // decisions taken while this Mac was offline
    const { decisions } = await checkInNow(ctx, connected);
    for (const line of decisions) ctx.print(line);
  } catch (error) {
    if (error instanceof DeviceApiError && error.isConnectionRemoved) {
      ctx.printError(CONNECTION_REMOVED_MESSAGE);
      return EXIT.connectionRemoved;
    }
    throw error;
  }

  // Pushes are handled one at a time, in arrival order.
  let handling = Promise.resolve();
  let isRemoved = false;
  let isStopped = false;
  let channel: Channel | undefined;
  let wakeUp = () => {};

  async function handlePush(text: string): Promise<void> {
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch {
      ctx.printError(`push (not JSON): ${text}`);
      return;
    }
    ctx.print(formatPush(json));
    // read as the app reads it: a message the app cannot decode is dropped, as the app drops it
    try {
      decodeSwift(macPushFromServer, json);
    } catch (error) {
      if (!(error instanceof SwiftDecodingError)) throw error;
      ctx.printError(`  (the app could not decode this message: ${error.message})`);
      return;
    }
    const message = ServerToAppMessage.safeParse(json);
    if (!message.success) {
      ctx.printError('  (not a push message of the contract)');
      return;
    }
    const pushed = fromServerToAppMessage(message.data);
    if (
      pushed.case === 'unlockRequestUpdated_v2' ||
      pushed.case === 'filterSuspensionRequestDecided_v2'
    ) {
      let line: string | undefined;
      await updateState(ctx, connected, (current) => {
        line =
          pushed.case === 'unlockRequestUpdated_v2'
            ? recordUnlockDecision(current, pushed)
            : recordSuspensionDecision(current, pushed);
      });
      if (line) ctx.print(line);
      return;
    }
    if (pushed.case !== 'userUpdated') return;
    await checkInAndPrint('nothing changed');
  }

  /** Checks in and prints what changed; a removed connection ends the channel. */
  async function checkInAndPrint(whenNothing: string | undefined): Promise<void> {
    try {
      const { changes, decisions } = await checkInNow(ctx, connected);
      if (changes.length === 0 && decisions.length === 0 && whenNothing) {
        ctx.print(`checked in: ${whenNothing}`);
      }
      for (const change of changes) ctx.print(change);
      for (const line of decisions) ctx.print(line);
    } catch (error) {
      if (!(error instanceof DeviceApiError)) throw error;
      if (error.isConnectionRemoved) {
        isRemoved = true;
        channel?.stop();
      } else {
        ctx.printError(`check-in failed: ${describeApiError(error)}`);
      }
    }
  }

  const stop = () => {
    isStopped = true;
    wakeUp();
    channel?.send({ case: 'goingOffline' });
    channel?.stop();
  };
  ctx.signal?.addEventListener('abort', stop, { once: true });
  if (ctx.signal?.aborted) stop();

  // Like the app: when the channel drops (the server restarting closes it with 1012, or the
  // network fails), wait and open it again, longer after each failed try; once open again, check
  // in to catch up on what changed meanwhile.
  let failedTries = 0;
  let hasBeenOnline = false;
  let exit: ExitCode | undefined;
  while (exit === undefined) {
    const current = openChannel({
      serverUrl: connected.serverUrl,
      token: connected.state.token,
      onText(text) {
        handling = handling.then(() => handlePush(text));
      },
    });
    channel = current;
    if (isStopped) current.stop();

    let heartbeat: NodeJS.Timeout | undefined;
    if (await current.opened) {
      failedTries = 0;
      if (hasBeenOnline) {
        handling = handling.then(() => checkInAndPrint(undefined));
        await handling.catch(() => {});
      }
      if (isRemoved) current.stop();
      const remembered = connected.state.filterState;
      // like the app once connected: its filter state (a ping stands for a heartbeat)
      if (remembered) current.send({ case: 'currentFilterState_v2', state: remembered });
      else current.ping();
      ctx.print(
        `${hasBeenOnline ? 'reconnected' : 'online'}: ${channelUrl(connected.serverUrl)}${remembered ? ` (${formatFilterState(remembered)})` : ''}`,
      );
      hasBeenOnline = true;
      // the app pings every 90 s; the server counts a ping as a sign of life
      heartbeat = setInterval(() => current.ping(), heartbeatSeconds * 1000);
    }

    const end = await current.ended;
    clearInterval(heartbeat);
    await handling.catch((error: unknown) => {
      ctx.printError(
        `push handling failed: ${error instanceof Error ? error.message : String(error)}`,
      );
    });
    handling = Promise.resolve();

    if (end.reason === 'connectionRemoved' || isRemoved) {
      ctx.printError(CONNECTION_REMOVED_MESSAGE);
      exit = EXIT.connectionRemoved;
    } else if (end.reason === 'stopped' || isStopped) {
      ctx.print('offline: sent goingOffline');
      exit = EXIT.ok;
    } else {
      const delay = reconnectDelayMs(failedTries);
      failedTries += 1;
      ctx.printError(
        `Push channel ended: ${end.detail}; reconnecting in ${(delay / 1000).toFixed(1)} s`,
      );
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, delay);
        wakeUp = () => {
          clearTimeout(timer);
          resolve();
        };
      });
      wakeUp = () => {};
      if (isStopped) {
        ctx.print('offline: stopped while reconnecting');
        exit = EXIT.ok;
      }
    }
  }
  ctx.signal?.removeEventListener('abort', stop);
  return exit;
}
