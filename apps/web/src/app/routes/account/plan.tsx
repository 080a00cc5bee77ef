import { Skeleton } from '@mantine/core';
import { Page } from '../../../components/page';
import { MyPlan } from '../../../features/plan/components/my-plan';
import { useSession } from '../../../lib/auth';

/** SPEC §2 "My Plan" (guarded route). */
export default function PlanPage() {
  const session = useSession();
  return (
    <Page
      title="My Plan"
      heading="My Plan"
      description="Your current plan, the characters you have used and what remains."
    >
      {session.status === 'signed-in' ? (
        <MyPlan profile={session.profile} />
      ) : (
        <Skeleton height={260} radius="md" />
      )}
    </Page>
  );
}
