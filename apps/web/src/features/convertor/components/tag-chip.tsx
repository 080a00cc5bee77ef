import { Button, Popover, Stack, UnstyledButton } from '@mantine/core';
import type { Node as PmNode } from '@tiptap/pm/model';
import { NodeViewWrapper, type ReactNodeViewProps } from '@tiptap/react';
import { useContext, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { type ChipInfo, describeChip, withValue } from '../lib/ssml-tags';
import { TAG_LABEL_KEYS } from '../lib/tag-labels';
import { ChipContext } from './chip-context';
import classes from './tag-chip.module.css';
import { pairedTag } from './tag-pairs-plugin';
import { TagValueForm } from './tag-value-form';

/**
 * A tag of the document shown inline in the Text tab. An opening tag of the toolbar's kinds
 * shows its value and edits or removes it in a popover; its closing tag is the end mark of the
 * same unit (the text between is tinted by tag-pairs-plugin); other markup shows its source.
 */
export function TagChip({ node, updateAttributes, selected, editor, getPos }: ReactNodeViewProps) {
  const raw = String(node.attrs.raw ?? '');
  const info = describeChip(raw);
  const { effects } = useContext(ChipContext);
  const [opened, setOpened] = useState(false);
  const { t } = useTranslation();
  // A closing tag is named after its opening one (`</prosody>` closes speed, volume or pitch).
  const closedLabel = (
    close: Extract<ChipInfo, { role: 'close' }>,
    doc: PmNode,
    pos: number | undefined,
  ): string => {
    const partner = typeof pos === 'number' ? pairedTag(doc, pos) : undefined;
    const opening =
      partner === undefined ? undefined : describeChip(String(doc.nodeAt(partner)?.attrs.raw));
    const kind = close.kind ?? (opening?.role === 'open' ? opening.kind : null);
    return kind ? t(TAG_LABEL_KEYS[kind]) : close.element;
  };

  if (info.role !== 'open') {
    const closes = info.role === 'close' ? closedLabel(info, editor.state.doc, getPos()) : null;
    return (
      <NodeViewWrapper
        as="span"
        className={classes.chip}
        data-role={info.role}
        data-selected={selected || undefined}
        contentEditable={false}
        title={raw}
        {...(closes !== null && { role: 'img', 'aria-label': t('tags.end', { tag: closes }) })}
      >
        {closes !== null ? '\u27E9' : raw}
      </NodeViewWrapper>
    );
  }
  // The tag and its closing tag go together; the text they wrapped stays.
  const remove = () => {
    const pos = getPos();
    if (typeof pos !== 'number') return;
    const tr = editor.state.tr;
    const partner = pairedTag(editor.state.doc, pos);
    if (partner !== undefined && partner > pos) tr.delete(partner, partner + 1);
    tr.delete(pos, pos + 1);
    if (partner !== undefined && partner < pos) tr.delete(partner, partner + 1);
    setOpened(false);
    editor.view.dispatch(tr);
    editor.commands.focus();
  };
  const label = t(TAG_LABEL_KEYS[info.kind]);
  return (
    <NodeViewWrapper as="span" className={classes.wrapper} contentEditable={false}>
      <Popover
        opened={opened}
        onChange={setOpened}
        trapFocus
        withArrow
        position="bottom"
        shadow="md"
      >
        <Popover.Target>
          <UnstyledButton
            component="span"
            role="button"
            tabIndex={-1}
            className={classes.chip}
            data-role="open"
            data-kind={info.kind}
            data-selected={selected || undefined}
            aria-label={t('tags.edit', { tag: label, value: info.value })}
            title={raw}
            onClick={() => setOpened((o) => !o)}
          >
            {label}: {info.value}
          </UnstyledButton>
        </Popover.Target>
        <Popover.Dropdown aria-label={t('tags.edit', { tag: label, value: info.value })}>
          <Stack gap="xs">
            <TagValueForm
              kind={info.kind}
              initial={info.value}
              effects={effects}
              submitLabel={t('tags.apply')}
              onSubmit={(value) => {
                updateAttributes({ raw: withValue(raw, value) });
                setOpened(false);
              }}
            />
            <Button
              variant="subtle"
              color="red"
              size="xs"
              className={classes.remove}
              onClick={remove}
            >
              {t('tags.remove', { tag: label })}
            </Button>
          </Stack>
        </Popover.Dropdown>
      </Popover>
    </NodeViewWrapper>
  );
}
