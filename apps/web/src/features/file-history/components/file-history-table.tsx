import {
  Alert,
  Anchor,
  Button,
  Group,
  Modal,
  Skeleton,
  Table,
  Text,
  VisuallyHidden,
} from '@mantine/core';
import { MESSAGES } from '@parla/contract';
import { useState } from 'react';
import { Link } from 'react-router';
import { FormAlert } from '../../../components/form-alert';
import { ApiError } from '../../../lib/api-client';
import { useDeleteFile } from '../api/delete-file';
import { useFiles } from '../api/get-files';
import { useMinDelay } from '../hooks/use-min-delay';
import { type FileRow, toFileRow } from '../lib/file-row';

const COLUMNS = ['Size', 'Time', 'Language', 'Voice', 'Save Date'] as const;
const SKELETON_ROWS = 4;

/**
 * SPEC §2 File History: the table of saved files with open (to /convertor?id=…) and delete
 * (after 'Are you sure you want to delete this file?'); skeleton rows until loading has
 * finished and about 1 s has passed.
 */
export function FileHistoryTable() {
  const files = useFiles();
  const delayed = useMinDelay();
  const remove = useDeleteFile();
  const [confirming, setConfirming] = useState<FileRow>();
  const loading = files.isPending || !delayed;

  if (files.isError && !loading) {
    const forbidden = files.error instanceof ApiError && files.error.status === 403;
    return (
      <Alert
        color={forbidden ? 'yellow' : 'red'}
        variant="light"
        role="alert"
        title={files.error.message}
        // Mantine's yellow text is below WCAG AA on its light background: body text instead.
        styles={{ title: { color: 'var(--mantine-color-text)' } }}
      >
        {forbidden && (
          <Anchor component={Link} to="/pricing">
            See the plans
          </Anchor>
        )}
      </Alert>
    );
  }

  const rows = files.data?.map(toFileRow) ?? [];
  return (
    <>
      {remove.isError && <FormAlert kind="failure" title={remove.error.message} />}
      <Table.ScrollContainer minWidth={640}>
        <Table
          striped
          highlightOnHover
          verticalSpacing="sm"
          aria-label="Saved files"
          aria-busy={loading}
        >
          <Table.Thead>
            <Table.Tr>
              {COLUMNS.map((column) => (
                <Table.Th key={column} scope="col">
                  {column}
                </Table.Th>
              ))}
              <Table.Th scope="col">
                <VisuallyHidden>Actions</VisuallyHidden>
              </Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {loading &&
              Array.from({ length: SKELETON_ROWS }, (_, index) => (
                // biome-ignore lint/suspicious/noArrayIndexKey: placeholders have no identity
                <Table.Tr key={index} data-testid="file-skeleton-row">
                  {[...COLUMNS, 'actions'].map((column) => (
                    <Table.Td key={column}>
                      <Skeleton height={16} radius="sm" />
                    </Table.Td>
                  ))}
                </Table.Tr>
              ))}
            {!loading && rows.length === 0 && (
              <Table.Tr>
                <Table.Td colSpan={COLUMNS.length + 1}>
                  <Text c="dimmed" py="md" ta="center">
                    No saved files yet.{' '}
                    <Anchor component={Link} to="/convertor">
                      Convert a text
                    </Anchor>{' '}
                    and press Save to keep it here.
                  </Text>
                </Table.Td>
              </Table.Tr>
            )}
            {!loading &&
              rows.map((row) => (
                <Table.Tr key={row.id}>
                  <Table.Td>{row.size}</Table.Td>
                  <Table.Td>{row.time}</Table.Td>
                  <Table.Td>{row.language}</Table.Td>
                  <Table.Td>{row.voice}</Table.Td>
                  <Table.Td>{row.saveDate}</Table.Td>
                  <Table.Td>
                    <Group gap="xs" justify="flex-end" wrap="nowrap">
                      <Button
                        component={Link}
                        to={`/convertor?id=${encodeURIComponent(row.id)}`}
                        variant="light"
                        size="sm"
                        h={44}
                        aria-label={`Open the file saved ${row.saveDate} (${row.voice})`}
                      >
                        Open
                      </Button>
                      <Button
                        variant="default"
                        size="sm"
                        h={44}
                        onClick={() => setConfirming(row)}
                        aria-label={`Delete the file saved ${row.saveDate} (${row.voice})`}
                      >
                        Delete
                      </Button>
                    </Group>
                  </Table.Td>
                </Table.Tr>
              ))}
          </Table.Tbody>
        </Table>
      </Table.ScrollContainer>

      <Modal
        opened={confirming !== undefined}
        onClose={() => setConfirming(undefined)}
        title="Delete file"
        closeButtonProps={{ 'aria-label': 'Close' }}
        centered
      >
        <Text mb="lg">{MESSAGES.file.deleteConfirm}</Text>
        <Group justify="flex-end">
          <Button variant="default" h={44} onClick={() => setConfirming(undefined)}>
            Cancel
          </Button>
          <Button
            color="red.9"
            h={44}
            loading={remove.isPending}
            onClick={() => {
              if (!confirming) return;
              remove.mutate(confirming.id, { onSettled: () => setConfirming(undefined) });
            }}
          >
            Delete
          </Button>
        </Group>
      </Modal>
    </>
  );
}
