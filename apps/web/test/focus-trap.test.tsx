import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { afterEach, beforeEach, describe, expect, test, vi } from 'vitest';
import { Button } from '../src/components/ui/Button';
import { Modal } from '../src/components/ui/Modal';
import { tabbableElements } from '../src/lib/focus-trap';
import {
  adminKeychainOf,
  EMMA_ID,
  GAMES_ID,
  SCHOOL_ID,
  summaryOf,
} from '../src/features/keychains/test-fixtures';
import { fakeServer, loggedIn, renderApp, serverError } from './helpers';

vi.mock('sonner', () => ({
  toast: { loading: vi.fn(), success: vi.fn(), error: vi.fn() },
  Toaster: () => null,
}));

beforeEach(() => {
  vi.spyOn(console, 'error').mockImplementation(() => {});
});
afterEach(() => {
  vi.unstubAllGlobals();
});

function ModalOpener({ onClose = () => {} }: { onClose?: () => void }) {
  const [isOpen, setIsOpen] = useState(false);
  const [isInnerOpen, setIsInnerOpen] = useState(false);
  const close = () => {
    onClose();
    setIsOpen(false);
  };
  return (
    <>
      <button type="button">Before</button>
      <Button onClick={() => setIsOpen(true)}>Open</Button>
      <Modal
        isOpen={isOpen}
        title="Rename"
        onClose={close}
        actions={
          <>
            <Button variant="secondary" onClick={close}>
              Cancel
            </Button>
            <Button onClick={() => setIsInnerOpen(true)}>Save</Button>
          </>
        }
      >
        <label>
          Name <input />
        </label>
      </Modal>
      <Modal isOpen={isInnerOpen} title="Sure?" onClose={() => setIsInnerOpen(false)}>
        <Button onClick={() => setIsInnerOpen(false)}>Yes</Button>
      </Modal>
      <button type="button">After</button>
    </>
  );
}

describe('Modal keyboard', () => {
  test('focus moves in, Tab wraps last → first, Shift+Tab first → last', async () => {
    const user = userEvent.setup();
    render(<ModalOpener />);
    await user.click(screen.getByRole('button', { name: 'Open' }));
    const dialog = screen.getByRole('dialog', { name: 'Rename' });
    const name = within(dialog).getByLabelText('Name');
    const save = within(dialog).getByRole('button', { name: 'Save' });
    expect(name).toHaveFocus();

    await user.tab();
    expect(within(dialog).getByRole('button', { name: 'Cancel' })).toHaveFocus();
    await user.tab();
    expect(save).toHaveFocus();
    await user.tab(); // from the last element back to the first, never to 'After'
    expect(name).toHaveFocus();
    await user.tab({ shift: true }); // and back again, never to 'Open' or 'Before'
    expect(save).toHaveFocus();
  });

  test('Escape closes and focus returns to the opener', async () => {
    const onClose = vi.fn();
    const user = userEvent.setup();
    render(<ModalOpener onClose={onClose} />);
    const opener = screen.getByRole('button', { name: 'Open' });
    await user.click(opener);
    expect(screen.getByRole('dialog', { name: 'Rename' })).toBeInTheDocument();
    await user.keyboard('{Escape}');
    expect(onClose).toHaveBeenCalledTimes(1);
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    expect(opener).toHaveFocus();
  });

  test('a dialog over a dialog: Tab and Escape act on the top one only', async () => {
    const onClose = vi.fn();
    const user = userEvent.setup();
    render(<ModalOpener onClose={onClose} />);
    await user.click(screen.getByRole('button', { name: 'Open' }));
    const save = screen.getByRole('button', { name: 'Save' });
    await user.click(save);
    const yes = within(screen.getByRole('dialog', { name: 'Sure?' })).getByRole('button', {
      name: 'Yes',
    });
    expect(yes).toHaveFocus();
    await user.tab();
    expect(yes).toHaveFocus(); // its only element
    await user.keyboard('{Escape}');
    expect(screen.queryByRole('dialog', { name: 'Sure?' })).not.toBeInTheDocument();
    expect(screen.getByRole('dialog', { name: 'Rename' })).toBeInTheDocument();
    expect(onClose).not.toHaveBeenCalled();
    expect(save).toHaveFocus();
  });
});

test('tabbableElements: one stop per radio group, the checked radio', () => {
  render(
    <div data-testid="box">
      <input type="radio" name="a" aria-label="a1" />
      <input type="radio" name="a" aria-label="a2" defaultChecked />
      <input type="radio" name="b" aria-label="b1" />
      <input type="radio" name="b" aria-label="b2" />
      <button type="button" disabled>
        off
      </button>
      <a href="/x">Help</a>
    </div>,
  );
  const labels = tabbableElements(screen.getByTestId('box')).map(
    (element) => element.getAttribute('aria-label') ?? element.textContent,
  );
  expect(labels).toEqual(['a2', 'b1', 'Help']);
});

describe('key wizard', () => {
  test('Next moves focus to the new step’s first field; Tab stays inside; Escape returns focus', async () => {
    loggedIn();
    fakeServer((op) => {
      if (op === 'GetAdminKeychain') return { body: adminKeychainOf({ id: SCHOOL_ID }) };
      if (op === 'GetIdentifiedApps') return { body: [] };
      return serverError('notFound');
    });
    const user = userEvent.setup();
    renderApp(`/keychains/${SCHOOL_ID}`);
    const opener = (await screen.findAllByRole('button', { name: /Add new key/ }))[0];
    if (!opener) throw new Error('no Add new key button');
    await user.click(opener);
    const wizard = screen.getByRole('dialog', { name: 'Create a new key' });
    await waitFor(() =>
      expect(within(wizard).getByRole('radio', { name: /Website/ })).toHaveFocus(),
    );

    await user.click(within(wizard).getByRole('button', { name: 'Next' }));
    const address = within(wizard).getByRole('textbox', { name: 'Website address' });
    await waitFor(() => expect(address).toHaveFocus());

    for (let i = 0; i < 30; i += 1) {
      await user.tab();
      expect(wizard).toContainElement(document.activeElement as HTMLElement);
    }
    await user.keyboard('{Escape}');
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    expect(opener).toHaveFocus();
  }, 20_000);
});

describe('add-keychain drawer', () => {
  test('the search box takes focus, Tab wraps both ways, Escape closes back to the opener', async () => {
    loggedIn();
    fakeServer((op) => {
      if (op === 'GetUser') {
        return {
          body: {
            id: EMMA_ID,
            name: 'Emma',
            keyloggingEnabled: false,
            screenshotsEnabled: false,
            screenshotsResolution: 1000,
            screenshotsFrequency: 120,
            showSuspensionActivity: false,
            keychains: [],
            devices: [
              {
                id: 'aa11bb22-cc33-4d44-8e55-ff6677889900',
                deviceId: 'bb22cc33-dd44-4e55-8f66-007788990011',
                status: { case: 'filterOn' },
                modelFamily: 'macBookAir',
                modelTitle: 'MacBook Air (M1, 2020)',
                modelIdentifier: 'MacBookAir10,1',
              },
            ],
            blockedApps: [],
            createdAt: '2025-01-02T03:04:05.000Z',
          },
        };
      }
      if (op === 'GetSelectableKeychains') {
        return { body: { own: [summaryOf({ id: GAMES_ID, name: 'Games' })], public: [] } };
      }
      return serverError('notFound');
    });
    const user = userEvent.setup();
    renderApp(`/children/${EMMA_ID}`);
    const opener = await screen.findByRole('button', { name: 'Add keychain' });
    await user.click(opener);
    const drawer = await screen.findByRole('dialog', { name: 'Add keychain' });
    const search = within(drawer).getByRole('searchbox', { name: 'Search keychains' });
    expect(search).toHaveFocus();
    await within(drawer).findByRole('button', { name: /Games/ });

    const close = within(drawer).getByRole('button', { name: 'Close' });
    const cancel = within(drawer).getByRole('button', { name: 'Cancel' });
    // 'Add keychain' is disabled until a keychain is chosen: Cancel is the last stop.
    cancel.focus();
    await user.tab();
    expect(close).toHaveFocus();
    await user.tab({ shift: true });
    expect(cancel).toHaveFocus();

    await user.keyboard('{Escape}');
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    expect(opener).toHaveFocus();
  }, 20_000);
});
