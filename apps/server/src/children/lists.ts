// Comparing a child's stored lists (keychain assignments, blocked apps) with the ones a save sends.
// JSON read back from PostgreSQL jsonb has its keys reordered, so values compare in canonical form.

/** JSON with object keys sorted at every level; `undefined`/`null` both read as absent. */
export function canonicalJson(value: unknown): string {
  if (value === undefined || value === null) return 'null';
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, v]) => v !== undefined && v !== null)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(',')}}`;
  }
  return JSON.stringify(value);
}

/** True when the two lists hold the same entries, whatever their order. */
export function isSameSet(a: readonly unknown[], b: readonly unknown[]): boolean {
  if (a.length !== b.length) return false;
  const left = a.map(canonicalJson).sort();
  const right = b.map(canonicalJson).sort();
  return left.every((entry, i) => entry === right[i]);
}
