import { ActionIcon, Alert, NativeSelect, Skeleton, Text } from '@mantine/core';
import { DEFAULT_PLAYER_SPEED, PLAYER_SKIP_SECONDS, PLAYER_SPEEDS } from '@parla/contract';
import { useQuery } from '@tanstack/react-query';
import {
  type KeyboardEvent,
  type MouseEvent,
  type ReactNode,
  useEffect,
  useRef,
  useState,
} from 'react';
import { useTranslation } from 'react-i18next';
import { useFormat } from '../../../hooks/use-format';
import { getAudio } from '../api/get-audio';
import { PlayerContext } from '../lib/player-context';
import { formatTime } from '../lib/time';
import { decodeWaveform, seekTime } from '../lib/waveform';
import classes from './audio-player.module.css';
import { BackIcon, ForwardIcon, PauseIcon, PlayIcon } from './player-icons';

type PlayerState = 'loaded' | 'playing' | 'paused' | 'finished';

interface AudioPlayerProps {
  path: string;
  /** Seconds, from the conversion (the audio element's own duration wins once known). */
  duration: number;
  /** Move focus to the play button when this audio arrives (after a conversion, issue 18). */
  focusOnLoad?: boolean;
  /**
   * Play as soon as the first audio arrives (a conversion just asked for by a click, issue 33
   * item 1: browsers allow it).
   */
  autoPlay?: boolean;
  /** The audio is streamed while it renders (it cannot seek until it has all arrived). */
  streamed?: boolean;
  /** The whole audio has arrived (a streamed conversion has finished rendering). */
  onComplete?: () => void;
  /** The audio broke off (its rendering failed on the server, which gave the characters back). */
  onBroken?: () => void;
  children?: ReactNode;
}

/**
 * SPEC §4 "Player": play, pause, finish (play after finish restarts), 5 s back and forward,
 * 0.2–2 speeds, time and duration, and the waveform of the decoded audio, which seeks on click
 * and by keyboard (DESIGN.md: space plays and pauses, arrows seek).
 */
export function AudioPlayer({
  path,
  duration: convertedDuration,
  focusOnLoad = false,
  autoPlay = false,
  streamed = false,
  onComplete,
  onBroken,
  children,
}: AudioPlayerProps) {
  const audio = useRef<HTMLAudioElement>(null);
  const playButton = useRef<HTMLButtonElement>(null);
  const [state, setState] = useState<PlayerState>('loaded');
  const [time, setTime] = useState(0);
  const [duration, setDuration] = useState(convertedDuration);
  const [speed, setSpeed] = useState(DEFAULT_PLAYER_SPEED);
  // A stream the server broke off (its rendering failed): said, never a silent stop.
  const [elementFailed, setElementFailed] = useState(false);
  const { t } = useTranslation();
  const format = useFormat();

  // Fetching the whole audio ends when its rendering does: then its length and marks are known.
  const waveform = useQuery({
    queryKey: ['convertor', 'waveform', path],
    queryFn: async ({ signal }) =>
      decodeWaveform(await (await getAudio(path, signal)).arrayBuffer()),
    staleTime: Number.POSITIVE_INFINITY,
    retry: false,
  });
  const decoded = waveform.data;
  const broken = elementFailed || waveform.isError;
  // biome-ignore lint/correctness/useExhaustiveDependencies: once per failure.
  useEffect(() => {
    if (broken) onBroken?.();
  }, [broken]);
  // biome-ignore lint/correctness/useExhaustiveDependencies: once per decoded audio.
  useEffect(() => {
    if (!decoded) return;
    if (decoded.duration > 0) setDuration(decoded.duration);
    const element = audio.current;
    if (streamed && element) {
      // A stream cannot seek; the stored file behind the same address can (Range requests).
      // Reloaded where it was, still playing if it was.
      const at = element.currentTime;
      const playing = !element.paused && !element.ended;
      element.addEventListener(
        'loadedmetadata',
        () => {
          element.currentTime = at;
          if (playing) void element.play().catch(() => setState('paused'));
        },
        { once: true },
      );
      element.load();
    }
    onComplete?.();
  }, [decoded]);

  // A new conversion: back to the start.
  // biome-ignore lint/correctness/useExhaustiveDependencies: reset on a new audio only.
  useEffect(() => {
    setState('loaded');
    setTime(0);
    setElementFailed(false);
    setDuration(convertedDuration);
    if (focusOnLoad) playButton.current?.focus();
    const element = audio.current;
    if (autoPlay && element) {
      element.playbackRate = speed;
      // A browser may refuse (or, in some test environments, not implement) playing on its own.
      Promise.resolve()
        .then(() => element.play())
        .catch(() => setState('paused'));
    }
  }, [path]);

  const play = () => {
    const element = audio.current;
    if (!element) return;
    // Play after the end starts again (SPEC §4 "Player"), however the end was reached.
    const atEnd = element.duration > 0 && element.currentTime >= element.duration - 0.01;
    if (state === 'finished' || element.ended || atEnd) element.currentTime = 0;
    element.playbackRate = speed;
    void element.play().catch(() => setState('paused'));
  };
  const pause = () => audio.current?.pause();
  const toggle = () => (state === 'playing' ? pause() : play());
  const seek = (to: number) => {
    const element = audio.current;
    if (!element) return;
    element.currentTime = Math.min(Math.max(0, to), duration || element.duration || 0);
    setTime(element.currentTime);
    if (state === 'finished') setState('paused');
  };
  const skip = (by: number) => seek((audio.current?.currentTime ?? 0) + by);

  const onWaveClick = (event: MouseEvent<HTMLDivElement>) => {
    const box = event.currentTarget.getBoundingClientRect();
    seek(seekTime((event.clientX - box.left) / box.width, duration));
  };
  const onWaveKey = (event: KeyboardEvent<HTMLDivElement>) => {
    const actions: Record<string, () => void> = {
      ' ': toggle,
      ArrowLeft: () => skip(-PLAYER_SKIP_SECONDS),
      ArrowDown: () => skip(-PLAYER_SKIP_SECONDS),
      ArrowRight: () => skip(PLAYER_SKIP_SECONDS),
      ArrowUp: () => skip(PLAYER_SKIP_SECONDS),
      Home: () => seek(0),
      End: () => seek(duration),
    };
    const action = actions[event.key];
    if (!action) return;
    event.preventDefault();
    action();
  };

  const progress = duration > 0 ? time / duration : 0;
  const bars = decoded?.bars ?? [];
  return (
    <div className={classes.player} data-state={state}>
      {/* biome-ignore lint/a11y/useMediaCaption: synthesized speech of the user's own text, which is on screen. */}
      <audio
        ref={audio}
        src={path}
        preload="auto"
        data-testid="audio"
        onPlay={() => setState('playing')}
        onPause={(event) => {
          if (!event.currentTarget.ended) setState('paused');
        }}
        onEnded={() => setState('finished')}
        onTimeUpdate={(event) => setTime(event.currentTarget.currentTime)}
        onLoadedMetadata={(event) => {
          const d = event.currentTarget.duration;
          if (Number.isFinite(d) && d > 0) setDuration(d);
        }}
        onDurationChange={(event) => {
          const d = event.currentTarget.duration;
          if (Number.isFinite(d) && d > 0) setDuration(d);
        }}
        onError={() => setElementFailed(true)}
      />
      {broken && (
        <Alert color="red" role="alert" p="xs" mb="xs" data-testid="player-error">
          {t('streaming.broken')}
        </Alert>
      )}
      {/* Media controls and time run left to right in every language (issue 18 item 2). */}
      <div className={classes.controls} dir="ltr">
        <ActionIcon
          variant="default"
          size="lg"
          aria-label={t('player.back', { count: PLAYER_SKIP_SECONDS })}
          onClick={() => skip(-PLAYER_SKIP_SECONDS)}
        >
          <BackIcon />
        </ActionIcon>
        <ActionIcon
          ref={playButton}
          size="xl"
          radius="xl"
          aria-label={state === 'playing' ? t('player.pause') : t('player.play')}
          onClick={toggle}
        >
          {state === 'playing' ? <PauseIcon size={22} /> : <PlayIcon size={22} />}
        </ActionIcon>
        <ActionIcon
          variant="default"
          size="lg"
          aria-label={t('player.forward', { count: PLAYER_SKIP_SECONDS })}
          onClick={() => skip(PLAYER_SKIP_SECONDS)}
        >
          <ForwardIcon />
        </ActionIcon>
        <div
          className={classes.wave}
          role="slider"
          tabIndex={0}
          aria-label={t('player.seek')}
          aria-valuemin={0}
          aria-valuemax={Math.round(duration)}
          aria-valuenow={Math.round(time)}
          aria-valuetext={t('player.position', {
            time: formatTime(time),
            duration: formatTime(duration),
          })}
          data-testid="waveform"
          onClick={onWaveClick}
          onKeyDown={onWaveKey}
        >
          {waveform.isPending ? (
            <Skeleton height="100%" />
          ) : (
            bars.map((height, index) => (
              <span
                // biome-ignore lint/suspicious/noArrayIndexKey: the bars are positions in time.
                key={index}
                className={classes.bar}
                data-played={index / bars.length < progress || undefined}
                style={{ height: `${Math.max(4, height * 100)}%` }}
              />
            ))
          )}
        </div>
        <Text size="sm" ff="monospace" aria-live="off" data-testid="player-time" miw={90} ta="end">
          {formatTime(time)} / {formatTime(duration)}
        </Text>
        <NativeSelect
          aria-label={t('player.speed')}
          size="xs"
          w={76}
          data={PLAYER_SPEEDS.map((s) => ({ value: String(s), label: `${format.number(s)}×` }))}
          value={String(speed)}
          onChange={(event) => {
            const next = Number(event.currentTarget.value);
            setSpeed(next);
            // At once, as the choice is made (play() sets it again on the next start).
            if (audio.current) audio.current.playbackRate = next;
          }}
        />
      </div>
      <PlayerContext.Provider value={{ audio, seek }}>{children}</PlayerContext.Provider>
    </div>
  );
}
