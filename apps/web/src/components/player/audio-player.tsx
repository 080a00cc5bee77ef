import { ActionIcon, Alert, NativeSelect, Text } from '@mantine/core';
import { DEFAULT_PLAYER_SPEED, PLAYER_SKIP_SECONDS, PLAYER_SPEEDS } from '@parla/contract';
import {
  type KeyboardEvent,
  type MouseEvent,
  type ReactNode,
  useEffect,
  useRef,
  useState,
} from 'react';
import { useTranslation } from 'react-i18next';
import { useFormat } from '../../hooks/use-format';
import { shownDuration, switchNow } from '../../lib/player/arriving-audio';
import { PlayerContext } from '../../lib/player/player-context';
import { formatTime } from '../../lib/player/time';
import { seekTime } from '../../lib/player/waveform';
import classes from './audio-player.module.css';
import { BackIcon, ForwardIcon, PauseIcon, PlayIcon } from './player-icons';
import { useArrivingAudio } from './use-arriving-audio';
import { WaveformCanvas } from './waveform-canvas';

type PlayerState = 'loaded' | 'playing' | 'paused' | 'finished';

interface AudioPlayerProps {
  /** The audio's address (an API path, or an object URL of audio already fetched). */
  path: string;
  /** Seconds, when known beforehand (the audio element's own duration wins once known). */
  duration: number;
  /** Names the player where a page has several (an audiobook's title). */
  label?: string;
  /** Move focus to the play button when this audio arrives (after a conversion, issue 18). */
  focusOnLoad?: boolean;
  /**
   * Play as soon as the first audio arrives (a conversion just asked for by a click, issue 33
   * item 1: browsers allow it).
   */
  autoPlay?: boolean;
  /**
   * The address streams while it renders (it cannot seek until it is stored): the player
   * reloads it from the stored file once complete, at a moment nothing is heard.
   */
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
 * and by keyboard (DESIGN.md: space plays and pauses, arrows seek). The one player of the app:
 * the convertor, the Documents page and File History (issue 33, item 5).
 *
 * While a conversion streams, the waveform and the duration are those of what has arrived
 * (they grow), and the element is reloaded from the stored file only when that cannot be
 * heard: paused, finished, or for a seek (lib/player/arriving-audio.ts).
 */
export function AudioPlayer({
  path,
  duration: givenDuration,
  label,
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
  // The element's own length, once it plays a file that has one (not a stream).
  const [elementDuration, setElementDuration] = useState(0);
  const [speed, setSpeed] = useState(DEFAULT_PLAYER_SPEED);
  // A stream the server broke off (its rendering failed): said, never a silent stop.
  const [elementFailed, setElementFailed] = useState(false);
  // The element still plays the address as it streamed (not reloaded since).
  const streaming = useRef(streamed);
  // Reloading from the stored file: the element's own events say nothing the clock shows.
  const switching = useRef(false);
  const { t } = useTranslation();
  const format = useFormat();

  const arriving = useArrivingAudio(path);
  const broken = elementFailed || arriving.failed;
  const known =
    (!streaming.current && elementDuration) ||
    givenDuration ||
    (arriving.complete ? arriving.duration : 0);
  const duration = shownDuration({
    known,
    arrived: arriving.duration,
    time,
    arriving: !arriving.complete,
  });

  /**
   * Reloads the element from the stored file at `at` (seconds; past its end: at its end, as a
   * finished audio stays), playing on if `resume`.
   */
  const switchToStored = (at: number, resume: boolean) => {
    const element = audio.current;
    if (!element) return;
    streaming.current = false;
    switching.current = true;
    element.addEventListener(
      'loadedmetadata',
      () => {
        // A length not known: where it was, or the start for "at its end".
        const end = Number.isFinite(element.duration)
          ? element.duration
          : Number.isFinite(at)
            ? at
            : 0;
        element.currentTime = Math.min(at, end);
        switching.current = false;
        if (resume) void element.play().catch(() => setState('paused'));
      },
      { once: true },
    );
    element.load();
  };
  /** Switches now if nothing is heard (the audio is complete and the element is not playing). */
  const switchIfSilent = () => {
    const element = audio.current;
    if (!element) return;
    const playing = !element.paused && !element.ended;
    if (
      switchNow({
        streaming: streaming.current,
        complete: arriving.complete,
        playing,
        seeking: false,
      })
    )
      switchToStored(element.ended ? Number.POSITIVE_INFINITY : element.currentTime, false);
  };

  // biome-ignore lint/correctness/useExhaustiveDependencies: once per failure.
  useEffect(() => {
    if (broken) onBroken?.();
  }, [broken]);
  // biome-ignore lint/correctness/useExhaustiveDependencies: once per complete audio.
  useEffect(() => {
    if (!arriving.complete) return;
    switchIfSilent();
    onComplete?.();
  }, [arriving.complete]);

  // A new audio: back to the start.
  // biome-ignore lint/correctness/useExhaustiveDependencies: reset on a new audio only.
  useEffect(() => {
    streaming.current = streamed;
    switching.current = false;
    setState('loaded');
    setTime(0);
    setElementDuration(0);
    setElementFailed(false);
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
    const target = Math.min(Math.max(0, to), duration || element.duration || 0);
    setTime(target);
    if (state === 'finished') setState('paused');
    const playing = !element.paused && !element.ended;
    // A stream cannot seek; the stored file behind the same address can (Range requests).
    if (
      switchNow({
        streaming: streaming.current,
        complete: arriving.complete,
        playing,
        seeking: true,
      })
    ) {
      switchToStored(target, playing);
      return;
    }
    element.currentTime = target;
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
  // What has arrived takes its share of the shown length (all of it, while it is arriving).
  const drawn = duration > 0 ? Math.min(1, arriving.duration / duration) : 0;
  const playing = state === 'playing';
  return (
    <div
      className={classes.player}
      data-state={state}
      // Its audio is still arriving: the waveform and the duration are still growing.
      aria-busy={!arriving.complete}
      {...(label !== undefined && { role: 'group', 'aria-label': label })}
    >
      {/* biome-ignore lint/a11y/useMediaCaption: synthesized speech of the user's own text, which is on screen. */}
      <audio
        ref={audio}
        src={path}
        preload="auto"
        data-testid="audio"
        onPlay={() => setState('playing')}
        onPause={(event) => {
          // At the end, `ended` follows: reloading now would cancel it (load() drops the
          // element's pending events), and the player would never show it finished.
          if (switching.current || event.currentTarget.ended) return;
          setState('paused');
          switchIfSilent();
        }}
        onEnded={() => {
          setState('finished');
          switchIfSilent();
        }}
        onTimeUpdate={(event) => {
          if (!switching.current) setTime(event.currentTarget.currentTime);
        }}
        onDurationChange={(event) => {
          const d = event.currentTarget.duration;
          // A stream's length is not the audio's (it is unknown, or what has come so far).
          if (!streaming.current && Number.isFinite(d) && d > 0) setElementDuration(d);
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
          className={classes.target}
          aria-label={t('player.back', { count: PLAYER_SKIP_SECONDS })}
          onClick={() => skip(-PLAYER_SKIP_SECONDS)}
        >
          <BackIcon />
        </ActionIcon>
        <ActionIcon
          ref={playButton}
          size="xl"
          radius="xl"
          aria-label={playing ? t('player.pause') : t('player.play')}
          onClick={toggle}
        >
          {playing ? <PauseIcon size={22} /> : <PlayIcon size={22} />}
        </ActionIcon>
        <ActionIcon
          variant="default"
          size="lg"
          className={classes.target}
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
          <div style={{ width: `${drawn * 100}%`, height: '100%' }}>
            <WaveformCanvas bars={arriving.bars} progress={drawn > 0 ? progress / drawn : 0} />
          </div>
        </div>
        <Text size="sm" ff="monospace" aria-live="off" data-testid="player-time" miw={90} ta="end">
          {formatTime(time)} / {formatTime(duration)}
        </Text>
        <NativeSelect
          aria-label={t('player.speed')}
          size="xs"
          w={76}
          classNames={{ input: classes.speed }}
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
