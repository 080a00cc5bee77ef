import { Badge, Button, Card, Group, Modal, Paper, Progress, Stack, Text } from '@mantine/core';
import type { Job, SpeechMark } from '@parla/contract';
import { useQuery } from '@tanstack/react-query';
import { useContext, useEffect, useMemo, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { AudioPlayer } from '../../../components/player/audio-player';
import { useFormat } from '../../../hooks/use-format';
import { useToken } from '../../../lib/auth';
import { useSpeechMarks } from '../../../lib/get-marks';
import { getJobFile, isActive, jobsQueryOptions, useDeleteJob } from '../../../lib/jobs';
import { PlayerContext } from '../../../lib/player/player-context';

/** Each status's words (keys written out, so the locale files' test finds them). */
const STATUS_WORDS = {
  queued: 'documents.status.queued',
  running: 'documents.status.running',
  done: 'documents.status.done',
  failed: 'documents.status.failed',
  cancelled: 'documents.status.cancelled',
} as const satisfies Record<Job['status'], string>;

const STATUS_COLOURS: Record<Job['status'], string> = {
  queued: 'gray',
  running: 'blue',
  done: 'green',
  failed: 'red',
  cancelled: 'gray',
};

/** Saves a blob under a file name, as a download link does. */
function save(blob: Blob, name: string) {
  const url = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = name;
  link.click();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

/**
 * The user's jobs, newest first, with live progress, cancel, delete, and the finished
 * audiobooks. `?job=<id>` (File History's Open) brings that audiobook into view, its player open.
 */
export function JobList() {
  const { t } = useTranslation();
  const token = useToken();
  const jobs = useQuery(jobsQueryOptions(token));
  const [params] = useSearchParams();
  const opened = params.get('job');
  if (jobs.isPending) return <Text c="dimmed">{t('documents.loading')}</Text>;
  if (!jobs.data?.length) return <Text c="dimmed">{t('documents.none')}</Text>;
  return (
    <Stack gap="md">
      {jobs.data.map((job) => (
        <JobCard key={job.id} job={job} opened={job.id === opened} />
      ))}
    </Stack>
  );
}

function JobCard({ job, opened }: { job: Job; opened: boolean }) {
  const { t } = useTranslation();
  const { number } = useFormat();
  const remove = useDeleteJob();
  const [confirming, setConfirming] = useState(false);
  const card = useRef<HTMLDivElement>(null);
  useEffect(() => {
    if (opened) card.current?.scrollIntoView({ block: 'start' });
  }, [opened]);
  const percent = Math.round(job.progress.fraction * 100);
  const minutes =
    job.progress.seconds_left === null
      ? null
      : Math.max(1, Math.round(job.progress.seconds_left / 60));
  return (
    <Card ref={card} withBorder padding="md" data-testid="job">
      <Stack gap="xs">
        <Group justify="space-between" wrap="wrap" gap="xs">
          <Text fw={600}>{job.title}</Text>
          <Badge color={STATUS_COLOURS[job.status]} variant="light">
            {t(STATUS_WORDS[job.status])}
          </Badge>
        </Group>
        <Text size="sm" c="dimmed">
          {t('documents.summary', {
            chapters: job.progress.chapters,
            characters: number(job.characters),
          })}
        </Text>
        {isActive(job) && (
          <>
            <Progress
              value={percent}
              aria-label={t('documents.progress', { title: job.title })}
              animated
            />
            <Group justify="space-between" wrap="wrap" gap="xs">
              <Text size="sm" role="status">
                {t('documents.progressText', {
                  percent,
                  done: job.progress.chapters_done,
                  chapters: job.progress.chapters,
                })}
                {minutes !== null && ` · ${t('documents.minutesLeft', { count: minutes })}`}
              </Text>
              <Button
                variant="default"
                size="xs"
                onClick={() => remove.mutate(job.id)}
                loading={remove.isPending}
              >
                {t('documents.cancel')}
              </Button>
            </Group>
          </>
        )}
        {job.status === 'failed' && job.error && (
          <Text size="sm" c="red" role="alert">
            {job.error}
          </Text>
        )}
        {job.status === 'done' && <JobPlayer job={job} opened={opened} />}
        {!isActive(job) && (
          <Group>
            <Button
              size="xs"
              variant="default"
              onClick={() => setConfirming(true)}
              aria-label={t('documents.deleteLabel', { title: job.title })}
            >
              {t('documents.delete')}
            </Button>
          </Group>
        )}
        {remove.isError && (
          <Text size="sm" c="red" role="alert">
            {remove.error.message}
          </Text>
        )}
      </Stack>
      <Modal
        opened={confirming}
        onClose={() => setConfirming(false)}
        title={t('documents.deleteTitle')}
        closeButtonProps={{ 'aria-label': t('fileHistory.close') }}
        centered
      >
        <Text mb="lg">{t('documents.deleteConfirm', { title: job.title })}</Text>
        <Group justify="flex-end">
          <Button variant="default" onClick={() => setConfirming(false)}>
            {t('fileHistory.cancel')}
          </Button>
          <Button
            color="red.9"
            loading={remove.isPending}
            onClick={() => remove.mutate(job.id, { onSettled: () => setConfirming(false) })}
          >
            {t('documents.delete')}
          </Button>
        </Group>
      </Modal>
    </Card>
  );
}

/** The position of the player around, in ms, as it plays and seeks. */
function usePlayerTime(): number {
  const audioRef = useContext(PlayerContext)?.audio;
  const [time, setTime] = useState(0);
  useEffect(() => {
    const audio = audioRef?.current;
    if (!audio) return;
    const update = () => setTime(audio.currentTime * 1000);
    audio.addEventListener('timeupdate', update);
    audio.addEventListener('seeked', update);
    return () => {
      audio.removeEventListener('timeupdate', update);
      audio.removeEventListener('seeked', update);
    };
  }, [audioRef]);
  return time;
}

/** The sentence being read, its word marked, as the audio plays (a read-along for long texts). */
function NowReading({ marks }: { marks: SpeechMark[] | undefined }) {
  const { t } = useTranslation();
  const time = usePlayerTime();
  const timeline = useMemo(
    () => ({
      sentences: (marks ?? []).filter((mark) => mark.type === 'sentence'),
      words: (marks ?? []).filter((mark) => mark.type === 'word'),
    }),
    [marks],
  );
  const sentence = timeline.sentences.findLast((mark) => mark.time <= time);
  if (!sentence) return null;
  const word = timeline.words.findLast(
    (mark) => mark.time <= time && mark.start >= sentence.start && mark.end <= sentence.end,
  );
  const from = word ? word.start - sentence.start : 0;
  const to = word ? word.end - sentence.start : 0;
  return (
    <Paper withBorder p="sm" aria-label={t('documents.nowReading')} data-testid="now-reading">
      <Text size="sm">
        {sentence.value.slice(0, from)}
        {word && <mark>{sentence.value.slice(from, to)}</mark>}
        {sentence.value.slice(to)}
      </Text>
    </Paper>
  );
}

/** The chapters of an audiobook: each plays from its start in the player around. */
function Chapters({ chapters }: { chapters: Job['chapters'] }) {
  const { t } = useTranslation();
  const player = useContext(PlayerContext);
  const play = (start: number | null) => {
    if (!player || start === null) return;
    player.seek(start);
    void player.audio.current?.play().catch(() => undefined);
  };
  return (
    <nav aria-label={t('documents.chapters')}>
      <Group gap="xs" wrap="wrap">
        {chapters.map((chapter) => (
          <Button
            key={`${chapter.start}-${chapter.title}`}
            size="xs"
            variant="light"
            h="auto"
            mih={44}
            py={6}
            // A long title wraps instead of being cut off.
            styles={{ label: { whiteSpace: 'normal', textAlign: 'start' } }}
            onClick={() => play(chapter.start)}
          >
            {chapter.title}
          </Button>
        ))}
      </Group>
    </nav>
  );
}

/** A finished audiobook: its player, its chapters to jump to, and its downloads. */
function JobPlayer({ job, opened }: { job: Job; opened: boolean }) {
  const { t } = useTranslation();
  const [open, setOpen] = useState(opened);
  const file = useQuery({
    queryKey: ['jobs', 'audio', job.id],
    queryFn: ({ signal }) => getJobFile(job.path ?? '', signal),
    enabled: open && job.path !== null,
    staleTime: Number.POSITIVE_INFINITY,
  });
  const [url, setUrl] = useState<string>();
  const marks = useSpeechMarks(open ? job.marks_path : null);
  useEffect(() => {
    if (!file.data) return;
    const made = URL.createObjectURL(file.data);
    setUrl(made);
    return () => URL.revokeObjectURL(made);
  }, [file.data]);
  const download = async (path: string | null, extension: string) => {
    if (path) save(await getJobFile(path), `${job.title}.${extension}`);
  };

  return (
    <Stack gap="xs">
      {!open && (
        <Group>
          <Button size="xs" onClick={() => setOpen(true)}>
            {t('documents.listen')}
          </Button>
        </Group>
      )}
      {open && file.isPending && <Text c="dimmed">{t('documents.loadingAudio')}</Text>}
      {url && (
        <AudioPlayer
          path={url}
          duration={job.duration ?? 0}
          label={t('documents.player', { title: job.title })}
        >
          <NowReading marks={marks.data} />
          <Chapters chapters={job.chapters} />
        </AudioPlayer>
      )}
      <Group gap="xs" wrap="wrap">
        <Button size="xs" variant="default" onClick={() => download(job.path, job.output_format)}>
          {t('documents.downloadAudio')}
        </Button>
        <Button size="xs" variant="default" onClick={() => download(job.chapters_path, 'zip')}>
          {t('documents.downloadChapters')}
        </Button>
        <Button
          size="xs"
          variant="default"
          onClick={() => download(job.subtitles_path && `${job.subtitles_path}?format=srt`, 'srt')}
        >
          {t('documents.downloadSubtitles')}
        </Button>
      </Group>
    </Stack>
  );
}
