import {
  Alert,
  Anchor,
  Button,
  Card,
  Group,
  Loader,
  Skeleton,
  Stack,
  Tabs,
  Text,
  Title,
  VisuallyHidden,
} from '@mantine/core';
import {
  MESSAGES,
  PRODUCT_NAME,
  type SpeechMark,
  type TagKind,
  VOICE_EFFECTS,
  type VoiceEffect,
  type VoiceSettings,
} from '@parla/contract';
import { useQueryClient } from '@tanstack/react-query';
import {
  type ComponentType,
  lazy,
  type ReactNode,
  Suspense,
  useMemo,
  useRef,
  useState,
} from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useLocation, useNavigate } from 'react-router';
import { BelowFold } from '../../../components/below-fold';
import { Page } from '../../../components/page';
import { useRouteLanguage } from '../../../hooks/use-route-language';
import { PROFILE_QUERY_KEY, useSession } from '../../../lib/auth';
import { useCatalogueCounts } from '../../../lib/catalogue-counts';
import { useSpeechMarks } from '../../../lib/get-marks';
import { useVoices } from '../../../lib/get-voices';
import { describeLanguage } from '../../../lib/languages';
import { usePlanInfo } from '../../../lib/plan-info';
import { useConvert } from '../api/convert';
import { useConvertorContent } from '../api/get-page-content';
import { useEditorDocument } from '../hooks/use-editor-document';
import {
  characterCounter,
  cleanUploadedText,
  codePoints,
  tagFits,
  usedCharacters,
} from '../lib/characters';
import { downloadRight } from '../lib/download';
import type { ChangeOperation, EditorHandle } from '../lib/editor-handle';
import { convertorTexts, fallbackTexts } from '../lib/page-sections';
import { insertedIntoSample } from '../lib/sample';
import { hasMarkup, textToSend, toSsml } from '../lib/ssml-document';
import { errorPosition } from '../lib/ssml-error';
import { closingTag, openingTag, TAG_SPECS } from '../lib/ssml-tags';
import { downloadName } from '../lib/time';
import {
  capabilitiesOf,
  effectsFor,
  findVoice,
  initialSettings,
  type PanelSettings,
  withinPlan,
} from '../lib/voice-settings';
import { CharacterCounter } from './character-counter';
import { ChipContext } from './chip-context';
import type { ConvertWarningsProps } from './convert-warnings';
import classes from './convertor-page.module.css';
import type { CutNoticeProps } from './cut-notice';
import { EditorToolbar } from './editor-toolbar';
import { InfoTiles } from './info-tiles';
import { ListenButton } from './listen-button';
import type { PronouncedMarks } from './pronounced-marks';
import type { PronunciationToolProps } from './pronunciation-tool';
import { TextTab } from './text-tab';
import { VoiceSettingsPanel } from './voice-settings-panel';
import { WidgetBoundary } from './widget-boundary';

// CodeMirror is loaded when the SSML tab is first opened.
const SsmlEditor = lazy(() => import('./ssml-editor'));
// How it works, the FAQ and the blog teasers load when scrolled near (BelowFold).
const LowerSections = lazy(() => import('./page-sections'));
// The player and what follows a conversion load after the page's first paint (issue 18: the
// first visit's JavaScript), each behind a placeholder of its size; the Text tab's editor
// loads when it is needed (text-tab.tsx).
const AudioPlayer = lazy(() =>
  import('../../../components/player/audio-player').then((m) => ({ default: m.AudioPlayer })),
);
const ReadAlong = lazy(() => import('./read-along').then((m) => ({ default: m.ReadAlong })));
const DownloadArea = lazy(() =>
  import('./download-area').then((m) => ({ default: m.DownloadArea })),
);
// The notice of a cut paste or upload loads with the first cut (its rich text is react-i18next's
// Trans). Offline or after a replaced deployment it cannot load: the cut text stays as it is,
// without the notice, rather than the page failing.
const CutNotice = lazy(
  (): Promise<{ default: ComponentType<CutNoticeProps> }> =>
    import('./cut-notice').catch(() => ({ default: () => null })),
);

// Signed-in users' Pronunciation… and the marks of their lexicons' words (issue 32): loaded once
// the visitor is known to be signed in.
const PronunciationTool = lazy(
  (): Promise<{ default: ComponentType<PronunciationToolProps> }> =>
    import('./pronunciation-tool').catch(() => ({ default: () => null })),
);

// What of a text was not read as written: loaded with the first conversion that has some.
const ConvertWarnings = lazy(
  (): Promise<{ default: ComponentType<ConvertWarningsProps> }> =>
    import('./convert-warnings').catch(() => ({ default: () => null })),
);

export interface ConvertorPageProps {
  /** Rendered in the player area for signed-in users after a conversion (file history's Save). */
  saveSlot?: (conversion: {
    audioUrl: string;
    settings: VoiceSettings;
    ssml: string;
    /** Its speech marks, saved with it (issue 14). */
    marksUrl?: string;
  }) => ReactNode;
  /**
   * A saved file to open (`?id=`): its SSML and settings. Read when the page mounts; to open
   * another file, mount the page again (e.g. with the file id as its React key).
   */
  initial?: {
    ssml: string;
    settings: VoiceSettings;
    /**
     * The saved audio (an object URL and its length in seconds), ready in the player, with the
     * addresses of its speech marks and subtitles.
     */
    audio?: { path: string; duration: number; marksPath?: string; subtitlesPath?: string };
  };
}

interface Conversion {
  path: string;
  duration: number;
  /** Its speech marks and subtitles (issue 14), when the server made them. */
  marksPath?: string | null | undefined;
  subtitlesPath?: string | null | undefined;
  /** The text as sent (plain, or SSML when `markup`), which the marks' offsets refer to. */
  sent?: string;
  settings: VoiceSettings;
  ssml: string;
  at: Date;
  /** Made by Convert on this page (not a saved file opened): the player takes the focus. */
  fresh: boolean;
  /** All of its audio has arrived (a streamed conversion renders while it plays). */
  complete: boolean;
}

/** The effects named by `<effect name>` tags of the document (VoiceSettings.voice_effects). */
function effectsInDocument(ssml: string): VoiceEffect[] {
  const found = new Set<VoiceEffect>();
  for (const match of ssml.matchAll(/<effect\s+name\s*=\s*["']([\w-]+)["']/g)) {
    const name = match[1] as VoiceEffect;
    if (VOICE_EFFECTS.includes(name)) found.add(name);
  }
  return [...found];
}

/**
 * The editor home (SPEC §2 "Convertor", issue 4): intro, the editor with its Text and SSML
 * tabs, the player and the voice settings side by side (DESIGN.md: visible together on a
 * laptop), then tiles, how-it-works, FAQ and blog teasers.
 */
export function ConvertorPage({ saveSlot, initial }: ConvertorPageProps) {
  const { t } = useTranslation();
  const { to, path, language } = useRouteLanguage();
  const navigate = useNavigate();
  const { search } = useLocation();
  const mode = path.endsWith('/ssml') ? 'ssml' : 'text';

  const session = useSession();
  const profile = session.status === 'signed-in' ? session.profile : undefined;
  const planInfo = usePlanInfo();
  const voices = useVoices();
  const content = useConvertorContent(language);
  const counts = useCatalogueCounts();
  const texts = convertorTexts(content.data, fallbackTexts(t, counts.data));

  const doc = useEditorDocument(initial?.ssml ?? '');
  // Issue 32: the words the signed-in user's lexicons change are marked in the Text tab.
  const [pronounced, setPronounced] = useState<PronouncedMarks | undefined>();
  const editor = useRef<EditorHandle>(null);
  const [chosen, setChosen] = useState<PanelSettings | null>(
    initial ? (({ text: _, ...rest }) => rest)(initial.settings) : null,
  );
  const languages = voices.data ?? [];
  // A French page speaks French from the start, when there are French voices.
  const planEngines = profile?.plan.engines ?? planInfo.data?.free.engines;
  const offered =
    chosen ?? (voices.data ? initialSettings(languages, describeLanguage(language).locale) : null);
  const settings = offered && withinPlan(offered, planEngines, languages);
  const voice = settings ? findVoice(languages, settings) : undefined;
  const capabilities = capabilitiesOf(voice);
  const effects = settings ? effectsFor(settings.engine, voice) : [];

  // Until the limits are known (profile or plan info), nothing is capped here; the server
  // enforces them anyway.
  const perConvert =
    (profile
      ? profile.plan.count_characters_per_convert
      : session.status === 'signed-out'
        ? planInfo.data?.free.count_characters_per_convert
        : undefined) ?? Number.POSITIVE_INFINITY;
  const counter = characterCounter(doc.ssml, perConvert);
  // Issue 33, item 1: a first visit starts with a sample text in the page's language (when it
  // fits the per-conversion limit), which the first keystroke or paste replaces; it counts
  // once it is converted.
  const sample = toSsml([[{ type: 'text', text: t('convertor.sample') }]]);
  const [sampleLeft, setSampleLeft] = useState(!initial);
  const sampling = sampleLeft && usedCharacters(sample) <= perConvert;
  const shown = sampling ? sample : doc.ssml;
  const [alert, setAlert] = useState<string | null>(null);
  const convert = useConvert();
  const [conversion, setConversion] = useState<Conversion | null>(() =>
    initial?.audio
      ? {
          ...initial.audio,
          settings: initial.settings,
          ssml: initial.ssml,
          sent: textToSend(initial.ssml),
          at: new Date(),
          fresh: false,
          complete: true,
        }
      : null,
  );
  // Issue 18, item 4: a paste or upload cut to the limit says how much was kept, and Convert
  // on an empty text says why nothing happens.
  const [cutNotice, setCutNotice] = useState<{ kept: number; total: number } | null>(null);
  const [emptyNotice, setEmptyNotice] = useState(false);
  const onCut = (kept: string, pasted: string) =>
    setCutNotice({ kept: codePoints(kept), total: codePoints(pasted) });
  // The whole set of marks once the audio is whole (the subtitles need it); while a conversion
  // streams, the read-along has those of the words heard so far.
  const marks = useSpeechMarks(conversion?.complete ? conversion.marksPath : null);
  const queryClient = useQueryClient();
  const [spoken, setSpoken] = useState<SpeechMark | null>(null);
  const markup = hasMarkup(conversion?.ssml ?? '');
  // The editor shows the heard word only while it holds the text that was converted.
  const spokenInEditor =
    spoken && conversion?.ssml === doc.ssml
      ? { start: spoken.start, end: spoken.end, markup }
      : null;
  // What of the converted text was not read as written, while the editor still holds it.
  const warnings = (conversion?.ssml === doc.ssml && convert.data?.warnings) || [];
  const ssmlError = useMemo(() => {
    if (!convert.error || mode !== 'ssml') return null;
    return errorPosition(convert.error.message);
  }, [convert.error, mode]);

  const onChange = (target: 'TEXT' | 'SSML') => (next: string, operation: ChangeOperation) => {
    if (convert.error) convert.reset();
    if (operation !== 'paste') setCutNotice(null);
    setEmptyNotice(false);
    if (sampling) {
      setSampleLeft(false);
      // A paste replaced the sample in the editor itself (each of them does); a keystroke in
      // the plain text area went in at the caret, the sample around it.
      const typed = operation === 'edit';
      doc.change((typed && insertedIntoSample(sample, next)) || next, operation, target);
      return;
    }
    doc.change(next, operation, target);
  };

  /** Inserts markup around the selection when its cost (`fits`) and the limit allow it. */
  const insertMarkup = (open: string, close: string | null, fits: boolean) => {
    setAlert(null);
    // Issue 18: a tag with content wraps the selected words; an empty one would cost
    // characters and do nothing.
    if (close && !editor.current?.hasSelection()) {
      setAlert(t('feedback.selectFirst'));
      return;
    }
    const preview = editor.current?.previewInsert(open, close) ?? doc.ssml;
    // SPEC §5: a tag needs its cost in remaining characters (and must fit the limit).
    if (!fits || usedCharacters(preview) > perConvert) {
      setAlert(MESSAGES.editor.notEnoughCharacters);
      return;
    }
    editor.current?.insertTag(open, close);
  };
  const onInsert = (kind: TagKind, value: string) =>
    insertMarkup(
      openingTag(kind, value),
      TAG_SPECS[kind].empty ? null : closingTag(kind),
      tagFits(kind, counter),
    );

  const onUpload = async (file: File) => {
    const raw = await file.text();
    const text = cleanUploadedText(raw, perConvert);
    const whole = cleanUploadedText(raw, Number.POSITIVE_INFINITY);
    setEmptyNotice(false);
    setSampleLeft(false);
    setCutNotice(text === whole ? null : { kept: codePoints(text), total: codePoints(whole) });
    const escaped = text.replaceAll('&', '&amp;').replaceAll('<', '&lt;');
    doc.change(escaped, 'upload', mode === 'ssml' ? 'SSML' : 'TEXT');
  };

  const onConvert = () => {
    const text = textToSend(shown);
    if (!settings) return;
    // SPEC §5: converting an empty text does nothing (no request); the page says why.
    if (text.trim() === '') {
      setEmptyNotice(true);
      return;
    }
    if (sampling) {
      // The sample, once converted, is the visitor's text like any other.
      setSampleLeft(false);
      doc.change(sample, 'sample', mode === 'ssml' ? 'SSML' : 'TEXT');
    }
    const body: VoiceSettings = { ...settings, text, voice_effects: effectsInDocument(text) };
    convert.mutate(body, {
      onSuccess: (result) =>
        setConversion({
          path: result.path ?? '',
          duration: result.duration ?? 0,
          marksPath: result.marks_path,
          subtitlesPath: result.subtitles_path,
          sent: text,
          settings: body,
          ssml: shown,
          at: new Date(),
          fresh: true,
          complete: !result.streaming,
        }),
    });
  };

  const unavailable: Partial<Record<TagKind, string>> = {};
  if (!capabilities.pitch) unavailable.pitch = t('convertor.noPitch');
  if (!capabilities.emphasis) unavailable.emphasis = t('convertor.noEmphasis');
  if (effects.length === 0) unavailable.voiceEffect = t('convertor.noEffects');

  const editorProps = {
    value: shown,
    // What is typed or pasted into the sample replaces it: the sample's length is not taken
    // from what may be added.
    limit: sampling ? perConvert + usedCharacters(sample) : perConvert,
    onCut,
    onUndo: doc.undo,
    onRedo: doc.redo,
  };

  return (
    <Page
      size="xl"
      title={t('convertor.title')}
      heading={texts.intro.title}
      aside={<ListenButton voice={voice} />}
      description={t('convertor.description', { product: PRODUCT_NAME })}
      lead={
        <>
          {t('convertor.lead')}{' '}
          {texts.intro.link && (
            <Anchor component={Link} to={to(texts.intro.link.link)}>
              {texts.intro.link.label}
            </Anchor>
          )}
        </>
      }
    >
      <div className={classes.layout}>
        <div>
          <Card
            withBorder
            padding="md"
            component="section"
            aria-label={t('convertor.editor')}
            data-drawn-first
          >
            <Stack gap="sm">
              <Tabs
                value={mode}
                onChange={(value) =>
                  value && void navigate(`${to(`/convertor/${value}`)}${search}`)
                }
                keepMounted={false}
              >
                <Tabs.List>
                  <Tabs.Tab value="text">{t('convertor.textTab')}</Tabs.Tab>
                  <Tabs.Tab value="ssml">SSML</Tabs.Tab>
                </Tabs.List>
              </Tabs>
              <EditorToolbar
                unavailable={unavailable}
                effects={effects}
                onInsert={onInsert}
                canUndo={doc.canUndo}
                canRedo={doc.canRedo}
                onUndo={doc.undo}
                onRedo={doc.redo}
                onUpload={(file) => void onUpload(file)}
              >
                {profile && (
                  <Suspense fallback={null}>
                    <PronunciationTool
                      editor={editor}
                      mode={mode}
                      onInsertMarkup={(open, close, cost) =>
                        insertMarkup(open, close, counter.remaining >= cost)
                      }
                      settings={settings}
                      onRefuse={setAlert}
                      onMarks={setPronounced}
                    />
                  </Suspense>
                )}
              </EditorToolbar>
              {alert && (
                <Alert
                  color="red"
                  role="alert"
                  withCloseButton
                  closeButtonLabel={t('convertor.dismiss')}
                  onClose={() => setAlert(null)}
                  p="xs"
                >
                  {alert}
                </Alert>
              )}
              {cutNotice && (
                <Suspense fallback={null}>
                  <CutNotice {...cutNotice} onClose={() => setCutNotice(null)} />
                </Suspense>
              )}
              {sampling && (
                <Text size="sm" c="dimmed" data-testid="sample-note">
                  {t('convertor.sampleNote')}
                </Text>
              )}
              <WidgetBoundary name={t('convertor.theEditor')}>
                <ChipContext.Provider value={{ effects }}>
                  <Suspense fallback={<Skeleton h={250} />}>
                    {mode === 'ssml' ? (
                      <SsmlEditor
                        {...editorProps}
                        ref={editor}
                        label={t('convertor.ssmlEditor')}
                        sample={sampling}
                        error={ssmlError}
                        onChange={onChange('SSML')}
                        pronounced={profile ? pronounced : undefined}
                      />
                    ) : (
                      <TextTab
                        {...editorProps}
                        ref={editor}
                        label={t('convertor.textEditor')}
                        sample={sampling}
                        onChange={onChange('TEXT')}
                        spoken={spokenInEditor}
                        pronounced={profile ? pronounced : undefined}
                      />
                    )}
                  </Suspense>
                </ChipContext.Provider>
              </WidgetBoundary>
              {/* The counter wraps within its own column, never under Convert (issue 33, item 8). */}
              <Group justify="space-between" wrap="nowrap" align="flex-start" gap="sm">
                <CharacterCounter
                  counter={counter}
                  allowance={profile ? profile.plan.count_characters : null}
                />
                <Button
                  onClick={onConvert}
                  loading={convert.isPending}
                  disabled={!settings || !voice}
                  size="md"
                  style={{ flexShrink: 0 }}
                >
                  {t('convertor.convert')}
                </Button>
              </Group>
              <Text size="sm" role="status" data-testid="empty-notice">
                {emptyNotice ? t('feedback.empty') : ''}
              </Text>
              {convert.isPending && (
                <Group gap="xs" role="status">
                  <Loader size="xs" />
                  <Text size="sm">{t('convertor.converting')}</Text>
                </Group>
              )}
              {convert.error && (
                <Alert color="red" role="alert" p="xs" data-testid="convert-error">
                  {convert.error.message}
                </Alert>
              )}
              {warnings.length > 0 && (
                <Suspense fallback={null}>
                  <ConvertWarnings warnings={warnings} />
                </Suspense>
              )}
            </Stack>
          </Card>
          <Card
            withBorder
            padding="md"
            mt="md"
            component="section"
            aria-label={t('convertor.player')}
            data-drawn-first
          >
            {conversion ? (
              <WidgetBoundary name={t('convertor.thePlayer')}>
                {conversion.fresh && (
                  <VisuallyHidden role="status">{t('feedback.ready')}</VisuallyHidden>
                )}
                <Suspense fallback={<Skeleton h={96} />}>
                  <AudioPlayer
                    path={conversion.path}
                    duration={conversion.duration}
                    focusOnLoad={conversion.fresh}
                    autoPlay={conversion.fresh}
                    streamed={!conversion.complete}
                    onComplete={() => setConversion((c) => c && { ...c, complete: true })}
                    // The server gave the characters back: the counter shows it.
                    onBroken={() =>
                      void queryClient.invalidateQueries({ queryKey: PROFILE_QUERY_KEY })
                    }
                  >
                    <Suspense fallback={null}>
                      {conversion.marksPath && conversion.sent !== undefined && (
                        <ReadAlong
                          source={conversion.sent}
                          markup={markup}
                          marks={marks.data}
                          livePath={!conversion.complete && conversion.marksPath}
                          onWord={setSpoken}
                        />
                      )}
                      <Group gap="sm" wrap="wrap">
                        {session.status !== 'loading' && (
                          <DownloadArea
                            right={downloadRight(profile)}
                            path={conversion.path}
                            fileName={downloadName(
                              findVoice(languages, conversion.settings)?.name ??
                                conversion.settings.voice_id,
                              conversion.settings.language_code,
                              conversion.settings.output_format,
                              conversion.at,
                            )}
                            to={to}
                            subtitlesPath={marks.data ? conversion.subtitlesPath : null}
                          />
                        )}
                        {profile &&
                          saveSlot?.({
                            audioUrl: conversion.path,
                            settings: conversion.settings,
                            ssml: conversion.ssml,
                            ...(conversion.marksPath && { marksUrl: conversion.marksPath }),
                          })}
                      </Group>
                    </Suspense>
                  </AudioPlayer>
                </Suspense>
              </WidgetBoundary>
            ) : (
              <Text size="sm" c="dimmed">
                {t('convertor.playerEmpty')}
              </Text>
            )}
          </Card>
        </div>
        <div>
          <Card withBorder padding="md" component="section" aria-labelledby="voice-settings-title">
            <Title order={2} fz="lg" id="voice-settings-title" mb="sm">
              {t('convertor.voiceSettings')}
            </Title>
            {settings ? (
              <VoiceSettingsPanel
                languages={languages}
                settings={settings}
                onChange={setChosen}
                admin={profile?.user.role === 'ADMIN'}
                engines={planEngines}
              />
            ) : voices.isError ? (
              <Alert color="red">{voices.error.message}</Alert>
            ) : (
              <Loader size="sm" role="status" aria-label={t('convertor.loadingVoices')} />
            )}
          </Card>
        </div>
      </div>
      <Stack gap={56}>
        <Text
          component="section"
          aria-label={t('convertor.about', { product: PRODUCT_NAME })}
          fz="lg"
          maw="70ch"
          pos="relative"
          data-drawn-first
        >
          {texts.intro.text}
        </Text>
        <InfoTiles tiles={texts.tiles} />
        <BelowFold minHeight="100vh" ready={!voices.isPending}>
          <Stack gap={56}>
            <LowerSections texts={texts} language={language} to={to} />
          </Stack>
        </BelowFold>
      </Stack>
    </Page>
  );
}
