import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { expect, test } from 'vitest';
import type { RuleSchedule } from '@keyward/contract/shared';
import { DEFAULT_ACTIVE_SCHEDULE, toggleDay, WEEKDAYS } from '@keyward/domain/schedule';
import { ScheduleEditor } from '../src/components/ui/ScheduleEditor';
import { TextInput } from '../src/components/ui/TextInput';

// A controlled field that refuses a change keeps showing what its state holds (React puts the
// field back after the event); these guard that behaviour of the fields built on it.

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

function Schedule() {
  const [schedule, setSchedule] = useState<RuleSchedule>({
    ...DEFAULT_ACTIVE_SCHEDULE,
    days: Object.fromEntries(
      WEEKDAYS.map((day) => [day, day === 'monday']),
    ) as RuleSchedule['days'],
  });
  return (
    <ScheduleEditor
      schedule={schedule}
      onModeChange={(mode) => setSchedule({ ...schedule, mode })}
      onDayToggle={(day) => setSchedule(toggleDay(schedule, day))}
      onWindowChange={(window) => setSchedule({ ...schedule, window })}
    />
  );
}

test('the last day of a schedule stays checked when clicked, for a screen reader too', async () => {
  const user = userEvent.setup();
  render(<Schedule />);
  const monday = screen.getByRole('checkbox', { name: 'Monday' });
  await user.click(monday);
  expect(monday).toBeChecked();
  await user.click(monday);
  expect(monday).toBeChecked();
  // another day can be added, and then Monday can go
  const tuesday = screen.getByRole('checkbox', { name: 'Tuesday' });
  await user.click(tuesday);
  expect(tuesday).toBeChecked();
  await user.click(monday);
  expect(monday).not.toBeChecked();
  expect(tuesday).toBeChecked();
});
