import { toAppToServerMessage } from '@keyward/contract/device';
import { createDeviceClient } from '../api.ts';
import { type ParsedArgs, parseConnectionCode, parseInteger, serverUrlOf } from '../args.ts';
import { formatUserData, settingsOf } from '../format.ts';
import { type CommandContext, EXIT, type ExitCode } from '../io.ts';
import {
  DEFAULT_MAC_FACTS,
  type DeviceState,
  generateSerialNumber,
  loadState,
  type MacFacts,
  saveState,
} from '../state.ts';

/** Flags win over what this Mac used before, which wins over the defaults. */
export function macFactsOf(parsed: ParsedArgs, previous: MacFacts | undefined): MacFacts {
  const base = previous ?? DEFAULT_MAC_FACTS;
  const { values } = parsed;
  return {
    appVersion: values['app-version'] ?? base.appVersion,
    modelIdentifier: values.model ?? base.modelIdentifier,
    username: values.username ?? base.username,
    fullUsername: values['full-username'] ?? base.fullUsername,
    numericId:
      values['numeric-id'] !== undefined
        ? parseInteger('--numeric-id', values['numeric-id'], 0)
        : base.numericId,
    osVersion: values['os-version'] ?? base.osVersion,
    isAdmin: parsed.flags.has('admin') ? true : base.isAdmin,
  };
}

export async function connect(ctx: CommandContext): Promise<ExitCode> {
  const code = parseConnectionCode(ctx.parsed.args[0]);
  const previous = await loadState(ctx.stateFile);
  const facts = macFactsOf(ctx.parsed, previous?.facts);
  const serialNumber = ctx.parsed.values.serial ?? previous?.serialNumber ?? generateSerialNumber();
  const serverUrl = serverUrlOf(ctx.parsed, ctx.env, previous?.serverUrl);

  const api = createDeviceClient({ serverUrl, signal: ctx.signal });
  const output = await api.call('ConnectUser', {
    verificationCode: code,
    appVersion: facts.appVersion,
    modelIdentifier: facts.modelIdentifier,
    username: facts.username,
    fullUsername: facts.fullUsername,
    numericId: facts.numericId,
    serialNumber,
    osVersion: facts.osVersion,
    isAdmin: facts.isAdmin,
  });

  const { token, deviceId, connectedAt, ...userData } = output;
  const state: DeviceState = {
    serialNumber,
    facts,
    serverUrl,
    token,
    computerUserId: deviceId,
    childId: userData.id,
    childName: userData.name,
    connectedAt,
    // Like the real app, a Mac that just connected reports its filter on at once; until a Mac
    // reports a state the dashboard shows it Offline.
    filterState: { case: 'on' },
    settings: settingsOf(userData),
  };
  await saveState(ctx.stateFile, state);
  await createDeviceClient({ serverUrl, token, signal: ctx.signal }).call(
    'Heartbeat',
    toAppToServerMessage({ case: 'currentFilterState_v2', state: { case: 'on' } }),
  );

  ctx.print(
    `Connected to ${serverUrl}: this Mac (serial ${serialNumber}, macOS user ${facts.username} #${facts.numericId}) is now ${userData.name}'s computer.`,
  );
  ctx.print(`Computer user id: ${deviceId}`);
  ctx.print('Reported: filter on');
  for (const line of formatUserData(userData)) ctx.print(line);
  return EXIT.ok;
}
