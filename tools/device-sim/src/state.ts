import { randomInt } from 'node:crypto';
import { mkdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { FilterState, WireSuspensionDecision } from '@keyward/contract/device';
import { RequestStatus } from '@keyward/contract/shared';
import { z } from 'zod';

// The simulated Mac's memory between commands. Not a wire shape: only this tool reads it.

export const MacFacts = z.object({
  appVersion: z.string(),
  modelIdentifier: z.string(),
  username: z.string(),
  fullUsername: z.string(),
  numericId: z.number().int(),
  osVersion: z.string(),
  isAdmin: z.boolean(),
});
export type MacFacts = z.infer<typeof MacFacts>;

export const DEFAULT_MAC_FACTS: MacFacts = {
  appVersion: '2.6.0',
  modelIdentifier: 'MacBookAir10,1',
  username: 'child',
  fullUsername: 'Child',
  numericId: 501,
  osVersion: '14.5.0',
  isAdmin: false,
};

/** An unlock request this Mac sent; `target` is what the child was blocked from. */
export const AskedUnlock = z.object({
  id: z.string(),
  target: z.string(),
  bundleId: z.string(),
  askedAt: z.string(),
  status: RequestStatus,
  comment: z.string().optional(),
});
export type AskedUnlock = z.infer<typeof AskedUnlock>;

export const AskedSuspension = z.object({
  id: z.string(),
  durationSeconds: z.number(),
  askedAt: z.string(),
  /** absent while the parent has not decided; as the app heard it */
  decision: WireSuspensionDecision.optional(),
  comment: z.string().optional(),
});
export type AskedSuspension = z.infer<typeof AskedSuspension>;

export const AskedRequests = z.object({
  unlock: z.array(AskedUnlock),
  suspension: z.array(AskedSuspension),
});
export type AskedRequests = z.infer<typeof AskedRequests>;

export const DeviceState = z.object({
  /** generated once, so reconnecting finds the same computer on the server */
  serialNumber: z.string(),
  facts: MacFacts,
  serverUrl: z.string().optional(),
  token: z.string().optional(),
  /** the computer user's id (`deviceId` in the device API) */
  computerUserId: z.string().optional(),
  childId: z.string().optional(),
  childName: z.string().optional(),
  connectedAt: z.string().optional(),
  filterState: FilterState.optional(),
  /** settings seen at the last connect or check-in, to print what changed */
  settings: z.record(z.string(), z.string()).optional(),
  /** what this Mac asked the parent, and the decisions it heard of */
  requests: AskedRequests.optional(),
});
export type DeviceState = z.infer<typeof DeviceState>;

export type ConnectedState = DeviceState & {
  serverUrl: string;
  token: string;
  computerUserId: string;
};

export function isConnected(state: DeviceState | undefined): state is ConnectedState {
  return !!state?.token && !!state.serverUrl && !!state.computerUserId;
}

const SERIAL_ALPHABET = 'ABCDEFGHJKLMNPQRSTUVWXYZ0123456789';

/** Twelve characters like a real Mac serial (C02 + 9). */
export function generateSerialNumber(): string {
  let serial = 'C02';
  for (let i = 0; i < 9; i++) serial += SERIAL_ALPHABET[randomInt(SERIAL_ALPHABET.length)];
  return serial;
}

export class StateFileError extends Error {}

export async function loadState(file: string): Promise<DeviceState | undefined> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    throw new StateFileError(`The state file ${file} is not valid JSON; delete it to start over.`);
  }
  const parsed = DeviceState.safeParse(json);
  if (!parsed.success) {
    throw new StateFileError(
      `The state file ${file} is not a device-sim state; delete it to start over.`,
    );
  }
  return parsed.data;
}

/** Written to a temporary file first so a crash never leaves half a state file. */
export async function saveState(file: string, state: DeviceState): Promise<void> {
  await mkdir(path.dirname(file), { recursive: true });
  const temporary = `${file}.${process.pid}.tmp`;
  await writeFile(temporary, `${JSON.stringify(state, null, 2)}\n`, { mode: 0o600 });
  await rename(temporary, file);
}

export async function deleteState(file: string): Promise<void> {
  await rm(file, { force: true });
}
