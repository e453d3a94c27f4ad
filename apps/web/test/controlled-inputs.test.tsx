import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { expect, test } from 'vitest';
import { TextInput } from '../src/components/ui/TextInput';

// The dashboard renders through Preact (apps/web/README.md): a controlled field that refuses a
// keystroke must show what its state holds, as it would under React.

function MinutesField({ initial = '' }: { initial?: string }) {
  const [value, setValue] = useState(initial);
  return <TextInput label="Minutes" type="positiveInteger" value={value} onChange={setValue} />;
}

test('a number field refuses letters: the field keeps showing only the digits', async () => {
  const user = userEvent.setup();
  render(<MinutesField />);
  const field = screen.getByLabelText('Minutes') as HTMLInputElement;
  await user.type(field, '1a2');
  expect(field.value).toBe('12');
  await user.type(field, 'x');
  expect(field.value).toBe('12');
  // in the middle: refused, and the caret stays where the parent was typing
  await user.type(field, 'z', { initialSelectionStart: 1, initialSelectionEnd: 1 });
  expect(field.value).toBe('12');
  expect(field.selectionStart).toBe(1);
  await user.type(field, '5', { initialSelectionStart: 1, initialSelectionEnd: 1 });
  expect(field.value).toBe('152');
});

test('a number field refuses a letter as its first character', async () => {
  const user = userEvent.setup();
  render(<MinutesField />);
  const field = screen.getByLabelText('Minutes') as HTMLInputElement;
  await user.type(field, 'b');
  expect(field.value).toBe('');
});
