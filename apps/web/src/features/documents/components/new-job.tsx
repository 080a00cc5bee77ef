import {
  Alert,
  Box,
  Button,
  Checkbox,
  CloseButton,
  FileButton,
  Group,
  NumberInput,
  SegmentedControl,
  Select,
  Skeleton,
  Stack,
  Table,
  Text,
  TextInput,
} from '@mantine/core';
import { CHAPTER_PAUSE, type DocumentPreview } from '@parla/contract';
import { useQuery } from '@tanstack/react-query';
import { useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useFormat } from '../../../hooks/use-format';
import { usePageWords } from '../../../hooks/use-page-words';
import { ApiError } from '../../../lib/api-client';
import { useSession, useToken } from '../../../lib/auth';
import { useVoices } from '../../../lib/get-voices';
import { isActive, jobsQueryOptions } from '../../../lib/jobs';
import { usePreviewDocument, useStartJob } from '../api/jobs';

/** The audiobook's file: chapters marked in mp3 (ID3) and Ogg (comments); WAV has none. */
type JobFormat = 'mp3' | 'ogg' | 'wav';

const ACCEPT = '.epub,.pdf,.docx,.md,.markdown,.html,.htm,.txt';

interface Choice {
  keep: boolean;
  title: string;
}

/**
 * A new audiobook (issue 19): a document, its chapters (kept or dropped, renamed) and their
 * cost, a voice and a format; then the job starts on the server.
 */
export function NewJob() {
  const { t } = useTranslation();
  const { number } = useFormat();
  const session = useSession();
  const voices = useVoices();
  const preview = usePreviewDocument();
  const start = useStartJob();
  const [file, setFile] = useState<File | null>(null);
  const [chapters, setChapters] = useState<Choice[]>([]);
  const [language, setLanguage] = useState<string | null>(null);
  const [voice, setVoice] = useState<string | null>(null);
  const [format, setFormat] = useState<JobFormat>('mp3');
  // As audiobooks do: each chapter opens with its title, a pause between chapters.
  const [speakTitles, setSpeakTitles] = useState(true);
  const [pause, setPause] = useState<number>(CHAPTER_PAUSE.default);
  const [dragging, setDragging] = useState(false);
  const words = usePageWords();
  const resetFileButton = useRef<() => void>(null);
  const chooseButton = useRef<HTMLButtonElement>(null);
  // The job just started, as the list shows it: its notice goes when it ends (issue 33 item 7).
  const jobs = useQuery(jobsQueryOptions(useToken()));
  const startedJob = start.data && jobs.data?.find((job) => job.id === start.data.id);
  const startedStillMoving = start.isSuccess && (!startedJob || isActive(startedJob));

  const read = (chosen: File | null) => {
    setFile(chosen);
    if (!chosen) resetFileButton.current?.();
    setChapters([]);
    start.reset();
    if (!chosen) return preview.reset();
    preview.mutate(chosen, {
      onSuccess: (found: DocumentPreview) =>
        setChapters(found.chapters.map((chapter) => ({ keep: true, title: chapter.title }))),
    });
  };

  const found = preview.data;
  const kept = found ? found.chapters.filter((_, index) => chapters[index]?.keep) : [];
  const characters = kept.reduce((sum, chapter) => sum + chapter.characters, 0);
  const left = session.profile?.plan.count_characters ?? 0;
  const languages = voices.data ?? [];
  const languageVoices = languages.find((entry) => entry.language_code === language)?.voices ?? [];
  const error = preview.error ?? start.error;

  const submit = () => {
    if (!file || !found) return;
    start.mutate(
      {
        document: file,
        chapters: found.chapters.flatMap((_, index) =>
          chapters[index]?.keep ? [{ index, title: chapters[index]?.title.trim() || _.title }] : [],
        ),
        settings: {
          output_format: format,
          ...(format === 'wav' && { sample_rate: '16000' }),
          ...(language && { language_code: language }),
          ...(voice && { voice_id: voice }),
          speak_chapter_titles: String(speakTitles),
          chapter_pause: String(pause),
        },
      },
      {
        onSuccess: () => {
          setFile(null);
          setChapters([]);
          preview.reset();
        },
      },
    );
  };

  return (
    <Stack gap="md">
      {/* A drop zone with a button (issue 33 item 7): a file dropped on it is read as if chosen. */}
      <Box
        role="group"
        aria-labelledby="document-drop-label"
        aria-describedby="document-drop-hint"
        data-testid="document-drop"
        data-dragging={dragging || undefined}
        px="md"
        py="lg"
        style={{
          border: `2px dashed var(--mantine-color-${dragging ? 'blue-6' : 'default-border'})`,
          borderRadius: 'var(--mantine-radius-md)',
          background: dragging ? 'var(--mantine-color-blue-light)' : undefined,
        }}
        onDragOver={(event) => {
          event.preventDefault();
          setDragging(true);
        }}
        onDragLeave={() => setDragging(false)}
        onDrop={(event) => {
          event.preventDefault();
          setDragging(false);
          const dropped = event.dataTransfer.files[0];
          if (dropped) read(dropped);
        }}
      >
        <Stack gap="xs" align="center" ta="center">
          <Text fw={600} id="document-drop-label">
            {t('documents.file')}
          </Text>
          <Text size="sm" c="dimmed" id="document-drop-hint">
            {t('documents.fileHint')}
          </Text>
          {words.ready ? (
            <FileButton onChange={read} accept={ACCEPT} resetRef={resetFileButton}>
              {(props) => (
                <Button {...props} ref={chooseButton} variant="light" h={44}>
                  {words.t('documentForm.choose')}
                </Button>
              )}
            </FileButton>
          ) : (
            <Skeleton height={44} width={160} />
          )}
          {file && (
            <Group gap={4} justify="center" wrap="nowrap">
              <Text size="sm" data-testid="document-chosen" style={{ overflowWrap: 'anywhere' }}>
                {words.t('documentForm.chosen', { name: file.name })}
              </Text>
              <CloseButton
                size={44}
                aria-label={t('documents.clear')}
                onClick={() => {
                  read(null);
                  chooseButton.current?.focus();
                }}
              />
            </Group>
          )}
        </Stack>
      </Box>
      {preview.isPending && <Text c="dimmed">{t('documents.reading')}</Text>}
      {error && (
        <Alert color="red" variant="light" role="alert">
          {error instanceof ApiError ? error.message : t('documents.failed')}
        </Alert>
      )}
      {startedStillMoving && (
        <Alert color="green" variant="light" role="status">
          {t('documents.started')}
        </Alert>
      )}
      {found && (
        <Stack gap="sm">
          <Text fw={600}>{found.title}</Text>
          <Table.ScrollContainer minWidth={320}>
            <Table>
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>{t('documents.keep')}</Table.Th>
                  <Table.Th>{t('documents.chapter')}</Table.Th>
                  <Table.Th ta="end">{t('documents.characters')}</Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {found.chapters.map((chapter, index) => (
                  <Table.Tr key={chapter.index}>
                    <Table.Td>
                      <Checkbox
                        aria-label={t('documents.keepNamed', { title: chapter.title })}
                        checked={chapters[index]?.keep ?? true}
                        onChange={(event) => {
                          const keep = event.currentTarget.checked;
                          setChapters((all) =>
                            all.map((c, i) => (i === index ? { ...c, keep } : c)),
                          );
                        }}
                      />
                    </Table.Td>
                    <Table.Td>
                      <TextInput
                        aria-label={t('documents.titleOf', { number: index + 1 })}
                        value={chapters[index]?.title ?? chapter.title}
                        maxLength={200}
                        onChange={(event) => {
                          const title = event.currentTarget.value;
                          setChapters((all) =>
                            all.map((c, i) => (i === index ? { ...c, title } : c)),
                          );
                        }}
                      />
                    </Table.Td>
                    <Table.Td ta="end">{number(chapter.characters)}</Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          </Table.ScrollContainer>
          <Text c={characters > left ? 'red' : undefined} role="status">
            {t('documents.cost', { characters: number(characters), left: number(left) })}
          </Text>
          <Group grow align="flex-end" wrap="wrap">
            <Select
              label={t('documents.language')}
              placeholder={t('documents.defaultLanguage')}
              data={languages.map((entry) => ({
                value: entry.language_code,
                label: entry.language_name,
              }))}
              value={language}
              onChange={(value) => {
                setLanguage(value);
                setVoice(null);
              }}
              searchable
              clearable
            />
            <Select
              label={t('documents.voice')}
              placeholder={t('documents.defaultVoice')}
              data={languageVoices.map((entry) => ({ value: entry.id, label: entry.name }))}
              value={voice}
              onChange={setVoice}
              disabled={!language}
              searchable
              clearable
            />
          </Group>
          <SegmentedControl
            aria-label={t('documents.format')}
            data={[
              { value: 'mp3', label: t('documents.mp3') },
              { value: 'ogg', label: t('documents.ogg') },
              { value: 'wav', label: 'WAV' },
            ]}
            value={format}
            onChange={(value) => setFormat(value as JobFormat)}
          />
          <Group align="flex-end" wrap="wrap">
            <Checkbox
              label={t('documents.speakTitles')}
              checked={speakTitles}
              onChange={(event) => setSpeakTitles(event.currentTarget.checked)}
            />
            <NumberInput
              label={t('documents.chapterPause')}
              min={0}
              max={CHAPTER_PAUSE.max}
              step={0.5}
              decimalScale={1}
              clampBehavior="strict"
              value={pause}
              onChange={(value) => setPause(typeof value === 'number' ? value : Number(value) || 0)}
            />
          </Group>
          <Group>
            <Button
              onClick={submit}
              loading={start.isPending}
              disabled={kept.length === 0 || characters > left}
            >
              {t('documents.start')}
            </Button>
          </Group>
        </Stack>
      )}
    </Stack>
  );
}
