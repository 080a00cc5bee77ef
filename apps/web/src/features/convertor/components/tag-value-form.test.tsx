import { MESSAGES } from '@parla/contract';
import { cleanup, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { AppProviders } from '../../../app/providers';
import { TagValueForm } from './tag-value-form';

afterEach(cleanup);

function renderForm(kind: Parameters<typeof TagValueForm>[0]['kind'], initial: string) {
  const onSubmit = vi.fn();
  render(
    <AppProviders>
      <TagValueForm
        kind={kind}
        initial={initial}
        effects={['calm']}
        submitLabel="Insert"
        onSubmit={onSubmit}
      />
    </AppProviders>,
  );
  return onSubmit;
}

describe('the tag value form', () => {
  it('takes a pause of 1 to 10 and alerts above 10 with the words of SPEC §5', async () => {
    const user = userEvent.setup();
    const onSubmit = renderForm('pause', '1s');
    const input = screen.getByLabelText('Pause');
    await user.clear(input);
    await user.type(input, '12');
    expect(screen.getByRole('alert').textContent).toBe(MESSAGES.editor.pauseRange);
    expect((screen.getByRole('button', { name: 'Insert' }) as HTMLButtonElement).disabled).toBe(
      true,
    );
    await user.clear(input);
    await user.type(input, '500');
    await user.selectOptions(screen.getByLabelText('Unit'), 'ms');
    expect((screen.getByRole('button', { name: 'Insert' }) as HTMLButtonElement).disabled).toBe(
      true,
    );
    await user.clear(input);
    await user.type(input, '3');
    await user.click(screen.getByRole('button', { name: 'Insert' }));
    expect(onSubmit).toHaveBeenCalledWith('3ms');
  });

  it('takes a volume level or a percentage of 0 to 100, with its alert', async () => {
    const user = userEvent.setup();
    const onSubmit = renderForm('volume', 'medium');
    await user.selectOptions(screen.getByLabelText('Volume'), 'percentage');
    const rate = screen.getByLabelText('Volume rate (%)');
    await user.clear(rate);
    await user.type(rate, '150');
    expect(screen.getByRole('alert').textContent).toBe(
      'You can enter a volume rate value between 0 and 100!',
    );
    // The browser's number box takes a minus sign; a rate below 0 has the same alert.
    await user.clear(rate);
    await user.type(rate, '-5');
    expect(screen.getByRole('alert').textContent).toBe(
      'You can enter a volume rate value between 0 and 100!',
    );
    expect((screen.getByRole('button', { name: 'Insert' }) as HTMLButtonElement).disabled).toBe(
      true,
    );
    await user.clear(rate);
    await user.type(rate, '40');
    await user.click(screen.getByRole('button', { name: 'Insert' }));
    expect(onSubmit).toHaveBeenCalledWith('+40%');
    await user.selectOptions(screen.getByLabelText('Volume'), 'x-loud');
    await user.click(screen.getByRole('button', { name: 'Insert' }));
    expect(onSubmit).toHaveBeenLastCalledWith('x-loud');
  });

  it("lists only the voice's effects", () => {
    renderForm('voiceEffect', 'calm');
    const options = Array.from(
      (screen.getByLabelText('Voice effect') as HTMLSelectElement).options,
    );
    expect(options.map((o) => o.value)).toEqual(['calm']);
  });
});
