import type { CheckInOutput } from '@keyward/contract/device';
import { type DeviceClient, createDeviceClient } from '../api.ts';
import { serverUrlOf } from '../args.ts';
import { diffSettings, settingsOf } from '../format.ts';
import type { CommandContext } from '../io.ts';
import { pendingIdsOf, recordSuspensionDecision, recordUnlockDecision } from '../requests.ts';
import {
  type ConnectedState,
  type DeviceState,
  isConnected,
  loadState,
  saveState,
} from '../state.ts';

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
  /** decisions on this Mac's requests heard of for the first time at this check-in */
  decisions: string[];
}

/**
 * Changes the state file as it is NOW: another command (say `unlock` while `online` runs) may have
 * written it since this one loaded it. The in-memory state follows.
 */
export async function updateState(
  ctx: CommandContext,
  connected: Connected,
  change: (state: DeviceState) => void,
): Promise<void> {
  const current = (await loadState(ctx.stateFile)) ?? connected.state;
  change(current);
  await saveState(ctx.stateFile, current);
  Object.assign(connected.state, current);
}

/** CheckIn_v2 with this Mac's facts; remembers the settings to tell changes next time. */
export async function checkInNow(
  ctx: CommandContext,
  connected: Connected,
  /** ask about this suspension request instead of the newest undecided one */
  suspensionId?: string,
): Promise<CheckInResult> {
  const { state, api } = connected;
  const asked = (await loadState(ctx.stateFile))?.requests ?? state.requests;
  const { output, json } = await api.request('CheckIn_v2', {
    appVersion: state.facts.appVersion,
    osVersion: state.facts.osVersion,
    userIsAdmin: state.facts.isAdmin,
    ...pendingIdsOf(asked),
    ...(suspensionId ? { pendingFilterSuspension: suspensionId } : {}),
  });
  const settings = settingsOf(output.userData, output);
  const changes = diffSettings(state.settings, settings);
  const decisions: string[] = [];
  await updateState(ctx, connected, (current) => {
    current.settings = settings;
    current.childName = output.userData.name;
    for (const decided of output.resolvedUnlockRequests ?? []) {
      const line = recordUnlockDecision(current, decided);
      if (line) decisions.push(line);
    }
    if (output.resolvedFilterSuspension) {
      const line = recordSuspensionDecision(current, output.resolvedFilterSuspension);
      if (line) decisions.push(line);
    }
  });
  return { output, json, changes, decisions };
}
