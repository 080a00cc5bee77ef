import { TextInput, type TextInputProps } from '@mantine/core';
import { useEffect, useState } from 'react';

interface NumberFieldProps
  extends Omit<TextInputProps, 'value' | 'onChange' | 'type' | 'min' | 'max'> {
  value: number;
  min: number;
  max: number;
  /** Called with each whole value within [min, max] typed, and with the clamped one on blur. */
  onChange: (value: number) => void;
}

/**
 * A number box kept within [min, max]: the browser's own number input (its arrows and arrow
 * keys step it, phones show their number keyboard), which lets a person type freely and is
 * brought back into range when they leave it. Used instead of Mantine's NumberInput, whose
 * formatting library would be on every first visit to the convertor (issue 18 item 5).
 */
export function NumberField({ value, min, max, onChange, onBlur, ...props }: NumberFieldProps) {
  const [text, setText] = useState(String(value));
  // A value set from elsewhere (the slider beside it) replaces what is typed.
  useEffect(() => {
    setText((typed) => (Number.parseFloat(typed) === value ? typed : String(value)));
  }, [value]);

  return (
    <TextInput
      {...props}
      // No inputMode: phones' numeric pads have no minus sign, and these ranges go below 0.
      type="number"
      min={min}
      max={max}
      step={1}
      value={text}
      onChange={(event) => {
        const typed = event.currentTarget.value;
        setText(typed);
        const number = Number.parseFloat(typed);
        if (Number.isFinite(number) && number >= min && number <= max) onChange(number);
      }}
      onBlur={(event) => {
        const number = Number.parseFloat(text);
        const kept = Number.isFinite(number) ? Math.min(max, Math.max(min, number)) : value;
        setText(String(kept));
        if (kept !== value) onChange(kept);
        onBlur?.(event);
      }}
    />
  );
}
