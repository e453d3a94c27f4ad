import { render, screen } from '@testing-library/react';
import { MemoryRouter } from 'react-router';
import { afterEach, beforeEach, describe, expect, test, vi } from 'vitest';
import { ChildText } from '../src/components/ui/ChildText';
import { itemOf } from '../src/features/inbox/test-fixtures';
import { UnlockRequestCard } from '../src/features/unlock-requests/UnlockRequestCard';
import {
  EMMA_ID,
  NOW,
  REQUEST_ID,
  unlockRequestOf,
} from '../src/features/unlock-requests/test-fixtures';
import { fakeServer, loggedIn, renderApp } from './helpers';

// Issue 19: what a child's device sends is shown wrapped anywhere (one unbroken 2,000-character
// comment made /unlock-requests 24,558 px wide) and isolated, without its bidi controls (a
// right-to-left override made "gnp.exe" read "exe.png"). jsdom lays nothing out: these tests check
// that such text is in a <bdi> that wraps anywhere, and that the controls are gone.

const RLO = '\u202E';
const LONG = 'x'.repeat(2000);

beforeEach(() => {
  vi.spyOn(console, 'error').mockImplementation(() => {});
  loggedIn();
});
afterEach(() => {
  vi.unstubAllGlobals();
});

/** The isolating, wrapping element around a child's text. */
function childTextOf(text: string): HTMLElement {
  const element = screen.getByText(text, { selector: 'bdi' });
  expect(element).toHaveClass('wrap-anywhere');
  return element;
}

describe('ChildText', () => {
  test('drops bidi controls, isolates in <bdi> and wraps anywhere', () => {
    render(
      <p>
        Saved as <ChildText text={`holiday${RLO}gnp.exe`} /> yesterday
      </p>,
    );
    const shown = childTextOf('holidaygnp.exe');
    expect(shown.tagName).toBe('BDI');
    expect(shown.textContent).not.toContain(RLO);
  });
});

describe('where children’s text is shown', () => {
  const hostile = unlockRequestOf({
    requestComment: `${LONG}${RLO}gnp.exe`,
    url: `https://example.com/${RLO}fdp.exe`,
    domain: 'example.com',
    appName: `Safari${RLO}ppa`,
  });

  test('an unlock request card', () => {
    render(
      <MemoryRouter>
        <UnlockRequestCard request={hostile} now={NOW} />
      </MemoryRouter>,
    );
    childTextOf(`“${LONG}gnp.exe”`);
    childTextOf('https://example.com/fdp.exe');
    childTextOf('Safarippa');
    expect(document.body.textContent).not.toContain(RLO);
  });

  test('an unlock request page', async () => {
    fakeServer((op) => (op === 'GetUnlockRequest' ? { body: hostile } : { body: [] }));
    renderApp(`/children/${EMMA_ID}/unlock-requests/${REQUEST_ID}/review`);
    expect(await screen.findByText(`“${LONG}gnp.exe”`, { selector: 'bdi' })).toHaveClass(
      'wrap-anywhere',
    );
    // the address as link text, and again in the app details
    expect(screen.getAllByText('https://example.com/fdp.exe', { selector: 'bdi' })).toHaveLength(2);
    expect(document.body.textContent).not.toContain(RLO);
  });

  test('the audit log', async () => {
    fakeServer((op) => {
      if (op === 'GetAuditLog') {
        return {
          body: {
            entries: [
              {
                id: '66666666-6666-4666-8666-666666666666',
                at: NOW.toISOString(),
                personId: '33333333-3333-4333-8333-333333333333',
                personEmail: 'sam@example.com',
                operation: 'UpdateUnlockRequest',
                entityType: 'unlockRequest',
                summary: `sam@example.com accepted unlock request ${LONG}${RLO}gnp.exe`,
              },
            ],
          },
        };
      }
      return { body: [] };
    });
    renderApp('/settings/audit-log');
    expect(
      await screen.findByText(`sam@example.com accepted unlock request ${LONG}gnp.exe`, {
        selector: 'bdi',
      }),
    ).toHaveClass('wrap-anywhere');
  });

  test('the inbox of waiting requests', async () => {
    fakeServer((op) => {
      if (op === 'GetInbox') {
        return {
          body: {
            items: [
              itemOf({
                id: 'a1000000-0000-4000-8000-000000000003',
                childName: 'Emma',
                minutesAgo: 2,
                target: `https://example.com/${RLO}fdp.exe`,
                comment: `${LONG}${RLO}gnp.exe`,
              }),
            ],
          },
        };
      }
      return { body: [] };
    });
    renderApp('/inbox');
    expect(await screen.findByText(`“${LONG}gnp.exe”`, { selector: 'bdi' })).toHaveClass(
      'wrap-anywhere',
    );
    childTextOf('https://example.com/fdp.exe');
    expect(document.body.textContent).not.toContain(RLO);
  });
});
