import { Alert, Anchor, Stack, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { Page } from '../../components/page';
import { JobList } from '../../features/documents/components/job-list';
import { NewJob } from '../../features/documents/components/new-job';
import { useRouteLanguage } from '../../hooks/use-route-language';
import { useSession } from '../../lib/auth';

/** Documents (issue 19, guarded route): a document becomes an audiobook in the background. */
export default function DocumentsPage() {
  const { to } = useRouteLanguage();
  const { t } = useTranslation();
  const session = useSession();
  const free = session.profile?.plan.type === 'FREE' && session.profile.user.role !== 'ADMIN';
  return (
    <Page
      title={t('documents.title')}
      heading={t('documents.title')}
      description={t('documents.description')}
    >
      <Stack gap="xl">
        <Stack gap="sm">
          <Title order={2} size="h3">
            {t('documents.new')}
          </Title>
          {free ? (
            <Alert variant="light" color="blue">
              {t('documents.paidOnly')}{' '}
              <Anchor component={Link} to={to('/pricing')}>
                {t('documents.seePlans')}
              </Anchor>
            </Alert>
          ) : (
            <NewJob />
          )}
        </Stack>
        <Stack gap="sm">
          <Title order={2} size="h3">
            {t('documents.yours')}
          </Title>
          <JobList />
        </Stack>
      </Stack>
    </Page>
  );
}
