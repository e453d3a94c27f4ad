import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, expect, test, vi } from 'vitest';
import { fakeServer, loggedIn, renderApp, serverError } from '../../../test/helpers';
import { keyOf, SCHOOL_ID, summaryOf } from './test-fixtures';

// Issue 20: a keychain with many keys gets a search box (by address, app or comment).

beforeEach(() => {
  vi.spyOn(console, 'error').mockImplementation(() => {});
  loggedIn();
});
afterEach(() => vi.unstubAllGlobals());

test("a keychain's keys are filtered by the search box", async () => {
  const keys = Array.from({ length: 10 }, (_, i) =>
    keyOf({
      id: `c0ffee00-1111-4222-8333-44445555660${i}`,
      key: { type: 'anySubdomain', domain: `site${i}.example.org`, scope: { type: 'webBrowsers' } },
      ...(i === 7 ? { comment: 'Maths homework' } : {}),
    }),
  );
  fakeServer((op) => {
    if (op === 'GetAdminKeychain') return { body: { summary: summaryOf(), keys } };
    if (op === 'IOSDevices') return { body: [] };
    if (op === 'GetInbox') return { body: { items: [] } };
    return serverError('notFound');
  });
  const user = userEvent.setup();
  renderApp(`/keychains/${SCHOOL_ID}`);
  const search = await screen.findByRole('textbox', { name: 'Search keys' });
  const table = screen.getByRole('table');
  expect(within(table).getAllByRole('row')).toHaveLength(11); // the header and 10 keys
  await user.type(search, 'site3');
  expect(within(table).getAllByRole('row')).toHaveLength(2);
  expect(table).toHaveTextContent('site3.example.org');
  await user.clear(search);
  await user.type(search, 'maths');
  expect(within(table).getAllByRole('row')).toHaveLength(2);
  expect(table).toHaveTextContent('site7.example.org');
  await user.clear(search);
  await user.type(search, 'nothing here');
  expect(screen.getByText('No key matches "nothing here".')).toBeInTheDocument();
}, 20_000);
