import { Text } from '@mantine/core';
import { MESSAGES } from '@parla/contract';
import { Page } from '../../components/page';
import { FileHistoryTable } from '../../features/file-history/components/file-history-table';

/** SPEC §2 File History (guarded route): its three texts and the table. */
export default function FileHistoryPage() {
  return (
    <Page
      title={MESSAGES.file.historyTitle}
      heading={MESSAGES.file.historyTitle}
      description={MESSAGES.file.historySubtitle}
    >
      <Text mb="lg" fw={600}>
        {MESSAGES.file.retentionNotice}
      </Text>
      <FileHistoryTable />
    </Page>
  );
}
