// The block page's address is `blocked.html#<the blocked URL>` (the DNR redirect appends it).

export function blockedUrlOf(hash: string): string | undefined {
  const raw = hash.startsWith('#') ? hash.slice(1) : hash;
  if (raw === '') return undefined;
  try {
    const url = new URL(raw);
    return url.protocol === 'http:' || url.protocol === 'https:' ? url.href : undefined;
  } catch {
    return undefined;
  }
}

export const SUSPENSION_CHOICES = [
  { seconds: 15 * 60, label: '15 minutes' },
  { seconds: 30 * 60, label: '30 minutes' },
  { seconds: 60 * 60, label: '1 hour' },
  { seconds: 2 * 60 * 60, label: '2 hours' },
] as const;

/** Sub-resources a tab had blocked, as the block page offers them: one per address, newest first. */
export function offerableParts(urls: readonly string[], pageUrl: string, max = 19): string[] {
  const seen = new Set<string>([pageUrl]);
  const out: string[] = [];
  for (const url of [...urls].reverse()) {
    if (seen.has(url) || !/^https?:\/\//.test(url)) continue;
    seen.add(url);
    out.push(url);
    if (out.length === max) break;
  }
  return out;
}

/** "in 12 minutes" / "until 16:05" for a suspension's end, in the child's words. */
export function describeSuspensionEnd(endsAt: Date, now: Date): string {
  const minutes = Math.max(1, Math.round((endsAt.getTime() - now.getTime()) / 60_000));
  return minutes === 1 ? 'for about a minute' : `for ${minutes} more minutes`;
}
