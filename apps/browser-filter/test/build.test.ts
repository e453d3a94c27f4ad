import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { inflateSync } from 'node:zlib';
import { STATIC_BLOCK_RULES } from '@keyward/domain/browser-rules';
import { afterAll, expect, test } from 'vitest';
// @ts-expect-error plain JavaScript build helpers
import { drawIcon, encodePng } from '../scripts/icons.mjs';
// @ts-expect-error plain JavaScript build helpers
import { zip } from '../scripts/zip.mjs';

const dir = mkdtempSync(join(tmpdir(), 'keyward-browser-filter-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const hasUnzip = spawnSync('unzip', ['-v']).status === 0;

test.skipIf(!hasUnzip)('the zip opens with unzip, names and bytes intact', () => {
  const big = Buffer.from('keyward '.repeat(5000));
  const files = [
    { name: 'manifest.json', data: Buffer.from('{"manifest_version":3}\n') },
    { name: 'icons/icon-16.png', data: Buffer.from([0, 1, 2, 3, 255]) },
    { name: 'big.txt', data: big },
  ];
  const path = join(dir, 'test.zip');
  writeFileSync(path, zip(files));
  expect(execFileSync('unzip', ['-t', path]).toString()).toMatch(/No errors detected/);
  const out = join(dir, 'out');
  execFileSync('unzip', ['-q', path, '-d', out]);
  for (const file of files) expect(readFileSync(join(out, file.name))).toEqual(file.data);
  expect(zip(files)).toEqual(zip(files));
});

test('icons are PNGs of the right size, transparent in the corners', () => {
  const png: Buffer = encodePng(16, 16, drawIcon(16));
  expect(png.subarray(0, 8)).toEqual(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]));
  expect(png.readUInt32BE(16)).toBe(16);
  expect(png.readUInt32BE(20)).toBe(16);
  const idatLength = png.readUInt32BE(33);
  const rows = inflateSync(png.subarray(41, 41 + idatLength));
  expect(rows.length).toBe(16 * (16 * 4 + 1));
  expect(rows[1 + 3]).toBe(0); // top-left pixel's alpha
  const middle = 8 * (16 * 4 + 1) + 1 + 8 * 4;
  expect(rows[middle + 3]).toBe(255);
});

test("the manifest's static ruleset is the compiler's STATIC_BLOCK_RULES", () => {
  const file = JSON.parse(
    readFileSync(new URL('../static/rules/block-everything.json', import.meta.url), 'utf8'),
  );
  expect(file).toEqual(STATIC_BLOCK_RULES);
});

test("the block page's buttons start disabled (a click before blocked.ts listens would be lost)", () => {
  // blocked.ts enables them once its listeners are on; the e2e tests click them
  const html = readFileSync(join(import.meta.dirname, '..', 'static/blocked.html'), 'utf8');
  for (const id of ['ask-button', 'suspend-button']) {
    expect(html).toMatch(new RegExp(`<button[^>]*id="${id}"[^>]*\\bdisabled\\b`));
  }
});
