import { Text } from '@mantine/core';
import { SAVED_FILE_RETENTION_DAYS } from '@parla/contract';
import { Page } from '../../components/page';

export default function FileHistoryPage() {
  return (
    <Page title="File History" heading="File History" description="Here are your saved files!">
      <Text>Your files will be deleted after {SAVED_FILE_RETENTION_DAYS} days!</Text>
    </Page>
  );
}
