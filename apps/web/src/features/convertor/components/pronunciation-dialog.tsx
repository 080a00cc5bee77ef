import {
  Alert,
  Button,
  Checkbox,
  Group,
  Modal,
  NativeSelect,
  SegmentedControl,
  Stack,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import {
  LEXICON_LIMITS,
  type LexiconEntryInput,
  LexiconNameSchema,
  type VoiceSettings,
} from '@parla/contract';
import { useQuery } from '@tanstack/react-query';
import { useId, useRef, useState } from 'react';
import { PlayIcon } from '../../../components/player/player-icons';
import { useLexiconWords } from '../../../hooks/use-lexicon-words';
import { ApiError } from '../../../lib/api-client';
import { useToken } from '../../../lib/auth';
import { lexiconsQueryOptions, saveEntry, useLexiconMutation } from '../../../lib/lexicons';
import { convert } from '../api/convert';
import { ipaKeys } from '../lib/ipa-keypad';
import { type Pronunciation, pronunciationSsml } from '../lib/pronunciation-tags';

export interface PronunciationDialogProps {
  /** The selected word (or short phrase), as written. */
  word: string;
  /** The voice and settings of the page: the word is heard in its voice. */
  settings: Omit<VoiceSettings, 'text' | 'voice_effects'>;
  onClose: () => void;
}

const NEW = '\u0000new';
/** A first lexicon's name, when the user has none yet. */
const FIRST_NAME = 'MyWords';

/** Where a 4xx message of PUT /lexicons belongs: the name, the sound, or the whole form. */
function fieldOf(message: string): 'name' | 'sound' | 'form' {
  if (/lexicon name/i.test(message)) return 'name';
  if (/^(alias|phoneme|An entry has)/.test(message)) return 'sound';
  return 'form';
}

/**
 * Issue 32, item 3: a selected word's pronunciation. Hear it as the voice says it now, type
 * how it should sound (a respelling, said instead of it as SSML `<sub>`, or IPA with a keypad
 * of the voice language's symbols, as `<phoneme>`), hear that, and keep it in a lexicon: the
 * user's default lexicons apply to every conversion the editor makes. Loaded when first opened.
 */
export default function PronunciationDialog({ word, settings, onClose }: PronunciationDialogProps) {
  const { t, ready } = useLexiconWords();
  const token = useToken();
  const lexicons = useQuery(lexiconsQueryOptions(token));
  const [kind, setKind] = useState<'alias' | 'phoneme'>('alias');
  const [alias, setAlias] = useState('');
  const [phoneme, setPhoneme] = useState('');
  const ipaInput = useRef<HTMLInputElement>(null);
  const [chosen, setChosen] = useState<string | null>(null);
  const [newName, setNewName] = useState(FIRST_NAME);
  const [asDefault, setAsDefault] = useState<boolean | null>(null);
  const [heard, setHeard] = useState<{ path: string; label: string } | null>(null);
  const [listening, setListening] = useState<'as-is' | 'new' | null>(null);
  const [listenError, setListenError] = useState<string | null>(null);
  const keypadId = useId();

  const list = lexicons.data?.lexicons ?? [];
  const full = lexicons.data ? list.length >= lexicons.data.limits.lexicons : false;
  const target = chosen ?? list.find((lexicon) => lexicon.default)?.name ?? list[0]?.name ?? NEW;
  const creating = target === NEW;
  const existing = list.find((lexicon) => lexicon.name === target);
  const makeDefault = asDefault ?? (existing ? existing.default : true);
  const sound = kind === 'alias' ? alias.trim() : phoneme.trim();
  const how: Pronunciation =
    kind === 'alias'
      ? { kind: 'alias', alias: sound }
      : { kind: 'phoneme', phoneme: sound, alphabet: 'ipa' };
  const nameCheck = creating ? LexiconNameSchema.safeParse(newName) : null;

  const save = useLexiconMutation(async () => {
    const entry: LexiconEntryInput =
      kind === 'alias'
        ? { grapheme: word, alias: sound }
        : { grapheme: word, phoneme: sound, alphabet: 'ipa' };
    const name = creating ? newName : target;
    const lexicon = await saveEntry(
      name,
      entry,
      creating ? settings.language_code : null,
      makeDefault,
    );
    return lexicon.name;
  });
  const saveError = save.error instanceof ApiError ? save.error.message : save.error?.message;
  const errorField = saveError ? fieldOf(saveError) : null;

  const listen = async (which: 'as-is' | 'new') => {
    setListening(which);
    setListenError(null);
    try {
      const text = which === 'as-is' ? word : pronunciationSsml(word, how);
      const result = await convert(
        {
          ...settings,
          text,
          voice_effects: [],
          // Your way, exactly as typed: no lexicon changes it.
          ...(which === 'new' && { lexicon_names: [] }),
        },
        false,
      );
      setHeard({
        path: result.path ?? '',
        label: which === 'as-is' ? t('dialog.asItIs', { word }) : t('dialog.yourWay', { word }),
      });
    } catch (error) {
      setListenError(error instanceof Error ? error.message : String(error));
    } finally {
      setListening(null);
    }
  };

  const insertSymbol = (symbol: string) => {
    const input = ipaInput.current;
    const start = input?.selectionStart ?? phoneme.length;
    const end = input?.selectionEnd ?? phoneme.length;
    const next = `${phoneme.slice(0, start)}${symbol}${phoneme.slice(end)}`;
    setPhoneme(next);
    requestAnimationFrame(() => {
      input?.focus();
      input?.setSelectionRange(start + symbol.length, start + symbol.length);
    });
  };

  if (!ready) return null;
  return (
    <Modal
      opened
      onClose={onClose}
      title={t('dialog.title', { word })}
      closeButtonProps={{ 'aria-label': t('dialog.close') }}
      size="lg"
    >
      <Stack gap="md">
        <Group gap="sm" wrap="wrap">
          <Button
            variant="default"
            leftSection={<PlayIcon size={16} className="mirror-in-rtl" />}
            loading={listening === 'as-is'}
            disabled={listening !== null}
            onClick={() => void listen('as-is')}
            mih={44}
          >
            {t('dialog.hearAsIs')}
          </Button>
        </Group>

        <Stack gap="xs" component="section" aria-labelledby={`${keypadId}-how`}>
          <Title order={3} fz="md" id={`${keypadId}-how`}>
            {t('dialog.howTitle')}
          </Title>
          <SegmentedControl
            value={kind}
            onChange={(value) => setKind(value as 'alias' | 'phoneme')}
            aria-label={t('dialog.howTitle')}
            data={[
              { value: 'alias', label: t('dialog.respelling') },
              { value: 'phoneme', label: t('dialog.ipa') },
            ]}
          />
          {kind === 'alias' ? (
            <TextInput
              label={t('dialog.alias')}
              description={t('dialog.aliasHint')}
              value={alias}
              maxLength={LEXICON_LIMITS.aliasLength}
              onChange={(event) => setAlias(event.currentTarget.value)}
              error={errorField === 'sound' ? saveError : undefined}
              data-autofocus
            />
          ) : (
            <>
              <TextInput
                ref={ipaInput}
                label={t('dialog.phoneme')}
                description={t('dialog.phonemeHint')}
                value={phoneme}
                maxLength={LEXICON_LIMITS.phonemeLength}
                onChange={(event) => setPhoneme(event.currentTarget.value)}
                error={errorField === 'sound' ? saveError : undefined}
                dir="ltr"
                lang="und-fonipa"
                spellCheck={false}
                data-autofocus
              />
              <Group gap={4} role="group" aria-label={t('dialog.keypad')} wrap="wrap" dir="ltr">
                {ipaKeys(settings.language_code).map((symbol) => (
                  <Button
                    key={symbol}
                    variant="default"
                    miw={44}
                    h={44}
                    px={6}
                    aria-label={t('dialog.insertSymbol', { symbol })}
                    onClick={() => insertSymbol(symbol)}
                    lang="und-fonipa"
                  >
                    {symbol}
                  </Button>
                ))}
              </Group>
            </>
          )}
          <Group gap="sm">
            <Button
              variant="light"
              leftSection={<PlayIcon size={16} className="mirror-in-rtl" />}
              loading={listening === 'new'}
              disabled={listening !== null || sound === ''}
              onClick={() => void listen('new')}
              mih={44}
            >
              {t('dialog.preview')}
            </Button>
          </Group>
        </Stack>

        {heard && (
          <Stack gap={4}>
            <Text size="sm" id={`${keypadId}-heard`}>
              {heard.label}
            </Text>
            {/* biome-ignore lint/a11y/useMediaCaption: a spoken word, shown as text just above. */}
            <audio
              key={heard.path}
              src={heard.path}
              controls
              autoPlay
              aria-labelledby={`${keypadId}-heard`}
              style={{ width: '100%' }}
            />
          </Stack>
        )}
        {listenError && (
          <Alert color="red" variant="light" role="alert" p="xs">
            {listenError}
          </Alert>
        )}
        <Text size="xs" c="dimmed">
          {t('dialog.cost')}
        </Text>

        <Stack gap="xs" component="section" aria-labelledby={`${keypadId}-keep`}>
          <Title order={3} fz="md" id={`${keypadId}-keep`}>
            {t('dialog.keepTitle')}
          </Title>
          <NativeSelect
            label={t('dialog.lexicon')}
            value={target}
            onChange={(event) => {
              setChosen(event.currentTarget.value);
              setAsDefault(null);
            }}
            data={[
              ...list.map((lexicon) => ({
                value: lexicon.name,
                label: lexicon.default
                  ? t('dialog.lexiconDefault', { name: lexicon.name })
                  : lexicon.name,
              })),
              ...(full ? [] : [{ value: NEW, label: t('dialog.newLexicon') }]),
            ]}
            description={full ? t('dialog.full') : undefined}
          />
          {creating && (
            <TextInput
              label={t('dialog.newName')}
              description={t('dialog.newNameHint', { max: LEXICON_LIMITS.nameLength })}
              value={newName}
              onChange={(event) => setNewName(event.currentTarget.value)}
              error={
                (errorField === 'name' ? saveError : undefined) ??
                (nameCheck && !nameCheck.success && newName !== ''
                  ? nameCheck.error.issues[0]?.message
                  : undefined)
              }
              dir="ltr"
            />
          )}
          <Checkbox
            label={t('dialog.asDefault')}
            checked={makeDefault}
            onChange={(event) => setAsDefault(event.currentTarget.checked)}
          />
          {errorField === 'form' && (
            <Alert color="red" variant="light" role="alert" p="xs">
              {saveError}
            </Alert>
          )}
          {save.isSuccess && (
            <Alert color="green" variant="light" role="status" p="xs">
              {t('dialog.saved', { lexicon: save.data, word })}
            </Alert>
          )}
          <Group justify="flex-end" gap="sm">
            <Button variant="default" onClick={onClose} mih={44}>
              {t('dialog.close')}
            </Button>
            <Button
              loading={save.isPending}
              disabled={sound === '' || (nameCheck !== null && !nameCheck.success)}
              onClick={() => save.mutate(undefined)}
              mih={44}
            >
              {t('dialog.save')}
            </Button>
          </Group>
        </Stack>
      </Stack>
    </Modal>
  );
}
