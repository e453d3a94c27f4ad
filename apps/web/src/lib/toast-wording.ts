const irregularPast: Record<string, string> = {
  send: 'sent',
  resend: 'resent',
  set: 'set',
  reset: 'reset',
  get: 'got',
  make: 'made',
  run: 'ran',
};

// Short verbs ending consonant-vowel-consonant that double the last letter.
const doublesLastLetter = new Set(['flag', 'stop', 'plan', 'ban', 'unflag', 'submit', 'drop']);

export function presentParticiple(verb: string): string {
  const v = verb.toLowerCase();
  if (doublesLastLetter.has(v)) return `${v}${v.at(-1)}ing`;
  if (v.endsWith('ie')) return `${v.slice(0, -2)}ying`;
  if (v.endsWith('e') && !v.endsWith('ee')) return `${v.slice(0, -1)}ing`;
  return `${v}ing`;
}

export function pastParticiple(verb: string): string {
  const v = verb.toLowerCase();
  const irregular = irregularPast[v];
  if (irregular) return irregular;
  if (doublesLastLetter.has(v)) return `${v}${v.at(-1)}ed`;
  if (v.endsWith('e')) return `${v}d`;
  if (/[^aeiou]y$/.test(v)) return `${v.slice(0, -1)}ied`;
  return `${v}ed`;
}

function capitalise(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}

export type ToastSubject = { verb: string; entity: string };

export function mutationToastText({ verb, entity }: ToastSubject) {
  return {
    loading: `${capitalise(presentParticiple(verb))} ${entity}...`,
    success: `${capitalise(entity)} ${pastParticiple(verb)}!`,
    error: `Failed to ${verb} ${entity}`,
  };
}

export const ERROR_TOAST_DURATION_MS = 6000;
