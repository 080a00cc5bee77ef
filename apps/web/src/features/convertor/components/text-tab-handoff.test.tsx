import { cleanup, waitFor } from '@testing-library/react';
import { afterEach, expect, it } from 'vitest';
import { editor, renderTab } from '../../../test/text-tab';

afterEach(cleanup);

// The first load of the editor in this file (text-tab.test.tsx says why).
it('gives way to the editor on focus, keeping the text, the selection and the focus', async () => {
  renderTab('First line\nsecond line');
  const area = editor() as HTMLTextAreaElement;
  expect(area.tagName).toBe('TEXTAREA');
  area.focus();
  area.setSelectionRange(11, 17);
  await waitFor(() => expect(editor().getAttribute('contenteditable')).toBe('true'));
  const rich = editor();
  expect(rich.textContent).toBe('First linesecond line');
  expect(document.activeElement).toBe(rich);
  expect(window.getSelection()?.toString()).toBe('second');
});
