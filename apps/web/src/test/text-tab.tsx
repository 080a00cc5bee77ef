import { render, screen } from '@testing-library/react';
import { createRef, useState } from 'react';
import { vi } from 'vitest';
import { AppProviders } from '../app/providers';
import { TextTab } from '../features/convertor/components/text-tab';
import type { ChangeOperation, EditorHandle } from '../features/convertor/lib/editor-handle';

/** The convertor's Text tab on a page that keeps its document, with what it was told. */
export function renderTab(initial: string, limit = 40) {
  const changes: [string, ChangeOperation][] = [];
  const onCut = vi.fn();
  const onUndo = vi.fn();
  const onRedo = vi.fn();
  const handle = createRef<EditorHandle>();
  function Page() {
    const [value, setValue] = useState(initial);
    return (
      <TextTab
        ref={handle}
        value={value}
        limit={limit}
        label="Text editor"
        onChange={(next, operation) => {
          changes.push([next, operation]);
          setValue(next);
        }}
        onCut={onCut}
        onUndo={onUndo}
        onRedo={onRedo}
      />
    );
  }
  render(
    <AppProviders>
      <Page />
    </AppProviders>,
  );
  return { changes, onCut, onUndo, onRedo, handle };
}

/** The Text tab's text box: the plain text area, then the editor. */
export const editor = () => screen.getByRole('textbox', { name: 'Text editor' });
