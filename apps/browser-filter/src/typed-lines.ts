// Typed lines (keylogging, when the parent turned it on): the content script turns key presses in
// a text field into lines. Never passwords or payment card fields.

/** What the content script knows of the field a key was typed in. */
export interface Field {
  tagName: string;
  type?: string | undefined;
  autocomplete?: string | undefined;
  isContentEditable: boolean;
}

const TEXT_INPUT_TYPES = new Set(['text', 'search', 'email', 'url', 'tel', 'number', '']);

/** Whether typing in this field may be recorded. */
export function isRecordableField(field: Field): boolean {
  const tag = field.tagName.toUpperCase();
  const autocomplete = (field.autocomplete ?? '').toLowerCase();
  if (/(^|\s)(cc-|one-time-code|current-password|new-password)/.test(autocomplete)) return false;
  if (tag === 'TEXTAREA') return true;
  if (tag === 'INPUT') return TEXT_INPUT_TYPES.has((field.type ?? 'text').toLowerCase());
  return field.isContentEditable;
}

/** Keys as `KeyboardEvent.key` names them; a line ends on Enter (the caller also ends it on blur and idle). */
export class LineBuffer {
  private text = '';

  /** Returns the finished line when the key ends one. */
  press(key: string, withModifier = false): string | undefined {
    if (key === 'Enter') return this.flush();
    if (withModifier) return undefined;
    if (key === 'Backspace') this.text = this.text.slice(0, -1);
    else if (key === 'Tab') return this.flush();
    else if ([...key].length === 1) this.text += key;
    return undefined;
  }

  /** Text pasted into the field counts as typed. */
  paste(text: string): void {
    this.text += text.replace(/\s+/g, ' ');
  }

  /** The line so far, trimmed; empty lines are dropped. */
  flush(): string | undefined {
    const line = this.text.trim();
    this.text = '';
    return line === '' ? undefined : line;
  }
}
