import { Button } from '@mantine/core';
import { LEXICON_LIMITS } from '@parla/contract';
import { type RefObject, useEffect, useState } from 'react';
import { useLexiconWords } from '../../../hooks/use-lexicon-words';
import { usePronouncedWords } from '../hooks/use-pronounced-words';
import type { EditorHandle } from '../lib/editor-handle';
import { PRONUNCIATION_TAGS } from '../lib/pronunciation-tags';
import classes from './editor.module.css';
import type { PronouncedMarks } from './pronounced-marks';
import PronunciationDialog, { type PronunciationDialogProps } from './pronunciation-dialog';
import { PronunciationTagButton } from './pronunciation-tag-button';
import { ToolHint } from './tool-hint';

export interface PronunciationToolProps {
  editor: RefObject<EditorHandle | null>;
  /** The tab shown: the SSML tab also offers `<phoneme>`, `<sub>` and `<lang>`. */
  mode: 'text' | 'ssml';
  /** Inserts markup around the selection if `cost` characters remain (the page's rule). */
  onInsertMarkup: (open: string, close: string, cost: number) => void;
  settings: PronunciationDialogProps['settings'] | null;
  /** Says why the dialog does not open (no word selected, or too long a selection). */
  onRefuse: (message: string) => void;
  /** The words the user's default lexicons change, for the Text and SSML tabs to mark. */
  onMarks: (marks: PronouncedMarks | undefined) => void;
}

/**
 * The toolbar's "Pronunciation…" (issue 32, item 3), for signed-in users (on the SSML tab after
 * the `<phoneme>`, `<sub>` and `<lang>` buttons): it opens the
 * pronunciation dialog on the word selected in either tab, and reads the words the user's
 * default lexicons change for the Text and SSML tabs to mark. Loaded once the visitor is known to be
 * signed in, with its dialog: an anonymous first visit carries neither.
 */
export default function PronunciationTool({
  editor,
  mode,
  onInsertMarkup,
  settings,
  onRefuse,
  onMarks,
}: PronunciationToolProps) {
  const { t, ready } = useLexiconWords();
  const marks = usePronouncedWords(settings?.language_code);
  useEffect(() => onMarks(marks), [marks, onMarks]);
  const [word, setWord] = useState<string | null>(null);
  const open = () => {
    const selected = (editor.current?.selectedText() ?? '').trim();
    if (!selected) return onRefuse(t('tool.selectWord'));
    if (selected.length > LEXICON_LIMITS.graphemeLength || selected.includes('\n')) {
      return onRefuse(t('tool.tooLong', { max: LEXICON_LIMITS.graphemeLength }));
    }
    setWord(selected);
  };
  if (!ready) return null;
  return (
    <>
      {mode === 'ssml' &&
        PRONUNCIATION_TAGS.map((tag) => (
          <PronunciationTagButton
            key={tag}
            tag={tag}
            initial={tag === 'lang' ? (settings?.language_code ?? '') : ''}
            onInsert={onInsertMarkup}
          />
        ))}
      <ToolHint label={t('tool.actionHint')}>
        <Button
          size="compact-sm"
          variant="default"
          className={classes.tool}
          disabled={!settings}
          aria-description={t('tool.actionHint')}
          onClick={open}
        >
          {t('tool.action')}
        </Button>
      </ToolHint>
      {word !== null && settings && (
        <PronunciationDialog
          word={word}
          settings={settings}
          onClose={() => {
            setWord(null);
            editor.current?.focus();
          }}
        />
      )}
    </>
  );
}
