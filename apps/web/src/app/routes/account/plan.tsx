import { Skeleton } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { Page } from '../../../components/page';
import { InvoiceList } from '../../../features/plan/components/invoice-list';
import { MyPlan } from '../../../features/plan/components/my-plan';
import { useSession } from '../../../lib/auth';

/** SPEC §2 "My Plan" (guarded route). */
export default function PlanPage() {
  const { t } = useTranslation();
  const session = useSession();
  return (
    <Page title="My Plan" heading="My Plan" description={t('account.planDescription')}>
      {session.status === 'signed-in' ? (
        <>
          <MyPlan profile={session.profile} />
          <InvoiceList />
        </>
      ) : (
        <Skeleton height={260} radius="md" />
      )}
    </Page>
  );
}
