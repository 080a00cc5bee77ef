import { cleanup, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { AppProviders } from '../app/providers';
import { NumberField } from './number-field';

afterEach(cleanup);

/** A field with its value kept by its owner, as the voice settings keep theirs. */
function Owner({ onChange, start = 0 }: { onChange: (value: number) => void; start?: number }) {
  const [value, setValue] = useState(start);
  return (
    <>
      <NumberField
        aria-label="Speed value"
        min={-10}
        max={10}
        value={value}
        onChange={(next) => {
          setValue(next);
          onChange(next);
        }}
      />
      <button type="button" onClick={() => setValue(7)}>
        Slide to 7
      </button>
    </>
  );
}

function renderField(start?: number) {
  const onChange = vi.fn();
  render(
    <AppProviders>
      <Owner onChange={onChange} start={start} />
    </AppProviders>,
  );
  return { onChange, input: screen.getByLabelText('Speed value') as HTMLInputElement };
}

describe('NumberField', () => {
  it('is a number box with its range', () => {
    const { input } = renderField(3);
    expect(input.type).toBe('number');
    expect(input.min).toBe('-10');
    expect(input.max).toBe('10');
    expect(input.value).toBe('3');
  });

  it('reports each value typed within its range, and not one outside it', async () => {
    const user = userEvent.setup();
    const { input, onChange } = renderField();
    await user.clear(input);
    await user.type(input, '-4');
    expect(onChange).toHaveBeenLastCalledWith(-4);
    onChange.mockClear();
    await user.clear(input);
    await user.type(input, '25');
    // '2' was within the range; '25' is not, and stays as typed until the box is left.
    expect(onChange.mock.calls).toEqual([[2]]);
    expect(input.value).toBe('25');
  });

  it('brings a value outside its range back within it when left', async () => {
    const user = userEvent.setup();
    const { input, onChange } = renderField();
    await user.clear(input);
    await user.type(input, '25');
    await user.tab();
    expect(input.value).toBe('10');
    expect(onChange).toHaveBeenLastCalledWith(10);
    await user.clear(input);
    await user.type(input, '-30');
    await user.tab();
    expect(input.value).toBe('-10');
    expect(onChange).toHaveBeenLastCalledWith(-10);
  });

  it('puts back the last value when left empty', async () => {
    const user = userEvent.setup();
    const { input, onChange } = renderField(4);
    await user.clear(input);
    await user.tab();
    expect(input.value).toBe('4');
    expect(onChange).not.toHaveBeenCalled();
  });

  it('shows a value set from elsewhere (the slider beside it)', async () => {
    const user = userEvent.setup();
    const { input } = renderField();
    await user.click(screen.getByRole('button', { name: 'Slide to 7' }));
    expect(input.value).toBe('7');
  });
});
