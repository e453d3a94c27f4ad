// Text that comes from a child's device (a request comment, an address, an app or window name, a
// typed line) is shown to parents as the characters it really holds (issue 19). Unicode's bidi
// controls reorder what follows them without being seen: a right-to-left override makes
// "<RLO>gnp.exe" read "exe.png". Explicit embeddings, overrides, isolates and the invisible marks
// are dropped for display; right-to-left letters (Arabic, Hebrew) need none of them and still read
// right to left. The dashboard also isolates such text (<bdi>) so it cannot reorder its neighbours.

/** LRE RLE PDF LRO RLO, LRI RLI FSI PDI, LRM RLM, ALM. */
const BIDI_CONTROLS = /[\u202A-\u202E\u2066-\u2069\u200E\u200F\u061C]/g;

export function displayableChildText(text: string): string {
  return text.replace(BIDI_CONTROLS, '');
}
