#!/usr/bin/env node
// The browser filter's rule compiler (issue 22):
//
//   npm run bench -- --browser-rules [--runs 20]
//
// Compiles 1,000 mixed keys (domains, subdomains, patterns, IP addresses, paths; in 20 keychains,
// half of them on schedules, some keys expiring) into declarativeNetRequest rules, the way the
// extension does on every check-in, and prints the median of the runs. Exits 1 above 100 ms.

import { fileURLToPath } from 'node:url';
import { tsImport } from 'tsx/esm/api';

const TARGET_MS = 100;
const argv = process.argv.slice(2);
const runsAt = argv.indexOf('--runs');
const RUNS = runsAt >= 0 ? Number(argv[runsAt + 1]) : 20;

const { compileBrowserRules } = await tsImport(
  '../packages/domain/src/browser-rules.ts',
  import.meta.url,
);

const now = new Date('2026-11-26T10:00:00Z');
const scope = { type: 'webBrowsers' };
const uuid = (n) => `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`;

function mixedKey(i) {
  switch (i % 10) {
    case 0:
    case 1:
    case 2:
      return { type: 'domain', domain: `site${i}.example.com`, scope };
    case 3:
    case 4:
    case 5:
      return { type: 'anySubdomain', domain: `school${i}.example.org`, scope };
    case 6:
      return { type: 'domainRegex', pattern: `cdn${i}*.example.net`, scope };
    case 7:
      return { type: 'ipAddress', ipAddress: `10.0.${Math.floor(i / 250)}.${i % 250}`, scope };
    case 8:
      return { type: 'path', path: `docs${i}.example.edu/course/*`, scope };
    default:
      return {
        type: 'path',
        path: `www.example${i}.edu/page/${i}/`,
        scope: { type: 'unrestricted' },
      };
  }
}

const keychains = Array.from({ length: 20 }, (_, k) => ({
  id: uuid(100_000 + k),
  name: `Keychain ${k}`,
  ...(k % 2 === 0
    ? {
        schedule: {
          mode: 'active',
          days: {
            sunday: false,
            monday: true,
            tuesday: true,
            wednesday: true,
            thursday: true,
            friday: true,
            saturday: false,
          },
          window: { start: { hour: 7 + (k % 3), minute: 0 }, end: { hour: 17, minute: 30 } },
        },
      }
    : {}),
  keys: Array.from({ length: 50 }, (_, j) => {
    const i = k * 50 + j;
    return {
      id: uuid(i),
      key: mixedKey(i),
      ...(i % 25 === 0
        ? { expiration: new Date(now.getTime() + (i + 1) * 60_000).toISOString() }
        : {}),
    };
  }),
}));

const input = {
  keychains,
  now,
  downtime: { start: { hour: 21, minute: 0 }, end: { hour: 6, minute: 30 } },
  serverOrigin: 'https://keyward.example',
  blockPageUrl: 'chrome-extension://abcdefghijklmnopabcdefghijklmnop/blocked.html',
  timeZoneOffsetMinutes: 0,
};

let result;
for (let i = 0; i < 3; i++) result = compileBrowserRules(input); // warm-up
const times = [];
for (let i = 0; i < RUNS; i++) {
  const started = performance.now();
  result = compileBrowserRules(input);
  times.push(performance.now() - started);
}
times.sort((a, b) => a - b);
const median = times[Math.floor(times.length / 2)];
const isOk = median <= TARGET_MS;
console.log(
  `browser rules: 1,000 keys → ${result.rules.length} rules (${result.regexRuleCount} regex, ` +
    `${result.skippedKeys.length} skipped), next change ${result.nextChangeAt?.toISOString()}`,
);
console.log(
  `compile median of ${RUNS}: ${median.toFixed(1)} ms (min ${times[0].toFixed(1)}, max ` +
    `${times.at(-1).toFixed(1)}; target <= ${TARGET_MS} ms) ${isOk ? 'OK' : 'OVER TARGET'}`,
);
if (fileURLToPath(import.meta.url) === process.argv[1]) process.exit(isOk ? 0 : 1);
process.exitCode = isOk ? 0 : 1;
