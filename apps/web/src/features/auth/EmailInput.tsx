import type { Ref } from 'react';
import { TextInput } from '../../components/ui/TextInput';

/** The email field every public page asks for first. */
export function EmailInput(props: {
  value: string;
  onChange: (value: string) => void;
  error?: string;
  ref?: Ref<HTMLInputElement>;
}) {
  return (
    <TextInput
      label="Email"
      type="email"
      name="email"
      autoComplete="email"
      required
      value={props.value}
      onChange={props.onChange}
      error={props.error}
      ref={props.ref}
    />
  );
}
