import { Button, Stack, Text, TextInput } from '@mantine/core';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useLexiconWords } from '../../../hooks/use-lexicon-words';
import { costOf, markupOf, type PronunciationTag } from '../lib/pronunciation-tags';
import { ToolPopover } from './tool-popover';

/** Each tag's name and its value's label (keys written out for the locale files' test). */
const WORDS = {
  phoneme: { name: 'tags.phoneme', value: 'tags.phonemeValue' },
  sub: { name: 'tags.sub', value: 'tags.subValue' },
  lang: { name: 'tags.lang', value: 'tags.langValue' },
} as const satisfies Record<PronunciationTag, { name: string; value: string }>;

interface PronunciationTagButtonProps {
  tag: PronunciationTag;
  /** The value the form starts from (the voice's language for `<lang>`). */
  initial: string;
  onInsert: (open: string, close: string, cost: number) => void;
}

/**
 * A toolbar button of the SSML tab for `<phoneme>`, `<sub>` or `<lang>` around the selection
 * (issue 32, item 3), with its cost in characters, as the other tags' buttons.
 */
export function PronunciationTagButton({ tag, initial, onInsert }: PronunciationTagButtonProps) {
  const { t } = useTranslation();
  const words = useLexiconWords();
  const [opened, setOpened] = useState(false);
  const [value, setValue] = useState(initial);
  const name = words.t(WORDS[tag].name);
  const insert = t('toolbar.insert', { tag: name });
  const hint = t('toolbar.insertHint', { tag: name, count: costOf(tag) });
  const cost = costOf(tag, value);
  return (
    <ToolPopover
      label={name}
      action={insert}
      hint={hint}
      opened={opened}
      onOpenedChange={setOpened}
    >
      <Stack gap="xs" w={240}>
        <TextInput
          label={words.t(WORDS[tag].value)}
          value={value}
          onChange={(event) => setValue(event.currentTarget.value)}
          dir="ltr"
          {...(tag === 'phoneme' && { lang: 'und-fonipa' })}
          data-autofocus
        />
        <Text size="xs" c="dimmed">
          {words.t('tags.cost', { count: cost })}
        </Text>
        <Button
          size="xs"
          disabled={value.trim() === ''}
          onClick={() => {
            const { open, close } = markupOf(tag, value.trim());
            setOpened(false);
            onInsert(open, close, cost);
          }}
        >
          {insert}
        </Button>
      </Stack>
    </ToolPopover>
  );
}
