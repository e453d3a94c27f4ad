import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, test, vi } from 'vitest';
import { ADMIN_ID, fakeServer, loggedIn, renderApp } from '../../../test/helpers';
import { auditLogInput, auditLogPageReducer, initialAuditLogPageState } from './audit-log-page';

beforeEach(() => {
  vi.spyOn(console, 'error').mockImplementation(() => {});
  loggedIn();
});
afterEach(() => {
  vi.unstubAllGlobals();
});

const CHILD = '55555555-5555-4555-8555-555555555555';
const CO = '33333333-3333-4333-8333-333333333333';
const T1 = '2026-11-20T10:00:00.000Z';

describe('auditLogPageReducer', () => {
  test('older and newer walk the cursors; a filter starts again from the newest', () => {
    let state = auditLogPageReducer(initialAuditLogPageState, {
      type: 'olderClicked',
      nextBefore: T1,
    });
    expect(auditLogInput(state)).toEqual({ before: T1 });
    state = auditLogPageReducer(state, { type: 'personChosen', personId: CO });
    expect(auditLogInput(state)).toEqual({ personId: CO });
    state = auditLogPageReducer(state, { type: 'childChosen', childId: CHILD });
    state = auditLogPageReducer(state, { type: 'olderClicked', nextBefore: T1 });
    expect(auditLogInput(state)).toEqual({ before: T1, personId: CO, childId: CHILD });
    state = auditLogPageReducer(state, { type: 'newerClicked' });
    expect(auditLogInput(state)).toEqual({ personId: CO, childId: CHILD });
    state = auditLogPageReducer(state, { type: 'personChosen', personId: '' });
    expect(auditLogInput(state)).toEqual({ childId: CHILD });
  });
});

describe('/settings/audit-log', () => {
  test('lists entries in words, filters by person and child, and pages', async () => {
    const calls = fakeServer((op, body) => {
      if (op === 'GetParents') {
        return {
          body: [
            { id: ADMIN_ID, email: 'dana@example.com', role: 'owner', status: 'active' },
            { id: CO, email: 'sam@example.com', role: 'coParent', status: 'active' },
          ],
        };
      }
      if (op === 'GetUsers') return { body: [] };
      const input = body as { before?: string };
      if (op === 'GetAuditLog' && !input.before) {
        return {
          body: {
            entries: [
              {
                id: '66666666-6666-4666-8666-666666666666',
                at: T1,
                personId: CO,
                personEmail: 'sam@example.com',
                operation: 'SaveUser',
                entityType: 'child',
                summary: 'sam@example.com turned screenshots on for Lily',
              },
            ],
            nextBefore: T1,
          },
        };
      }
      return { body: { entries: [] } };
    });
    const user = userEvent.setup();
    renderApp('/settings/audit-log');
    expect(
      await screen.findByText('sam@example.com turned screenshots on for Lily'),
    ).toBeInTheDocument();
    // issue 20: what the change was, in words, not the operation's name
    expect(screen.getByText(/Saved a child/)).toBeInTheDocument();
    expect(screen.queryByText(/SaveUser/)).not.toBeInTheDocument();
    await user.selectOptions(await screen.findByLabelText('Person'), 'sam@example.com');
    await waitFor(() =>
      expect(calls.filter((c) => c.op === 'GetAuditLog').at(-1)?.body).toEqual({ personId: CO }),
    );
    await user.click(await screen.findByRole('button', { name: 'Older' }));
    expect(await screen.findByText('No changes yet')).toBeInTheDocument();
    expect(calls.filter((c) => c.op === 'GetAuditLog').at(-1)?.body).toEqual({
      personId: CO,
      before: T1,
    });
    expect(screen.getByRole('button', { name: 'Newer' })).toBeEnabled();
  });
});
