import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, test, vi } from 'vitest';
import { childOf, computerOf, EMMA_ID } from '../src/features/children/test-fixtures';
import {
  adminKeychainOf,
  keyOf,
  SCHOOL_ID,
  summaryOf,
} from '../src/features/keychains/test-fixtures';
import { fakeServer, loggedIn, renderApp, serverError } from './helpers';

// jsdom computes no Tailwind CSS, so these tests read the class lists. Two utilities for the same
// property (text-violet-700 and text-red-700) are a bug: which one wins depends on the order of
// the generated stylesheet, not on the order in the class attribute.

beforeEach(() => {
  vi.spyOn(console, 'error').mockImplementation(() => {});
  loggedIn();
});
afterEach(() => vi.unstubAllGlobals());

const TEXT_COLOUR = /^text-(?:white|black|[a-z]+-\d{2,3})$/;
const MAX_WIDTH = /^max-w-/;

function classesMatching(element: Element, pattern: RegExp): string[] {
  return [...element.classList].filter((name) => pattern.test(name));
}

/** A destructive action reads red, and only red. */
function expectRedText(element: Element) {
  expect(classesMatching(element, TEXT_COLOUR)).toEqual(['text-red-700']);
}

describe('destructive actions are styled as destructive', () => {
  test("the keychain card's Delete button is red, not the ghost button's violet", async () => {
    fakeServer((op) =>
      op === 'GetAdminKeychains'
        ? { body: { keychains: [adminKeychainOf({ name: 'School' })], children: [] } }
        : serverError('notFound'),
    );
    renderApp('/keychains');
    const card = await screen.findByRole('article', { name: 'School' });
    expectRedText(within(card).getByRole('button', { name: 'Delete' }));
  });

  test('Delete keychain on the keychain editor is red', async () => {
    fakeServer((op) =>
      op === 'GetAdminKeychain'
        ? { body: { summary: summaryOf({ id: SCHOOL_ID }), keys: [] } }
        : serverError('notFound'),
    );
    renderApp(`/keychains/${SCHOOL_ID}`);
    expectRedText(await screen.findByRole('button', { name: 'Delete keychain' }));
  });

  test.each([
    ['with computers', [computerOf()]],
    ['without computers', []],
  ])('Delete child is red (child %s)', async (_, devices) => {
    const child = childOf({ devices });
    fakeServer((op) => (op === 'GetUser' ? { body: child } : serverError('notFound')));
    renderApp(`/children/${EMMA_ID}`);
    expectRedText(await screen.findByRole('button', { name: 'Delete child' }));
  });
});

describe('dialog widths', () => {
  test('the key wizard dialog is wide (max-w-2xl) with no competing max-width', async () => {
    fakeServer((op) =>
      op === 'GetAdminKeychain'
        ? { body: { summary: summaryOf({ id: SCHOOL_ID }), keys: [keyOf()] } }
        : serverError('notFound'),
    );
    const user = userEvent.setup();
    renderApp(`/keychains/${SCHOOL_ID}`);
    await user.click(await screen.findByRole('button', { name: 'Add new key' }));
    const dialog = screen.getByRole('dialog', { name: 'Create a new key' });
    expect(classesMatching(dialog, MAX_WIDTH)).toEqual(['max-w-2xl']);
  });

  test('the delete confirmation keeps the standard width', async () => {
    fakeServer((op) =>
      op === 'GetAdminKeychain'
        ? { body: { summary: summaryOf({ id: SCHOOL_ID }), keys: [] } }
        : serverError('notFound'),
    );
    const user = userEvent.setup();
    renderApp(`/keychains/${SCHOOL_ID}`);
    await user.click(await screen.findByRole('button', { name: 'Delete keychain' }));
    const dialog = screen.getByRole('dialog', { name: 'Delete keychain?' });
    expect(classesMatching(dialog, MAX_WIDTH)).toEqual(['max-w-md']);
  });
});

test('the welcome banner (no children) sets its own ring: no ring-0 fighting ring-1', async () => {
  const noWidgets = {
    children: [],
    childActivitySummaries: [],
    unlockRequests: [],
    recentScreenshots: [],
    numParentNotifications: 0,
  };
  fakeServer((op) => (op === 'DashboardWidgets' ? { body: noWidgets } : serverError('notFound')));
  renderApp('/');
  const heading = await screen.findByRole('heading', { name: "Let's get your first child set up" });
  const banner = heading.closest('section');
  expect(banner).not.toBeNull();
  const ringWidths = /^ring-\d$/;
  expect(classesMatching(banner as Element, ringWidths)).toEqual([]);
  const addChild = within(banner as HTMLElement).getByRole('link', { name: 'Add a child' });
  expect(classesMatching(addChild, ringWidths)).toHaveLength(1);
});
