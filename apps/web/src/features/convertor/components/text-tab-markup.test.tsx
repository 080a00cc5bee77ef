import { cleanup, fireEvent, screen } from '@testing-library/react';
import { afterEach, expect, it } from 'vitest';
import { editor, renderTab } from '../../../test/text-tab';

afterEach(cleanup);

// The first load of the editor in this file (text-tab.test.tsx says why).
it('loads the editor at once for a document with tags, showing its words meanwhile', async () => {
  const { changes } = renderTab('Wait <break time="2s" /> here');
  const area = editor() as HTMLTextAreaElement;
  expect(area.tagName).toBe('TEXTAREA');
  expect(area.value).toBe('Wait  here');
  expect(area.readOnly).toBe(true);
  // A paste there would write the words without their tags: it is not taken.
  fireEvent.paste(area, { clipboardData: { getData: () => 'more' } });
  expect(changes).toEqual([]);
  expect(await screen.findByRole('button', { name: 'Pause 2s, edit' })).toBeTruthy();
  expect(editor().getAttribute('contenteditable')).toBe('true');
});
