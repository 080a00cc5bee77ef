import { ActionIcon, Button, FileButton, Group, Popover, Tooltip } from '@mantine/core';
import { TAG_COSTS, type TagKind, type VoiceEffect } from '@parla/contract';
import { useState } from 'react';
import { TAG_KINDS, TAG_SPECS } from '../lib/ssml-tags';
import classes from './editor.module.css';
import { RedoIcon, UndoIcon } from './player-icons';
import { TagValueForm } from './tag-value-form';

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
  const [opened, setOpened] = useState(false);
  const spec = TAG_SPECS[kind];
  const initial = kind === 'voiceEffect' ? (effects[0] ?? '') : spec.defaultValue;
  const hint = reason ?? `Insert ${spec.label.toLowerCase()} (${TAG_COSTS[kind]} characters)`;
  return (
    <Popover
      opened={opened}
      onChange={setOpened}
      trapFocus
      withArrow
      position="bottom-start"
      shadow="md"
    >
      <Popover.Target>
        <Tooltip label={hint} withArrow openDelay={300}>
          <Button
            size="compact-sm"
            variant="default"
            className={classes.tool}
            disabled={reason !== undefined}
            aria-label={`Insert ${spec.label.toLowerCase()}`}
            aria-description={hint}
            onClick={() => setOpened((o) => !o)}
          >
            {spec.label}
          </Button>
        </Tooltip>
      </Popover.Target>
      <Popover.Dropdown>
        {opened && (
          <TagValueForm
            kind={kind}
            initial={initial}
            effects={effects}
            submitLabel={`Insert ${spec.label.toLowerCase()}`}
            onSubmit={(value) => {
              setOpened(false);
              onInsert(kind, value);
            }}
          />
        )}
      </Popover.Dropdown>
    </Popover>
  );
}

/** The editor's toolbar (SPEC §2): the tags, undo and redo, and a TXT upload. */
export function EditorToolbar(props: EditorToolbarProps) {
  return (
    <Group gap={6} role="toolbar" aria-label="Editor tools" wrap="wrap">
      {TAG_KINDS.map((kind) => (
        <TagButton
          key={kind}
          kind={kind}
          reason={props.unavailable[kind]}
          effects={props.effects}
          onInsert={props.onInsert}
        />
      ))}
      <Group gap={4} ml="auto" wrap="nowrap">
        <Tooltip label="Undo (Ctrl+Z)" withArrow>
          <ActionIcon
            variant="default"
            size="md"
            className={classes.tool}
            aria-label="Undo"
            disabled={!props.canUndo}
            onClick={props.onUndo}
          >
            <UndoIcon />
          </ActionIcon>
        </Tooltip>
        <Tooltip label="Redo (Ctrl+Shift+Z)" withArrow>
          <ActionIcon
            variant="default"
            size="md"
            className={classes.tool}
            aria-label="Redo"
            disabled={!props.canRedo}
            onClick={props.onRedo}
          >
            <RedoIcon />
          </ActionIcon>
        </Tooltip>
        <FileButton accept="text/plain,.txt" onChange={(file) => file && props.onUpload(file)}>
          {(buttonProps) => (
            <Button {...buttonProps} size="compact-sm" variant="default" className={classes.tool}>
              Upload TXT
            </Button>
          )}
        </FileButton>
      </Group>
    </Group>
  );
}
