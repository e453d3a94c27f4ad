import { type RefObject, useEffect, useRef } from 'react';

const FOCUSABLE = [
  'a[href]',
  'button:not([disabled])',
  'input:not([disabled]):not([type="hidden"])',
  'select:not([disabled])',
  'textarea:not([disabled])',
  '[tabindex]:not([tabindex="-1"])',
].join(', ');

/**
 * The elements Tab visits inside `container`, in order. Of a radio group only the checked radio
 * is visited (or the first one when none is checked), as browsers do.
 */
export function tabbableElements(container: HTMLElement): HTMLElement[] {
  const all = [...container.querySelectorAll<HTMLElement>(FOCUSABLE)];
  return all.filter((element) => {
    if (element.closest('[hidden], [inert]')) return false;
    if (!(element instanceof HTMLInputElement) || element.type !== 'radio' || !element.name) {
      return true;
    }
    const group = all.filter(
      (other): other is HTMLInputElement =>
        other instanceof HTMLInputElement && other.type === 'radio' && other.name === element.name,
    );
    const checked = group.find((radio) => radio.checked);
    return checked ? checked === element : group[0] === element;
  });
}

/** Focuses the first field (or button) inside `container`; false when it has none. */
export function focusFirstField(container: HTMLElement | null): boolean {
  if (!container) return false;
  const [first] = tabbableElements(container);
  first?.focus();
  return first !== undefined;
}

// Open traps, innermost last: only the innermost one handles Tab and Escape.
const openTraps: HTMLElement[] = [];

type FocusTrapOptions = {
  isOpen: boolean;
  /** Called on Escape while this trap is the innermost open one. */
  onEscape?: () => void;
  /** Focused on open instead of the first field. */
  initialFocus?: RefObject<HTMLElement | null>;
};

/**
 * Keyboard behaviour of a dialog or drawer: on open, focus moves in (unless something inside
 * already took it); Tab and Shift+Tab cycle inside; Escape calls onEscape; on close, focus
 * returns to the element that had it before opening.
 */
export function useFocusTrap(
  container: RefObject<HTMLElement | null>,
  { isOpen, onEscape, initialFocus }: FocusTrapOptions,
): void {
  const onEscapeRef = useRef(onEscape);
  onEscapeRef.current = onEscape;
  // Read while rendering: children's effects may move focus inside before ours run.
  const opener = useRef<HTMLElement | null>(null);
  if (!isOpen) opener.current = null;
  else if (opener.current === null && typeof document !== 'undefined') {
    opener.current = document.activeElement as HTMLElement | null;
  }

  useEffect(() => {
    const panel = container.current;
    if (!isOpen || !panel) return;
    const returnTo = opener.current;
    openTraps.push(panel);
    if (!panel.contains(document.activeElement)) {
      const preferred = initialFocus?.current;
      if (preferred) preferred.focus();
      else if (!focusFirstField(panel)) panel.focus();
    }

    function onKeyDown(event: KeyboardEvent) {
      if (!panel || openTraps.at(-1) !== panel) return;
      if (event.key === 'Escape') {
        if (onEscapeRef.current) {
          event.preventDefault();
          onEscapeRef.current();
        }
        return;
      }
      if (event.key !== 'Tab') return;
      const items = tabbableElements(panel);
      const first = items[0];
      const last = items.at(-1);
      if (!first || !last) {
        event.preventDefault();
        panel.focus();
        return;
      }
      const active = document.activeElement;
      const isInside = active !== panel && panel.contains(active);
      if (event.shiftKey && (!isInside || active === first)) {
        event.preventDefault();
        last.focus();
      } else if (!event.shiftKey && (!isInside || active === last)) {
        event.preventDefault();
        first.focus();
      }
    }
    document.addEventListener('keydown', onKeyDown);
    return () => {
      document.removeEventListener('keydown', onKeyDown);
      openTraps.splice(openTraps.lastIndexOf(panel), 1);
      if (returnTo?.isConnected) returnTo.focus();
    };
  }, [isOpen, container, initialFocus]);
}
