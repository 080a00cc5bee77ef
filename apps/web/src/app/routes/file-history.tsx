import { Text } from '@mantine/core';
import { MESSAGES } from '@parla/contract';
import { English } from '../../components/ltr';
import { Page } from '../../components/page';
import { FileHistoryTable } from '../../features/file-history/components/file-history-table';

/** SPEC §2 File History (guarded route): its three texts and the table. */
export default function FileHistoryPage() {
  return (
    <Page
      title={MESSAGES.file.historyTitle}
      heading={<English>{MESSAGES.file.historyTitle}</English>}
      description={MESSAGES.file.historySubtitle}
      lead={<English>{MESSAGES.file.historySubtitle}</English>}
    >
      <Text mb="lg" fw={600}>
        <English>{MESSAGES.file.retentionNotice}</English>
      </Text>
      <FileHistoryTable />
    </Page>
  );
}
