import type { CheckInOutput } from '@keyward/contract/device';
import { type DeviceClient, createDeviceClient } from '../api.ts';
import { serverUrlOf } from '../args.ts';
import { diffSettings, settingsOf } from '../format.ts';
import type { CommandContext } from '../io.ts';
import { type ConnectedState, isConnected, loadState, saveState } from '../state.ts';

export class NotConnectedError extends Error {}

export interface Connected {
  state: ConnectedState;
  api: DeviceClient;
  serverUrl: string;
}

export async function loadConnected(ctx: CommandContext): Promise<Connected> {
  const state = await loadState(ctx.stateFile);
  if (!isConnected(state)) {
    throw new NotConnectedError(
      `This Mac is not connected (no connection in ${ctx.stateFile}). Run: connect <code>`,
    );
  }
  const serverUrl = serverUrlOf(ctx.parsed, ctx.env, state.serverUrl);
  return {
    state,
    serverUrl,
    api: createDeviceClient({ serverUrl, token: state.token, signal: ctx.signal }),
  };
}

export interface CheckInResult {
  output: CheckInOutput;
  json: unknown;
  /** "screenshotsEnabled: false -> true" lines since the last connect or check-in */
  changes: string[];
}

/** CheckIn_v2 with this Mac's facts; remembers the settings to tell changes next time. */
export async function checkInNow(
  ctx: CommandContext,
  connected: Connected,
): Promise<CheckInResult> {
  const { state, api } = connected;
  const { output, json } = await api.request('CheckIn_v2', {
    appVersion: state.facts.appVersion,
    osVersion: state.facts.osVersion,
    isAdmin: state.facts.isAdmin,
  });
  const settings = settingsOf(output.userData, output);
  const changes = diffSettings(state.settings, settings);
  state.settings = settings;
  state.childName = output.userData.name;
  await saveState(ctx.stateFile, state);
  return { output, json, changes };
}
