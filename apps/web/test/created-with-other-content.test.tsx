import { ERROR_IDS } from '@keyward/contract/constants';
import { render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, expect, test, vi } from 'vitest';
import { QueryClientProvider } from '@tanstack/react-query';
import { MemoryRouter } from 'react-router';
import { Toaster } from 'sonner';
import { ADMIN_ID, fakeServer, loggedIn, serverError } from './helpers';
import { Providers } from '../src/app/Providers';
import { useAdminKeychains, useSaveKeychain } from '../src/features/keychains/api';
import { queryClient } from '../src/lib/api/query-client';

// Issue 31 (finding 4): a create sent again with its id and other content is refused
// (createdWithOtherContent); the dashboard then reloads the reads that create changes, so it shows
// what is stored, and says why.

beforeEach(() => {
  loggedIn();
  queryClient.clear();
});
afterEach(() => vi.unstubAllGlobals());

function Harness() {
  const keychains = useAdminKeychains();
  const save = useSaveKeychain();
  return (
    <>
      <output aria-label="keychains">{keychains.data?.keychains.length ?? 'loading'}</output>
      <button
        type="button"
        onClick={() =>
          save.mutate({
            isNew: true,
            id: '0b8e6d4c-2a19-4f7e-8d6c-5b4a39281706',
            name: 'School (edited)',
            description: '',
          } as never)
        }
      >
        Save
      </button>
    </>
  );
}

test('a refused repeat of a create reloads what is stored', async () => {
  let stored: string[] = [];
  const calls = fakeServer((op) => {
    if (op === 'GetAdminKeychains') {
      return { body: { keychains: [], children: stored.map((name) => ({ id: ADMIN_ID, name })) } };
    }
    if (op === 'SaveKeychain') {
      stored = ['School'];
      return serverError('badRequest', {
        id: ERROR_IDS.createdWithOtherContent,
        userMessage: 'This keychain was already saved with other details.',
      });
    }
    return serverError('notFound');
  });
  render(
    <Providers>
      <QueryClientProvider client={queryClient}>
        <MemoryRouter>
          <Harness />
        </MemoryRouter>
        <Toaster />
      </QueryClientProvider>
    </Providers>,
  );
  await waitFor(() => expect(calls.filter((c) => c.op === 'GetAdminKeychains')).toHaveLength(1));
  await userEvent.setup().click(screen.getByRole('button', { name: 'Save' }));
  await waitFor(() => expect(calls.filter((c) => c.op === 'GetAdminKeychains')).toHaveLength(2));
  expect(
    await screen.findByText('This keychain was already saved with other details.'),
  ).toBeTruthy();
});
