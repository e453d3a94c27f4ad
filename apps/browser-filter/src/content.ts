import type { TabMessage } from './storage.ts';
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

// Issue 34: "5 minutes of screen time left today", over the page for a while (in a shadow root,
// so the page's styles neither hide nor restyle it).
chrome.runtime.onMessage.addListener((raw) => {
  const message = raw as TabMessage;
  if (message?.type !== 'screenTimeWarning' || window !== window.top) return;
  const host = document.createElement('keyward-warning');
  const root = host.attachShadow({ mode: 'closed' });
  const box = document.createElement('div');
  box.setAttribute('role', 'alert');
  box.textContent = message.text;
  box.style.cssText =
    'position:fixed;top:16px;right:16px;z-index:2147483647;max-width:320px;padding:12px 16px;' +
    'border-radius:8px;background:#1f2937;color:#fff;font:15px/1.4 system-ui,sans-serif;' +
    'box-shadow:0 4px 16px rgba(0,0,0,.3)';
  root.append(box);
  document.documentElement.append(host);
  setTimeout(() => host.remove(), 20_000);
});
