import { Text } from '@mantine/core';
import type { SpeechMark } from '@parla/contract';
import { type KeyboardEvent, useContext, useEffect, useId, useMemo, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { PlayerContext } from '../../../lib/player/player-context';
import { useLiveMarks } from '../hooks/use-live-marks';
import { useSpokenWord } from '../hooks/use-spoken-word';
import { readAlongPieces, wordMarks } from '../lib/spoken-word';
import classes from './read-along.module.css';

interface ReadAlongProps {
  /** The text as it was sent (plain text, or the SSML document). */
  source: string;
  /** True when `source` is SSML (its tags are not shown). */
  markup: boolean;
  /** Every mark of the audio, once known. */
  marks?: readonly SpeechMark[] | undefined;
  /**
   * Until then, the marks address of a conversion that streams: the words heard so far are
   * highlighted while it renders (issue 33 item 5), and stay until every mark is known.
   */
  livePath?: string | false | null | undefined;
  /** Told the word being heard (offsets into `source`), or null. */
  onWord?: (word: SpeechMark | null) => void;
}

/**
 * The read-along view under the player (issue 14, item 3): the text as it is read, the word
 * being heard highlighted (selected). It is a list box of the words: a click plays from a
 * word; from one, → and ← (Alt+→ and Alt+← too), Home and End move word by word and play
 * from there.
 */
export function ReadAlong({ source, markup, marks, livePath, onWord }: ReadAlongProps) {
  const { t } = useTranslation();
  const player = useContext(PlayerContext);
  const live = useLiveMarks(marks ? null : livePath || null);
  // Its audio whole, the words heard so far stay until the whole set has come.
  const [heard, setHeard] = useState<readonly SpeechMark[]>();
  useEffect(() => {
    if (live) setHeard(live);
  }, [live]);
  const known = marks ?? live ?? heard;
  const words = useMemo(() => wordMarks(known ?? []), [known]);
  const pieces = useMemo(() => readAlongPieces(source, words, markup), [source, words, markup]);
  const spoken = useSpokenWord(words);
  const hint = useId();
  const options = useRef<(HTMLSpanElement | null)[]>([]);

  useEffect(() => {
    onWord?.(words[spoken] ?? null);
  }, [onWord, words, spoken]);
  // Gone (another conversion): no word is heard any more.
  useEffect(() => () => onWord?.(null), [onWord]);

  const go = (index: number) => {
    const word = words[index];
    if (!word) return;
    player?.seek(word.time / 1000);
    options.current[index]?.focus();
  };
  const onKey = (index: number) => (event: KeyboardEvent<HTMLSpanElement>) => {
    // In a right-to-left text, → goes back.
    const rtl = getComputedStyle(event.currentTarget).direction === 'rtl';
    const moves: Record<string, number> = {
      ArrowRight: rtl ? index - 1 : index + 1,
      ArrowLeft: rtl ? index + 1 : index - 1,
      Home: 0,
      End: words.length - 1,
      Enter: index,
      ' ': index,
    };
    const to = moves[event.key];
    if (to === undefined) return;
    event.preventDefault();
    go(Math.min(words.length - 1, Math.max(0, to)));
  };

  if (words.length === 0) return null;
  // The word in the tab order: the one being heard, or the first.
  const focusable = spoken >= 0 ? spoken : 0;
  return (
    <div className={classes.wrap}>
      <Text id={hint} size="xs" c="dimmed" mb={4}>
        {t('readAlong.hint')}
      </Text>
      <div
        role="listbox"
        aria-label={t('readAlong.label')}
        aria-describedby={hint}
        aria-orientation="horizontal"
        className={classes.text}
      >
        {pieces.map((piece, i) =>
          piece.kind === 'text' ? (
            // Spaces and punctuation between the words: shown, not options.
            // biome-ignore lint/suspicious/noArrayIndexKey: pieces are positions in the text.
            <span key={i} aria-hidden="true">
              {piece.text}
            </span>
          ) : (
            <span
              // biome-ignore lint/suspicious/noArrayIndexKey: pieces are positions in the text.
              key={i}
              role="option"
              ref={(element) => {
                options.current[piece.index] = element;
              }}
              className={classes.word}
              tabIndex={piece.index === focusable ? 0 : -1}
              aria-selected={piece.index === spoken}
              onClick={() => go(piece.index)}
              onKeyDown={onKey(piece.index)}
            >
              {piece.text}
            </span>
          ),
        )}
      </div>
    </div>
  );
}
