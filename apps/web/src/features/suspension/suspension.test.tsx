import type { SuspendFilterRequest } from '@keyward/contract/shared';
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, test, vi } from 'vitest';
import { fakeServer, loggedIn, renderApp, serverError } from '../../../test/helpers';

const toast = vi.hoisted(() => ({ loading: vi.fn(), success: vi.fn(), error: vi.fn() }));
vi.mock('sonner', () => ({ toast, Toaster: () => null }));

beforeEach(() => {
  vi.spyOn(console, 'error').mockImplementation(() => {});
  loggedIn();
});
afterEach(() => {
  vi.unstubAllGlobals();
  vi.clearAllMocks();
});

const CHILD_ID = '3f9c2a7e-5b1d-4c8e-9a6f-1e2d3c4b5a69';
const REQUEST_ID = '6a5b4c3d-2e1f-4a0b-9c8d-7e6f5a4b3c2d';
const PATH = `/children/${CHILD_ID}/suspend-filter-requests/${REQUEST_ID}`;
const minutesAgo = (minutes: number) => new Date(Date.now() - minutes * 60_000).toISOString();

function requestOf(overrides: Partial<SuspendFilterRequest> = {}): SuspendFilterRequest {
  return {
    id: REQUEST_ID,
    deviceId: 'aa11bb22-cc33-4d44-8e55-ff6677889900',
    status: 'pending',
    userName: 'Emma',
    requestedDurationInSeconds: 600,
    requestComment: 'Game night with Grandma',
    extraMonitoringOptions: { '@60': '2x screenshots', '@30': '4x screenshots' },
    createdAt: minutesAgo(1),
    ...overrides,
  };
}

function server(request: SuspendFilterRequest, { failing = false } = {}) {
  let current = request;
  return fakeServer((op, body) => {
    if (op === 'GetSuspendFilterRequest') return { body: current };
    if (op === 'DecideFilterSuspensionRequest') {
      if (failing) return serverError('badRequest', { userMessage: 'Too late.' });
      const decision = (body as { decision: { case: string; durationInSeconds?: number } })
        .decision;
      current = {
        ...current,
        status: decision.case === 'accepted' ? 'accepted' : 'rejected',
        ...(decision.durationInSeconds === undefined
          ? {}
          : { grantedDurationInSeconds: decision.durationInSeconds }),
      };
      return { body: { success: true } };
    }
    return serverError('notFound');
  });
}

describe('suspension request page', () => {
  test('grants 20 custom minutes with extra screenshots, remembered for the child', async () => {
    const calls = server(requestOf());
    const user = userEvent.setup();
    renderApp(PATH);

    expect((await screen.findByText('Requested duration')).nextElementSibling).toHaveTextContent(
      '10 minutes',
    );
    expect(screen.getByText('“Game night with Grandma”')).toBeInTheDocument();
    // a fresh request shows no date
    expect(screen.queryByText('Requested')).not.toBeInTheDocument();
    const duration = screen.getByLabelText('Suspend the filter for');
    // issue 32: what the child asked for (10 minutes), not always 5
    expect(duration).toHaveValue('600');

    await user.selectOptions(duration, 'custom');
    const grant = screen.getByRole('button', { name: 'Grant suspension' });
    expect(grant).toBeDisabled();
    await user.type(screen.getByLabelText('Minutes'), '1');
    expect(screen.getByText('Enter a number of minutes greater than 1')).toBeInTheDocument();
    await user.type(screen.getByLabelText('Minutes'), '{Backspace}20');
    await user.click(screen.getByRole('radio', { name: '4x screenshots' }));
    await user.type(screen.getByLabelText('Comment for Emma'), 'Have fun');
    await user.click(grant);

    expect(await screen.findByText('You granted this suspension.')).toBeInTheDocument();
    expect(screen.getByText('Granted duration').nextElementSibling).toHaveTextContent('20 minutes');
    // the request's own length stays visible after the decision (issue 32)
    expect(screen.getByText('Requested duration').nextElementSibling).toHaveTextContent(
      '10 minutes',
    );
    expect(calls.find((call) => call.op === 'DecideFilterSuspensionRequest')?.body).toEqual({
      id: REQUEST_ID,
      decision: { case: 'accepted', durationInSeconds: 1200, extraMonitoring: '@30' },
      responseComment: 'Have fun',
    });
    expect(localStorage.getItem(`extra_monitoring_${CHILD_ID}`)).toBe('@30');
  });

  test('the remembered extra monitoring is chosen again; deny sends rejected', async () => {
    localStorage.setItem(`extra_monitoring_${CHILD_ID}`, '@60');
    const calls = server(requestOf({ createdAt: minutesAgo(30) }));
    const user = userEvent.setup();
    renderApp(PATH);
    expect(await screen.findByRole('radio', { name: '2x screenshots' })).toBeChecked();
    expect(screen.getByText('Requested')).toBeInTheDocument();
    expect(screen.getByText(/30 minutes ago/)).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Deny' }));
    expect(await screen.findByText('You denied this suspension.')).toBeInTheDocument();
    expect(calls.find((call) => call.op === 'DecideFilterSuspensionRequest')?.body).toEqual({
      id: REQUEST_ID,
      decision: { case: 'rejected' },
    });
  });

  test('a request older than 2 hours is expired and cannot be decided', async () => {
    server(requestOf({ createdAt: minutesAgo(121) }));
    renderApp(PATH);
    expect(await screen.findByText('This request has expired')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Grant suspension' })).not.toBeInTheDocument();
  });

  test('a decided request shows its final status and the comment sent', async () => {
    server(requestOf({ status: 'rejected', responseComment: 'Homework first' }));
    renderApp(PATH);
    expect(await screen.findByText('You denied this suspension.')).toBeInTheDocument();
    expect(screen.getByText('Your comment: “Homework first”')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Deny' })).not.toBeInTheDocument();
  });

  test('a refused decision shows the server message and can be tried again', async () => {
    server(requestOf(), { failing: true });
    const user = userEvent.setup();
    renderApp(PATH);
    await user.click(await screen.findByRole('button', { name: 'Grant suspension' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('Too late.');
    await waitFor(() =>
      expect(screen.getByRole('button', { name: 'Grant suspension' })).toBeEnabled(),
    );
  });
});
