// Alert matching on typed lines (issue 24):
//
//   npm run bench -- --alerts [--runs 500]
//
// Compiles one automaton of 5,000 words and phrases (the built-in lists plus made-up words of 3 to
// 12 letters, a fifth of them two-word phrases), then matches batches of 100 typed lines of 20 to
// 160 characters, as CreateKeystrokeLines does for a child with every category on and 50 words of
// their own. Prints the median and p99 per batch; target: ≤ 1 ms per batch. Exits 1 over target.
// Also prints the time per character on lines 10× and 100× longer, to show it stays linear.

import { BUILT_IN_ALERT_CATEGORIES } from '@keyward/domain/alert-categories';
import { compileAlertMatcher } from '@keyward/domain/alert-matcher';
import { alertForLine, builtInAlertEntries, customAlertMatcher } from '@keyward/domain/alerts';

const argv = process.argv.slice(2);
const runsAt = argv.indexOf('--runs');
const RUNS = runsAt >= 0 ? Number(argv[runsAt + 1]) : 500;
const TARGET_MS = 1;
const WORDS = 5000;
const BATCH = 100;

// a fixed seed, so every run measures the same words and lines
let seed = 24;
const random = () => {
  seed = (seed * 1103515245 + 12345) % 2 ** 31;
  return seed / 2 ** 31;
};
const letters = 'abcdefghijklmnopqrstuvwxyz';
const madeUpWord = () =>
  Array.from(
    { length: 3 + Math.floor(random() * 10) },
    () => letters[Math.floor(random() * 26)],
  ).join('');

const entries: { category: string; word: string }[] = builtInAlertEntries();
while (entries.length < WORDS) {
  const word = random() < 0.2 ? `${madeUpWord()} ${madeUpWord()}` : madeUpWord();
  entries.push({ category: BUILT_IN_ALERT_CATEGORIES[entries.length % 5] as string, word });
}

const compileStart = performance.now();
const matcher = compileAlertMatcher(entries);
const compileMs = performance.now() - compileStart;
const custom = customAlertMatcher(Array.from({ length: 50 }, madeUpWord));
const settings = { categories: [...BUILT_IN_ALERT_CATEGORIES], custom };

const phrases = [
  'hey are you coming to practice tomorrow',
  'lol that was so funny',
  'i cant do this math homework',
  'https://www.youtube.com/watch?v=dQw4w9WgXcQ',
  'my therapist said the class assignment is due',
  'i wanna diiiie this test is so hard',
  'Scunthorpe vs Sussex, Essex passed the assassin level',
  'k1ll the boss in level 3 with the skill tree',
  'ok',
  'Can we get pizza?? 🍕🍕',
];
const line = () => {
  let text = '';
  const length = 20 + Math.floor(random() * 140);
  while (text.length < length) text += `${phrases[Math.floor(random() * phrases.length)]} `;
  return text.slice(0, length);
};
const batch = Array.from({ length: BATCH }, line);
const characters = batch.reduce((n, l) => n + l.length, 0);

function timeBatch(lines: readonly string[]): number {
  const start = performance.now();
  let alerts = 0;
  for (const text of lines) if (alertForLine(text, settings, matcher)) alerts += 1;
  const ms = performance.now() - start;
  if (alerts < 0) throw new Error('unreachable');
  return ms;
}

for (let i = 0; i < 50; i += 1) timeBatch(batch); // warm-up
const times = Array.from({ length: RUNS }, () => timeBatch(batch)).sort((a, b) => a - b);
const at = (q: number) => times[Math.min(times.length - 1, Math.floor(q * times.length))] as number;
const median = at(0.5);

const perChar = (factor: number) => {
  const long = batch.slice(0, 10).map((text) => text.repeat(factor));
  const chars = long.reduce((n, l) => n + l.length, 0);
  const samples = Array.from({ length: 20 }, () => timeBatch(long)).sort((a, b) => a - b);
  return ((samples[10] as number) / chars) * 1e6;
};

console.log(`Alert matching (issue 24): ${matcher.size.toLocaleString('en-US')} words and phrases`);
console.log(`  compile the automaton once:      ${compileMs.toFixed(1)} ms`);
console.log(
  `  batch of ${BATCH} typed lines (${characters.toLocaleString('en-US')} characters), ${RUNS} runs:`,
);
console.log(
  `    median ${median.toFixed(3)} ms, p99 ${at(0.99).toFixed(3)} ms (target ≤ ${TARGET_MS} ms)`,
);
console.log(
  `  per character: ${perChar(1).toFixed(0)} ns (lines as typed), ${perChar(10).toFixed(0)} ns (10× longer), ${perChar(100).toFixed(0)} ns (100× longer)`,
);
if (median > TARGET_MS) {
  console.log(`  OVER TARGET: ${median.toFixed(3)} ms > ${TARGET_MS} ms`);
  process.exitCode = 1;
}

// Issue 31: the worst inputs a device may send. Each batch is the most typed text a device may
// send in a minute (RATE_LIMITS.keystrokeCharactersPerDevice: 400,000 characters, as 40 lines of
// 10,000), matched against every built-in list as CreateKeystrokeLines does; the server gives the
// event loop back every ALERT_MATCH_SLICE_CHARACTERS (10,000), so the longest hold is a slice.
const WORST_LINES = 40;
const SLICE = 10_000; // ALERT_MATCH_SLICE_CHARACTERS in apps/server/src/activity/alerts.ts
const cjk = (n: number, from: number) =>
  Array.from({ length: n }, (_, i) => String.fromCodePoint(from + i)).join('');
const worst: [string, string][] = [
  ['plain letters', 'abcdefghij '.repeat(1000).slice(0, 10_000)],
  ['U+FDFA (18 characters in NFKD)', '\uFDFA'.repeat(10_000)],
  ['é (NFKD, then marks dropped)', 'é'.repeat(10_000)],
  ['10,000 distinct CJK ideographs', cjk(10_000, 0x4e00)],
  ['zero-width space in every word', 'ki\u200Bll my\u00ADself '.repeat(625)],
  ['mixed Cyrillic homoglyphs', 'k\u0456ll mys\u0435lf '.repeat(625)],
];
console.log(
  `  worst inputs (issue 31): ${WORST_LINES} lines of 10,000 characters (a minute's budget of one device)`,
);
for (const [name, text] of worst) {
  const lines = Array.from({ length: WORST_LINES }, () => text);
  timeBatch(lines.slice(0, 2)); // warm the per-character cache, as a busy server has it
  const samples = Array.from({ length: 5 }, () => timeBatch(lines)).sort((a, b) => a - b);
  const batchMs = samples[2] as number;
  const sliceMs = (batchMs * SLICE) / (WORST_LINES * 10_000);
  console.log(
    `    ${name.padEnd(34)} ${batchMs.toFixed(1)} ms a batch, ~${sliceMs.toFixed(1)} ms a slice`,
  );
}
