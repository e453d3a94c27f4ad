import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import {
  DEFAULT_MAC_FACTS,
  type DeviceState,
  deleteState,
  generateSerialNumber,
  isConnected,
  loadState,
  StateFileError,
  saveState,
} from '../src/state.ts';

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(path.join(tmpdir(), 'device-sim-state-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

describe('state file', () => {
  test('round trip, in a folder created on demand, readable by its owner only', async () => {
    const file = path.join(dir, 'nested', 'state.json');
    const state: DeviceState = {
      serialNumber: 'C02ABCDEFGHJ',
      facts: DEFAULT_MAC_FACTS,
      serverUrl: 'http://127.0.0.1:8080',
      token: 'a0e9f8c2-1d3b-4c5a-9e8f-7a6b5c4d3e2f',
      computerUserId: 'b0e9f8c2-1d3b-4c5a-9e8f-7a6b5c4d3e2f',
      filterState: { case: 'suspended', resuming: '2025-01-01T10:00:00.000Z' },
    };
    await saveState(file, state);
    expect(await loadState(file)).toEqual(state);
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(isConnected(await loadState(file))).toBe(true);
  });

  test('a missing file is no state; deleting it twice is fine', async () => {
    const file = path.join(dir, 'state.json');
    expect(await loadState(file)).toBeUndefined();
    expect(isConnected(undefined)).toBe(false);
    await deleteState(file);
    await deleteState(file);
  });

  test('a broken or foreign file is reported, not overwritten', async () => {
    const file = path.join(dir, 'state.json');
    writeFileSync(file, '{ nope');
    await expect(loadState(file)).rejects.toThrow(StateFileError);
    writeFileSync(file, JSON.stringify({ hello: 'world' }));
    await expect(loadState(file)).rejects.toThrow(/not a device-sim state/);
    expect(readFileSync(file, 'utf8')).toContain('hello');
  });

  test('serial numbers look like a Mac serial and differ', () => {
    const serials = new Set(Array.from({ length: 20 }, generateSerialNumber));
    expect(serials.size).toBe(20);
    for (const serial of serials) expect(serial).toMatch(/^C02[A-Z0-9]{9}$/);
  });
});
