// Sums the gzipped JavaScript a first visit to /login downloads: the entry, the LoginPage
// chunk if it has one (it is in the entry since issue 21), and everything they import
// statically. Run after `vite build`.
import { readFileSync } from 'node:fs';
import { gzipSync } from 'node:zlib';

const manifest = JSON.parse(readFileSync('dist/.vite/manifest.json', 'utf8'));
const seen = new Set();
function visit(key) {
  if (seen.has(key)) return;
  seen.add(key);
  for (const dep of manifest[key]?.imports ?? []) visit(dep);
}
visit('index.html');
if (manifest['src/features/auth/LoginPage.tsx']) visit('src/features/auth/LoginPage.tsx');
let total = 0;
for (const key of seen) {
  const file = manifest[key].file;
  const size = gzipSync(readFileSync(`dist/${file}`)).length;
  total += size;
  console.log(`${(size / 1024).toFixed(2).padStart(8)} KB  ${file}`);
}
const limitKb = 100;
console.log(
  `${(total / 1024).toFixed(2).padStart(8)} KB  total gzipped JS for /login (limit ${limitKb} KB)`,
);
if (total / 1024 > limitKb) process.exitCode = 1;
