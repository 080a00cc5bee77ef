import { Text } from '@mantine/core';
import type { SpeechMark } from '@parla/contract';
import { type KeyboardEvent, useContext, useEffect, useId, useMemo, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { useSpokenWord } from '../hooks/use-spoken-word';
import { PlayerContext } from '../lib/player-context';
import { readAlongPieces, wordMarks } from '../lib/spoken-word';
import classes from './read-along.module.css';

interface ReadAlongProps {
  /** The text as it was sent (plain text, or the SSML document). */
  source: string;
  /** True when `source` is SSML (its tags are not shown). */
  markup: boolean;
  marks: readonly SpeechMark[];
  /** Told the word being heard (offsets into `source`), or null. */
  onWord?: (word: SpeechMark | null) => void;
}

/**
 * The read-along view under the player (issue 14, item 3): the text as it is read, the word
 * being heard highlighted. A word is a button that plays from there; from one, Alt+→ and
 * Alt+← (or the arrows alone) move to the next and previous word and play from it.
 */
export function ReadAlong({ source, markup, marks, onWord }: ReadAlongProps) {
  const { t } = useTranslation();
  const player = useContext(PlayerContext);
  const words = useMemo(() => wordMarks(marks), [marks]);
  const pieces = useMemo(() => readAlongPieces(source, words, markup), [source, words, markup]);
  const spoken = useSpokenWord(words);
  const hint = useId();
  const buttons = useRef<(HTMLButtonElement | null)[]>([]);

  useEffect(() => {
    onWord?.(words[spoken] ?? null);
  }, [onWord, words, spoken]);

  const go = (index: number) => {
    const word = words[index];
    if (!word) return;
    player?.seek(word.time / 1000);
    buttons.current[index]?.focus();
  };
  const onKey = (event: KeyboardEvent<HTMLDivElement>) => {
    const at = buttons.current.indexOf(document.activeElement as HTMLButtonElement);
    if (at < 0) return;
    const step: Record<string, number> = { ArrowRight: 1, ArrowLeft: -1 };
    const by = step[event.key];
    if (by === undefined) return;
    event.preventDefault();
    // In a right-to-left text, → goes back.
    const rtl = getComputedStyle(event.currentTarget).direction === 'rtl';
    go(Math.min(words.length - 1, Math.max(0, at + (rtl ? -by : by))));
  };

  if (words.length === 0) return null;
  // The word in the tab order: the one being heard, or the first.
  const focusable = spoken >= 0 ? spoken : 0;
  return (
    <div className={classes.wrap}>
      <Text id={hint} size="xs" c="dimmed" mb={4}>
        {t('readAlong.hint')}
      </Text>
      {/* biome-ignore lint/a11y/useSemanticElements: a paragraph of word buttons, not a form's fieldset. */}
      <div
        role="group"
        aria-label={t('readAlong.label')}
        aria-describedby={hint}
        className={classes.text}
        onKeyDown={onKey}
      >
        {pieces.map((piece, i) =>
          piece.kind === 'text' ? (
            // biome-ignore lint/suspicious/noArrayIndexKey: pieces are positions in the text.
            <span key={i}>{piece.text}</span>
          ) : (
            <button
              // biome-ignore lint/suspicious/noArrayIndexKey: pieces are positions in the text.
              key={i}
              type="button"
              ref={(element) => {
                buttons.current[piece.index] = element;
              }}
              className={classes.word}
              tabIndex={piece.index === focusable ? 0 : -1}
              aria-current={piece.index === spoken ? 'true' : undefined}
              onClick={() => go(piece.index)}
            >
              {piece.text}
            </button>
          ),
        )}
      </div>
    </div>
  );
}
