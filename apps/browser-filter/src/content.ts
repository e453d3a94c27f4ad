import { type Field, isRecordableField, LineBuffer } from './typed-lines.ts';

// Typed lines, only while the parent has keylogging on (the service worker keeps the flag in
// storage). A line ends on Enter, when the field loses focus, or after a pause in typing.

const IDLE_MS = 5_000;
let isRecording = false;
const buffers = new Map<Element, LineBuffer>();
const idleTimers = new Map<Element, ReturnType<typeof setTimeout>>();

chrome.storage.local.get('keylogging').then(
  (values) => {
    isRecording = values.keylogging === true;
  },
  () => undefined,
);
chrome.storage.onChanged.addListener((changes, area) => {
  if (area === 'local' && changes.keylogging) isRecording = changes.keylogging.newValue === true;
});

function fieldOf(target: EventTarget | null): Element | undefined {
  if (!(target instanceof Element)) return undefined;
  if (target instanceof HTMLInputElement || target instanceof HTMLTextAreaElement) return target;
  if (target instanceof HTMLElement && target.isContentEditable) {
    return target.closest('[contenteditable]:not([contenteditable="false"])') ?? target;
  }
  return undefined;
}

function describe(element: Element): Field {
  return {
    tagName: element.tagName,
    type: element instanceof HTMLInputElement ? element.type : undefined,
    autocomplete: element.getAttribute('autocomplete') ?? undefined,
    isContentEditable: element instanceof HTMLElement && element.isContentEditable,
  };
}

function send(line: string | undefined) {
  if (!line) return;
  chrome.runtime
    .sendMessage({ type: 'typedLine', line, typedAt: new Date().toISOString() })
    .catch(() => undefined);
}

function flush(element: Element) {
  const timer = idleTimers.get(element);
  if (timer) clearTimeout(timer);
  idleTimers.delete(element);
  send(buffers.get(element)?.flush());
  buffers.delete(element);
}

function bufferFor(event: Event): [Element, LineBuffer] | undefined {
  if (!isRecording || !event.isTrusted) return undefined;
  const element = fieldOf(event.composedPath()[0] ?? event.target);
  if (!element || !isRecordableField(describe(element))) return undefined;
  let buffer = buffers.get(element);
  if (!buffer) {
    buffer = new LineBuffer();
    buffers.set(element, buffer);
  }
  const timer = idleTimers.get(element);
  if (timer) clearTimeout(timer);
  idleTimers.set(
    element,
    setTimeout(() => flush(element), IDLE_MS),
  );
  return [element, buffer];
}

document.addEventListener(
  'keydown',
  (event) => {
    const found = bufferFor(event);
    if (!found) return;
    send(found[1].press(event.key, event.ctrlKey || event.metaKey || event.altKey));
  },
  true,
);

document.addEventListener(
  'paste',
  (event) => {
    const found = bufferFor(event);
    const text = event.clipboardData?.getData('text/plain');
    if (found && text) found[1].paste(text);
  },
  true,
);

document.addEventListener(
  'focusout',
  (event) => {
    const element = fieldOf(event.composedPath()[0] ?? event.target);
    if (element && buffers.has(element)) flush(element);
  },
  true,
);

window.addEventListener('pagehide', () => {
  for (const element of buffers.keys()) flush(element);
});
