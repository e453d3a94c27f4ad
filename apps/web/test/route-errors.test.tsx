import { render, screen } from '@testing-library/react';
import type { ComponentType, ReactElement } from 'react';
import userEvent from '@testing-library/user-event';
import { MemoryRouter } from 'react-router';
import { afterEach, beforeEach, describe, expect, test, vi } from 'vitest';
import { PageSuspense } from '../src/app/PageSuspense';
import {
  CHUNK_FAILED_MESSAGE,
  CHUNK_FAILED_TITLE,
  RouteErrorBoundary,
} from '../src/app/RouteErrorBoundary';
import { GENERIC_ERROR_MESSAGE } from '../src/lib/errors';
import {
  CHUNK_RETRY_DELAYS_MS,
  importWithRetry,
  isChunkLoadError,
  lazyPage,
} from '../src/lib/lazy-page';

const chunkError = () =>
  new TypeError('Failed to fetch dynamically imported module: /assets/ChildPage-abc.js');

beforeEach(() => {
  vi.spyOn(console, 'error').mockImplementation(() => {});
});
afterEach(() => {
  vi.useRealTimers();
});

describe('isChunkLoadError', () => {
  test.each<[string, unknown, boolean]>([
    ['Chromium', chunkError(), true],
    ['Safari', new TypeError('Importing a module script failed.'), true],
    ['Firefox', new TypeError('error loading dynamically imported module'), true],
    ['CSS preload', new Error('Unable to preload CSS for /assets/x.css'), true],
    ['a bug in a page', new TypeError("Cannot read properties of undefined (reading 'id')"), false],
    ['a thrown string', 'nope', false],
  ])('%s → %s', (_name, error, expected) => {
    expect(isChunkLoadError(error)).toBe(expected);
  });
});

describe('importWithRetry', () => {
  const noWait = vi.fn(async (_ms: number) => {});

  test('a chunk that fails twice, then loads, is used; waits 500 ms then 1500 ms', async () => {
    const load = vi
      .fn<() => Promise<string>>()
      .mockRejectedValueOnce(chunkError())
      .mockRejectedValueOnce(chunkError())
      .mockResolvedValueOnce('page');
    await expect(importWithRetry(load, [500, 1500], noWait)).resolves.toBe('page');
    expect(load).toHaveBeenCalledTimes(3);
    expect(noWait.mock.calls.map(([ms]) => ms)).toEqual([500, 1500]);
  });

  test('gives up after the last delay with the chunk error', async () => {
    const load = vi.fn<() => Promise<string>>().mockRejectedValue(chunkError());
    await expect(importWithRetry(load, [1, 1], noWait)).rejects.toThrow(/dynamically imported/);
    expect(load).toHaveBeenCalledTimes(3);
  });

  test('any other error is not retried', async () => {
    const load = vi.fn<() => Promise<string>>().mockRejectedValue(new Error('bug'));
    await expect(importWithRetry(load, [1, 1], noWait)).rejects.toThrow('bug');
    expect(load).toHaveBeenCalledTimes(1);
  });
});

function Throws({ error }: { error: unknown }): never {
  throw error;
}

describe('RouteErrorBoundary', () => {
  test('a chunk that failed: message and a Reload button', async () => {
    const onReload = vi.fn();
    const user = userEvent.setup();
    render(
      <RouteErrorBoundary resetKey="/children" onReload={onReload}>
        <Throws error={chunkError()} />
      </RouteErrorBoundary>,
    );
    expect(screen.getByRole('heading', { name: CHUNK_FAILED_TITLE })).toBeInTheDocument();
    expect(screen.getByRole('alert')).toHaveTextContent(CHUNK_FAILED_MESSAGE);
    await user.click(screen.getByRole('button', { name: 'Reload' }));
    expect(onReload).toHaveBeenCalledTimes(1);
  });

  test('a chunk that failed offline reloads by itself once back online', () => {
    const onReload = vi.fn();
    render(
      <RouteErrorBoundary resetKey="/children" onReload={onReload}>
        <Throws error={chunkError()} />
      </RouteErrorBoundary>,
    );
    expect(onReload).not.toHaveBeenCalled();
    window.dispatchEvent(new Event('online'));
    expect(onReload).toHaveBeenCalledTimes(1);
  });

  test('a page that throws: the generic message, Reload, and contact support', () => {
    const onReload = vi.fn();
    render(
      <RouteErrorBoundary resetKey="/" onReload={onReload}>
        <Throws error={new Error('bug')} />
      </RouteErrorBoundary>,
    );
    expect(screen.getByRole('heading', { name: 'Uh-oh!' })).toBeInTheDocument();
    expect(screen.getByRole('alert')).toHaveTextContent(GENERIC_ERROR_MESSAGE);
    expect(screen.getByRole('button', { name: 'Reload' })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Contact support' })).toBeInTheDocument();
    window.dispatchEvent(new Event('online')); // a bug is not the network: no reload loop
    expect(onReload).not.toHaveBeenCalled();
  });

  test('going to another path clears the error', () => {
    const { rerender } = render(
      <RouteErrorBoundary resetKey="/a">
        <Throws error={chunkError()} />
      </RouteErrorBoundary>,
    );
    expect(screen.getByRole('button', { name: 'Reload' })).toBeInTheDocument();
    rerender(
      <RouteErrorBoundary resetKey="/b">
        <p>Page b</p>
      </RouteErrorBoundary>,
    );
    expect(screen.getByText('Page b')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Reload' })).not.toBeInTheDocument();
  });
});

/** A lazy page as a route renders it. */
function inRoute(Page: ComponentType) {
  return (
    <MemoryRouter initialEntries={['/children']}>
      <PageSuspense>
        <Page />
      </PageSuspense>
    </MemoryRouter>
  );
}

test('a lazy page whose chunk never downloads: retried, then Reload, never a blank page', async () => {
  let attempts = 0;
  const Page = lazyPage(async () => {
    attempts += 1;
    throw chunkError();
  });
  render(inRoute(Page));
  expect(screen.getByRole('status')).toHaveTextContent('Loading...');
  expect(await screen.findByRole('heading', { name: CHUNK_FAILED_TITLE })).toBeInTheDocument();
  expect(screen.getByRole('button', { name: 'Reload' })).toBeInTheDocument();
  expect(attempts).toBe(1 + CHUNK_RETRY_DELAYS_MS.length);
}, 10_000);

test('a lazy page whose chunk has arrived renders at once, without a spinner (issue 21)', async () => {
  const Page = lazyPage(async () => ({ default: () => <p>Page content</p> }));
  await Page.preload();
  render(inRoute(Page));
  // in the first commit: no fallback, no await
  expect(screen.getByText('Page content')).toBeInTheDocument();
  expect(screen.queryByRole('status')).not.toBeInTheDocument();
});

test('a lazy page still loading shows the spinner, then the page, once', async () => {
  let arrive: (module: { default: () => ReactElement }) => void = () => {};
  const Page = lazyPage(
    () =>
      new Promise<{ default: () => ReactElement }>((resolve) => {
        arrive = resolve;
      }),
  );
  const { rerender } = render(inRoute(Page));
  expect(screen.getByRole('status')).toHaveTextContent('Loading...');
  arrive({ default: () => <input aria-label="Draft" /> });
  const input = await screen.findByRole('textbox', { name: 'Draft' });
  await userEvent.type(input, 'kept');
  // the chunk has arrived now: a re-render keeps the mounted page (and what was typed in it)
  rerender(inRoute(Page));
  expect(screen.getByRole('textbox', { name: 'Draft' })).toHaveValue('kept');
});
