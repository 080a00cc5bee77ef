import { act, cleanup, fireEvent, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { editor, renderTab } from '../../../test/text-tab';
import { ssmlWithTag } from './text-tab';

afterEach(cleanup);

describe('the SSML of a tag put around a plain selection', () => {
  it('wraps the selection, escapes the text and keeps its lines', () => {
    expect(ssmlWithTag('Tom & Jerry', 6, 11, '<emphasis>', '</emphasis>')).toBe(
      'Tom &amp; <emphasis>Jerry</emphasis>',
    );
    expect(ssmlWithTag('one\ntwo', 2, 7, '<prosody rate="slow">', '</prosody>')).toBe(
      'on<prosody rate="slow">e\ntwo</prosody>',
    );
    expect(ssmlWithTag('one\ntwo', 4, 4, '<break time="1s" />', null)).toBe(
      'one\n<break time="1s" />two',
    );
  });
});

// The editor's module, once loaded, stays loaded: the tests of the plain text area come first
// and touch it without focusing or pointing at it (either would bring the editor). The
// hand-over on focus and a document with tags have files of their own, each loading the editor
// for the first time.
describe('the Text tab before its editor is needed', () => {
  it('is a plain text area with the editor’s rules: SSML out, the limit, the page’s undo', () => {
    const { changes, onUndo, onRedo } = renderTab('', 12);
    const area = editor();
    expect(area.tagName).toBe('TEXTAREA');
    fireEvent.change(area, { target: { value: 'a < b' } });
    expect(changes.at(-1)).toEqual(['a &lt; b', 'edit']);
    // `&lt;` counts four: past twelve characters the text does not grow.
    fireEvent.change(area, { target: { value: 'a < b and more' } });
    expect(changes).toHaveLength(1);
    expect((area as HTMLTextAreaElement).value).toBe('a < b');
    fireEvent.change(area, { target: { value: 'a < b and' } });
    expect(changes.at(-1)?.[0]).toBe('a &lt; b and');
    fireEvent.keyDown(area, { key: 'z', ctrlKey: true });
    expect(onUndo).toHaveBeenCalledTimes(1);
    fireEvent.keyDown(area, { key: 'Z', ctrlKey: true, shiftKey: true });
    fireEvent.keyDown(area, { key: 'y', metaKey: true });
    expect(onRedo).toHaveBeenCalledTimes(2);
    expect(editor().tagName).toBe('TEXTAREA');
  });

  it('cuts a paste to what remains and says so', () => {
    const { changes, onCut } = renderTab('Hi ', 10);
    const area = editor() as HTMLTextAreaElement;
    area.setSelectionRange(3, 3);
    fireEvent.paste(area, { clipboardData: { getData: () => 'everybody here' } });
    expect(onCut).toHaveBeenCalledWith('everybo', 'everybody here');
    expect(changes).toEqual([['Hi everybo', 'paste']]);
    // Nothing left: the paste is refused with the notice and changes nothing.
    area.setSelectionRange(10, 10);
    fireEvent.paste(area, { clipboardData: { getData: () => '!' } });
    expect(onCut).toHaveBeenLastCalledWith('', '!');
    expect(changes).toHaveLength(1);
  });

  it('puts a paste that fits at the cursor, and the cursor after it', () => {
    const { changes, onCut } = renderTab('Hi there');
    const area = editor() as HTMLTextAreaElement;
    area.setSelectionRange(3, 3);
    fireEvent.paste(area, { clipboardData: { getData: () => 'you\r\nand ' } });
    expect(changes).toEqual([['Hi you\nand there', 'paste']]);
    expect(area.value).toBe('Hi you\nand there');
    expect([area.selectionStart, area.selectionEnd]).toEqual([11, 11]);
    expect(onCut).not.toHaveBeenCalled();
  });

  it('wraps the selection in a tag asked for before the editor arrived', async () => {
    const { changes, handle } = renderTab('Hello world');
    const area = editor() as HTMLTextAreaElement;
    area.setSelectionRange(6, 11);
    expect(handle.current?.hasSelection()).toBe(true);
    expect(handle.current?.previewInsert('<emphasis>', '</emphasis>')).toBe(
      'Hello <emphasis>world</emphasis>',
    );
    act(() => handle.current?.insertTag('<emphasis>', '</emphasis>'));
    await waitFor(() =>
      expect(changes.at(-1)).toEqual(['Hello <emphasis>world</emphasis>', 'insert-emphasis']),
    );
    expect(editor().getAttribute('contenteditable')).toBe('true');
  });

  it('once loaded, the editor is there from the start', () => {
    renderTab('First line\nsecond line');
    expect(editor().getAttribute('contenteditable')).toBe('true');
    expect(editor().textContent).toBe('First linesecond line');
  });
});
