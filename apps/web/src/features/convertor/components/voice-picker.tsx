import {
  ActionIcon,
  Badge,
  Button,
  Checkbox,
  Group,
  Modal,
  NativeSelect,
  Paper,
  SegmentedControl,
  Stack,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import { ENGINES, type Engine, installPercent, type Language, type Voice } from '@parla/contract';
import { useEffect, useMemo, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useVoiceInstalls } from '../api/get-voice-installs';
import { useVoicePreview } from '../hooks/use-voice-preview';
import { genderLabel, languageLabel, voiceLabel } from '../lib/voice-labels';
import {
  filterVoices,
  gendersOf,
  PROVIDER_NAMES,
  styleCount,
  type VoiceFilter,
} from '../lib/voice-picker';
import classes from './voice-picker.module.css';

/** Rows shown at once; a narrower search shows the rest. */
const MAX_ROWS = 150;

interface VoicePickerProps {
  opened: boolean;
  onClose: () => void;
  languages: readonly Language[];
  currentVoiceId: string;
  onChoose: (voice: Voice, language: Language) => void;
  /** An administrator is told how natural voices are added; visitors are not. */
  admin?: boolean;
}

function PlayIcon({ playing }: { playing: boolean }) {
  return (
    <svg width="16" height="16" viewBox="0 0 24 24" aria-hidden="true" fill="currentColor">
      {playing ? <path d="M6 5h4v14H6zM14 5h4v14h-4z" /> : <path d="M8 5v14l11-7z" />}
    </svg>
  );
}

/**
 * The voice picker (issue 15): every voice of the catalogue grouped by language, a search box,
 * filters (engine, gender, provider, with styles), human names, and a Preview that plays the
 * voice's short sample (free, rendered once per voice on the server).
 */
export function VoicePicker({
  opened,
  onClose,
  languages,
  currentVoiceId,
  onChoose,
  admin = false,
}: VoicePickerProps) {
  const { t, i18n } = useTranslation();
  const hasNatural = useMemo(
    () => languages.some((language) => language.voices.some((voice) => voice.engine === 'neural')),
    [languages],
  );
  // While the catalogue has no natural voice, the server may be installing one (issue 29).
  const installs = useVoiceInstalls(opened && languages.length > 0 && !hasNatural);
  const percent = installPercent(installs);
  const [filter, setFilter] = useState<VoiceFilter>({
    query: '',
    engine: 'all',
    gender: 'all',
    provider: 'all',
    withStyles: false,
  });
  const { playing, failed, toggle: preview, stop } = useVoicePreview();

  const providers = useMemo(() => {
    const found = new Set<string>();
    for (const language of languages) {
      for (const voice of language.voices) if (voice.provider) found.add(voice.provider);
    }
    return [...found].sort();
  }, [languages]);
  const genders = useMemo(() => gendersOf(languages), [languages]);
  const groups = useMemo(
    () => filterVoices(languages, filter, currentVoiceId),
    [languages, filter, currentVoiceId],
  );
  // On a phone the picker takes the whole screen, each row fitting its width (issue 33).
  const phone = useMediaQuery('(max-width: 36em)');
  const list = useRef<HTMLDivElement>(null);
  // It opens where the current voice is.
  useEffect(() => {
    if (!opened) return;
    const frame = requestAnimationFrame(() =>
      list.current
        ?.querySelector(`[data-voice="${CSS.escape(currentVoiceId)}"]`)
        ?.scrollIntoView({ block: 'nearest' }),
    );
    return () => cancelAnimationFrame(frame);
  }, [opened, currentVoiceId]);
  const total = groups.reduce((sum, group) => sum + group.voices.length, 0);

  useEffect(() => {
    if (!opened) stop();
  }, [opened, stop]);

  let shown = 0;
  return (
    <Modal
      opened={opened}
      onClose={onClose}
      title={t('voicePicker.title')}
      size="lg"
      fullScreen={phone}
      closeButtonProps={{ 'aria-label': t('voicePicker.close') }}
    >
      <Stack gap="sm">
        <TextInput
          data-autofocus
          label={t('voicePicker.search')}
          value={filter.query}
          onChange={(event) => setFilter({ ...filter, query: event.currentTarget.value })}
        />
        <Group gap="sm" align="flex-end" wrap="wrap">
          <SegmentedControl
            aria-label={t('settings.engine')}
            value={filter.engine}
            onChange={(engine) => setFilter({ ...filter, engine: engine as Engine | 'all' })}
            data={[
              { value: 'all', label: t('voicePicker.allEngines') },
              ...ENGINES.map((engine) => ({ value: engine, label: t(`settings.${engine}`) })),
            ]}
          />
          <NativeSelect
            label={t('voicePicker.gender')}
            value={filter.gender}
            onChange={(event) => setFilter({ ...filter, gender: event.currentTarget.value })}
            data={[
              { value: 'all', label: t('voicePicker.any') },
              ...genders.map((gender) => ({ value: gender, label: genderLabel(gender, t) })),
            ]}
          />
          {providers.length > 1 && (
            <NativeSelect
              label={t('voicePicker.provider')}
              value={filter.provider}
              onChange={(event) => setFilter({ ...filter, provider: event.currentTarget.value })}
              data={[
                { value: 'all', label: t('voicePicker.any') },
                ...providers.map((p) => ({ value: p, label: PROVIDER_NAMES[p] ?? p })),
              ]}
            />
          )}
          <Checkbox
            label={t('voicePicker.withStyles')}
            checked={filter.withStyles}
            onChange={(event) => setFilter({ ...filter, withStyles: event.currentTarget.checked })}
          />
        </Group>
        <Text size="sm" c="dimmed" aria-live="polite">
          {t('voicePicker.count', { count: total })}
        </Text>
        {/* Scrolled natively: rows take the dialog's width, never their content's. */}
        <div ref={list} className={classes.list}>
          <Stack gap="md">
            {total === 0 &&
              (filter.engine === 'neural' && !hasNatural ? (
                <Stack gap={4}>
                  <Text>{t('voicePicker.noNatural')}</Text>
                  {installs.length > 0 && (
                    <Text role="status">
                      {percent === undefined
                        ? t('voicePicker.installingNatural')
                        : t('voicePicker.installingNaturalPercent', { percent })}
                    </Text>
                  )}
                  {admin && (
                    <Text size="sm" c="dimmed">
                      {t('settings.addVoicesAdmin')}
                    </Text>
                  )}
                </Stack>
              ) : (
                <Text>{t('voicePicker.none')}</Text>
              ))}
            {groups.map((group) => {
              if (shown >= MAX_ROWS) return null;
              const visible = group.voices.slice(0, MAX_ROWS - shown);
              shown += visible.length;
              return (
                <section
                  key={group.language.language_code}
                  aria-label={languageLabel(group.language, i18n.language)}
                >
                  <Title order={3} size="h5" mb={6}>
                    {languageLabel(group.language, i18n.language)}
                  </Title>
                  <Stack gap={6}>
                    {visible.map((voice) => {
                      const current = voice.id === currentVoiceId;
                      const styles = styleCount(voice);
                      const name = voiceLabel(voice, group.language, i18n.language, t);
                      return (
                        <Paper
                          key={voice.id}
                          withBorder
                          p="xs"
                          radius="sm"
                          data-voice={voice.id}
                          aria-current={current || undefined}
                          className={classes.row}
                        >
                          <Group justify="space-between" wrap="nowrap" gap="xs">
                            <Group gap="xs" wrap="nowrap" style={{ minWidth: 0, flex: 1 }}>
                              <ActionIcon
                                variant="light"
                                size="lg"
                                aria-label={
                                  playing === voice.id
                                    ? t('voicePicker.stop')
                                    : t('voicePicker.preview', { name })
                                }
                                aria-pressed={playing === voice.id}
                                onClick={() => preview(voice.id)}
                              >
                                <PlayIcon playing={playing === voice.id} />
                              </ActionIcon>
                              <Stack gap={2} style={{ minWidth: 0 }}>
                                <Text fw={600} size="sm" truncate>
                                  <bdi>{name}</bdi>
                                </Text>
                                <Group gap={4} wrap="wrap">
                                  <Badge size="xs" variant="light">
                                    {t(`settings.${voice.engine}`)}
                                  </Badge>
                                  <Badge size="xs" variant="outline" color="gray">
                                    {genderLabel(voice.gender, t)}
                                  </Badge>
                                  {voice.provider && (
                                    <Badge size="xs" variant="outline" color="gray">
                                      {PROVIDER_NAMES[voice.provider] ?? voice.provider}
                                    </Badge>
                                  )}
                                  {styles > 0 && (
                                    <Badge size="xs" variant="light" color="grape">
                                      {t('voicePicker.styles', { count: styles })}
                                    </Badge>
                                  )}
                                  {voice.available === false && (
                                    <Badge size="xs" color="orange">
                                      {t('voicePicker.unavailable')}
                                    </Badge>
                                  )}
                                </Group>
                                {failed === voice.id && (
                                  <Text size="xs" c="red" role="alert">
                                    {t('voicePicker.previewFailed')}
                                  </Text>
                                )}
                              </Stack>
                            </Group>
                            <Button
                              size="xs"
                              variant={current ? 'light' : 'filled'}
                              disabled={current}
                              aria-label={`${current ? t('voicePicker.current') : t('voicePicker.use')} ${name}`}
                              style={{ flexShrink: 0 }}
                              onClick={() => {
                                stop();
                                onChoose(voice, group.language);
                              }}
                            >
                              {current ? t('voicePicker.current') : t('voicePicker.use')}
                            </Button>
                          </Group>
                        </Paper>
                      );
                    })}
                  </Stack>
                </section>
              );
            })}
            {total > MAX_ROWS && (
              <Text size="sm" c="dimmed">
                {t('voicePicker.more', { count: total - MAX_ROWS })}
              </Text>
            )}
          </Stack>
        </div>
      </Stack>
    </Modal>
  );
}
