import { ActionIcon, Button, FileButton, Group } from '@mantine/core';
import { TAG_COSTS, type TagKind, type VoiceEffect } from '@parla/contract';
import { lazy, type ReactNode, Suspense, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { RedoIcon, UndoIcon } from '../../../components/player/player-icons';
import { TAG_KINDS, TAG_SPECS } from '../lib/ssml-tags';
import { TAG_LABEL_KEYS } from '../lib/tag-labels';
import classes from './editor.module.css';
import { ToolHint } from './tool-hint';
import { ToolPopover } from './tool-popover';

/** Loaded when a tag's form is first opened: not part of the convertor's first load (issue 33). */
const TagValueForm = lazy(() =>
  import('./tag-value-form').then((module) => ({ default: module.TagValueForm })),
);

interface EditorToolbarProps {
  /** Kinds the chosen voice cannot do (pitch, emphasis, voice effect), with the reason. */
  unavailable: Partial<Record<TagKind, string>>;
  effects: readonly VoiceEffect[];
  onInsert: (kind: TagKind, value: string) => void;
  canUndo: boolean;
  canRedo: boolean;
  onUndo: () => void;
  onRedo: () => void;
  onUpload: (file: File) => void;
  /** More tools after the tags (the signed-in user's Pronunciation…). */
  children?: ReactNode;
}

function TagButton({
  kind,
  reason,
  effects,
  onInsert,
}: {
  kind: TagKind;
  reason: string | undefined;
  effects: readonly VoiceEffect[];
  onInsert: (kind: TagKind, value: string) => void;
}) {
  const { t } = useTranslation();
  const [opened, setOpened] = useState(false);
  const spec = TAG_SPECS[kind];
  const label = t(TAG_LABEL_KEYS[kind]);
  const insert = t('toolbar.insert', { tag: label });
  const initial = kind === 'voiceEffect' ? (effects[0] ?? '') : spec.defaultValue;
  const hint = reason ?? t('toolbar.insertHint', { tag: label, count: TAG_COSTS[kind] });
  return (
    <ToolPopover
      label={label}
      action={insert}
      hint={hint}
      disabled={reason !== undefined}
      opened={opened}
      onOpenedChange={setOpened}
    >
      {opened && (
        <Suspense fallback={null}>
          <TagValueForm
            kind={kind}
            initial={initial}
            effects={effects}
            submitLabel={insert}
            onSubmit={(value) => {
              setOpened(false);
              onInsert(kind, value);
            }}
          />
        </Suspense>
      )}
    </ToolPopover>
  );
}

/** The editor's toolbar (SPEC §2): the tags, undo and redo, and a TXT upload. */
export function EditorToolbar(props: EditorToolbarProps) {
  const { t } = useTranslation();
  return (
    <Group gap={6} role="toolbar" aria-label={t('toolbar.label')} wrap="wrap">
      {TAG_KINDS.map((kind) => (
        <TagButton
          key={kind}
          kind={kind}
          reason={props.unavailable[kind]}
          effects={props.effects}
          onInsert={props.onInsert}
        />
      ))}
      {props.children}
      <Group gap={4} ms="auto" wrap="nowrap">
        <ToolHint label={t('toolbar.undoHint')} align="end">
          <ActionIcon
            variant="default"
            size="md"
            className={classes.tool}
            aria-label={t('toolbar.undo')}
            aria-description={t('toolbar.undoHint')}
            disabled={!props.canUndo}
            onClick={props.onUndo}
          >
            <UndoIcon className="mirror-in-rtl" />
          </ActionIcon>
        </ToolHint>
        <ToolHint label={t('toolbar.redoHint')} align="end">
          <ActionIcon
            variant="default"
            size="md"
            className={classes.tool}
            aria-label={t('toolbar.redo')}
            aria-description={t('toolbar.redoHint')}
            disabled={!props.canRedo}
            onClick={props.onRedo}
          >
            <span className="mirror-in-rtl" style={{ display: 'inline-flex' }}>
              <RedoIcon />
            </span>
          </ActionIcon>
        </ToolHint>
        <FileButton accept="text/plain,.txt" onChange={(file) => file && props.onUpload(file)}>
          {(buttonProps) => (
            <Button {...buttonProps} size="compact-sm" variant="default" className={classes.tool}>
              {t('toolbar.upload')}
            </Button>
          )}
        </FileButton>
      </Group>
    </Group>
  );
}
