import { describe, expect, it } from 'vitest';
import { Echoes } from './echoes';

describe('Echoes', () => {
  it('takes a value the editor sent for its own, even when later ones were sent since', () => {
    const echoes = new Echoes();
    echoes.send('H');
    echoes.send('He');
    echoes.send('Hel');
    // The page renders 'He' after 'Hel' was typed: not a change from elsewhere.
    expect(echoes.isEcho('He')).toBe(true);
    expect(echoes.isEcho('Hel')).toBe(true);
  });

  it('forgets what came before a value seen back', () => {
    const echoes = new Echoes();
    echoes.send('a');
    echoes.send('ab');
    expect(echoes.isEcho('ab')).toBe(true);
    // 'a' again now is an undo from the page, not an echo.
    expect(echoes.isEcho('a')).toBe(false);
  });

  it('takes a value never sent for a change from elsewhere, and forgets the ones pending', () => {
    const echoes = new Echoes();
    echoes.send('draft');
    expect(echoes.isEcho('uploaded text')).toBe(false);
    expect(echoes.isEcho('draft')).toBe(false);
  });
});
